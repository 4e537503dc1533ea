/* LL (low latency, NCCL's name): small collectives whose data carries its
 * own flags, one algorithm at any scope (collectives/scope.h).
 *
 * The pushes of reduce_push.h without their signals: every 8-byte store
 * carries a 4-byte word of data and a 4-byte flag, written straight into
 * the receiver's pushbox ring for the sender, so the receiver polls the
 * data itself: no fence, no separate signal, no meeting -- one one-way
 * latency.
 *
 * The protocol: a team's LL calls are numbered e = 1, 2, ... (the same on
 * every member: each picks LL from the sizes alone; SHOAL_SYNC_LL_EPOCH
 * counts them); call e writes half e mod 2 of each sender's ring, every
 * word flagged e, so a stale word carries e - 2 (or 0: the box is cleared
 * where the team is made).  Nothing is claimed and no credits go back:
 * every call is an exchange of every member with every other (the
 * broadcast's members each push one word more, shoal_ll_broadcast), so
 * when S writes into R's half for call e, S has finished call e - 1 and
 * has every word R pushed in it, which R pushed only once it had finished
 * call e - 2, the last reader of that half.  (Finished: every lane --
 * the lanes of an _on_stream kernel all end before the next kernel
 * starts; lanes that meet locally meet at entry and exit.)  A call takes
 * up to half the ring (m <= depth / 2 slots, shoal_ll_span_max); one
 * slot is the small calls' case.  It replaced pair counts and credits:
 * each call claimed its slots from three counters a pair and handed them
 * back in batches behind a fence, 2.1-2.9 us of a 4.6-5.4 us one-block
 * call at 4 PEs on one H100 under MPS against a bare kernel of this
 * protocol (bench/gpu/bench_ll_parts, bench/RESULTS.md session 51).
 * Where LL runs, and up to what size, is reduce_select.h's choice (a
 * block: one slot; a grid whose blocks meet: the span).
 *
 *  - shoal_ll_reduce: all-reduce of 4- and 8-byte types; element i is sent
 *    and then written by the same thread, so dest may be src.
 *  - shoal_ll_reduce_scatter: reduce-scatter of the same types: block q of
 *    my source (count elements) goes to member q, which reduces its block
 *    in team order (the bits of reduce_scatter.h's pull) straight into
 *    dest; count x size bytes per pair.  The source is only read locally,
 *    so it need not be symmetric; dest must not overlap it.  The GPU's
 *    block and grid reduce-scatter take it where it fits (reduce_select.h).
 *  - shoal_ll_exchange: fcollect (src to every member) and alltoall (src
 *    block q to member q), in whole 4-byte words; dest must not overlap src.
 *  - shoal_ll_broadcast: the root pushes to every other member; dest may be
 *    src on the root.
 * Peers in the staggered order me + 1, me + 2, ..., so they are not all
 * written at once.  Buffers need not be 4-byte aligned (where one is not,
 * the call reads and writes a byte at a time); the choice of LL rests on
 * sizes only, the same on every member.
 *
 * Scope: the lane's threads find the call's halves, a pair each, into the
 * lane's shoal_ll (GPU: __shared__), the lane meets once, every thread
 * moves its words, the lane meets once more and one thread counts the
 * call.  A GPU block is one lane (gpu_block.h).  k lanes split the words:
 * a user's grid (gpu_grid.h) and tests/coll/test_lanes (k CPU threads)
 * meet locally at entry and exit, and lane 0 counts; the lanes of an
 * _on_stream kernel (gpu_stream.h) do not meet -- the kernel starts after
 * the previous call's, and its last lane to open counts (at its close).
 * Words go by index, whoever sends them, so the members need not run the
 * same number of lanes.
 *
 * A slot must only ever be written by LL pushes: stale data of another
 * push could carry the expected flag.  A GPU's teams have their own
 * pushbox, cleared at creation (gpu/gpu_runtime.c), that only LL uses for
 * teams mapped into the GPU; on the CPU, where reduce_push.h and
 * broadcast_push.h share the team's pushbox, auto never picks LL (it does
 * not beat the CPU's pushbox pushes: one signal per push is cheap there),
 * and the test runs it on teams nothing else pushes on. */
#ifndef SHOAL_COLL_LL_H
#define SHOAL_COLL_LL_H

#include "reduce_combine.h"

/* A lane's view of this call's slots, by team PE: the start of my ring on
 * that peer as mapped here and of its ring on me (the call's half is
 * `half` words further), and the call's number, every word's flag. */
typedef struct shoal_ll {
  uint64_t *out[SHOAL_SCOPE_MAX_PEERS];
  const uint64_t *in[SHOAL_SCOPE_MAX_PEERS];
  uint32_t flag;
  uint32_t half;   /* words from a ring's start to this call's half */
  uint64_t arrived;   /* SHOAL_LL_EARLY_ARRIVE 0: the grid word before this lane's add */
} shoal_ll;

/* LL can carry bytes_per_pair in one slot on a team of team_size whose
 * pushbox slots hold slot bytes (0: no pushbox): a word takes 8 bytes. */
SHOAL_SELECT_FN bool shoal_ll_fits_slot(size_t slot, int team_size, size_t bytes_per_pair)
{
  return slot && 2 * bytes_per_pair <= slot && team_size <= SHOAL_SCOPE_MAX_PEERS;
}
/* Slots a call of bytes_per_pair takes (at least one; a call of one slot,
 * the small calls' case, without a division). */
SHOAL_SELECT_FN size_t shoal_ll_call_slots(size_t slot, size_t bytes_per_pair)
{
  size_t w = 2 * bytes_per_pair;
  return w <= slot ? 1 : (w + slot - 1) / slot;
}
/* The most slots one call may take on rings of depth slots: half the ring
 * (a call writes one half; the header says why). */
SHOAL_SELECT_FN size_t shoal_ll_span_max(int depth) { return depth >= 2 ? (size_t)depth / 2 : 1; }
/* LL can carry bytes_per_pair in at most `span` slots of the ring. */
SHOAL_SELECT_FN bool shoal_ll_fits_span(size_t slot, size_t span, int team_size, size_t bytes_per_pair)
{
  return slot && team_size <= SHOAL_SCOPE_MAX_PEERS && 2 * bytes_per_pair <= span * slot;
}
/* The slot LL's pushes land in on team t (0: no pushbox). */
SHOAL_FN size_t shoal_ll_slot(const shoal_team *t) { return t->pushbox ? t->pushbox_slot : 0; }
/* What the protocol carries on team t (any scope: the selection narrows it). */
SHOAL_FN bool shoal_ll_fits(const shoal_team *t, size_t bytes_per_pair)
{
  /* two halves of a ring; the call count lives in the team's own sync words */
  return t->pushbox_depth >= 2 && t->slot >= 0 &&
         shoal_ll_fits_span(shoal_ll_slot(t), shoal_ll_span_max(t->pushbox_depth), t->size, bytes_per_pair);
}
/* Byte collectives go LL in whole 4-byte words. */
SHOAL_SELECT_FN bool shoal_ll_words(size_t nbytes) { return (nbytes & 3) == 0; }

/* The steps of a call that a benchmark's build may time (bench/gpu/
 * bench_ll_trace.cu defines SHOAL_LL_MARK(step, flag) before it includes
 * Shoal; flag: the call's number, 0 before it is known).  Each thread
 * marks its own steps; by default they compile to nothing. */
enum {
  SHOAL_LL_MARK_ENTRY,   /* the kernel's first instruction (gpu_stream.h) */
  SHOAL_LL_MARK_START,   /* past the wait for the previous kernel */
  SHOAL_LL_MARK_OPEN,    /* shoal_ll_open done: the call's rings known */
  SHOAL_LL_MARK_SENT,    /* this thread's words pushed */
  SHOAL_LL_MARK_GOT,     /* this thread's words received */
  SHOAL_LL_MARK_CLOSED,  /* shoal_ll_close done */
  SHOAL_LL_MARK_STEPS
};
#ifndef SHOAL_LL_MARK
#define SHOAL_LL_MARK(step, flag) ((void)0)
#endif

/* ---- the protocol: a call's halves and its count ---------------------------- */
/* The first slot of team PE `sender`'s ring on me (shoal_pushbox_ring's). */
SHOAL_SELECT_FN char *shoal_ll_ring(const shoal_team *t, int sender)
{
  size_t ring = (size_t)(t->pushbox_by_world ? shoal_team_world_pe(t, sender) : sender);
  return t->pushbox + ring * (size_t)t->pushbox_depth * t->pushbox_slot;
}

/* Team PE me + d, wrapping (0 < d < np, so one subtraction: a remainder
 * is a subroutine on a GPU, some 20 instructions for each peer of each
 * word in the movers' loops). */
SHOAL_FN int shoal_ll_peer(int me, int d, int np)
{
  int q = me + d;
  return q >= np ? q - np : q;
}
/* The pair thread j takes: team PE me + 1 + j (j < np - 1). */
SHOAL_FN int shoal_ll_pair(int me, unsigned j, int np) { return shoal_ll_peer(me, 1 + (int)j, np); }

/* Entry: every thread of the lane sees the call's rings and number.
 * Lanes that meet locally (a user's grid, the CPU's test lanes) wait for
 * the lane that counted the previous call; lanes that do not are a fresh
 * kernel's (an _on_stream kernel: the previous call's kernel ended
 * first).  The count is read by thread 0, the thread that wrote it at the
 * previous call's close where the lane is the counting one: the lane's
 * meeting below orders it for the others.
 * Lanes that do not meet arrive once thread 0 has the count (here, or
 * once its words are sent: shoal_ll_sent): the last lane to arrive counts
 * the call at its close (the others have read the count by then, and the
 * next call's kernel starts after every lane ended).  Thread 0 keeps the
 * add's answer for shoal_ll_close, which alone needs it: at the close,
 * after the lane's gets, the add's round trip and a second meeting of the
 * lane were on every lane's path (one H100 under MPS, the grid kernel
 * 2-9% faster: 4 PEs, the all-reduce of 64 KB 6.15 -> 5.62 us, fcollect
 * of 128 KB 6.04 -> 5.83; bench/RESULTS.md session 56). */
#ifndef SHOAL_LL_EARLY_ARRIVE   /* a benchmark's build may set it (0: arrive at the close, as before) */
#define SHOAL_LL_EARLY_ARRIVE 1
#endif
/* Where: at the open, or, on teams of up to SHOAL_LL_ARRIVE_SENT_PES,
 * once thread 0's words are sent.  The compiler aggregates the add over
 * thread 0's warp and hands its answer to the lanes right after it (the
 * SASS of LL's _on_stream grid kernel, ptxas's doing, with or without
 * <cuda/atomic>), so warp 0 waits for its round trip there: at the open,
 * before it pushes a word, 0.3-0.5 us of each block's open on one H100
 * under MPS (bench/gpu/bench_ll_trace); once its words are sent, while
 * the peers' words are on their way.  There 2 PEs' grid calls were 2-4%
 * faster (alltoall of 16 KB 3.51 -> 3.37 us, fcollect of 256 KB 3.70 ->
 * 3.63), but 4 PEs' fcollect of 32-64 KB 6% slower (4.61 -> 4.89) and
 * their reduce-scatter 3-5% (bench/RESULTS.md session 58, job G). */
#ifndef SHOAL_LL_ARRIVE_SENT_PES   /* a benchmark's build may set it (0: at the open always) */
#define SHOAL_LL_ARRIVE_SENT_PES 2
#endif
SHOAL_FN bool shoal_ll_arrive_sent(const shoal_team *t) { return t->size <= SHOAL_LL_ARRIVE_SENT_PES; }
SHOAL_FN uint64_t shoal_ll_arrive(const shoal_scope *s, shoal_team *t)
{
  return SHOAL_LL_EARLY_ARRIVE && s->nlanes > 1 && !s->local && s->tid == 0 ? shoal_scope_arrive_count(s, t) : 0;
}
SHOAL_FN uint64_t shoal_ll_open(const shoal_scope *s, shoal_team *t, shoal_ll *ll, const char *call)
{
  int np = t->size, me = t->my_pe;
  if (s->nlanes > 1 && s->local) shoal_scope_sync_local(s, t, call);
  if (s->tid == 0) {
    uint32_t e = (uint32_t)t->sync[SHOAL_SYNC_LL_EPOCH] + 1;
    ll->flag = e;
    ll->half = (e & 1) ? (uint32_t)((size_t)(t->pushbox_depth / 2) * (t->pushbox_slot / 8)) : 0;
  }
  const char *mine = shoal_ll_ring(t, me);
  for (unsigned j = s->tid; j + 1 < (unsigned)np; j += s->nthreads) {
    int q = shoal_ll_pair(me, j, np), pe = shoal_team_world_pe(t, q);
    uint64_t *o = (uint64_t *)shoal_dev_ptr(mine, pe);
    if (SHOAL_UNLIKELY(!o)) shoal_scope_unmapped(call, mine, pe);
    ll->out[q] = o;
    ll->in[q] = (const uint64_t *)shoal_ll_ring(t, q);
  }
  shoal_scope_sync_lane(s);
  uint64_t arrived = shoal_ll_arrive_sent(t) ? 0 : shoal_ll_arrive(s, t);
  SHOAL_LL_MARK(SHOAL_LL_MARK_OPEN, ll->flag);
  return arrived;
}
/* This thread's words are pushed: on the teams shoal_ll_arrive_sent
 * names, the lane arrives (thread 0; *arrived: shoal_ll_open's answer,
 * then this one). */
SHOAL_FN void shoal_ll_sent(const shoal_scope *s, shoal_team *t, const shoal_ll *ll, uint64_t *arrived)
{
  SHOAL_LL_MARK(SHOAL_LL_MARK_SENT, ll->flag);
  if (shoal_ll_arrive_sent(t)) *arrived = shoal_ll_arrive(s, t);
}

/* The call is counted (the next one writes the other halves). */
SHOAL_FN void shoal_ll_count(const shoal_scope *s, shoal_team *t, const shoal_ll *ll)
{
  if (s->tid == 0) t->sync[SHOAL_SYNC_LL_EPOCH] = ll->flag;
}

/* Exit: every thread has read its words; count the call: lane 0 after the
 * lanes meet, or, where they do not (a fresh kernel's), the last lane to
 * arrive, which one relaxed add a lane finds (shoal_scope_arrive_count says
 * why no fence; arrived: shoal_ll_open's answer) -- nobody waits for the
 * others.  A call that ends its kernel lets the next one be scheduled once
 * its lane's gets are done, before the count (shoal_scope_release_next). */
SHOAL_FN void shoal_ll_close(const shoal_scope *s, shoal_team *t, shoal_ll *ll, uint64_t arrived, const char *call)
{
  if (s->nlanes > 1 && !s->local) {
    shoal_scope_sync_lane(s);
    shoal_scope_release_next(s);   /* the lane's gets are done: it waits for nobody */
    if (!SHOAL_LL_EARLY_ARRIVE) {
      if (s->tid == 0) ll->arrived = shoal_scope_arrive_count(s, t);
      shoal_scope_sync_lane(s);
      arrived = ll->arrived;
    }
    if (s->tid == 0 && shoal_scope_arrived_last(s, arrived)) shoal_ll_count(s, t, ll);
    SHOAL_LL_MARK(SHOAL_LL_MARK_CLOSED, ll->flag);
    return;
  }
  if (s->nlanes > 1) {
    shoal_scope_sync_local(s, t, call);
  } else {
    shoal_scope_sync_lane(s);
    shoal_scope_release_next(s);
  }
  if (s->lane == 0) shoal_ll_count(s, t, ll);
  SHOAL_LL_MARK(SHOAL_LL_MARK_CLOSED, ll->flag);
}

/* ---- the word transport ------------------------------------------------------ */
/* Word i of my push to team PE q: data and flag in one 8-byte store. */
SHOAL_FN void shoal_ll_put(const shoal_ll *ll, int q, size_t i, uint32_t w)
{
  shoal_store_relaxed(ll->out[q] + ll->half + i, (uint64_t)ll->flag << 32 | w);
}

/* Word i of team PE q's push to me, once its flag says it is this call's. */
SHOAL_FN uint32_t shoal_ll_get(const shoal_ll *ll, int q, size_t i)
{
  const uint64_t *p = ll->in[q] + ll->half + i;
  uint64_t v = shoal_load_relaxed(p);
  shoal_backoff b = SHOAL_BACKOFF_INIT;
  while ((uint32_t)(v >> 32) != ll->flag) {
    shoal_backoff_wait(&b);
    v = shoal_load_relaxed(p);
  }
  return (uint32_t)v;
}

/* Words i and i + 1 (i even) of my push to team PE q in one 16-byte store
 * (device/arch.h's pair: on a GPU one instruction and one transaction, as
 * NCCL's LL lines of two flagged words).  Each 8-byte word carries its own
 * flag, so the protocol is the same as one word at a time: a reader may
 * see either word first. */
SHOAL_FN void shoal_ll_put2(const shoal_ll *ll, int q, size_t i, uint32_t w0, uint32_t w1)
{
  const uint64_t f = (uint64_t)ll->flag << 32;
  shoal_store_relaxed_pair(ll->out[q] + ll->half + i, f | w0, f | w1);
}

/* Words i and i + 1 (i even) of team PE q's push to me, once both flags say
 * they are this call's. */
SHOAL_FN void shoal_ll_get2(const shoal_ll *ll, int q, size_t i, uint32_t *w0, uint32_t *w1)
{
  const uint64_t *p = ll->in[q] + ll->half + i;
  uint64_t a, b;
  shoal_load_relaxed_pair(p, &a, &b);
  shoal_backoff bo = SHOAL_BACKOFF_INIT;
  while ((uint32_t)(a >> 32) != ll->flag || (uint32_t)(b >> 32) != ll->flag) {
    shoal_backoff_wait(&bo);
    shoal_load_relaxed_pair(p, &a, &b);
  }
  *w0 = (uint32_t)a;
  *w1 = (uint32_t)b;
}

/* Word i of a byte buffer (aligned: 4-byte aligned). */
SHOAL_FN uint32_t shoal_ll_word_get(const void *p, size_t i, bool aligned)
{
  if (aligned) return ((const uint32_t *)p)[i];
  uint32_t w;
  memcpy(&w, (const char *)p + 4 * i, 4);
  return w;
}
SHOAL_FN void shoal_ll_word_put(void *p, size_t i, uint32_t w, bool aligned)
{
  if (aligned) ((uint32_t *)p)[i] = w;
  else memcpy((char *)p + 4 * i, &w, 4);
}

/* An element of 4 or 8 bytes (W words) in the first bytes of a uint64_t,
 * loaded and stored whole (the element's own alignment). */
SHOAL_FN uint64_t shoal_ll_elem_load(const void *p, unsigned W)
{
  uint64_t e = 0;
  if (W == 2) {
    e = *(const uint64_t *)p;
  } else {
    uint32_t v = *(const uint32_t *)p;
    memcpy(&e, &v, 4);
  }
  return e;
}
SHOAL_FN void shoal_ll_elem_store(void *p, uint64_t e, unsigned W)
{
  if (W == 2) {
    *(uint64_t *)p = e;
  } else {
    uint32_t v;
    memcpy(&v, &e, 4);
    *(uint32_t *)p = v;
  }
}
SHOAL_FN uint32_t shoal_ll_elem_word(uint64_t e, unsigned j)
{
  uint32_t w;
  memcpy(&w, (const char *)&e + 4 * j, 4);
  return w;
}
SHOAL_FN void shoal_ll_elem_set_word(uint64_t *e, unsigned j, uint32_t w) { memcpy((char *)e + 4 * j, &w, 4); }

/* Word i of the pushes to me of up to four team PEs q[j], those j whose
 * bit is set in `use`, into w[j], waited for together: each round loads
 * every word still missing before it looks at a flag, so words that are
 * already there cost one memory round trip, not one per member as
 * shoal_ll_get one after another.  For three or more members only: at 2
 * PEs a general form (two words an element) was 0.3-1.2 us slower on
 * every call (session 49's notes; it was cut off before its figures were
 * kept).  At 4 PEs on one H100 under MPS the small calls were 3-14%
 * faster (bench/RESULTS.md, session 50). */
SHOAL_FN void shoal_ll_get4(const shoal_ll *ll, const int *q, unsigned use, size_t i, uint32_t *w)
{
  const uint64_t *p[4];
  const uint32_t f = ll->flag;
  for (int j = 0; j < 4; j++) p[j] = (use >> j & 1) ? ll->in[q[j]] + ll->half + i : NULL;
  shoal_backoff b = SHOAL_BACKOFF_INIT;
  for (;;) {
    uint64_t v[4];
    for (int j = 0; j < 4; j++) v[j] = (use >> j & 1) ? shoal_load_relaxed(p[j]) : 0;
    for (int j = 0; j < 4; j++)
      if ((use >> j & 1) && (uint32_t)(v[j] >> 32) == f) {
        w[j] = (uint32_t)v[j];
        use &= ~(1u << j);
      }
    if (!use) return;
    shoal_backoff_wait(&b);
  }
}

#if !SHOAL_TARGET_GPU
/* The CPU's reducer on one element (the GPU's: <shoal/gpu_block.h>, typed). */
SHOAL_FN void shoal_reducer_combine1(const shoal_reducer *r, uint64_t *acc, const uint64_t *x)
{
  shoal_reduce_combine(r->type, r->op, acc, x, 1);
}
#endif

/* ---- the collectives ---------------------------------------------------------- */
/* Both reductions' second half: element i (lo <= i < hi) of dest = the
 * reduction, in team order, of element i of mine (my own contribution)
 * and of each other member's push, which this thread waits for. */
SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_ll_combine(const shoal_scope *s, const shoal_team *t, const shoal_ll *ll, const SHOAL_REDUCER *r,
                               void *dest, const void *mine_src, size_t lo, size_t hi)
{
  const size_t es = shoal_reducer_size(r);
  const unsigned W = (unsigned)(es / 4);   /* LL words per element */
  int np = t->size, me = t->my_pe;
  for (size_t i = lo + s->tid; i < hi; i += s->nthreads) {
    uint64_t mine = shoal_ll_elem_load((const char *)mine_src + i * es, W), acc = mine;
    if (W == 1 && np > 2) {   /* four members' words waited for together, in team order */
      for (int q0 = 0; q0 < np; q0 += 4) {
        int q[4];
        unsigned use = 0;
        uint32_t w[4] = {0, 0, 0, 0};
        for (int j = 0; j < 4; j++) {
          q[j] = q0 + j;
          if (q[j] < np && q[j] != me) use |= 1u << j;
        }
        shoal_ll_get4(ll, q, use, i, w);
        for (int j = 0; j < 4 && q[j] < np; j++) {
          uint64_t x = mine;
          if (q[j] != me) shoal_ll_elem_set_word(&x, 0, w[j]);
          if (q[j] == 0) acc = x;
          else shoal_reducer_combine1(r, &acc, &x);
        }
      }
      shoal_ll_elem_store((char *)dest + i * es, acc, W);
      continue;
    }
    for (int q = 0; q < np; q++) {
      uint64_t x = mine;
      if (q != me)
        for (unsigned j = 0; j < W; j++) shoal_ll_elem_set_word(&x, j, shoal_ll_get(ll, q, i * W + j));
      if (q == 0) acc = x;
      else shoal_reducer_combine1(r, &acc, &x);
    }
    shoal_ll_elem_store((char *)dest + i * es, acc, W);
  }
}

/* All-reduce of n elements of 4 or 8 bytes (the reducer's), in team order
 * on every member (every PE computes the same bits). */
SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_ll_reduce(const shoal_scope *s, shoal_team *t, shoal_ll *ll, const SHOAL_REDUCER *r, void *dest,
                              const void *src, size_t n, const char *call)
{
  const size_t es = shoal_reducer_size(r);
  const unsigned W = (unsigned)(es / 4);   /* LL words per element */
  int np = t->size, me = t->my_pe;
  unsigned nt = s->nthreads;
  size_t lo, hi;
  if (!n) return;   /* on every member: a call that moves no word is not counted (the header says why) */
  shoal_scope_share(n, s->lane, s->nlanes, &lo, &hi);
  uint64_t arrived = shoal_ll_open(s, t, ll, call);
  for (size_t i = lo + s->tid; i < hi; i += nt) {
    uint64_t e = shoal_ll_elem_load((const char *)src + i * es, W);
    for (int k = 1; k < np; k++)
      for (unsigned j = 0; j < W; j++) shoal_ll_put(ll, shoal_ll_peer(me, k, np), i * W + j, shoal_ll_elem_word(e, j));
  }
  shoal_ll_sent(s, t, ll, &arrived);
  shoal_ll_combine(s, t, ll, r, dest, src, lo, hi);
  SHOAL_LL_MARK(SHOAL_LL_MARK_GOT, ll->flag);
  shoal_ll_close(s, t, ll, arrived, call);
}

/* Reduce-scatter of 4- or 8-byte elements (the reducer's): dest (n
 * elements) = block me of the reduction over every member of its src (np
 * blocks of n), in team order like shoal_ll_reduce and reduce_scatter.h's
 * pull (every member's block has the same bits whichever algorithm ran).
 * Element i of block q goes to q from the thread that then reduces element
 * i of my own block.  dest must not overlap src. */
SHOAL_REDUCER_TEMPLATE
SHOAL_FN void shoal_ll_reduce_scatter(const shoal_scope *s, shoal_team *t, shoal_ll *ll, const SHOAL_REDUCER *r,
                                      void *dest, const void *src, size_t n, const char *call)
{
  const size_t es = shoal_reducer_size(r);
  const unsigned W = (unsigned)(es / 4);   /* LL words per element */
  int np = t->size, me = t->my_pe;
  unsigned nt = s->nthreads;
  size_t lo, hi;
  if (!n) return;   /* as shoal_ll_reduce */
  shoal_scope_share(n, s->lane, s->nlanes, &lo, &hi);
  uint64_t arrived = shoal_ll_open(s, t, ll, call);
  for (size_t i = lo + s->tid; i < hi; i += nt)
    for (int k = 1; k < np; k += 4) {   /* four peers' elements loaded before any is sent */
      int m = np - k < 4 ? np - k : 4;
      uint64_t e[4] = {0, 0, 0, 0};
      for (int g = 0; g < 4; g++)
        if (g < m) e[g] = shoal_ll_elem_load((const char *)src + ((size_t)shoal_ll_peer(me, k + g, np) * n + i) * es, W);
      for (int g = 0; g < 4; g++)
        if (g < m)
          for (unsigned j = 0; j < W; j++) shoal_ll_put(ll, shoal_ll_peer(me, k + g, np), i * W + j, shoal_ll_elem_word(e[g], j));
    }
  shoal_ll_sent(s, t, ll, &arrived);
  shoal_ll_combine(s, t, ll, r, dest, (const char *)src + (size_t)me * n * es, lo, hi);
  SHOAL_LL_MARK(SHOAL_LL_MARK_GOT, ll->flag);
  shoal_ll_close(s, t, ll, arrived, call);
}

/* The words of fcollect and alltoall (below) with `aligned` a constant in
 * each inlined copy: both buffers 4-byte aligned, or byte by byte.  One
 * loop testing alignment per word let the compiler merge the two loads of
 * each word into one of the weaker alignment: byte loads, four a word,
 * where almost every call is aligned (alltoall of 16 KB at 2 PEs 0.8 us
 * slower than fcollect, bench/RESULTS.md session 14). */
SHOAL_FN void shoal_ll_exchange_words(const shoal_scope *s, shoal_team *t, shoal_ll *ll, void *dest,
                                      const void *src, size_t nw, size_t lo, size_t hi, bool alltoall,
                                      bool aligned, uint64_t *arrived)
{
  int np = t->size, me = t->my_pe;
  unsigned nt = s->nthreads;
  /* My own word goes to my dest from the same loop, and alltoall's words
   * for four peers are loaded before any is sent: the loads in flight
   * together, not one after each store (a store may alias the next load). */
  for (size_t i = lo + s->tid; i < hi; i += nt) {
    uint32_t mine = shoal_ll_word_get(src, (alltoall ? (size_t)me * nw : 0) + i, aligned);
    for (int k = 1; k < np; k += 4) {
      int m = np - k < 4 ? np - k : 4;
      uint32_t w[4] = {0, 0, 0, 0};
      for (int j = 0; j < 4; j++)
        if (j < m) w[j] = alltoall ? shoal_ll_word_get(src, (size_t)shoal_ll_peer(me, k + j, np) * nw + i, aligned) : mine;
      for (int j = 0; j < 4; j++)
        if (j < m) shoal_ll_put(ll, shoal_ll_peer(me, k + j, np), i, w[j]);
    }
    shoal_ll_word_put(dest, (size_t)me * nw + i, mine, aligned);
  }
  shoal_ll_sent(s, t, ll, arrived);
  /* The four-member wait is for teams of three or more, but not in the
   * _on_stream grid kernel: there alltoall of 44-87 KB per pair was 9-12%
   * slower at 3 PEs (2-4% without it), while the one-block kernel and a
   * user's grid gained 3-14% at 4 PEs (one H100 under MPS;
   * bench/RESULTS.md, session 50). */
  if (np <= 2 || (s->nlanes > 1 && s->ends_kernel)) {
    for (int k = 1; k < np; k++) {
      int q = shoal_ll_peer(me, k, np);
      for (size_t i = lo + s->tid; i < hi; i += nt)
        shoal_ll_word_put(dest, (size_t)q * nw + i, shoal_ll_get(ll, q, i), aligned);
    }
    return;
  }
  /* Four members' words waited for together, those that put to me first
   * first (team PE me - 1 did so before the others). */
  for (int k = 1; k < np; k += 4) {
    int q[4];
    unsigned use = 0;
    for (int j = 0; j < 4; j++) {
      q[j] = me - k - j < 0 ? me - k - j + np : me - k - j;
      if (k + j < np) use |= 1u << j;
    }
    for (size_t i = lo + s->tid; i < hi; i += nt) {
      uint32_t w[4] = {0, 0, 0, 0};
      shoal_ll_get4(ll, q, use, i, w);
      for (int j = 0; j < 4; j++)
        if (use >> j & 1) shoal_ll_word_put(dest, (size_t)q[j] * nw + i, w[j], aligned);
    }
  }
}

/* The words of fcollect and alltoall two at a time (both buffers 4-byte
 * aligned): a thread takes words 2p and 2p + 1 and pushes them to each
 * peer in one 16-byte store (shoal_ll_put2), and waits for each peer's
 * pair with one 16-byte load: half the stores and polls of one word at a
 * time.  The lanes share pairs; an odd count's last word goes alone.
 * Where the scope allows it (s->ll_pairs: a constant where a kernel is
 * made, so the kernels without it carry none of this code; 2: always, for
 * the CPU's tests) and where it pays (shoal_ll_pairs_pay): one block at 2
 * PEs, and LL's _on_stream grid kernel from SHOAL_LL_PAIRS_GRID_MIN bytes
 * a member sends -- where a call moves enough words to be bound by them,
 * not by one word's latency.  One H100 under MPS, graph replay, against a
 * word a store: 2 PEs' one-block alltoall of 8 KB 3.38 -> 3.12 us and
 * fcollect 3.11 -> 2.92; 4 PEs' fcollect of 256 KB (LL now, below) 7.75
 * -> 6.27 against the grid push, alltoall 8.28 -> 7.30, fcollect of 128
 * KB 5.66 -> 5.45; but the grid kernel's calls of 8-64 KB per pair below
 * that volume 7-13% slower (4 PEs' alltoall of 32 KB 5.35 -> 6.04), as
 * was one block's at 4 PEs (bench/RESULTS.md session 57). */
#ifndef SHOAL_LL_PAIRS   /* a benchmark's build may set it (0: a word at a time) */
#define SHOAL_LL_PAIRS 1
#endif
#ifndef SHOAL_LL_PAIRS_GRID_MIN   /* a benchmark's build may set it */
#define SHOAL_LL_PAIRS_GRID_MIN (96u << 10)
#endif
/* Whether pairs pay for bytes_per_pair on a team of team_size: one block
 * (grid false) at up to 2 PEs, a grid from SHOAL_LL_PAIRS_GRID_MIN bytes
 * sent a member.  The host's launch asks too (a thread a pair). */
SHOAL_SELECT_FN bool shoal_ll_pairs_pay(bool grid, size_t bytes_per_pair, int team_size)
{
  if (!SHOAL_LL_PAIRS) return false;
  if (!grid) return team_size <= 2;
  return (uint64_t)bytes_per_pair * (uint64_t)(team_size > 1 ? team_size - 1 : 1) >= SHOAL_LL_PAIRS_GRID_MIN;
}
SHOAL_FN bool shoal_ll_pairs_fit(const shoal_scope *s, const shoal_team *t, size_t nbytes)
{
  /* slots are whole 16-byte units (gpu/gpu_runtime.c): the box's start
   * decides the pairs' alignment; one block waits four members at a time
   * on teams of 3 or more (shoal_ll_exchange_words), a grid that meets
   * locally too (a user's grid) */
  if (!s->ll_pairs || ((uintptr_t)t->pushbox & 15) != 0) return false;
  bool grid = s->nlanes > 1;
  if (grid && !s->ends_kernel && t->size > 2) return false;
  return s->ll_pairs == 2 ? SHOAL_LL_PAIRS && (grid || t->size <= 2) : shoal_ll_pairs_pay(grid, nbytes, t->size);
}
SHOAL_FN void shoal_ll_exchange_pairs(const shoal_scope *s, shoal_team *t, shoal_ll *ll, void *dest,
                                      const void *src, size_t nw, bool alltoall, uint64_t *arrived)
{
  int np = t->size, me = t->my_pe;
  unsigned nt = s->nthreads;
  size_t lo, hi;
  shoal_scope_share((nw + 1) / 2, s->lane, s->nlanes, &lo, &hi);
  const size_t mine_at = alltoall ? (size_t)me * nw : 0;
  for (size_t p = lo + s->tid; p < hi; p += nt) {
    const size_t i = 2 * p;
    const bool two = i + 1 < nw;
    uint32_t m0 = shoal_ll_word_get(src, mine_at + i, true), m1 = two ? shoal_ll_word_get(src, mine_at + i + 1, true) : 0;
    for (int k = 1; k < np; k += 4) {   /* four peers' words loaded before any is sent */
      int m = np - k < 4 ? np - k : 4;
      uint32_t w0[4] = {0, 0, 0, 0}, w1[4] = {0, 0, 0, 0};
      for (int j = 0; j < 4; j++)
        if (j < m) {
          size_t at = (size_t)shoal_ll_peer(me, k + j, np) * nw + i;
          w0[j] = alltoall ? shoal_ll_word_get(src, at, true) : m0;
          w1[j] = !two ? 0 : alltoall ? shoal_ll_word_get(src, at + 1, true) : m1;
        }
      for (int j = 0; j < 4; j++)
        if (j < m) {
          if (two) shoal_ll_put2(ll, shoal_ll_peer(me, k + j, np), i, w0[j], w1[j]);
          else shoal_ll_put(ll, shoal_ll_peer(me, k + j, np), i, w0[j]);
        }
    }
    shoal_ll_word_put(dest, (size_t)me * nw + i, m0, true);
    if (two) shoal_ll_word_put(dest, (size_t)me * nw + i + 1, m1, true);
  }
  shoal_ll_sent(s, t, ll, arrived);
  for (int k = 1; k < np; k++) {
    int q = shoal_ll_peer(me, k, np);
    for (size_t p = lo + s->tid; p < hi; p += nt) {
      const size_t i = 2 * p;
      uint32_t w0, w1;
      if (i + 1 < nw) {
        shoal_ll_get2(ll, q, i, &w0, &w1);
        shoal_ll_word_put(dest, (size_t)q * nw + i + 1, w1, true);
      } else {
        w0 = shoal_ll_get(ll, q, i);
      }
      shoal_ll_word_put(dest, (size_t)q * nw + i, w0, true);
    }
  }
}

/* fcollect (alltoall false: my src to block me of every dest) and alltoall
 * (block q of my src to block me of q's dest), nbytes per member, a whole
 * number of words. */
SHOAL_FN void shoal_ll_exchange(const shoal_scope *s, shoal_team *t, shoal_ll *ll, void *dest, const void *src,
                                size_t nbytes, bool alltoall, const char *call)
{
  size_t nw = nbytes / 4, lo, hi;
  if (!nw) return;   /* as shoal_ll_reduce */
  shoal_scope_share(nw, s->lane, s->nlanes, &lo, &hi);
  uint64_t arrived = shoal_ll_open(s, t, ll, call);
  const bool aligned = (((uintptr_t)src | (uintptr_t)dest) & 3) == 0;
  if (aligned && shoal_ll_pairs_fit(s, t, nbytes))
    shoal_ll_exchange_pairs(s, t, ll, dest, src, nw, alltoall, &arrived);
  else if (aligned)
    shoal_ll_exchange_words(s, t, ll, dest, src, nw, lo, hi, alltoall, true, &arrived);
  else
    shoal_ll_exchange_words(s, t, ll, dest, src, nw, lo, hi, alltoall, false, &arrived);
  SHOAL_LL_MARK(SHOAL_LL_MARK_GOT, ll->flag);
  shoal_ll_close(s, t, ll, arrived, call);
}

/* The broadcast's words, `aligned` as in shoal_ll_exchange_words.  Every
 * member hears from every other in each call, as the protocol needs (the
 * header): the root's word 0 is its data; each other member pushes a word
 * 0 to every member and waits for the others' -- done by the lane whose
 * share holds word 0, a pair per thread.  A member pushes before it waits,
 * so the words cost the root one one-way latency it did not wait for
 * before, and the others nothing they would not wait for anyway. */
SHOAL_FN void shoal_ll_broadcast_words(const shoal_scope *s, shoal_team *t, shoal_ll *ll, void *dest,
                                       const void *src, size_t lo, size_t hi, int root, bool aligned,
                                       uint64_t *arrived)
{
  int np = t->size, me = t->my_pe;
  unsigned nt = s->nthreads;
  const bool word0 = lo == 0 && hi > 0;
  if (me == root) {
    for (size_t i = lo + s->tid; i < hi; i += nt) {
      uint32_t w = shoal_ll_word_get(src, i, aligned);
      for (int k = 1; k < np; k++) shoal_ll_put(ll, shoal_ll_peer(me, k, np), i, w);
      shoal_ll_word_put(dest, i, w, aligned);
    }
    shoal_ll_sent(s, t, ll, arrived);
  } else {
    if (word0)
      for (unsigned j = s->tid; j + 1 < (unsigned)np; j += nt) shoal_ll_put(ll, shoal_ll_pair(me, j, np), 0, 0);
    shoal_ll_sent(s, t, ll, arrived);
    for (size_t i = lo + s->tid; i < hi; i += nt) shoal_ll_word_put(dest, i, shoal_ll_get(ll, root, i), aligned);
  }
  if (word0)
    for (unsigned j = s->tid; j + 1 < (unsigned)np; j += nt) {
      int q = shoal_ll_pair(me, j, np);
      if (q != root) (void)shoal_ll_get(ll, q, 0);
    }
}

/* Broadcast of nbytes (a whole number of words) from team PE root. */
SHOAL_FN void shoal_ll_broadcast(const shoal_scope *s, shoal_team *t, shoal_ll *ll, void *dest, const void *src,
                                 size_t nbytes, int root, const char *call)
{
  size_t nw = nbytes / 4, lo, hi;
  if (!nw) return;   /* as shoal_ll_reduce */
  shoal_scope_share(nw, s->lane, s->nlanes, &lo, &hi);
  uint64_t arrived = shoal_ll_open(s, t, ll, call);
  /* src is only read on the root: elsewhere its alignment does not matter */
  uintptr_t a = (uintptr_t)dest | (t->my_pe == root ? (uintptr_t)src : 0);
  if ((a & 3) == 0)
    shoal_ll_broadcast_words(s, t, ll, dest, src, lo, hi, root, true, &arrived);
  else
    shoal_ll_broadcast_words(s, t, ll, dest, src, lo, hi, root, false, &arrived);
  shoal_ll_close(s, t, ll, arrived, call);
}

/* which: 0 broadcast, 1 fcollect, 2 alltoall (the GPU's numbering). */
SHOAL_FN void shoal_ll_move(const shoal_scope *s, shoal_team *t, shoal_ll *ll, int which, void *dest,
                            const void *src, size_t nbytes, int root, const char *call)
{
  if (which == 0) shoal_ll_broadcast(s, t, ll, dest, src, nbytes, root, call);
  else shoal_ll_exchange(s, t, ll, dest, src, nbytes, which == 2, call);
}

#endif
