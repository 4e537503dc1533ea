/* Helpers for Shoal's Check tests.
 *
 * Multi-PE tests run every test case on every PE in the same order, without
 * forking (a fork after shmem_init would share the PE's heap mapping).  The
 * exit status is non-zero if any PE saw a failure.  Data is fresh and
 * random for every run (never zeros), outputs are poisoned first, and every
 * element is checked. */
#ifndef SHOAL_TEST_H
#define SHOAL_TEST_H

#include <check.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A per-run seed, agreed by all PEs (PE 0's time, broadcast with a get). */
static uint64_t shoal_test_seed_value;

static inline uint64_t shoal_test_mix(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* Deterministic "random" value for (pe, index, salt): any PE can compute
 * what any other PE's data must be. */
static inline uint64_t shoal_test_val(int pe, size_t i, unsigned salt)
{
  uint64_t v = shoal_test_mix(shoal_test_seed_value ^ ((uint64_t)pe << 40) ^ ((uint64_t)salt << 56) ^ i);
  return v | 1;   /* never zero */
}

#define POISON_BYTE 0xA5
static inline void shoal_test_poison(void *p, size_t bytes) { memset(p, POISON_BYTE, bytes); }

static inline int shoal_test_run(Suite *s)
{
  shmem_init();
  static uint64_t seed;
  if (shmem_my_pe() == 0) {
    const char *env = getenv("SHOAL_TEST_SEED");
    seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) * 2654435761u;
  }
  shmem_barrier_all();
  shoal_test_seed_value = shmem_uint64_g(&seed, 0);
  if (shmem_my_pe() == 0)
    printf("seed %#llx (set SHOAL_TEST_SEED to repeat)\n", (unsigned long long)shoal_test_seed_value);

  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, shmem_my_pe() == 0 ? CK_NORMAL : CK_SILENT);
  int failed = srunner_ntests_failed(sr);
  if (failed && shmem_my_pe() != 0) srunner_print(sr, CK_NORMAL);
  srunner_free(sr);

  /* Any PE failing fails the run. */
  static int total;
  shmem_barrier_all();
  shmem_int_atomic_add(&total, failed, 0);
  shmem_barrier_all();
  int all = shmem_int_g(&total, 0);
  shmem_finalize();
  return all ? 1 : 0;
}

#define SHOAL_TEST_MAIN(make_suite) \
  int main(void) { return shoal_test_run(make_suite()); }

#endif
