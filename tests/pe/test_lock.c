/* Distributed locks: set/test/clear protecting a non-atomic read-modify-
 * write on PE 0 under contention from every PE, two independent locks, and
 * a multi-word critical section that would show any interleaving. */
#include "shoal_test.h"

#include <sched.h>

#define ITERS 300
#define WORDS 8

static long lock_a, lock_b;     /* symmetric globals, zero = unlocked */
static int counter_a, counter_b;
static int owner_words[WORDS];

/* g, then p: lost updates unless the lock excludes the other PEs. */
static void unsafe_increment(int *counter)
{
  int v = shmem_int_g(counter, 0);
  if ((v & 7) == 0) sched_yield();   /* widen the window */
  shmem_int_p(counter, v + 1, 0);
}

START_TEST(test_set_lock_counter)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  shmem_barrier_all();
  for (int i = 0; i < ITERS; i++) {
    shmem_set_lock(&lock_a);
    unsafe_increment(&counter_a);
    shmem_clear_lock(&lock_a);
  }
  shmem_barrier_all();
  if (me == 0) ck_assert_int_eq(counter_a, np * ITERS);
  shmem_barrier_all();
}
END_TEST

START_TEST(test_test_lock_counter)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  shmem_barrier_all();
  long busy = 0;
  for (int i = 0; i < ITERS; i++) {
    while (shmem_test_lock(&lock_b)) {
      busy++;
      sched_yield();
    }
    unsafe_increment(&counter_b);
    shmem_clear_lock(&lock_b);
  }
  shmem_barrier_all();
  if (me == 0) ck_assert_int_eq(counter_b, np * ITERS);
  shmem_barrier_all();
}
END_TEST

/* Two locks at once: holding one never blocks the other. */
START_TEST(test_two_locks)
{
  int me = shmem_my_pe();
  shmem_barrier_all();
  if (me == 0) {
    shmem_set_lock(&lock_a);
    ck_assert_int_eq(shmem_test_lock(&lock_b), 0);   /* free: taken */
    ck_assert_int_eq(shmem_test_lock(&lock_b), 1);   /* now held */
    ck_assert_int_eq(shmem_test_lock(&lock_a), 1);
    shmem_clear_lock(&lock_b);
    shmem_clear_lock(&lock_a);
    ck_assert_int_eq(shmem_test_lock(&lock_a), 0);
    shmem_clear_lock(&lock_a);
  }
  shmem_barrier_all();
}
END_TEST

/* Inside the lock, write my id to all words on PE 0 and read them back:
 * another PE inside at the same time would show in the readback. */
START_TEST(test_lock_exclusion)
{
  int me = shmem_my_pe();
  int mine[WORDS], back[WORDS];
  for (int w = 0; w < WORDS; w++) mine[w] = me + 1;
  shmem_barrier_all();
  for (int i = 0; i < ITERS / 3; i++) {
    shmem_set_lock(&lock_a);
    for (int w = 0; w < WORDS; w++) {
      shmem_int_p(&owner_words[w], me + 1, 0);
      if (w == WORDS / 2) sched_yield();
    }
    shmem_quiet();
    shmem_int_get(back, owner_words, WORDS, 0);
    for (int w = 0; w < WORDS; w++)
      ck_assert_msg(back[w] == mine[w], "PE %d saw word %d = %d inside the lock", me, w, back[w]);
    shmem_clear_lock(&lock_a);
  }
  shmem_barrier_all();
}
END_TEST

/* A lock in the symmetric heap works the same. */
START_TEST(test_heap_lock)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  long *lock = shmem_calloc(1, sizeof(long));
  int *counter = shmem_calloc(1, sizeof(int));
  for (int i = 0; i < ITERS / 3; i++) {
    shmem_set_lock(lock);
    unsafe_increment(counter);
    shmem_clear_lock(lock);
  }
  shmem_barrier_all();
  if (me == 0) ck_assert_int_eq(*counter, np * (ITERS / 3));
  shmem_barrier_all();
  shmem_free(counter);
  shmem_free(lock);
}
END_TEST

static Suite *lock_suite(void)
{
  Suite *s = suite_create("lock");
  TCase *tc = tcase_create("lock");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_set_lock_counter);
  tcase_add_test(tc, test_test_lock_counter);
  tcase_add_test(tc, test_two_locks);
  tcase_add_test(tc, test_lock_exclusion);
  tcase_add_test(tc, test_heap_lock);
  suite_add_tcase(s, tc);
  return s;
}

SHOAL_TEST_MAIN(lock_suite)
