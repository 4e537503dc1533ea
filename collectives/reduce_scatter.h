/* Reduce-scatter: member i gets, in dest, the reduction over all members
 * of block i (count elements) of their source (n * count elements).
 *
 * Everyone signals that its source is ready, each member reduces its block
 * by reading every peer's copy, then signals that it is done reading, so
 * nobody changes a source that is still being read.  Remotely read: source.
 * dest is only written locally. */
#ifndef SHOAL_COLL_REDUCE_SCATTER_H
#define SHOAL_COLL_REDUCE_SCATTER_H

#include "reduce_op.h"

SHOAL_FN void shoal_coll_reduce_scatter(shoal_team *t, int type, int op, void *dest, const void *src,
                                        size_t count)
{
  size_t es = shoal_reduce_size(type);
  shoal_coll_all(t);   /* sources ready */
  shoal_reduce_block(t, type, op, dest, src, (size_t)t->my_pe * count * es, count);
  shoal_coll_all(t);   /* done reading */
}

#endif
