/* The command queue between a PE's GPU kernels and its host proxy.
 *
 * Written once in the portable subset of device/arch.h: GPU threads post
 * with it, the proxy thread (C) consumes with it, and the CPU unit test
 * (tests/unit/test_proxy_queue.c) drives both sides with threads.
 *
 * On a GPU every access to the queue's host memory crosses PCIe: a read is
 * a round trip (~1 us), a write is posted (the GPU does not wait), and a
 * system fence waits for every posted write.  So the hot path posts with
 * stores only and reads host memory once per result.
 *
 * A bounded ring of cap slots (a power of two, >= 2) with a ticket per
 * command; tag(t) = (uint32_t)(t + 1).
 *
 * Posting (producer, any GPU thread):
 *  - ticket t = atomic add on *head (device memory on a GPU);
 *  - slot t % cap is free for t once the consumer has carried out ticket
 *    t - cap (*done > t - cap).  *done_seen (device memory, next to head)
 *    is a lower bound of *done, raised (atomic max) by any producer that
 *    reads done or receives a result, so normally t < *done_seen + cap and
 *    the producer posts without reading host memory; otherwise it polls
 *    *done (host) and raises done_seen;
 *  - the command is 14 words of 8 bytes, each {32 bits of data, tag(t)}
 *    (LL: the flag is in the data).  8-byte aligned stores and loads are
 *    single-copy atomic on both sides, so the consumer sees the command
 *    posted once every word carries tag(t), whatever order the words
 *    arrive in: no fence and no separate flag.  Exception: a command whose
 *    proxy copies device memory (SHOAL_PQ_PUT's src, SHOAL_PQ_GET's dest)
 *    first fences, so that the kernel's earlier stores to that memory are
 *    done before the proxy's copy engine touches it.
 *
 * Consuming (the proxy thread, one): tickets in order.  It takes ticket t
 * once every word of slot t % cap carries tag(t), carries it out, writes a
 * fetching command's result, then *done = t + 1.  Storing done is what
 * hands the slot back: the consumer has read and checked all 14 words by
 * then, so the next producer's stores cannot be what it read (which is also
 * why done_seen needs no ordering: it only says when a store may start).
 * Stale words in a slot carry tag(t - cap), never tag(t) (cap < 2^32).
 *
 * Results (fetching AMOs, GET_INLINE): entry t % cap of results[], 16
 * bytes, two words {32 bits of the result, tag(t)}.  The producer polls
 * with one 16-byte load (one PCIe read per poll, none after it, done not
 * read) until both tags are tag(t).  It then hands the entry back by
 * storing marks {tag(t) + 1, tag(t) - 1} in place (one posted store); the
 * consumer writes a result into an entry only when its two tags differ by
 * exactly 2 (the previous fetching occupant took its result).  That wait
 * cannot deadlock: the occupant is an earlier ticket, whose producer
 * already polls for (or has read) a result the consumer has written.  The
 * tags of entry i's tickets are i + 1 mod cap; the marks and the initial
 * tags are i + 2 and i mod cap, so neither a taken entry nor a mix of its
 * old and new words (a torn read while the consumer writes) ever reads as
 * a result.  (Only a result left unread while 2^32 more tickets pass could
 * pass for a later one; its producer polls for it from the moment it
 * posts.)  A result of ticket t means done >= t (tickets are carried out in
 * order), so it raises done_seen to t.
 *
 * *done counts commands carried out, in ticket order: ticket t is complete
 * once *done > t (blocking put/get and quiet wait on it).  *quiet_mark is
 * head as of the last quiet carried out.  Slots, results, done and
 * quiet_mark are host memory mapped into the GPU. */
#ifndef SHOAL_DEVICE_PROXY_QUEUE_H
#define SHOAL_DEVICE_PROXY_QUEUE_H

#include "arch.h"
#include <shoal/constants.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

/* What a command asks the proxy to do. */
enum shoal_pq_op {
  SHOAL_PQ_PUT = 1,     /* dest (symmetric) <- src, n bytes */
  SHOAL_PQ_GET,         /* dest <- src (symmetric), n bytes */
  SHOAL_PQ_AMO,         /* amo_op, dtype on dest with operand, compare; result if n != 0 */
  SHOAL_PQ_QUIET,       /* every earlier command complete at its target */
  SHOAL_PQ_PUT_INLINE,  /* dest (symmetric) <- the n <= 8 bytes in operand */
  SHOAL_PQ_GET_INLINE,  /* result <- src (symmetric), n <= 8 bytes */
};

/* A command as both sides see it (the slot holds it as tagged words). */
typedef struct shoal_pq_cmd {
  uint32_t op, pe;
  uint32_t amo_op, dtype;
  uint64_t dest, src, n;
  uint64_t operand, compare;
} shoal_pq_cmd;

/* 4 32-bit fields and 5 64-bit ones: 14 words of 32 bits of data. */
#define SHOAL_PQ_WORDS 14

/* 112 bytes of command and 16 unused: one slot per 128 bytes, so a
 * producer's stores never share a 64-byte line with the next slot's.  The
 * results live apart (results[]): a slot's lines are written by GPU
 * producers only, a result entry's by the proxy and its one reader. */
typedef struct shoal_pq_slot {
  uint64_t w[SHOAL_PQ_WORDS];   /* stored two at a time (16-byte aligned) */
  uint64_t pad[2];
} __attribute__((aligned(16))) shoal_pq_slot;

/* Aligned for one 16-byte access. */
typedef struct shoal_pq_result {
  uint64_t w[2];
} __attribute__((aligned(16))) shoal_pq_result;

typedef struct shoal_pq {
  uint64_t *head;            /* next ticket (device memory on a GPU) */
  uint64_t *done_seen;       /* a lower bound of *done (device memory on a GPU) */
  shoal_pq_slot *slots;      /* [cap] */
  shoal_pq_result *results;  /* [cap] */
  uint64_t *done;            /* tickets carried out, in order */
  uint64_t *quiet_mark;      /* head as of the last quiet carried out */
  uint64_t cap;              /* a power of two, >= 2 */
} shoal_pq;

SHOAL_FN uint32_t shoal_pq_tag(uint64_t t) { return (uint32_t)(t + 1); }
SHOAL_FN uint64_t shoal_pq_word(uint32_t data, uint32_t tag) { return (uint64_t)tag << 32 | data; }
SHOAL_FN uint32_t shoal_pq_tag_of(uint64_t w) { return (uint32_t)(w >> 32); }

/* Does the proxy write a result for this command? */
SHOAL_FN bool shoal_pq_fetches(const shoal_pq_cmd *c)
{
  return c->op == SHOAL_PQ_GET_INLINE || (c->op == SHOAL_PQ_AMO && c->n != 0);
}

/* Two adjacent words, 16-byte aligned: one access on a GPU (one PCIe
 * transaction), two single-copy atomic 8-byte accesses elsewhere.  Either
 * way each 8-byte half is atomic on its own, which is all the tags need. */
#if defined(__HIPCC__)
typedef uint64_t shoal_pq_u64x2 __attribute__((ext_vector_type(2)));
#endif
SHOAL_FN void shoal_pq_store2(uint64_t *p, uint64_t a, uint64_t b)
{
#if defined(__CUDA_ARCH__)
  asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
#elif defined(__HIP_DEVICE_COMPILE__)
  shoal_pq_u64x2 v = {a, b};
  *(volatile shoal_pq_u64x2 *)p = v;
#else
  shoal_store_relaxed(&p[0], a);
  shoal_store_relaxed(&p[1], b);
#endif
}
SHOAL_FN void shoal_pq_load2(const uint64_t *p, uint64_t *a, uint64_t *b)
{
#if defined(__CUDA_ARCH__)
  asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];" : "=l"(*a), "=l"(*b) : "l"(p) : "memory");
#elif defined(__HIP_DEVICE_COMPILE__)
  shoal_pq_u64x2 v = *(const volatile shoal_pq_u64x2 *)p;
  *a = v.x;
  *b = v.y;
#else
  *a = shoal_load_acquire(&p[0]);
  *b = shoal_load_acquire(&p[1]);
#endif
}

/* The marks that hand a result entry back after ticket t's result was read
 * (also the start state, as if ticket i - cap of entry i had been taken). */
SHOAL_FN void shoal_pq_result_marks(uint64_t t, uint64_t *a, uint64_t *b)
{
  *a = shoal_pq_word(0, shoal_pq_tag(t) + 1);
  *b = shoal_pq_word(0, shoal_pq_tag(t) - 1);
}

/* Start state: nothing posted, every result entry handed back. */
SHOAL_FN void shoal_pq_reset(shoal_pq *q)
{
  for (uint64_t i = 0; i < q->cap; i++) {
    /* A tag that no ticket of slot i has (they are = i + 1 mod cap). */
    for (int k = 0; k < SHOAL_PQ_WORDS; k++) q->slots[i].w[k] = shoal_pq_word(0, (uint32_t)i);
    shoal_pq_result_marks(i - q->cap, &q->results[i].w[0], &q->results[i].w[1]);
  }
  *q->head = 0;
  *q->done_seen = 0;
  *q->done = 0;
  *q->quiet_mark = 0;
}

SHOAL_FN uint64_t shoal_pq_lo(uint64_t v, uint32_t tag) { return shoal_pq_word((uint32_t)v, tag); }
SHOAL_FN uint64_t shoal_pq_hi(uint64_t v, uint32_t tag) { return shoal_pq_word((uint32_t)(v >> 32), tag); }
SHOAL_FN uint64_t shoal_pq_join(uint64_t lo, uint64_t hi) { return (uint32_t)lo | (uint64_t)(uint32_t)hi << 32; }

/* (Written out, no loops: on a GPU the words stay in registers.) */
SHOAL_FN void shoal_pq_encode(const shoal_pq_cmd *c, uint32_t tag, uint64_t w[SHOAL_PQ_WORDS])
{
  w[0] = shoal_pq_word(c->op, tag);
  w[1] = shoal_pq_word(c->pe, tag);
  w[2] = shoal_pq_word(c->amo_op, tag);
  w[3] = shoal_pq_word(c->dtype, tag);
  w[4] = shoal_pq_lo(c->dest, tag);
  w[5] = shoal_pq_hi(c->dest, tag);
  w[6] = shoal_pq_lo(c->src, tag);
  w[7] = shoal_pq_hi(c->src, tag);
  w[8] = shoal_pq_lo(c->n, tag);
  w[9] = shoal_pq_hi(c->n, tag);
  w[10] = shoal_pq_lo(c->operand, tag);
  w[11] = shoal_pq_hi(c->operand, tag);
  w[12] = shoal_pq_lo(c->compare, tag);
  w[13] = shoal_pq_hi(c->compare, tag);
}

SHOAL_FN void shoal_pq_decode(const uint64_t w[SHOAL_PQ_WORDS], shoal_pq_cmd *c)
{
  c->op = (uint32_t)w[0];
  c->pe = (uint32_t)w[1];
  c->amo_op = (uint32_t)w[2];
  c->dtype = (uint32_t)w[3];
  c->dest = shoal_pq_join(w[4], w[5]);
  c->src = shoal_pq_join(w[6], w[7]);
  c->n = shoal_pq_join(w[8], w[9]);
  c->operand = shoal_pq_join(w[10], w[11]);
  c->compare = shoal_pq_join(w[12], w[13]);
}

/* done_seen only grows; a stale read of it is still a lower bound. */
SHOAL_FN void shoal_pq_raise_done_seen(const shoal_pq *q, uint64_t d)
{
  shoal_fetch_max(q->done_seen, d);
}

/* Producer, the rare path: the ring is full as far as done_seen knows;
 * read done itself until slot t is free. */
SHOAL_FN void shoal_pq_wait_free(const shoal_pq *q, uint64_t t)
{
  shoal_backoff b = SHOAL_BACKOFF_WATCH(q->done, SHMEM_CMP_GT, t - q->cap);
  for (;;) {
    if (t < shoal_load_relaxed(q->done_seen) + q->cap) return;   /* raised by another producer */
    uint64_t d = shoal_load_acquire(q->done);
    if (t < d + q->cap) {
      shoal_pq_raise_done_seen(q, d);
      return;
    }
    shoal_backoff_wait(&b);
  }
}

/* Producer: post c; returns the ticket. */
SHOAL_FN uint64_t shoal_pq_post(const shoal_pq *q, const shoal_pq_cmd *c)
{
  /* Read before the ticket is taken, so both accesses are in flight at
   * once: the bound only grows, so an early value is still a bound. */
  uint64_t seen = shoal_load_relaxed(q->done_seen);
  uint64_t t = shoal_fetch_add(q->head, (uint64_t)1);
  if (SHOAL_UNLIKELY(t >= seen + q->cap)) shoal_pq_wait_free(q, t);
  uint64_t w[SHOAL_PQ_WORDS];
  shoal_pq_encode(c, shoal_pq_tag(t), w);
  /* The proxy's copy engine reads src (put) or writes dest (get) in device
   * memory: the kernel's stores there come first. */
  if (c->op == SHOAL_PQ_PUT || c->op == SHOAL_PQ_GET) shoal_fence_system();
  uint64_t *s = q->slots[t & (q->cap - 1)].w;
  shoal_pq_store2(&s[0], w[0], w[1]);
  shoal_pq_store2(&s[2], w[2], w[3]);
  shoal_pq_store2(&s[4], w[4], w[5]);
  shoal_pq_store2(&s[6], w[6], w[7]);
  shoal_pq_store2(&s[8], w[8], w[9]);
  shoal_pq_store2(&s[10], w[10], w[11]);
  shoal_pq_store2(&s[12], w[12], w[13]);
  return t;
}

SHOAL_FN bool shoal_pq_is_done(const shoal_pq *q, uint64_t t)
{
  return shoal_load_acquire(q->done) > t;
}

/* Producer: wait until ticket t is carried out. */
SHOAL_FN void shoal_pq_wait(const shoal_pq *q, uint64_t t)
{
  shoal_backoff b = SHOAL_BACKOFF_WATCH(q->done, SHMEM_CMP_GT, t);
  while (!shoal_pq_is_done(q, t)) shoal_backoff_wait(&b);
  shoal_pq_raise_done_seen(q, t + 1);
}

/* Producer of a fetching command: its result if it is there (then the
 * entry is handed back), else false.  One 16-byte read. */
SHOAL_FN bool shoal_pq_poll_result(const shoal_pq *q, uint64_t t, uint64_t *result)
{
  uint64_t *e = q->results[t & (q->cap - 1)].w;
  uint32_t tag = shoal_pq_tag(t);
  uint64_t lo, hi;
  shoal_pq_load2(e, &lo, &hi);
  if (shoal_pq_tag_of(lo) != tag || shoal_pq_tag_of(hi) != tag) return false;
  uint64_t a, b;
  shoal_pq_result_marks(t, &a, &b);
  shoal_pq_store2(e, a, b);
  shoal_pq_raise_done_seen(q, t);   /* in order: t - 1 is done */
  *result = shoal_pq_join(lo, hi);
  return true;
}

/* Producer of a fetching command: wait for its result.  (The watchdog
 * names done, which says how far the proxy got.) */
SHOAL_FN uint64_t shoal_pq_take_result(const shoal_pq *q, uint64_t t)
{
  shoal_backoff b = SHOAL_BACKOFF_WATCH(q->done, SHMEM_CMP_GT, t);
  uint64_t r;
  while (!shoal_pq_poll_result(q, t, &r)) shoal_backoff_wait(&b);
  return r;
}

/* Consumer: may ticket t's result be written into its entry (has the
 * previous fetching occupant taken its own)? */
SHOAL_FN bool shoal_pq_result_free(const shoal_pq *q, uint64_t t)
{
  const uint64_t *e = q->results[t & (q->cap - 1)].w;
  uint64_t lo = shoal_load_acquire(&e[0]), hi = shoal_load_acquire(&e[1]);
  return shoal_pq_tag_of(lo) == shoal_pq_tag_of(hi) + 2;
}

/* Host side, any thread: has a producer begun posting ticket t (a word of
 * its slot carries tag(t))?  With t = *done: is a command waiting?  A
 * finished kernel's tickets are contiguous and fully written, so "no"
 * means everything it posted is carried out -- without reading head,
 * which lives in device memory.  (A consumed slot keeps its tags: asked
 * again with the new done, the answer moves on.) */
SHOAL_FN bool shoal_pq_pending(const shoal_pq *q, uint64_t t)
{
  const uint64_t *s = q->slots[t & (q->cap - 1)].w;
  for (int i = 0; i < SHOAL_PQ_WORDS; i++)
    if (shoal_pq_tag_of(shoal_load_acquire(&s[i])) == shoal_pq_tag(t)) return true;
  return false;
}

/* Consumer: the command of ticket t if it has been posted in full (copied
 * to *c) and, if it fetches, its result entry is free; else false.  The
 * consumer asks for tickets 0, 1, 2, ... in order. */
SHOAL_FN bool shoal_pq_peek(const shoal_pq *q, uint64_t t, shoal_pq_cmd *c)
{
  const uint64_t *s = q->slots[t & (q->cap - 1)].w;
  uint32_t tag = shoal_pq_tag(t);
  uint64_t w[SHOAL_PQ_WORDS];
  for (int i = 0; i < SHOAL_PQ_WORDS; i++) {
    w[i] = shoal_load_acquire(&s[i]);
    if (shoal_pq_tag_of(w[i]) != tag) return false;
  }
  shoal_pq_decode(w, c);
  /* Rare: wait here, where the consumer's loop can still stop. */
  if (shoal_pq_fetches(c) && !shoal_pq_result_free(q, t)) return false;
  return true;
}

/* Consumer: ticket t (taken with peek) is carried out; a fetching
 * command's result goes to its entry first. */
SHOAL_FN void shoal_pq_complete(const shoal_pq *q, uint64_t t, bool fetches, uint64_t result)
{
  if (fetches) {
    uint64_t *e = q->results[t & (q->cap - 1)].w;
    uint32_t tag = shoal_pq_tag(t);
    shoal_store_relaxed(&e[0], shoal_pq_lo(result, tag));
    shoal_store_relaxed(&e[1], shoal_pq_hi(result, tag));
  }
  shoal_store_release(q->done, t + 1);
}

#endif
