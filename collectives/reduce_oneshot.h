/* One-shot all-reduce: every member reads every peer's source and reduces
 * all of it, in team order, so every PE computes the same bits.
 * barrier - compute - barrier (Iris #531): sources are ready before anyone
 * reads, and nobody returns (and may change its source) while others
 * still read it.  Remotely read: source.  Best for small messages.
 *
 * At any scope (collectives/scope.h; the CPU at one lane, a GPU block, a
 * GPU grid, k CPU threads in tests/coll/test_lanes), for teams whose
 * members are all reachable by load/store:
 *  - shoal_reduce_pull_scope: lane b reduces its share of the elements
 *    from every member's mapping (hoisted into ps), between two meetings
 *    of lane b with the peers.  Not in place.  Reduce-scatter is the same
 *    algorithm on block me of the source (reduce_scatter.h).
 *  - shoal_reduce_staged_scope: the same through my scratch, chunk by
 *    chunk, for a source outside the symmetric heap or in place (peers
 *    read my scratch; dest is written only locally).
 * The element combine is the reducer's (reduce_combine.h): typed vectors
 * on a GPU, type-erased on the CPU.
 *
 * shoal_coll_reduce_oneshot: the same algorithm on the signal channels,
 * one thread, for teams with members behind the network (reads through
 * gets); in place through scratch. */
#ifndef SHOAL_COLL_REDUCE_ONESHOT_H
#define SHOAL_COLL_REDUCE_ONESHOT_H

#include "reduce_combine.h"

/* dest[0, n) = the reduction over every member of its n elements at
 * byte offset off of src.  ps: the lane's peer table (SHOAL_SCOPE_MAX_PEERS). */
SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_reduce_pull_scope(const shoal_scope *s, shoal_team *t, const SHOAL_REDUCER *r, char **ps,
                                      void *dest, const void *src, size_t off, size_t n, const char *call)
{
  size_t lo, hi;
  char *out = (char *)dest;
  shoal_reduce_peers(s, t, ps, src, off, call);
  shoal_scope_enter(s, t, call);
  shoal_reduce_share(n, shoal_reducer_size(r), s->lane, s->nlanes, &lo, &hi);
  shoal_reducer_range(s, r, &out, 1, 0, (const char *const *)ps, t->size, lo, hi);
  shoal_scope_leave(s, t, call);
}

/* Elements of a staged chunk: my half of the team's scratch. */
SHOAL_FN size_t shoal_reduce_staged_elems(const shoal_team *t, size_t es) { return shoal_coll_scratch_size(t) / es; }

/* The pull through my scratch (> 0 elements of it: the selection checks).
 * Lane b stages the share of each chunk it then reduces, so on a grid
 * whose lanes do not meet locally lane b still reads only what lane b of
 * every member has staged. */
SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_reduce_staged_scope(const shoal_scope *s, shoal_team *t, const SHOAL_REDUCER *r, char **ps,
                                        void *dest, const void *src, size_t n, const char *call)
{
  size_t es = shoal_reducer_size(r), per = shoal_reduce_staged_elems(t, es);
  for (size_t i = 0; i < n; i += per) {
    size_t c = n - i < per ? n - i : per, lo, hi;
    shoal_reduce_share(c, es, s->lane, s->nlanes, &lo, &hi);
    shoal_scope_copy(s, t->scratch + lo * es, (const char *)src + (i + lo) * es, (hi - lo) * es);
    shoal_reduce_pull_scope(s, t, r, ps, (char *)dest + i * es, t->scratch, 0, c, call);
  }
}

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
