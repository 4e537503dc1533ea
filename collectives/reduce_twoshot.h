/* Two-shot all-reduce: reduce-scatter, then all-gather.
 *
 * Member j reduces block j (reading it from every peer's source) into its
 * own dest, then pushes the result into block j of every peer's dest, in
 * the staggered order (me + i) % n.  Only j reads or writes block j of
 * anyone's buffers, and it reads all of them before writing any, so this
 * works in place.  Two synchronizations: sources ready, and all blocks
 * landed (which also means nobody reads my source any more).
 * Remotely read: source.  Remotely written: dest. */
#ifndef SHOAL_COLL_REDUCE_TWOSHOT_H
#define SHOAL_COLL_REDUCE_TWOSHOT_H

#include "reduce_scatter.h"

SHOAL_FN void shoal_coll_reduce_twoshot(shoal_team *t, int type, int op, void *dest, const void *src,
                                        size_t count)
{
  int n = t->size, me = t->my_pe;
  size_t es = shoal_reduce_size(type);
  size_t blk = (count + (size_t)n - 1) / (size_t)n;
  size_t lo = (size_t)me * blk < count ? (size_t)me * blk : count;
  size_t hi = lo + blk < count ? lo + blk : count;
  char *mine = (char *)dest + lo * es;
  shoal_coll_all(t);   /* sources ready, dests free */
  shoal_reduce_block(t, type, op, mine, src, lo * es, hi - lo);
  for (int i = 1; i < n && hi > lo; i++)
    shoal_dev_putmem(SHOAL_DEV_CTX, mine, mine, (hi - lo) * es,
                     shoal_team_world_pe(t, (me + i) % n));
  shoal_coll_all(t);   /* every block landed everywhere */
}

#endif
