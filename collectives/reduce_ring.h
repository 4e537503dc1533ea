/* Ring all-reduce: chunked reduce-scatter then all-gather around the ring
 * me -> me + 1, one notify/wait per round (Ascend #975).  Two forms of the
 * same schedule:
 *
 * shoal_reduce_ring_scope: at any scope (collectives/scope.h: the CPU at
 * one lane, a GPU block, a GPU grid, k CPU threads in tests/coll/
 * test_lanes), members all reachable by load/store.  Lane b owns share b
 * of each of the n chunks and talks only to lane b of its neighbours:
 *  - reduce-scatter, rounds r = 0 .. n - 2: lane b adds its source's
 *    share of chunk (me - r) to the partial its left neighbour sent
 *    (round 0: none) and stores the sum straight into its right
 *    neighbour's memory, then adds 1 to the right neighbour's ring counter
 *    (teams/team.h, SHOAL_GRID_RING0 + b) and waits for its own;
 *  - then chunk me + 1 is complete: source + the last partial, into my
 *    dest;
 *  - all-gather, rounds r = 0 .. n - 2: lane b copies its share of chunk
 *    (me + 1 - r) of my dest into my right neighbour's dest, notify, wait.
 * Every load is local; the only remote accesses are stores and one atomic
 * per round.  Each chunk is reduced once along the ring and then copied,
 * so every member gets the same bits.  Partials go into the right
 * neighbour's dest (out of place: one segment, no scratch), or in place
 * into its scratch, slot r in round r, in segments of n chunks of at most
 * a slot each (shoal_ring_chunk_elems).
 * Why this is safe without more meetings: a member enters only after
 * everyone has arrived (one meeting at entry: sources ready, dests and
 * scratch free); whatever I write into my right neighbour's chunk c
 * (a partial, then the result) it has read before: its result of chunk c
 * reaches me only after its own round that read it, and my all-gather
 * round r comes after the right neighbour's reduce-scatter round r (the
 * chain of results runs through it).  So in place, its source is read
 * before I overwrite it, and a scratch slot is consumed before the next
 * segment refills it.  Nobody reads my memory, and all of my
 * neighbour's writes into mine were waited for: no meeting at exit (only
 * the lanes of this PE meet, if they meet at all).
 * Counters only grow: the base is read before my arrival at the entry
 * meeting, when no signal of this call can have come yet and every
 * signal of the previous ones has been waited for.
 *
 * shoal_coll_reduce_ring: the same schedule on the signal channels, one
 * thread, for teams with members behind the network.  The vector is cut
 * into segments of n chunks, a chunk being at most one scratch slot.  In
 * reduce-scatter round s, I put my partial of chunk (me - s) into slot s
 * of my right neighbour's scratch and signal it; I wait for my left
 * neighbour's partial of chunk (me - 1 - s) and fold it into my dest.
 * After n - 1 rounds I hold chunk me + 1 complete; the all-gather rounds
 * pass completed chunks to the right, straight into the neighbour's dest.
 * Slots are never reset.  At the start I tell my left neighbour my scratch
 * and dest are free, and wait for the same from my right.  A slot is reused
 * one segment later, and by then the neighbour has consumed it: I cannot
 * finish a segment's all-gather before my right neighbour has finished its
 * reduce-scatter (its completed chunk is the last one to reach me).
 * Remotely written: dest and scratch.  Nothing is remotely read. */
#ifndef SHOAL_COLL_REDUCE_RING_H
#define SHOAL_COLL_REDUCE_RING_H

#include "reduce_combine.h"

/* Elements a ring slot holds for this team and type (0: not enough scratch). */
SHOAL_FN size_t shoal_ring_slot_elems(const shoal_team *t, size_t es)
{
  if (t->size < 2) return 0;
  size_t slot = (shoal_coll_scratch_size(t) / (size_t)(t->size - 1)) & ~(size_t)15;
  return slot / es;
}

/* The scope ring in place: a slot of the team's scratch per round (n - 1),
 * each cut into a room per lane (lane b's partials always land in room b,
 * whatever the segment: another lane of the receiver may lag a segment
 * behind).  Elements of a share that fit a room of `room` bytes: a
 * multiple of the 16-byte unit of shoal_reduce_share, one unit short of
 * the room (the last segment's last share may take up to a unit more).
 * 0: too small.  Out of place the ring needs no scratch. */
SHOAL_SELECT_FN size_t shoal_ring_slot_bytes(size_t scratch, int n)
{
  return n < 2 ? 0 : (scratch / (size_t)(n - 1)) & ~(size_t)15;
}
SHOAL_SELECT_FN size_t shoal_ring_share_elems(size_t room, size_t es)
{
  size_t unit = es < 16 && 16 % es == 0 ? 16 / es : 1, cap = es ? room / es : 0;
  return cap < unit ? 0 : (cap - unit + 1) / unit * unit;
}

SHOAL_FN void shoal_coll_reduce_ring(shoal_team *t, int type, int op, void *dest, const void *src,
                                     size_t count)
{
  int n = t->size, me = t->my_pe;
  size_t es = shoal_reduce_size(type);
  if (n == 1) {
    shoal_copy(dest, src, count * es);
    return;
  }
  int right = (me + 1) % n, left = (me + n - 1) % n;
  int wright = shoal_team_world_pe(t, right);
  size_t slot_elems = shoal_ring_slot_elems(t, es);
  size_t slot_bytes = slot_elems * es;
  size_t ce = (count + (size_t)n - 1) / (size_t)n;
  if (ce > slot_elems) ce = slot_elems;
  char *d = (char *)dest;
  const char *s = (const char *)src;

  shoal_coll_signal(t, left);   /* my scratch and dest are free */
  shoal_coll_wait(t, right);
  for (size_t base = 0; base < count; base += (size_t)n * ce) {
    /* chunk c of this segment: elements [base + c * ce, ...) clipped to count */
#define SHOAL_RING_LO(c) (base + (size_t)(c) * ce < count ? base + (size_t)(c) * ce : count)
#define SHOAL_RING_LEN(c) \
  ((SHOAL_RING_LO(c) + ce < count ? SHOAL_RING_LO(c) + ce : count) - SHOAL_RING_LO(c))
    for (int r = 0; r < n - 1; r++) {
      int cs = (me - r + n) % n, cr = (me - 1 - r + 2 * n) % n;
      const char *from = (r == 0 ? s : d) + SHOAL_RING_LO(cs) * es;
      char *slot = t->scratch + (size_t)r * slot_bytes;
      shoal_dev_putmem(SHOAL_DEV_CTX, slot, from, SHOAL_RING_LEN(cs) * es, wright);
      shoal_coll_signal(t, right);
      shoal_coll_wait(t, left);
      char *acc = d + SHOAL_RING_LO(cr) * es;
      shoal_copy(acc, s + SHOAL_RING_LO(cr) * es, SHOAL_RING_LEN(cr) * es);
      shoal_reduce_combine(type, op, acc, slot, SHOAL_RING_LEN(cr));
    }
    for (int r = 0; r < n - 1; r++) {
      int cs = (me + 1 - r + n) % n;
      char *chunk = d + SHOAL_RING_LO(cs) * es;
      shoal_dev_putmem(SHOAL_DEV_CTX, chunk, chunk, SHOAL_RING_LEN(cs) * es, wright);
      shoal_coll_signal(t, right);
      shoal_coll_wait(t, left);
    }
#undef SHOAL_RING_LO
#undef SHOAL_RING_LEN
  }
}

/* ---- at a scope ------------------------------------------------------------ */

/* dest = the reduction of every member's src (n elements), in place too.
 * ps, pd: the lane's peer tables (SHOAL_SCOPE_MAX_PEERS): every member's
 * scratch and dest (only the right neighbour's are used).  One call site
 * of the combine (one inlined copy on a GPU): every step is "out = the
 * reduction of in[0 .. nin)", nin 1 (a copy) or 2. */
SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_reduce_ring_scope(const shoal_scope *s, shoal_team *t, const SHOAL_REDUCER *r, char **ps,
                                      char **pd, void *dest, const void *src, size_t n, const char *call)
{
  int np = t->size, me = t->my_pe, right = (me + 1) % np;
  size_t es = shoal_reducer_size(r);
  char *d = (char *)dest;
  const char *sr = (const char *)src;
  bool in_place = d == sr;
  if (np == 1) {   /* a copy; the lane meets before (the source is whole) and after (the result is) */
    size_t lo, hi;
    shoal_scope_sync(s, t, call);
    shoal_reduce_share(n, es, s->lane, s->nlanes, &lo, &hi);
    if (!in_place) shoal_reducer_range(s, r, d, (const char *const *)&sr, 1, lo, hi);
    shoal_scope_sync(s, t, call);
    return;
  }
  /* in place: nl lanes that get a room holding a share in each slot (the
   * others only meet); segments of np x nl shares of a room each */
  size_t slot = shoal_ring_slot_bytes(shoal_coll_scratch_size(t), np), nl = s->nlanes, room = 0, seg = n;
  if (in_place) {
    size_t least = es < 16 && 16 % es == 0 ? 32 : (es + 15) & ~(size_t)15;   /* shoal_ring_share_elems > 0 */
    if (nl > slot / least) nl = slot / least;   /* >= 1: shoal_reduce_ring_fits */
    room = (slot / nl) & ~(size_t)15;
    seg = shoal_ring_share_elems(room, es) * (size_t)np * nl;
  }
  bool idle = s->lane >= nl;
  uint64_t *ring = &shoal_scope_words(t)[SHOAL_GRID_RING0 + (size_t)s->lane], *rring = NULL, seen = 0;
  shoal_push_peers(s, t, pd, dest, 0, call);
  if (in_place) shoal_push_peers(s, t, ps, t->scratch, 0, call);
  char *rdest = pd[right], *rscratch = in_place ? ps[right] : NULL;
  if (s->local) shoal_scope_sync_local(s, t, call);
  if (s->tid == 0) {
    int wright = shoal_team_world_pe(t, right);
    rring = (uint64_t *)shoal_dev_ptr(ring, wright);
    if (SHOAL_UNLIKELY(!rring)) shoal_scope_unmapped(call, ring, wright);
    seen = shoal_load_acquire(ring);   /* before I arrive: no signal of this call yet */
    shoal_scope_meet_peers(s, t, call);
  }
  shoal_scope_sync_lane(s);
  for (size_t base = 0; !idle && base < n; base += seg) {
    size_t segn = n - base < seg ? n - base : seg, waited = 0;
    /* steps 0 .. np - 2: reduce-scatter rounds; np - 1: chunk me + 1
     * complete; np .. 2 np - 2: all-gather rounds */
    for (int k = 0; k < 2 * np - 1; k++) {
      bool rs = k < np - 1, fin = k == np - 1;
      int c = rs ? (me - k + np) % np : fin ? right : (me + 1 - (k - np) + np) % np;
      size_t lo, hi;
      shoal_reduce_share(segn, es, (size_t)c * nl + s->lane, (size_t)np * nl, &lo, &hi);
      lo += base;
      hi += base;
      /* sums: my source + the partial my left neighbour sent in the round
       * before (none in round 0); all-gather: a copy of my dest */
      int nin = (rs && k > 0) || fin ? 2 : 1;
      const char *in[2] = {rs || fin ? sr + lo * es : d + lo * es, NULL};
      if (nin == 2) in[1] = in_place ? t->scratch + (size_t)(k - 1) * slot + s->lane * room : d + lo * es;
      char *out = fin ? d + lo * es
                  : rs && in_place ? rscratch + (size_t)k * slot + s->lane * room : rdest + lo * es;
      shoal_reducer_range(s, r, out, (const char *const *)in, nin, 0, hi - lo);
      /* notify the right neighbour (not after the local step), wait for
       * what the next step reads: signal k + 1 of the left neighbour's in
       * the reduce-scatter, k after (the complete chunk is mine) */
      size_t want = k + 1 < np ? (size_t)k + 1 : (size_t)k;
      shoal_scope_sync_lane(s);
      if (s->tid == 0) {
        if (!fin) {
          shoal_scope_publish(t);
          (void)shoal_fetch_add(rring, 1);
        }
        if (want > waited) {
          seen += want - waited;
          /* an acquire at system scope: no fence after it (scope.h) */
          shoal_scope_wait(ring, seen, true, call, "the same block of the left neighbour PE");
        }
      }
      waited = want;
      shoal_scope_sync_lane(s);
    }
  }
  if (s->local) shoal_scope_sync_local(s, t, call);
}

#endif
