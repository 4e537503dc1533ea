/* LL (low latency, NCCL's name): small collectives whose data carries its
 * own flags, one algorithm at any scope (collectives/scope.h).
 *
 * The pushes of reduce_push.h without their signals: every 8-byte store
 * carries a 4-byte word of data and a 4-byte flag (the pair's push count
 * + 1), written straight into the receiver's pushbox slot (the k-th push
 * of a pair: slot k % depth, flag k + 1; a stale slot holds an older
 * flag), so the receiver polls the data itself: no fence, no separate
 * signal, no meeting -- one one-way latency.  Credits (a sender may be
 * depth pushes ahead) go back in batches, one fence per batch (coll.h's
 * credit channel).  A call of more than half a slot per pair takes m
 * consecutive slots of the pair's ring as one push (pushes k .. k + m - 1,
 * every word flagged k + 1, wrapping round the ring's end), up to half the
 * ring (shoal_ll_fits_span: a receiver's credits lag by less than a batch,
 * so a sender never waits for credits of pushes not yet made).  Where LL
 * runs, and up to what size, is reduce_select.h's choice (a block: one
 * slot; a grid whose blocks meet: the span).
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
 * Scope: the threads of a lane claim the slots (waiting for credits), a
 * pair each, into the lane's shoal_ll (GPU: __shared__), the lane meets
 * once, every thread moves its words, the lane meets once more and lane 0
 * counts the pushes and gives the credits (again a pair per thread).  A
 * GPU block is one lane (gpu_block.h).  k lanes split the words: a user's grid
 * (gpu_grid.h) and tests/coll/test_lanes (k CPU threads) meet locally at
 * entry and exit, and lane 0 counts (the pair counters are the PE's); the
 * lanes of an _on_stream kernel (gpu_stream.h) do not meet -- the kernel
 * starts after the previous call's, and its last lane to finish counts.
 * Words go by index, whoever sends them, so the members need not run
 * the same number of lanes.
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

/* A lane's view of this call's slots, by team PE: where the call's first
 * word goes (comes from), and how many words are left before the ring's
 * end (a call of several slots wraps round to the ring's start). */
typedef struct shoal_ll {
  uint64_t *out[SHOAL_SCOPE_MAX_PEERS];       /* my first slot on that peer */
  const uint64_t *in[SHOAL_SCOPE_MAX_PEERS];  /* its first slot on me */
  uint32_t flag_out[SHOAL_SCOPE_MAX_PEERS], flag_in[SHOAL_SCOPE_MAX_PEERS];
  uint32_t room_out[SHOAL_SCOPE_MAX_PEERS], room_in[SHOAL_SCOPE_MAX_PEERS];
  uint64_t k_out[SHOAL_SCOPE_MAX_PEERS], k_in[SHOAL_SCOPE_MAX_PEERS];   /* the pair counts at open */
  uint32_t ring;                              /* words in a sender's ring */
  int last;                                   /* lanes that do not meet: this one finished last */
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
 * (shoal_ll_consumed's batch; the header says why). */
SHOAL_SELECT_FN size_t shoal_ll_span_max(int depth) { return depth >= 2 ? (size_t)depth / 2 : 1; }
/* LL can carry bytes_per_pair in at most `span` slots of the ring. */
SHOAL_SELECT_FN bool shoal_ll_fits_span(size_t slot, size_t span, int team_size, size_t bytes_per_pair)
{
  return slot && team_size <= SHOAL_SCOPE_MAX_PEERS && 2 * bytes_per_pair <= span * slot;
}
/* k mod d, without a division where d is a power of two (the GPU's rings:
 * a 64-bit division is a long subroutine on the claims' path). */
SHOAL_FN uint64_t shoal_ll_mod(uint64_t k, uint64_t d) { return (d & (d - 1)) == 0 ? k & (d - 1) : k % d; }
/* The slot LL's pushes land in on team t (0: no pushbox). */
SHOAL_FN size_t shoal_ll_slot(const shoal_team *t) { return t->pushbox ? t->pushbox_slot : 0; }
/* What the protocol carries on team t (any scope: the selection narrows it). */
SHOAL_FN bool shoal_ll_fits(const shoal_team *t, size_t bytes_per_pair)
{
  return shoal_ll_fits_span(shoal_ll_slot(t), shoal_ll_span_max(t->pushbox_depth), t->size, bytes_per_pair);
}
SHOAL_FN size_t shoal_ll_slots(const shoal_team *t, size_t bytes_per_pair)
{
  return shoal_ll_call_slots(t->pushbox_slot, bytes_per_pair);
}
/* Byte collectives go LL in whole 4-byte words. */
SHOAL_SELECT_FN bool shoal_ll_words(size_t nbytes) { return (nbytes & 3) == 0; }

/* ---- the pair protocol: claims and credits ---------------------------------- */
/* What a lane's claims can start from, by team PE q: my ring's first
 * slot on q as mapped here, q's ring's first slot on me, and my counters
 * for the pair (shoal_ll_claim's).  From the team record a claim used to
 * be a chain: the counters, the slot from them, then the peer's heap base
 * for it -- 1.2-1.6 us of a 3.3-6.6 us one-block LL call, against 0.9-1.1
 * us from a plan passed by value (one H200 under MPS, 2-4 PEs,
 * bench/gpu/bench_ll_parts, bench/RESULTS.md session 44).  The claim from
 * the record now takes the plan's order (session 46: the small calls 6-7%
 * faster at 2 PEs, 2-3% at 4); the library's _on_stream kernels take no
 * plan: made and copied on the host for each launch it cost the enqueue
 * more than the kernel saved (session 44, job C).  tests/coll/test_lanes'
 * lanes that do not meet claim from one (shoalx_coll_ll_lane),
 * bench_ll_parts' "plan" kernel too.  Teams of up to SHOAL_LL_PLAN_PEERS
 * members (n: 0 where none was made). */
#define SHOAL_LL_PLAN_PEERS 8
typedef struct shoal_ll_plan {
  int n;
  uint64_t *out[SHOAL_LL_PLAN_PEERS];
  const uint64_t *in[SHOAL_LL_PLAN_PEERS];
  uint64_t *seen[SHOAL_LL_PLAN_PEERS], *sent[SHOAL_LL_PLAN_PEERS];
  const uint64_t *credit[SHOAL_LL_PLAN_PEERS];
} shoal_ll_plan;
/* The first slot of team PE `sender`'s ring on me (shoal_pushbox_ring's). */
SHOAL_SELECT_FN char *shoal_ll_ring(const shoal_team *t, int sender)
{
  size_t ring = (size_t)(t->pushbox_by_world ? shoal_team_world_pe(t, sender) : sender);
  return t->pushbox + ring * (size_t)t->pushbox_depth * t->pushbox_slot;
}

/* Team t's plan (above), with peer(addr, pe) the address of my symmetric
 * addr on world PE pe as mapped here (NULL: not mapped; shmem_ptr): false
 * (p->n 0) where a member is not mapped or the team is too large. */
SHOAL_SELECT_FN bool shoal_ll_plan_make(const shoal_team *t, shoal_ll_plan *p, void *(*peer)(const void *, int))
{
  memset(p, 0, sizeof *p);
  if (!t->pushbox || t->size > SHOAL_LL_PLAN_PEERS) return false;
  for (int q = 0; q < t->size; q++) {
    int pe = shoal_team_world_pe(t, q);
    p->out[q] = (uint64_t *)peer(shoal_ll_ring(t, t->my_pe), pe);
    if (!p->out[q]) return false;
    p->in[q] = (const uint64_t *)shoal_ll_ring(t, q);
    p->seen[q] = &shoal_chan(t, SHOAL_CHAN_CREDIT_SEEN)[pe];
    p->sent[q] = &shoal_chan(t, SHOAL_CHAN_CREDIT_SENT)[pe];
    p->credit[q] = &shoal_chan(t, SHOAL_CHAN_CREDIT_IN)[pe];
  }
  p->n = t->size;
  return true;
}

/* A thread of a lane: pair q's slots of this call -- mine on q (out: once
 * q has credited the pushes that used them depth pushes ago) and q's on me
 * (in); counted by shoal_ll_count from the counts kept here.  The counters
 * and the credit are loaded together before anything is stored into the
 * lane's view (a store through that pointer could alias them, so each
 * load waited for the one before: 0.35-0.47 us more on every LL call, 2
 * H100, bench/RESULTS.md session 22).  The credit is looked at relaxed,
 * and waited for (acquiring) only if short: the stores into the slots
 * depend on it, as NCCL's LL stores depend on its relaxed look at the
 * receiver's head, and q read the slots before it fenced and published
 * (an acquire on every call cost the small calls 0.2-0.35 us). */
SHOAL_FN void shoal_ll_claim(shoal_team *t, shoal_ll *ll, const shoal_ll_plan *p, int q, bool out, bool in,
                            uint64_t m, const char *call)
{
  uint64_t *o, *seen, *sent;
  const uint64_t *from, *credit;
  int pe = shoal_team_world_pe(t, q);
  if (p) {   /* the host's plan */
    seen = p->seen[q], sent = p->sent[q], credit = p->credit[q];
  } else {
    seen = &shoal_chan(t, SHOAL_CHAN_CREDIT_SEEN)[pe];
    sent = &shoal_chan(t, SHOAL_CHAN_CREDIT_SENT)[pe];
    credit = &shoal_chan(t, SHOAL_CHAN_CREDIT_IN)[pe];
  }
  uint64_t k = *seen, kin = *sent, have = shoal_load_relaxed(credit);
  /* From the record, the peer's mapping of my ring is looked up only once
   * the counters' loads are issued, and the slot added after: its load (by
   * peer, in constant memory on the GPU) is then in flight with theirs
   * instead of before or after them. */
  const char *mine = p ? NULL : shoal_ll_ring(t, t->my_pe);
  o = p ? p->out[q] : out ? (uint64_t *)shoal_dev_ptr(mine, pe) : NULL;
  from = p ? p->in[q] : (const uint64_t *)shoal_ll_ring(t, q);
  uint64_t depth = (uint64_t)t->pushbox_depth;
  uint32_t words = (uint32_t)(t->pushbox_slot / 8);
  if (out) {
    if (SHOAL_UNLIKELY(!o)) shoal_scope_unmapped(call, mine, pe);
    if (k + m > depth && have < k + m - depth) shoal_dev_uint64_wait_until(credit, SHMEM_CMP_GE, k + m - depth);
    uint64_t at = shoal_ll_mod(k, depth);
    ll->out[q] = o + at * words;
    ll->flag_out[q] = (uint32_t)(k + 1);
    ll->room_out[q] = (uint32_t)(depth - at) * words;
    ll->k_out[q] = k;
  }
  if (in) {
    uint64_t at = shoal_ll_mod(kin, depth);
    ll->in[q] = from + at * words;
    ll->flag_in[q] = (uint32_t)(kin + 1);
    ll->room_in[q] = (uint32_t)(depth - at) * words;
    ll->k_in[q] = kin;
  }
}

/* m pushes consumed from team PE q, whose count was c0; q hears of them
 * each time the count passes a multiple of `batch`, behind one fence for
 * all (*fenced). */
SHOAL_FN void shoal_ll_consumed(shoal_team *t, int q, uint64_t c0, uint64_t m, bool *fenced)
{
  uint64_t batch = shoal_ll_span_max(t->pushbox_depth);
  uint64_t c = c0 + m;
  shoal_chan(t, SHOAL_CHAN_CREDIT_SENT)[shoal_team_world_pe(t, q)] = c;
  if (c - shoal_ll_mod(c, batch) <= c0) return;   /* no multiple of batch in (c0, c] */
  if (!*fenced) {
    shoal_coll_fence();
    *fenced = true;
  }
  shoal_chan_publish(t, q, SHOAL_CHAN_CREDIT_IN, c);
}

/* The claims and counts of a call are spread over the lane's threads: thread
 * j takes the pair with team PE me + 1 + j (a claim is a chain of dependent
 * loads, and perhaps a wait for credits; one thread taking the pairs one
 * after another made the small calls grow with the team).  The same thread
 * takes the same pair in every call, so its counts need no other ordering. */

/* The pair thread j takes: team PE me + 1 + j, wrapping (j < np - 1, so
 * one subtraction: a remainder is a subroutine on the claims' path). */
SHOAL_FN int shoal_ll_pair(int me, unsigned j, int np)
{
  int q = me + 1 + (int)j;
  return q >= np ? q - np : q;
}

/* Lane 0, after every thread of every lane is done with the slots: count
 * the m pushes per pair of this call, from the counts its claims kept
 * (root < 0: to and from every other member; else the root's to the
 * others). */
SHOAL_FN void shoal_ll_count(const shoal_scope *s, shoal_team *t, const shoal_ll *ll, int root, uint64_t m)
{
  int np = t->size, me = t->my_pe;
  bool fenced = false;
  for (unsigned j = s->tid; j + 1 < (unsigned)np; j += s->nthreads) {
    int q = shoal_ll_pair(me, j, np);
    if (root < 0 || me == root) shoal_chan(t, SHOAL_CHAN_CREDIT_SEEN)[shoal_team_world_pe(t, q)] = ll->k_out[q] + m;
    if (root < 0 || q == root) shoal_ll_consumed(t, q, ll->k_in[q], m, &fenced);
  }
}

/* Entry: the lane's m slots per pair claimed (root < 0: every pair; else
 * the root's pushes), every thread of the lane sees them.  Lanes that meet
 * locally (a user's grid, the CPU's test lanes) wait for the lane that
 * counted the previous call; lanes that do not are a fresh kernel's (an
 * _on_stream kernel: the previous call's kernel ended first). */
SHOAL_FN void shoal_ll_open(const shoal_scope *s, shoal_team *t, shoal_ll *ll, int root, uint64_t m,
                            const char *call)
{
  int np = t->size, me = t->my_pe;
  if (s->nlanes > 1 && s->local) shoal_scope_sync_local(s, t, call);
  if (s->tid == 0) ll->ring = (uint32_t)((size_t)t->pushbox_depth * (t->pushbox_slot / 8));
  for (unsigned j = s->tid; j + 1 < (unsigned)np; j += s->nthreads) {
    int q = shoal_ll_pair(me, j, np);
    shoal_ll_claim(t, ll, s->ll_plan, q, root < 0 || me == root, root < 0 || q == root, m, call);
  }
  shoal_scope_sync_lane(s);
}
/* Exit: every thread has read its words; count the call: lane 0 after the
 * lanes meet, or, where they do not (a fresh kernel's), the last lane to
 * finish, which one relaxed add a lane finds (shoal_scope_arrive_done says
 * why no fence) -- nobody waits for the others.  A call that ends its
 * kernel lets the next one be scheduled once its lane's gets are done,
 * before the count (shoal_scope_release_next). */
SHOAL_FN void shoal_ll_close(const shoal_scope *s, shoal_team *t, shoal_ll *ll, int root, uint64_t m,
                             const char *call)
{
  if (s->nlanes > 1 && !s->local) {
    shoal_scope_sync_lane(s);
    shoal_scope_release_next(s);   /* the lane's gets are done: it waits for nobody */
    if (s->tid == 0) ll->last = shoal_scope_arrive_done(s, t);
    shoal_scope_sync_lane(s);
    if (ll->last) shoal_ll_count(s, t, ll, root, m);
    return;
  }
  if (s->nlanes > 1) {
    shoal_scope_sync_local(s, t, call);
  } else {
    shoal_scope_sync_lane(s);
    shoal_scope_release_next(s);
  }
  if (s->lane == 0) shoal_ll_count(s, t, ll, root, m);
}

/* ---- the word transport ------------------------------------------------------ */
/* Word i of my push to team PE q: data and flag in one 8-byte store (past
 * the ring's end, from its start). */
SHOAL_FN void shoal_ll_put(const shoal_ll *ll, int q, size_t i, uint32_t w)
{
  uint64_t *p = ll->out[q] + i;
  if (SHOAL_UNLIKELY(i >= ll->room_out[q])) p -= ll->ring;
  shoal_store_relaxed(p, (uint64_t)ll->flag_out[q] << 32 | w);
}

/* Word i of team PE q's push to me, once its flag says it is this call's. */
SHOAL_FN uint32_t shoal_ll_get(const shoal_ll *ll, int q, size_t i)
{
  const uint64_t *p = ll->in[q] + i;
  if (SHOAL_UNLIKELY(i >= ll->room_in[q])) p -= ll->ring;
  uint64_t v = shoal_load_relaxed(p);
  shoal_backoff b = SHOAL_BACKOFF_INIT;
  while ((uint32_t)(v >> 32) != ll->flag_in[q]) {
    shoal_backoff_wait(&b);
    v = shoal_load_relaxed(p);
  }
  return (uint32_t)v;
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
  uint32_t f[4];
  for (int j = 0; j < 4; j++) {
    p[j] = NULL, f[j] = 0;
    if (use >> j & 1) {
      p[j] = ll->in[q[j]] + i;
      if (SHOAL_UNLIKELY(i >= ll->room_in[q[j]])) p[j] -= ll->ring;
      f[j] = ll->flag_in[q[j]];
    }
  }
  shoal_backoff b = SHOAL_BACKOFF_INIT;
  for (;;) {
    uint64_t v[4];
    for (int j = 0; j < 4; j++) v[j] = (use >> j & 1) ? shoal_load_relaxed(p[j]) : 0;
    for (int j = 0; j < 4; j++)
      if ((use >> j & 1) && (uint32_t)(v[j] >> 32) == f[j]) {
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
  shoal_scope_share(n, s->lane, s->nlanes, &lo, &hi);
  uint64_t m = shoal_ll_slots(t, n * es);
  shoal_ll_open(s, t, ll, -1, m, call);
  for (size_t i = lo + s->tid; i < hi; i += nt) {
    uint64_t e = shoal_ll_elem_load((const char *)src + i * es, W);
    for (int k = 1; k < np; k++)
      for (unsigned j = 0; j < W; j++) shoal_ll_put(ll, (me + k) % np, i * W + j, shoal_ll_elem_word(e, j));
  }
  shoal_ll_combine(s, t, ll, r, dest, src, lo, hi);
  shoal_ll_close(s, t, ll, -1, m, call);
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
  shoal_scope_share(n, s->lane, s->nlanes, &lo, &hi);
  uint64_t m = shoal_ll_slots(t, n * es);
  shoal_ll_open(s, t, ll, -1, m, call);
  for (size_t i = lo + s->tid; i < hi; i += nt)
    for (int k = 1; k < np; k += 4) {   /* four peers' elements loaded before any is sent */
      int m = np - k < 4 ? np - k : 4;
      uint64_t e[4] = {0, 0, 0, 0};
      for (int g = 0; g < 4; g++)
        if (g < m) e[g] = shoal_ll_elem_load((const char *)src + ((size_t)((me + k + g) % np) * n + i) * es, W);
      for (int g = 0; g < 4; g++)
        if (g < m)
          for (unsigned j = 0; j < W; j++) shoal_ll_put(ll, (me + k + g) % np, i * W + j, shoal_ll_elem_word(e[g], j));
    }
  shoal_ll_combine(s, t, ll, r, dest, (const char *)src + (size_t)me * n * es, lo, hi);
  shoal_ll_close(s, t, ll, -1, m, call);
}

/* The words of fcollect and alltoall (below) with `aligned` a constant in
 * each inlined copy: both buffers 4-byte aligned, or byte by byte.  One
 * loop testing alignment per word let the compiler merge the two loads of
 * each word into one of the weaker alignment: byte loads, four a word,
 * where almost every call is aligned (alltoall of 16 KB at 2 PEs 0.8 us
 * slower than fcollect, bench/RESULTS.md session 14). */
SHOAL_FN void shoal_ll_exchange_words(const shoal_scope *s, shoal_team *t, shoal_ll *ll, void *dest,
                                      const void *src, size_t nw, size_t lo, size_t hi, bool alltoall,
                                      bool aligned)
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
        if (j < m) w[j] = alltoall ? shoal_ll_word_get(src, (size_t)((me + k + j) % np) * nw + i, aligned) : mine;
      for (int j = 0; j < 4; j++)
        if (j < m) shoal_ll_put(ll, (me + k + j) % np, i, w[j]);
    }
    shoal_ll_word_put(dest, (size_t)me * nw + i, mine, aligned);
  }
  /* The four-member wait is for teams of three or more, but not in the
   * _on_stream grid kernel: there alltoall of 44-87 KB per pair was 9-12%
   * slower at 3 PEs (2-4% without it), while the one-block kernel and a
   * user's grid gained 3-14% at 4 PEs (one H100 under MPS;
   * bench/RESULTS.md, session 50). */
  if (np <= 2 || (s->nlanes > 1 && s->ends_kernel)) {
    for (int k = 1; k < np; k++) {
      int q = (me + k) % np;
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

/* fcollect (alltoall false: my src to block me of every dest) and alltoall
 * (block q of my src to block me of q's dest), nbytes per member, a whole
 * number of words. */
SHOAL_FN void shoal_ll_exchange(const shoal_scope *s, shoal_team *t, shoal_ll *ll, void *dest, const void *src,
                                size_t nbytes, bool alltoall, const char *call)
{
  size_t nw = nbytes / 4, lo, hi;
  uint64_t m = shoal_ll_slots(t, nbytes);
  shoal_scope_share(nw, s->lane, s->nlanes, &lo, &hi);
  shoal_ll_open(s, t, ll, -1, m, call);
  if ((((uintptr_t)src | (uintptr_t)dest) & 3) == 0)
    shoal_ll_exchange_words(s, t, ll, dest, src, nw, lo, hi, alltoall, true);
  else
    shoal_ll_exchange_words(s, t, ll, dest, src, nw, lo, hi, alltoall, false);
  shoal_ll_close(s, t, ll, -1, m, call);
}

/* The broadcast's words, `aligned` as in shoal_ll_exchange_words. */
SHOAL_FN void shoal_ll_broadcast_words(const shoal_scope *s, shoal_team *t, shoal_ll *ll, void *dest,
                                       const void *src, size_t lo, size_t hi, int root, bool aligned)
{
  int np = t->size, me = t->my_pe;
  unsigned nt = s->nthreads;
  if (me == root) {
    for (size_t i = lo + s->tid; i < hi; i += nt) {
      uint32_t w = shoal_ll_word_get(src, i, aligned);
      for (int k = 1; k < np; k++) shoal_ll_put(ll, (me + k) % np, i, w);
      shoal_ll_word_put(dest, i, w, aligned);
    }
  } else {
    for (size_t i = lo + s->tid; i < hi; i += nt) shoal_ll_word_put(dest, i, shoal_ll_get(ll, root, i), aligned);
  }
}

/* Broadcast of nbytes (a whole number of words) from team PE root. */
SHOAL_FN void shoal_ll_broadcast(const shoal_scope *s, shoal_team *t, shoal_ll *ll, void *dest, const void *src,
                                 size_t nbytes, int root, const char *call)
{
  size_t nw = nbytes / 4, lo, hi;
  uint64_t m = shoal_ll_slots(t, nbytes);
  shoal_scope_share(nw, s->lane, s->nlanes, &lo, &hi);
  shoal_ll_open(s, t, ll, root, m, call);
  /* src is only read on the root: elsewhere its alignment does not matter */
  uintptr_t a = (uintptr_t)dest | (t->my_pe == root ? (uintptr_t)src : 0);
  if ((a & 3) == 0)
    shoal_ll_broadcast_words(s, t, ll, dest, src, lo, hi, root, true);
  else
    shoal_ll_broadcast_words(s, t, ll, dest, src, lo, hi, root, false);
  shoal_ll_close(s, t, ll, root, m, call);
}

/* which: 0 broadcast, 1 fcollect, 2 alltoall (the GPU's numbering). */
SHOAL_FN void shoal_ll_move(const shoal_scope *s, shoal_team *t, shoal_ll *ll, int which, void *dest,
                            const void *src, size_t nbytes, int root, const char *call)
{
  if (which == 0) shoal_ll_broadcast(s, t, ll, dest, src, nbytes, root, call);
  else shoal_ll_exchange(s, t, ll, dest, src, nbytes, which == 2, call);
}

#endif
