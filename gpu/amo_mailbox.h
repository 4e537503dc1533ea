/* The mailbox between the host and the kernel that applies AMOs to GPU
 * memory (gpu/gpu_lib.cu: a peer's AMOs through the host proxy, and the
 * host API's on GPU memory).  One request at a time: the host posts request
 * n and waits for its answer before it posts n + 1.
 *
 * Every access the kernel makes crosses PCIe, so it works as the proxy's
 * queue does (device/proxy_queue.h): request n is 8 words of {32 bits of
 * data, tag n}, which the kernel reads with four 16-byte loads in flight at
 * once and takes when every word carries tag n -- no flag read first and no
 * acquire, whatever order the words arrive in; the answer is 2 such words,
 * stored at once, which the host polls for tag n (no done word, no
 * release).  8-byte accesses are single-copy atomic on both sides, and a
 * stale word carries tag n - 1 (request n + 1 comes only after answer n),
 * so neither side ever takes a torn or an old value.  The kernel fences
 * between the AMO and its answer (gpu_lib.cu).
 *
 * The host's side is plain inline code (host code of a GPU unit, or C);
 * the kernel's is device/arch.h's SHOAL_FN.  The CPU unit test
 * (tests/unit/test_amo_mailbox.c) drives both with threads. */
#ifndef SHOAL_GPU_AMO_MAILBOX_H
#define SHOAL_GPU_AMO_MAILBOX_H

#include "../device/proxy_queue.h"

enum { SHOAL_AMO_BOX_WORDS = 8 };

typedef struct shoal_amo_box {
  uint64_t req[SHOAL_AMO_BOX_WORDS];   /* host: op | dt << 8, target, a, b (lo, hi each), a spare */
  uint64_t ans[2];                     /* kernel: the result (lo, hi) */
  int quit;                            /* host: leave as soon as idle (shmem_finalize) */
} __attribute__((aligned(64))) shoal_amo_box;

/* What a request asks: AMO op (< 256) of dtype dt (< 256) on target with
 * operand a and compare b. */
typedef struct shoal_amo_req {
  uint32_t op, dt;
  uint64_t target, a, b;
} shoal_amo_req;

/* ---- the host's side ---------------------------------------------------- */

static inline uint64_t shoal_amo_box_word(uint32_t data, uint32_t tag) { return (uint64_t)tag << 32 | data; }

/* The start state, as if request n0 had been answered: the next is n0 + 1. */
static inline void shoal_amo_box_reset(shoal_amo_box *x, uint32_t n0)
{
  for (int i = 0; i < SHOAL_AMO_BOX_WORDS; i++) x->req[i] = shoal_amo_box_word(0, n0);
  x->ans[0] = x->ans[1] = shoal_amo_box_word(0, n0);
  x->quit = 0;
}

/* Post request n (the word with op last: not needed, but a reader that
 * polls word 0 first then mostly finds the rest there). */
static inline void shoal_amo_box_post(shoal_amo_box *x, uint32_t n, const shoal_amo_req *r)
{
  uint64_t w[SHOAL_AMO_BOX_WORDS] = {
      shoal_amo_box_word(r->op | r->dt << 8, n),
      shoal_amo_box_word((uint32_t)r->target, n), shoal_amo_box_word((uint32_t)(r->target >> 32), n),
      shoal_amo_box_word((uint32_t)r->a, n),      shoal_amo_box_word((uint32_t)(r->a >> 32), n),
      shoal_amo_box_word((uint32_t)r->b, n),      shoal_amo_box_word((uint32_t)(r->b >> 32), n),
      shoal_amo_box_word(0, n)};
  for (int i = SHOAL_AMO_BOX_WORDS - 1; i >= 0; i--) __atomic_store_n(&x->req[i], w[i], __ATOMIC_RELAXED);
}

/* The answer to request n if it is there. */
static inline bool shoal_amo_box_answered(const shoal_amo_box *x, uint32_t n, uint64_t *result)
{
  uint64_t lo = __atomic_load_n(&x->ans[0], __ATOMIC_ACQUIRE), hi = __atomic_load_n(&x->ans[1], __ATOMIC_ACQUIRE);
  if ((uint32_t)(lo >> 32) != n || (uint32_t)(hi >> 32) != n) return false;
  *result = (uint32_t)lo | (uint64_t)(uint32_t)hi << 32;
  return true;
}

/* ---- the kernel's side -------------------------------------------------- */

/* Request n if it has been posted in full.  Four 16-byte loads, issued
 * together (their values are used only after the last). */
SHOAL_FN bool shoal_amo_box_take(const shoal_amo_box *x, uint32_t n, shoal_amo_req *r)
{
  uint64_t w[SHOAL_AMO_BOX_WORDS];
  shoal_pq_load2(&x->req[0], &w[0], &w[1]);
  shoal_pq_load2(&x->req[2], &w[2], &w[3]);
  shoal_pq_load2(&x->req[4], &w[4], &w[5]);
  shoal_pq_load2(&x->req[6], &w[6], &w[7]);
  bool all = true;
  for (int i = 0; i < SHOAL_AMO_BOX_WORDS; i++) all = all && shoal_pq_tag_of(w[i]) == n;
  if (!all) return false;
  r->op = (uint8_t)w[0];
  r->dt = (uint8_t)(w[0] >> 8);
  r->target = shoal_pq_join(w[1], w[2]);
  r->a = shoal_pq_join(w[3], w[4]);
  r->b = shoal_pq_join(w[5], w[6]);
  return true;
}

/* Answer request n: one 16-byte store. */
SHOAL_FN void shoal_amo_box_reply(shoal_amo_box *x, uint32_t n, uint64_t result)
{
  shoal_pq_store2(x->ans, shoal_pq_lo(result, n), shoal_pq_hi(result, n));
}

#endif
