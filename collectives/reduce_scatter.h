/* Reduce-scatter: member i gets, in dest, the reduction over all members
 * of block i (count elements) of their source (n * count elements).
 *
 * Everyone meets once its source is ready, each member reduces its block
 * by reading every peer's copy, then they meet again, so nobody changes a
 * source that is still being read.  Remotely read: source.  dest is only
 * written locally.
 *
 * At any scope: the one-shot pull (reduce_oneshot.h) on block me of the
 * source.  shoal_coll_reduce_scatter: on the signal channels, one thread,
 * for teams with members behind the network. */
#ifndef SHOAL_COLL_REDUCE_SCATTER_H
#define SHOAL_COLL_REDUCE_SCATTER_H

#include "reduce_oneshot.h"

SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_reduce_scatter_scope(const shoal_scope *s, shoal_team *t, const SHOAL_REDUCER *r, char **ps,
                                         void *dest, const void *src, size_t n, const char *call)
{
  shoal_reduce_pull_scope(s, t, r, ps, dest, src, (size_t)t->my_pe * n * shoal_reducer_size(r), n, call);
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
