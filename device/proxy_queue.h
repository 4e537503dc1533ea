/* The command queue between a PE's GPU kernels and its host proxy.
 *
 * Written once in the portable subset of device/arch.h: GPU threads post
 * with it, the proxy thread (C) consumes with it, and the CPU unit test
 * (tests/unit/test_proxy_queue.c) drives both sides with threads.
 *
 * A bounded ring of slots (a power of two) with a ticket per command:
 *  - a producer takes ticket t from *head (an atomic add; on a GPU the
 *    counter lives in device memory, so no atomics cross the bus), waits
 *    until slot t % cap is free for t (seq == t), fills it, and publishes it
 *    with a release store seq = t + 1;
 *  - the one consumer takes tickets in order, so commands of one thread
 *    (increasing tickets) are carried out in the order they were issued;
 *  - *done counts commands carried out, in ticket order: ticket t is
 *    complete once *done > t;
 *  - a slot is handed back (seq = t + cap) by the consumer as soon as it
 *    has read the command, or, for a command with a result, by the
 *    producer once it has read the result.
 * Slots, done and quiet_mark are host memory mapped into the GPU. */
#ifndef SHOAL_DEVICE_PROXY_QUEUE_H
#define SHOAL_DEVICE_PROXY_QUEUE_H

#include "arch.h"
#ifndef __cplusplus
#include <stdbool.h>
#endif

/* What a command asks the proxy to do. */
enum shoal_pq_op {
  SHOAL_PQ_PUT = 1,     /* dest (symmetric) <- src, n bytes */
  SHOAL_PQ_GET,         /* dest <- src (symmetric), n bytes */
  SHOAL_PQ_AMO,         /* amo_op, dtype on dest with operand, compare; result */
  SHOAL_PQ_QUIET,       /* every earlier command complete at its target */
  SHOAL_PQ_PUT_INLINE,  /* dest (symmetric) <- the n <= 8 bytes in operand */
  SHOAL_PQ_GET_INLINE,  /* result <- src (symmetric), n <= 8 bytes */
};

typedef struct shoal_pq_cmd {
  uint64_t seq;         /* t: free for ticket t; t + 1: holds ticket t */
  uint32_t op, pe;
  uint32_t amo_op, dtype;
  uint64_t dest, src, n;
  uint64_t operand, compare;
  uint64_t result;      /* written by the proxy for fetching AMOs */
  uint64_t pad[6];      /* one slot per 128 bytes: no false sharing */
} shoal_pq_cmd;

typedef struct shoal_pq {
  uint64_t *head;        /* next ticket */
  shoal_pq_cmd *slots;   /* [cap] */
  uint64_t *done;        /* tickets carried out, in order */
  uint64_t *quiet_mark;  /* head as of the last quiet carried out */
  uint64_t cap;          /* a power of two */
} shoal_pq;

/* Start state: slot i free for ticket i, nothing done. */
SHOAL_FN void shoal_pq_reset(shoal_pq *q)
{
  for (uint64_t i = 0; i < q->cap; i++) q->slots[i].seq = i;
  *q->head = 0;
  *q->done = 0;
  *q->quiet_mark = 0;
}

/* Producer: post c (its seq is ignored); returns the ticket. */
SHOAL_FN uint64_t shoal_pq_post(const shoal_pq *q, const shoal_pq_cmd *c)
{
  uint64_t t = shoal_fetch_add(q->head, (uint64_t)1);
  shoal_pq_cmd *s = &q->slots[t & (q->cap - 1)];
  shoal_backoff b = SHOAL_BACKOFF_INIT;
  while (shoal_load_acquire(&s->seq) != t) shoal_backoff_wait(&b);
  s->op = c->op;
  s->pe = c->pe;
  s->amo_op = c->amo_op;
  s->dtype = c->dtype;
  s->dest = c->dest;
  s->src = c->src;
  s->n = c->n;
  s->operand = c->operand;
  s->compare = c->compare;
  s->result = 0;
  shoal_fence_system();   /* the fields reach the host before the ticket */
  shoal_store_release(&s->seq, t + 1);
  return t;
}

SHOAL_FN bool shoal_pq_is_done(const shoal_pq *q, uint64_t t)
{
  return shoal_load_acquire(q->done) > t;
}

SHOAL_FN void shoal_pq_wait(const shoal_pq *q, uint64_t t)
{
  shoal_backoff b = SHOAL_BACKOFF_INIT;
  while (!shoal_pq_is_done(q, t)) shoal_backoff_wait(&b);
}

/* Producer of a command with a result: wait for it, read it, and hand the
 * slot back. */
SHOAL_FN uint64_t shoal_pq_take_result(const shoal_pq *q, uint64_t t)
{
  shoal_pq_wait(q, t);
  shoal_pq_cmd *s = &q->slots[t & (q->cap - 1)];
  uint64_t r = shoal_load_relaxed(&s->result);
  shoal_store_release(&s->seq, t + q->cap);
  return r;
}

/* Consumer: the command of ticket t if it has been posted (copied to *c),
 * else false.  The consumer asks for tickets 0, 1, 2, ... in order. */
SHOAL_FN bool shoal_pq_peek(const shoal_pq *q, uint64_t t, shoal_pq_cmd *c)
{
  shoal_pq_cmd *s = &q->slots[t & (q->cap - 1)];
  if (shoal_load_acquire(&s->seq) != t + 1) return false;
  *c = *s;
  return true;
}

/* Consumer: ticket t is carried out; result is stored for a producer that
 * takes it (keep_slot), otherwise the slot is free again at once. */
SHOAL_FN void shoal_pq_complete(const shoal_pq *q, uint64_t t, bool keep_slot, uint64_t result)
{
  shoal_pq_cmd *s = &q->slots[t & (q->cap - 1)];
  if (keep_slot) shoal_store_relaxed(&s->result, result);
  else shoal_store_release(&s->seq, t + q->cap);
  shoal_store_release(q->done, t + 1);
}

#endif
