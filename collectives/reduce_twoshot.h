/* Two-shot all-reduce: reduce-scatter, then all-gather.
 *
 * Member j reduces block j (reading it from every peer's source) and
 * stores the result into block j of every member's dest, in the staggered
 * order (me + i) % n.  Only j reads or writes block j of anyone's buffers,
 * and each element is read everywhere before it is written, so this works
 * in place.  Two meetings: sources ready and dests free, and all blocks
 * landed (which also means nobody reads my source any more).
 * Remotely read: source.  Remotely written: dest.
 *
 * shoal_reduce_twoshot_scope: at any scope (collectives/scope.h), members
 * all reachable by load/store.  The vector is cut into n x nlanes shares;
 * lane b of member j owns share (j, b) and stores each reduced piece (a
 * GPU thread's vectors, a CPU cache-sized piece) to every member.
 * shoal_coll_reduce_twoshot: on the signal channels, one thread, for teams
 * with members behind the network (reduce into my dest, then put it). */
#ifndef SHOAL_COLL_REDUCE_TWOSHOT_H
#define SHOAL_COLL_REDUCE_TWOSHOT_H

#include "reduce_scatter.h"

/* ps, pd: the lane's peer tables of src and dest (SHOAL_SCOPE_MAX_PEERS). */
SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_reduce_twoshot_scope(const shoal_scope *s, shoal_team *t, const SHOAL_REDUCER *r, char **ps,
                                         char **pd, void *dest, const void *src, size_t n, const char *call)
{
  int np = t->size, me = t->my_pe;
  size_t lo, hi;
  shoal_reduce_peers(s, t, ps, src, 0, call);
  shoal_reduce_peers(s, t, pd, dest, 0, call);
  shoal_scope_enter(s, t, call);
  shoal_reduce_share(n, shoal_reducer_size(r), (size_t)me * s->nlanes + s->lane, (size_t)np * s->nlanes, &lo,
                     &hi);
  shoal_reducer_range_all(s, r, pd, me, (const char *const *)ps, np, lo, hi);
  shoal_scope_leave(s, t, call);
}

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
