/* Distributed locks: a ticket lock in the symmetric long on PE 0.
 * High 32 bits: next ticket; low 32 bits: ticket now served.  Fair, and
 * waiters poll with backoff, so 4 PEs on 2 cores make progress. */
#include "internal.h"
#include "../device/amo.h"

#define TICKET ((int64_t)1 << 32)
#define SERVING_MASK ((int64_t)0xffffffff)

static void lock_check(const char *call, long *lock)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  if (!lock) shoal_error(call, "argument 'lock' is NULL");
  SHOAL_CHECK_SYM(call, "lock", lock, sizeof *lock);
}

void shmem_set_lock(long *lock)
{
  lock_check("shmem_set_lock", lock);
  int64_t *l = (int64_t *)lock;
  int64_t ticket = (shoal_dev_int64_fetch_add(SHOAL_DEV_CTX, l, TICKET, 0) >> 32) & SERVING_MASK;
  shoal_backoff b = SHOAL_BACKOFF_WATCH(l, SHMEM_CMP_EQ, ticket);   /* serving == my ticket */
  b.size = 0;   /* the lock's word lives on PE 0: no local value to show */
  while ((shoal_dev_int64_fetch(SHOAL_DEV_CTX, l, 0) & SERVING_MASK) != ticket) {
    shoal_wait_progress();
    shoal_backoff_wait(&b);
  }
  shoal_fence_system();   /* the critical section starts after the acquire */
}

int shmem_test_lock(long *lock)
{
  lock_check("shmem_test_lock", lock);
  int64_t *l = (int64_t *)lock;
  int64_t old = shoal_dev_int64_fetch(SHOAL_DEV_CTX, l, 0);
  if (((old >> 32) & SERVING_MASK) != (old & SERVING_MASK)) return 1;   /* held */
  if (shoal_dev_int64_compare_swap(SHOAL_DEV_CTX, l, old, old + TICKET, 0) != old) return 1;
  shoal_fence_system();
  return 0;
}

void shmem_clear_lock(long *lock)
{
  lock_check("shmem_clear_lock", lock);
  int64_t *l = (int64_t *)lock;
  shoal_dev_quiet(SHOAL_DEV_CTX);   /* the critical section's updates land first */
  /* Advance "serving" without carrying into the ticket half. */
  int64_t old = shoal_dev_int64_fetch(SHOAL_DEV_CTX, l, 0);
  for (;;) {
    int64_t next = (old & ~SERVING_MASK) | ((old + 1) & SERVING_MASK);
    int64_t seen = shoal_dev_int64_compare_swap(SHOAL_DEV_CTX, l, old, next, 0);
    if (seen == old) break;
    old = seen;
  }
}
