/* Reduce-scatter: member i gets, in dest, the reduction over all members
 * of block i (count elements) of their source (n * count elements).
 *
 * Everyone meets once its source is ready, each member reduces its block
 * by reading every peer's copy, then they meet again, so nobody changes a
 * source that is still being read.  Remotely read: source.  dest is only
 * written locally.
 *
 * At any scope: the one-shot pull (reduce_oneshot.h) at byte offset
 * shoal_reduce_scatter_off of the source (block me).  A GPU block or grid
 * takes LL for small blocks instead (ll.h: shoal_ll_reduce_scatter, the
 * same order of combination, so the same bits; reduce_select.h).  shoal_coll_reduce_scatter: on the signal channels, one thread,
 * for teams with members behind the network. */
#ifndef SHOAL_COLL_REDUCE_SCATTER_H
#define SHOAL_COLL_REDUCE_SCATTER_H

#include "reduce_oneshot.h"

/* Where member me's block starts in every member's source: the pull's
 * offset (shoal_reduce_run_scope, reduce_select.h). */
SHOAL_FN size_t shoal_reduce_scatter_off(const shoal_team *t, size_t n, size_t es)
{
  return (size_t)t->my_pe * n * es;
}

SHOAL_FN void shoal_coll_reduce_scatter(shoal_team *t, int type, int op, void *dest, const void *src,
                                        size_t count)
{
  size_t es = shoal_reduce_size(type);
  shoal_coll_all(t);   /* sources ready */
  shoal_reduce_block(t, type, op, dest, src, (size_t)t->my_pe * count * es, count);
  shoal_coll_all(t);   /* done reading */
}

#endif
