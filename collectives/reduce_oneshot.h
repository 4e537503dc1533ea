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
 *  - staged, the same through my scratch, chunk by chunk, for a source
 *    outside the symmetric heap or in place (peers read my scratch; dest
 *    is written only locally).
 * The element combine is the reducer's (reduce_combine.h): typed vectors
 * on a GPU, type-erased on the CPU.
 *
 * shoal_coll_reduce_oneshot: the same algorithm on the signal channels,
 * one thread, for teams with members behind the network (reads through
 * gets); in place through scratch. */
#ifndef SHOAL_COLL_REDUCE_ONESHOT_H
#define SHOAL_COLL_REDUCE_ONESHOT_H

#include "reduce_combine.h"

/* Elements of a staged chunk: my half of the team's scratch. */
SHOAL_FN size_t shoal_reduce_staged_elems(const shoal_team *t, size_t es) { return shoal_coll_scratch_size(t) / es; }

/* dest[0, n) = the reduction over every member of its n elements at byte
 * offset off of src.  staged: src goes through my scratch, a chunk of
 * shoal_reduce_staged_elems (> 0: the selection checks) at a time; lane b
 * stages the share it then reduces, and lane b of every member reads only
 * what lane b staged.  A lane's share is cut from the same basis in every
 * chunk (the whole vector when it fits one chunk, else a full chunk), so
 * it keeps its room of scratch from chunk to chunk: where the lanes do
 * not meet locally (an _on_stream kernel), lane b meeting lane b of the
 * peers is enough before it stages again.  Staging reads src, which other
 * threads (at grid scope: other blocks) wrote before the call, so the
 * scope meets locally first.  ps: the lane's peer table
 * (SHOAL_SCOPE_MAX_PEERS).  One call site of the combine for both forms
 * (one inlined copy on a GPU). */
SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_reduce_pull_scope(const shoal_scope *s, shoal_team *t, const SHOAL_REDUCER *r, char **ps,
                                      void *dest, const void *src, size_t off, size_t n, bool staged,
                                      const char *call)
{
  size_t es = shoal_reducer_size(r), per = staged ? shoal_reduce_staged_elems(t, es) : n, i = 0;
  size_t basis = n <= per ? n : per, lo, hi;
  shoal_reduce_share(basis, es, s->lane, s->nlanes, &lo, &hi);
  do {
    size_t c = n - i < per ? n - i : per;
    /* my share of this chunk: empty (clo = chi = c, maybe inside a
     * vector) where the chunk ends before it begins -- the last chunk,
     * shorter than the basis; the reducer then touches nothing */
    size_t clo = lo < c ? lo : c, chi = hi < c ? hi : c;
    const void *from = src;
    size_t at = off + i * es;
    if (staged) {
      if (i == 0 && s->local) shoal_scope_sync_local(s, t, call);   /* src as the whole scope wrote it */
      else shoal_scope_sync_lane(s);
      shoal_scope_copy(s, t->scratch + clo * es, (const char *)src + at + clo * es, (chi - clo) * es);
      from = t->scratch;
      at = 0;
    }
    shoal_reduce_peers(s, t, ps, from, at, call);
    if (staged) shoal_scope_meet(s, t, call);   /* the local meeting came before staging */
    else shoal_scope_enter(s, t, call);
    shoal_reducer_range(s, r, (char *)dest + i * es, (const char *const *)ps, t->size, clo, chi);
    shoal_scope_leave_read(s, t, call);   /* dest is written only locally */
    i += c;
  } while (i < n);
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
