/* Point-to-point synchronization: wait_until, wait_until_all/any/some and
 * their _vector forms, the test family, and the deprecated wait names, for
 * every sync type.  Each PE's left-hand neighbour sets its variables after a
 * delay (so the waiter really waits); status masks exclude variables that
 * are never set, which must not block; the empty and all-masked cases
 * return at once (SIZE_MAX for _any). */
#include "shoal_test.h"

#include <unistd.h>

#define K 6          /* variables per PE */
#define DELAY_US 300

/* Values that fit in every sync type (short included), never zero. */
#define WVAL(T, pe, i, salt) ((T)((shoal_test_val(pe, i, salt) & 0x3fff) + 1))

static void after_delay(void) { usleep(DELAY_US); }

#define TEST_WAIT(T, N) \
  /* The left neighbour's part: set ivars[i] on me (its right) to vals[i] \
   * for each i in mask.  With one PE, we are our own left: no delay. */ \
  static void set_on_right_##N(T *ivars, const T *vals, unsigned mask, int right) \
  { \
    if (right != shmem_my_pe()) after_delay(); \
    for (int i = 0; i < K; i++) \
      if (mask & (1u << i)) shmem_##N##_p(&ivars[i], vals[i], right); \
    shmem_quiet(); \
  } \
  START_TEST(test_wait_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np; \
    T *iv = shmem_malloc(sizeof(T) * K); \
    T mine[K], theirs[K], cmpv[K]; \
    size_t idx[K]; \
    int status[K] = {0}; \
    unsigned salt = 0; \
    for (int round = 0; round < 9; round++) { \
      salt++; \
      for (int i = 0; i < K; i++) { \
        mine[i] = WVAL(T, left, (size_t)i, salt);   /* what my left will write here */ \
        theirs[i] = WVAL(T, me, (size_t)i, salt);   /* what I write on my right */ \
        iv[i] = 0; \
        status[i] = 0; \
      } \
      /* nothing is set yet: the tests say so, and do not wait */ \
      ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_EQ, mine[0]), 0); \
      ck_assert_int_eq(shmem_##N##_test_all(iv, K, NULL, SHMEM_CMP_EQ, mine[0]), 0); \
      ck_assert_uint_eq(shmem_##N##_test_any(iv, K, NULL, SHMEM_CMP_NE, (T)0), SIZE_MAX); \
      ck_assert_uint_eq(shmem_##N##_test_some(iv, K, idx, NULL, SHMEM_CMP_GT, (T)0), 0); \
      ck_assert_int_eq(shmem_##N##_test_all_vector(iv, K, NULL, SHMEM_CMP_EQ, mine), 0); \
      ck_assert_uint_eq(shmem_##N##_test_any_vector(iv, K, NULL, SHMEM_CMP_EQ, mine), SIZE_MAX); \
      ck_assert_uint_eq(shmem_##N##_test_some_vector(iv, K, idx, NULL, SHMEM_CMP_EQ, mine), 0); \
      shmem_barrier_all(); \
      unsigned set_mask; \
      switch (round) { \
      case 0:   /* wait_until on one variable */ \
        set_on_right_##N(iv, theirs, 1u << 0, right); \
        shmem_##N##_wait_until(&iv[0], SHMEM_CMP_EQ, mine[0]); \
        ck_assert(iv[0] == mine[0]); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_EQ, mine[0]), 1); \
        break; \
      case 1:   /* wait_until_all, one variable masked and never set */ \
        status[3] = 1; \
        for (int i = 0; i < K; i++) theirs[i] = WVAL(T, me, 0, salt), mine[i] = WVAL(T, left, 0, salt); \
        set_mask = 0x3f & ~(1u << 3); \
        set_on_right_##N(iv, theirs, set_mask, right); \
        shmem_##N##_wait_until_all(iv, K, status, SHMEM_CMP_EQ, mine[0]); \
        for (int i = 0; i < K; i++) ck_assert(i == 3 ? iv[i] == 0 : iv[i] == mine[0]); \
        ck_assert_int_eq(shmem_##N##_test_all(iv, K, status, SHMEM_CMP_EQ, mine[0]), 1); \
        ck_assert_int_eq(shmem_##N##_test_all(iv, K, NULL, SHMEM_CMP_EQ, mine[0]), 0); \
        break; \
      case 2:   /* wait_until_any: only variable 2 is set; 0 is masked */ \
        status[0] = 1; \
        set_on_right_##N(iv, theirs, 1u << 2, right); \
        ck_assert_uint_eq(shmem_##N##_wait_until_any(iv, K, status, SHMEM_CMP_NE, (T)0), 2); \
        ck_assert_uint_eq(shmem_##N##_test_any(iv, K, status, SHMEM_CMP_NE, (T)0), 2); \
        ck_assert_uint_eq(shmem_##N##_test_any(iv, K, NULL, SHMEM_CMP_EQ, mine[2]), 2); \
        break; \
      case 3:   /* wait_until_some: variables 1 and 4 are set */ \
        set_on_right_##N(iv, theirs, (1u << 1) | (1u << 4), right); \
        { \
          size_t got = shmem_##N##_wait_until_some(iv, K, idx, NULL, SHMEM_CMP_GT, (T)0); \
          ck_assert(got >= 1 && got <= 2); \
          for (size_t j = 0; j < got; j++) ck_assert(idx[j] == 1 || idx[j] == 4); \
          shmem_##N##_wait_until(&iv[4], SHMEM_CMP_EQ, mine[4]); \
          shmem_##N##_wait_until(&iv[1], SHMEM_CMP_EQ, mine[1]); \
          ck_assert_uint_eq(shmem_##N##_test_some(iv, K, idx, NULL, SHMEM_CMP_GT, (T)0), 2); \
          ck_assert(idx[0] == 1 && idx[1] == 4); \
          status[1] = 1; \
          ck_assert_uint_eq(shmem_##N##_test_some(iv, K, idx, status, SHMEM_CMP_GT, (T)0), 1); \
          ck_assert_uint_eq(idx[0], 4); \
        } \
        break; \
      case 4:   /* wait_until_all_vector: each variable its own value */ \
        status[5] = 1; \
        set_on_right_##N(iv, theirs, 0x1f, right); \
        shmem_##N##_wait_until_all_vector(iv, K, status, SHMEM_CMP_EQ, mine); \
        for (int i = 0; i < 5; i++) ck_assert(iv[i] == mine[i]); \
        ck_assert_int_eq(shmem_##N##_test_all_vector(iv, K, status, SHMEM_CMP_EQ, mine), 1); \
        ck_assert_int_eq(shmem_##N##_test_all_vector(iv, K, NULL, SHMEM_CMP_EQ, mine), 0); \
        break; \
      case 5:   /* wait_until_any_vector: variable 3 reaches its value */ \
        set_on_right_##N(iv, theirs, 1u << 3, right); \
        ck_assert_uint_eq(shmem_##N##_wait_until_any_vector(iv, K, NULL, SHMEM_CMP_EQ, mine), 3); \
        ck_assert_uint_eq(shmem_##N##_test_any_vector(iv, K, NULL, SHMEM_CMP_GE, mine), 3); \
        break; \
      case 6:   /* wait_until_some_vector with LE / GE against per-variable bounds */ \
        for (int i = 0; i < K; i++) cmpv[i] = (T)(mine[i] - 1); \
        set_on_right_##N(iv, theirs, (1u << 0) | (1u << 5), right); \
        { \
          size_t got = shmem_##N##_wait_until_some_vector(iv, K, idx, NULL, SHMEM_CMP_GT, cmpv); \
          ck_assert(got >= 1 && got <= 2); \
          for (size_t j = 0; j < got; j++) ck_assert(idx[j] == 0 || idx[j] == 5); \
          shmem_##N##_wait_until(&iv[0], SHMEM_CMP_GE, mine[0]); \
          shmem_##N##_wait_until(&iv[5], SHMEM_CMP_GE, mine[5]); \
          ck_assert_uint_eq(shmem_##N##_test_some_vector(iv, K, idx, NULL, SHMEM_CMP_GT, cmpv), 2); \
          ck_assert(idx[0] == 0 && idx[1] == 5); \
          ck_assert_uint_eq(shmem_##N##_test_some_vector(iv, K, idx, NULL, SHMEM_CMP_LE, cmpv), 4); \
        } \
        break; \
      case 7:   /* deprecated wait: until the value differs */ \
        set_on_right_##N(iv, theirs, 1u << 1, right); \
        shmem_##N##_wait(&iv[1], (T)0); \
        ck_assert(iv[1] == mine[1]); \
        break; \
      default:  /* every comparison, on local values */ \
        iv[0] = (T)5; \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_EQ, (T)5), 1); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_EQ, (T)6), 0); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_NE, (T)6), 1); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_NE, (T)5), 0); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_GT, (T)4), 1); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_GT, (T)5), 0); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_GE, (T)5), 1); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_GE, (T)6), 0); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_LT, (T)6), 1); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_LT, (T)5), 0); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_LE, (T)5), 1); \
        ck_assert_int_eq(shmem_##N##_test(&iv[0], SHMEM_CMP_LE, (T)4), 0); \
        shmem_##N##_wait_until(&iv[0], SHMEM_CMP_LT, (T)6);   /* already true */ \
        /* empty and fully masked sets return at once */ \
        for (int i = 0; i < K; i++) status[i] = 1; \
        ck_assert_uint_eq(shmem_##N##_wait_until_any(iv, K, status, SHMEM_CMP_EQ, (T)99), SIZE_MAX); \
        ck_assert_uint_eq(shmem_##N##_wait_until_any(iv, 0, NULL, SHMEM_CMP_EQ, (T)99), SIZE_MAX); \
        ck_assert_uint_eq(shmem_##N##_wait_until_any_vector(iv, K, status, SHMEM_CMP_EQ, mine), SIZE_MAX); \
        ck_assert_uint_eq(shmem_##N##_wait_until_some(iv, K, idx, status, SHMEM_CMP_EQ, (T)99), 0); \
        ck_assert_uint_eq(shmem_##N##_wait_until_some_vector(iv, 0, idx, NULL, SHMEM_CMP_EQ, mine), 0); \
        shmem_##N##_wait_until_all(iv, K, status, SHMEM_CMP_EQ, (T)99); \
        shmem_##N##_wait_until_all_vector(iv, 0, NULL, SHMEM_CMP_EQ, mine); \
        ck_assert_int_eq(shmem_##N##_test_all(iv, K, status, SHMEM_CMP_EQ, (T)99), 1); \
        ck_assert_uint_eq(shmem_##N##_test_any(iv, K, status, SHMEM_CMP_EQ, (T)5), SIZE_MAX); \
        ck_assert_uint_eq(shmem_##N##_test_some(iv, K, idx, status, SHMEM_CMP_EQ, (T)5), 0); \
        break; \
      } \
      shmem_barrier_all(); \
    } \
    shmem_free(iv); \
  } \
  END_TEST
SHOAL_SYNC_TYPES(TEST_WAIT)

/* shmem_wait_until and shmem_wait (long, deprecated untyped names) and
 * signal_wait_until with every comparison. */
START_TEST(test_wait_untyped)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np;
  static long v[2];
  static uint64_t sig;
  v[0] = v[1] = 0;
  sig = 0;
  shmem_barrier_all();
  if (right != me) after_delay();
  shmem_long_p(&v[0], 10, right);
  shmem_long_p(&v[1], 20, right);
  shmem_uint64_atomic_add(&sig, 5, right);
  shmem_wait_until(&v[0], SHMEM_CMP_GE, 10);
  shmem_wait(&v[1], 0);
  ck_assert_int_eq(v[1], 20);
  ck_assert_uint_eq(shmem_signal_wait_until(&sig, SHMEM_CMP_NE, 0), 5);
  ck_assert_uint_eq(shmem_signal_wait_until(&sig, SHMEM_CMP_GT, 4), 5);
  ck_assert_uint_eq(shmem_signal_wait_until(&sig, SHMEM_CMP_LT, 6), 5);
  ck_assert_uint_eq(shmem_signal_wait_until(&sig, SHMEM_CMP_LE, 5), 5);
  ck_assert_uint_eq(shmem_signal_fetch(&sig), 5);
  shmem_barrier_all();
}
END_TEST

#define ADD_WAIT(T, N) tcase_add_test(tc, test_wait_##N);
static Suite *wait_suite(void)
{
  Suite *s = suite_create("wait");
  TCase *tc = tcase_create("wait");
  tcase_set_timeout(tc, 120);
  SHOAL_SYNC_TYPES(ADD_WAIT)
  tcase_add_test(tc, test_wait_untyped);
  suite_add_tcase(s, tc);
  return s;
}

SHOAL_TEST_MAIN(wait_suite)
