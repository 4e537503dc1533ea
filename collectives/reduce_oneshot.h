/* One-shot all-reduce: every member reads every peer's source and reduces
 * all of it, in team order, so every PE computes the same bits.
 *
 * barrier - compute - barrier on the signal channels (Iris #531): sources
 * are ready before anyone reads, and nobody returns (and may change its
 * source) while others still read it.  In place, results go through my
 * scratch chunk by chunk and land in dest only after everyone has read that
 * chunk.  Remotely read: source.  Best for small messages. */
#ifndef SHOAL_COLL_REDUCE_ONESHOT_H
#define SHOAL_COLL_REDUCE_ONESHOT_H

#include "reduce_op.h"

SHOAL_FN void shoal_coll_reduce_oneshot(shoal_team *t, int type, int op, void *dest, const void *src,
                                        size_t count)
{
  size_t es = shoal_reduce_size(type);
  if (dest != src) {
    shoal_coll_all(t);
    shoal_reduce_block(t, type, op, dest, src, 0, count);
    shoal_coll_all(t);
    return;
  }
  size_t per = shoal_coll_scratch_size(t) / es;   /* > 0: reduce_select checks */
  for (size_t i = 0; i < count; i += per) {
    size_t c = count - i < per ? count - i : per;
    shoal_coll_all(t);
    shoal_reduce_block(t, type, op, t->scratch, src, i * es, c);
    shoal_coll_all(t);
    shoal_copy((char *)dest + i * es, t->scratch, c * es);
  }
}

#endif
