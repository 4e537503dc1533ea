/* Atomic memory operations: every operation in every form (plain, ctx,
 * _nbi fetching forms, deprecated 1.4 names) for every type of its table,
 * then atomics under contention from every PE.
 *
 * Correctness: each PE runs a sequence of operations on its own slot on its
 * right-hand neighbour, tracking the expected value; every fetching form's
 * result checks the previous step, and the neighbour checks the final value.
 * Contention: all PEs hammer one word on PE 0 (bounded: 4 PEs on 2 cores). */
#include "shoal_test.h"

#include <sched.h>

static shmem_ctx_t test_ctx;

/* Small non-zero values: exact in every AMO type, floats included. */
#define SMALL(T, pe, i, salt) ((T)((shoal_test_val(pe, i, salt) & 0x3fff) + 2))

/* One slot per PE for values, one for the final value the owner expects. */
#define AMO_SETUP(T) \
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np; \
  T *slot = shmem_malloc(sizeof(T) * (size_t)np * 2), *expect = slot + np, *d = &slot[me]; \
  ck_assert_ptr_nonnull(slot); \
  shoal_test_poison(slot, sizeof(T) * (size_t)np * 2); \
  shmem_barrier_all(); \
  unsigned salt = 0; (void)salt; (void)left

/* The neighbour checks what we left in our slot on it. */
#define AMO_FINISH(T, N, x, what) \
  shmem_##N##_p(&expect[me], x, right); \
  shmem_barrier_all(); \
  ck_assert_msg(slot[left] == expect[left], #N " " what ": PE %d's slot holds the wrong value", left); \
  shmem_barrier_all(); \
  shmem_free(slot)

#define TEST_AMO_EXT(T, N) \
  START_TEST(test_amo_ext_##N) \
  { \
    AMO_SETUP(T); \
    T x = SMALL(T, me, 0, 1), f; \
    shmem_##N##_atomic_set(d, x, right); \
    ck_assert(shmem_##N##_atomic_fetch(d, right) == x); \
    ck_assert(shmem_ctx_##N##_atomic_fetch(test_ctx, d, right) == x); \
    f = 0; shmem_##N##_atomic_fetch_nbi(&f, d, right); shmem_quiet(); ck_assert(f == x); \
    f = 0; shmem_ctx_##N##_atomic_fetch_nbi(test_ctx, &f, d, right); shmem_ctx_quiet(test_ctx); \
    ck_assert(f == x); \
    T y = SMALL(T, me, 1, 1); \
    shmem_ctx_##N##_atomic_set(test_ctx, d, y, right); \
    ck_assert(shmem_##N##_atomic_fetch(d, right) == y); \
    for (int k = 0; k < 4; k++) { \
      T v = SMALL(T, me, 10 + (size_t)k, 1); \
      f = 0; \
      switch (k) { \
      case 0: f = shmem_##N##_atomic_swap(d, v, right); break; \
      case 1: f = shmem_ctx_##N##_atomic_swap(test_ctx, d, v, right); break; \
      case 2: shmem_##N##_atomic_swap_nbi(&f, d, v, right); shmem_quiet(); break; \
      default: shmem_ctx_##N##_atomic_swap_nbi(test_ctx, &f, d, v, right); shmem_ctx_quiet(test_ctx); \
      } \
      ck_assert_msg(f == y, #N " swap form %d returned the wrong old value", k); \
      y = v; \
    } \
    AMO_FINISH(T, N, y, "set/fetch/swap"); \
  } \
  END_TEST

#define TEST_AMO_STD(T, N) \
  START_TEST(test_amo_std_##N) \
  { \
    AMO_SETUP(T); \
    T x = SMALL(T, me, 0, 2), f; \
    shmem_##N##_atomic_set(d, x, right); \
    /* compare_swap: a wrong condition changes nothing */ \
    ck_assert(shmem_##N##_atomic_compare_swap(d, (T)(x + 1), (T)7, right) == x); \
    ck_assert(shmem_ctx_##N##_atomic_compare_swap(test_ctx, d, (T)(x + 2), (T)7, right) == x); \
    ck_assert(shmem_##N##_atomic_fetch(d, right) == x); \
    ck_assert(shmem_##N##_atomic_compare_swap(d, x, (T)(x + 5), right) == x); x += 5; \
    ck_assert(shmem_ctx_##N##_atomic_compare_swap(test_ctx, d, x, (T)(x + 3), right) == x); x += 3; \
    f = 0; shmem_##N##_atomic_compare_swap_nbi(&f, d, x, (T)(x + 9), right); shmem_quiet(); \
    ck_assert(f == x); x += 9; \
    f = 0; shmem_ctx_##N##_atomic_compare_swap_nbi(test_ctx, &f, d, (T)(x + 1), (T)1, right); \
    shmem_ctx_quiet(test_ctx); ck_assert(f == x); /* condition failed: unchanged */ \
    /* increments */ \
    ck_assert(shmem_##N##_atomic_fetch_inc(d, right) == x); x++; \
    ck_assert(shmem_ctx_##N##_atomic_fetch_inc(test_ctx, d, right) == x); x++; \
    shmem_##N##_atomic_inc(d, right); x++; \
    shmem_ctx_##N##_atomic_inc(test_ctx, d, right); x++; \
    ck_assert(shmem_##N##_atomic_fetch(d, right) == x); \
    f = 0; shmem_##N##_atomic_fetch_inc_nbi(&f, d, right); shmem_quiet(); ck_assert(f == x); x++; \
    f = 0; shmem_ctx_##N##_atomic_fetch_inc_nbi(test_ctx, &f, d, right); shmem_ctx_quiet(test_ctx); \
    ck_assert(f == x); x++; \
    /* additions */ \
    T a = SMALL(T, me, 5, 2); \
    ck_assert(shmem_##N##_atomic_fetch_add(d, a, right) == x); x += a; \
    ck_assert(shmem_ctx_##N##_atomic_fetch_add(test_ctx, d, a, right) == x); x += a; \
    shmem_##N##_atomic_add(d, a, right); x += a; \
    shmem_ctx_##N##_atomic_add(test_ctx, d, a, right); x += a; \
    ck_assert(shmem_ctx_##N##_atomic_fetch(test_ctx, d, right) == x); \
    f = 0; shmem_##N##_atomic_fetch_add_nbi(&f, d, a, right); shmem_quiet(); ck_assert(f == x); x += a; \
    f = 0; shmem_ctx_##N##_atomic_fetch_add_nbi(test_ctx, &f, d, a, right); shmem_ctx_quiet(test_ctx); \
    ck_assert(f == x); x += a; \
    AMO_FINISH(T, N, x, "compare_swap/inc/add"); \
  } \
  END_TEST

#define TEST_AMO_BIT(T, N) \
  START_TEST(test_amo_bit_##N) \
  { \
    AMO_SETUP(T); \
    T x = (T)shoal_test_val(me, 0, 3), f; \
    shmem_##N##_atomic_set(d, x, right); \
    for (int k = 0; k < 12; k++) { \
      T m = (T)shoal_test_val(me, 1 + (size_t)k, 3); \
      int op = k / 4, form = k % 4; \
      f = (T)~x; \
      switch (op * 4 + form) { \
      case 0: f = shmem_##N##_atomic_fetch_and(d, m, right); break; \
      case 1: f = shmem_ctx_##N##_atomic_fetch_and(test_ctx, d, m, right); break; \
      case 2: shmem_##N##_atomic_fetch_and_nbi(&f, d, m, right); shmem_quiet(); break; \
      case 3: shmem_ctx_##N##_atomic_fetch_and_nbi(test_ctx, &f, d, m, right); shmem_ctx_quiet(test_ctx); break; \
      case 4: f = shmem_##N##_atomic_fetch_or(d, m, right); break; \
      case 5: f = shmem_ctx_##N##_atomic_fetch_or(test_ctx, d, m, right); break; \
      case 6: shmem_##N##_atomic_fetch_or_nbi(&f, d, m, right); shmem_quiet(); break; \
      case 7: shmem_ctx_##N##_atomic_fetch_or_nbi(test_ctx, &f, d, m, right); shmem_ctx_quiet(test_ctx); break; \
      case 8: f = shmem_##N##_atomic_fetch_xor(d, m, right); break; \
      case 9: f = shmem_ctx_##N##_atomic_fetch_xor(test_ctx, d, m, right); break; \
      case 10: shmem_##N##_atomic_fetch_xor_nbi(&f, d, m, right); shmem_quiet(); break; \
      default: shmem_ctx_##N##_atomic_fetch_xor_nbi(test_ctx, &f, d, m, right); shmem_ctx_quiet(test_ctx); \
      } \
      ck_assert_msg(f == x, #N " fetching bitwise op %d form %d returned the wrong value", op, form); \
      x = op == 0 ? (T)(x & m) : op == 1 ? (T)(x | m) : (T)(x ^ m); \
    } \
    T m = (T)shoal_test_val(me, 20, 3); \
    shmem_##N##_atomic_and(d, m, right); x &= m; \
    shmem_ctx_##N##_atomic_or(test_ctx, d, (T)((unsigned long long)m << 1), right); x |= (T)((unsigned long long)m << 1); \
    shmem_##N##_atomic_xor(d, (T)~m, right); x ^= (T)~m; \
    ck_assert(shmem_##N##_atomic_fetch(d, right) == x); \
    shmem_ctx_##N##_atomic_and(test_ctx, d, (T)(m | 1), right); x &= (T)(m | 1); \
    shmem_##N##_atomic_or(d, (T)(m >> 3), right); x |= (T)(m >> 3); \
    shmem_ctx_##N##_atomic_xor(test_ctx, d, m, right); x ^= m; \
    AMO_FINISH(T, N, x, "and/or/xor"); \
  } \
  END_TEST

SHOAL_AMO_EXT_TYPES(TEST_AMO_EXT)
SHOAL_AMO_STD_TYPES(TEST_AMO_STD)
SHOAL_AMO_BIT_TYPES(TEST_AMO_BIT)

/* Deprecated 1.4 names: the types shmem.h declares them for. */
#define DEPR_TYPES(X) X(int, int) X(long, long) X(long long, longlong)
#define TEST_AMO_DEPR(T, N) \
  START_TEST(test_amo_depr_##N) \
  { \
    AMO_SETUP(T); \
    T x = SMALL(T, me, 0, 4), a = SMALL(T, me, 1, 4); \
    shmem_##N##_set(d, x, right); \
    ck_assert(shmem_##N##_fetch(d, right) == x); \
    ck_assert(shmem_##N##_swap(d, (T)(x + 1), right) == x); x++; \
    ck_assert(shmem_##N##_cswap(d, (T)(x + 1), (T)0, right) == x); \
    ck_assert(shmem_##N##_cswap(d, x, (T)(x + 2), right) == x); x += 2; \
    ck_assert(shmem_##N##_finc(d, right) == x); x++; \
    shmem_##N##_inc(d, right); x++; \
    ck_assert(shmem_##N##_fadd(d, a, right) == x); x += a; \
    shmem_##N##_add(d, a, right); x += a; \
    ck_assert(shmem_##N##_fetch(d, right) == x); \
    AMO_FINISH(T, N, x, "deprecated names"); \
  } \
  END_TEST
DEPR_TYPES(TEST_AMO_DEPR)

START_TEST(test_amo_depr_float)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np;
  static float fl[2];
  static double db[2];
  static long lg;
  float fv = SMALL(float, me, 0, 5);
  double dv = SMALL(double, me, 1, 5);
  long lv = SMALL(long, me, 2, 5);
  shmem_barrier_all();
  shmem_float_set(&fl[0], fv, right);
  shmem_double_set(&db[0], dv, right);
  shmem_long_atomic_set(&lg, 1, right);
  ck_assert(shmem_float_fetch(&fl[0], right) == fv);
  ck_assert(shmem_double_fetch(&db[0], right) == dv);
  ck_assert(shmem_float_swap(&fl[0], fv + 1, right) == fv);
  ck_assert(shmem_double_swap(&db[0], dv + 1, right) == dv);
  ck_assert(shmem_swap(&lg, lv, right) == 1);
  shmem_barrier_all();
  int left = (me + np - 1) % np;
  ck_assert(fl[0] == SMALL(float, left, 0, 5) + 1);
  ck_assert(db[0] == SMALL(double, left, 1, 5) + 1);
  ck_assert(lg == SMALL(long, left, 2, 5));
  shmem_barrier_all();
}
END_TEST

/* ---- contention from every PE --------------------------------------------- */
#define ITERS 2000

/* All PEs fetch_add 1 on PE 0's counter: every ticket drawn exactly once. */
START_TEST(test_contended_fetch_add)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  long total = (long)np * ITERS;
  long *counter = shmem_calloc(1, sizeof(long));
  int *drawn = shmem_calloc((size_t)total, sizeof(int));
  shmem_barrier_all();
  long prev = -1;
  for (int i = 0; i < ITERS; i++) {
    long t = shmem_long_atomic_fetch_add(counter, 1, 0);
    ck_assert_msg(t > prev && t < total, "ticket %ld after %ld (of %ld)", t, prev, total);
    prev = t;
    shmem_int_atomic_inc(&drawn[t], 0);
  }
  shmem_barrier_all();
  if (me == 0) {
    ck_assert_int_eq(*counter, total);
    for (long t = 0; t < total; t++) ck_assert_msg(drawn[t] == 1, "ticket %ld drawn %d times", t, drawn[t]);
  }
  shmem_barrier_all();
  shmem_free(drawn);
  shmem_free(counter);
}
END_TEST

/* Every STD type: fetch_inc, inc, fetch_add and add mixed, on PE 0's word. */
#define CONTENDED_STD(T, N) \
  START_TEST(test_contended_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(); \
    T *w = shmem_calloc(1, sizeof(T)); \
    shmem_barrier_all(); \
    for (int i = 0; i < 200; i++) { \
      switch (i % 4) { \
      case 0: (void)shmem_##N##_atomic_fetch_inc(w, 0); break; \
      case 1: shmem_##N##_atomic_inc(w, 0); break; \
      case 2: (void)shmem_ctx_##N##_atomic_fetch_add(test_ctx, w, (T)3, 0); break; \
      default: shmem_##N##_atomic_add(w, (T)3, 0); break; \
      } \
    } \
    shmem_barrier_all(); \
    if (me == 0) ck_assert_msg(*w == (T)(np * 400), #N ": %lld after contention, expected %d", \
                               (long long)*w, np * 400); \
    shmem_barrier_all(); \
    shmem_free(w); \
  } \
  END_TEST
SHOAL_AMO_STD_TYPES(CONTENDED_STD)

/* Counting with compare_swap: a lost update would show in the total. */
START_TEST(test_contended_compare_swap)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  uint64_t *w = shmem_calloc(1, sizeof(uint64_t));
  shmem_barrier_all();
  long retries = 0;
  for (int i = 0; i < ITERS / 4; i++) {
    uint64_t old = shmem_uint64_atomic_fetch(w, 0);
    for (;;) {
      uint64_t seen = shmem_uint64_atomic_compare_swap(w, old, old + 1, 0);
      if (seen == old) break;
      ck_assert_uint_gt(seen, old);   /* the counter only grows */
      old = seen;
      retries++;
    }
  }
  shmem_barrier_all();
  if (me == 0) ck_assert_uint_eq(*w, (uint64_t)np * (ITERS / 4));
  shmem_barrier_all();
  shmem_free(w);
}
END_TEST

/* Bit patterns: PE k owns bits k, k+np, ...; or sets them, and clears them,
 * xor toggles each bit once per PE; all PEs at once on PE 0's words. */
#define CONTENDED_BITS(T, N) \
  START_TEST(test_contended_bits_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(), bits = (int)(8 * sizeof(T)); \
    T *w = shmem_calloc(3, sizeof(T)), mine = 0; \
    for (int b = me; b < bits; b += np) mine |= (T)(1ull << b); \
    shmem_barrier_all(); \
    for (int b = me; b < bits; b += np) { \
      T bit = (T)(1ull << b); \
      T before = shmem_##N##_atomic_fetch_or(&w[0], bit, 0); \
      ck_assert(!(before & bit));   /* nobody else sets my bits */ \
      shmem_##N##_atomic_or(&w[1], bit, 0); \
    } \
    for (int b = 0; b < bits; b++) shmem_##N##_atomic_xor(&w[2], (T)(1ull << b), 0); \
    shmem_barrier_all(); \
    T all = (T)~(T)0; \
    if (me == 0) { \
      ck_assert(w[0] == all); \
      ck_assert(w[1] == all); \
      ck_assert(w[2] == (np % 2 ? all : (T)0)); \
    } \
    shmem_barrier_all(); \
    T left = shmem_##N##_atomic_fetch_and(&w[0], (T)~mine, 0); \
    ck_assert((left & mine) == mine); \
    shmem_##N##_atomic_and(&w[1], (T)~mine, 0); \
    shmem_barrier_all(); \
    if (me == 0) { ck_assert(w[0] == 0); ck_assert(w[1] == 0); } \
    shmem_barrier_all(); \
    shmem_free(w); \
  } \
  END_TEST
SHOAL_AMO_BIT_TYPES(CONTENDED_BITS)

/* swap under contention: every value swapped in comes out exactly once
 * (or is the one left at the end). */
START_TEST(test_contended_swap)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  enum { K = 500 };
  long *w = shmem_calloc(1, sizeof(long));
  int *seen = shmem_calloc((size_t)np * K + 1, sizeof(int));   /* [0]: the initial 0 */
  shmem_barrier_all();
  for (int k = 0; k < K; k++) {
    long v = 1 + (long)me * K + k;
    long old = shmem_long_atomic_swap(w, v, 0);
    ck_assert(old >= 0 && old <= (long)np * K);
    shmem_int_atomic_inc(&seen[old], 0);
  }
  shmem_barrier_all();
  if (me == 0) {
    long last = *w;
    ck_assert(last >= 1);
    for (long v = 0; v <= (long)np * K; v++)
      ck_assert_msg(seen[v] == (v == last ? 0 : 1), "value %ld came out %d times", v, seen[v]);
  }
  shmem_barrier_all();
  shmem_free(seen);
  shmem_free(w);
}
END_TEST

static void ctx_setup(void) { ck_assert_int_eq(shmem_ctx_create(0, &test_ctx), 0); }
static void ctx_teardown(void) { shmem_ctx_destroy(test_ctx); }

#define ADD_EXT(T, N) tcase_add_test(tc, test_amo_ext_##N);
#define ADD_STD(T, N) tcase_add_test(tc, test_amo_std_##N);
#define ADD_BIT(T, N) tcase_add_test(tc, test_amo_bit_##N);
#define ADD_DEPR(T, N) tcase_add_test(tc, test_amo_depr_##N);
#define ADD_CONT(T, N) tcase_add_test(tc2, test_contended_##N);
#define ADD_CONT_BITS(T, N) tcase_add_test(tc2, test_contended_bits_##N);
static Suite *amo_suite(void)
{
  Suite *s = suite_create("amo");
  TCase *tc = tcase_create("forms"), *tc2 = tcase_create("contention");
  tcase_set_timeout(tc, 120);
  tcase_set_timeout(tc2, 120);
  tcase_add_unchecked_fixture(tc, ctx_setup, ctx_teardown);
  tcase_add_unchecked_fixture(tc2, ctx_setup, ctx_teardown);
  SHOAL_AMO_EXT_TYPES(ADD_EXT)
  SHOAL_AMO_STD_TYPES(ADD_STD)
  SHOAL_AMO_BIT_TYPES(ADD_BIT)
  DEPR_TYPES(ADD_DEPR)
  tcase_add_test(tc, test_amo_depr_float);
  tcase_add_test(tc2, test_contended_fetch_add);
  SHOAL_AMO_STD_TYPES(ADD_CONT)
  tcase_add_test(tc2, test_contended_compare_swap);
  SHOAL_AMO_BIT_TYPES(ADD_CONT_BITS)
  tcase_add_test(tc2, test_contended_swap);
  suite_add_tcase(s, tc);
  suite_add_tcase(s, tc2);
  return s;
}

SHOAL_TEST_MAIN(amo_suite)
