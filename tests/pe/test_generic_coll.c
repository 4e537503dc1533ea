/* C11 generic names of OpenSHMEM 1.5 added by issue 11: the team
 * collectives (shmem_broadcast, collect, fcollect, alltoall, alltoalls and
 * the seven reductions) for every type of their generic tables, both forms
 * of shmem_sync, and the deprecated AMO names (shmem_swap on float and
 * double must return the old value, not a long's bits).  Before the fix
 * none of these compiled. */
#include "shoal_test.h"

#define NE 6

/* Small fresh values that every type holds exactly (1..100). */
#define SMALL(T, pe, i, salt) ((T)(shoal_test_val(pe, (size_t)(i), salt) % 100 + 1))

#define TEAM_COLL(T, N) \
  { \
    T *src = shmem_malloc(NE * sizeof(T) * (size_t)np), *dst = shmem_malloc(NE * sizeof(T) * (size_t)np); \
    for (int i = 0; i < NE * np; i++) src[i] = SMALL(T, me, i, 1); \
    shoal_test_poison(dst, NE * sizeof(T) * (size_t)np); \
    ck_assert_int_eq(shmem_broadcast(SHMEM_TEAM_WORLD, dst, src, NE, np - 1), 0); \
    for (int i = 0; i < NE; i++) ck_assert(dst[i] == SMALL(T, np - 1, i, 1)); \
    shoal_test_poison(dst, NE * sizeof(T) * (size_t)np); \
    ck_assert_int_eq(shmem_fcollect(SHMEM_TEAM_WORLD, dst, src, NE), 0); \
    for (int p = 0; p < np; p++) \
      for (int i = 0; i < NE; i++) ck_assert(dst[p * NE + i] == SMALL(T, p, i, 1)); \
    shmem_barrier_all(); \
    shoal_test_poison(dst, NE * sizeof(T) * (size_t)np); \
    ck_assert_int_eq(shmem_collect(SHMEM_TEAM_WORLD, dst, src, NE), 0); \
    for (int p = 0; p < np; p++) \
      for (int i = 0; i < NE; i++) ck_assert(dst[p * NE + i] == SMALL(T, p, i, 1)); \
    shmem_barrier_all(); \
    shoal_test_poison(dst, NE * sizeof(T) * (size_t)np); \
    ck_assert_int_eq(shmem_alltoall(SHMEM_TEAM_WORLD, dst, src, NE), 0); \
    for (int p = 0; p < np; p++) \
      for (int i = 0; i < NE; i++) ck_assert(dst[p * NE + i] == SMALL(T, p, me * NE + i, 1)); \
    shmem_barrier_all(); \
    shoal_test_poison(dst, NE * sizeof(T) * (size_t)np); \
    ck_assert_int_eq(shmem_alltoalls(SHMEM_TEAM_WORLD, dst, src, 1, 1, NE), 0); \
    for (int p = 0; p < np; p++) \
      for (int i = 0; i < NE; i++) ck_assert(dst[p * NE + i] == SMALL(T, p, me * NE + i, 1)); \
    shmem_barrier_all(); \
    shmem_free(src); \
    shmem_free(dst); \
  }

START_TEST(test_generic_team_coll)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  SHOAL_RMA_TYPES(TEAM_COLL)
}
END_TEST

/* Reductions: each generic against the result computed here, in T (the
 * <stdint.h> names of the tables resolve to the routine of their type). */
#define REDUCE_CHECK(T, OPNAME, init, combine, salt) \
  { \
    T *src = shmem_malloc(NE * sizeof(T)), *dst = shmem_malloc(NE * sizeof(T)); \
    for (int i = 0; i < NE; i++) src[i] = VAL(T, me, i, salt); \
    shoal_test_poison(dst, NE * sizeof(T)); \
    shmem_barrier_all(); \
    ck_assert_int_eq(shmem_##OPNAME##_reduce(SHMEM_TEAM_WORLD, dst, src, NE), 0); \
    for (int i = 0; i < NE; i++) { \
      T acc = VAL(T, 0, i, salt); \
      for (int p = 1; p < np; p++) { T x = VAL(T, p, i, salt); acc = combine; } \
      ck_assert_msg(dst[i] == acc, "%s_reduce on %s: element %d wrong", #OPNAME, #T, i); \
    } \
    shmem_barrier_all(); \
    shmem_free(src); \
    shmem_free(dst); \
  }
/* Bitwise: full random bits. */
#define VAL(T, pe, i, salt) ((T)shoal_test_val(pe, (size_t)(i), salt))
#define REDUCE_BIT(T, N) \
  REDUCE_CHECK(T, and, 0, (T)(acc & x), 2) REDUCE_CHECK(T, or, 0, (T)(acc | x), 3) \
  REDUCE_CHECK(T, xor, 0, (T)(acc ^ x), 4)
START_TEST(test_generic_reduce_bitwise)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  SHOAL_REDUCE_BITWISE_TYPES(REDUCE_BIT)
}
END_TEST
#undef VAL

/* Min, max and sum: 1..16 (sums of 4 fit a char); prod: 1 or 2. */
#define VAL(T, pe, i, salt) \
  ((T)(shoal_test_val(pe, (size_t)(i), salt) % ((salt) == 8 ? 2 : 16) + 1))
#define REDUCE_MINMAX(T, N) \
  REDUCE_CHECK(T, min, 0, (x < acc ? x : acc), 5) REDUCE_CHECK(T, max, 0, (x > acc ? x : acc), 6)
#define REDUCE_ARITH(T, N) \
  REDUCE_CHECK(T, sum, 0, (T)(acc + x), 7) REDUCE_CHECK(T, prod, 0, (T)(acc * x), 8)
START_TEST(test_generic_reduce_arith)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  SHOAL_REDUCE_MINMAX_TYPES(REDUCE_MINMAX)
  SHOAL_REDUCE_ARITH_TYPES(REDUCE_ARITH)
}
END_TEST
#undef VAL

/* ---- shmem_sync, both forms ---------------------------------------------- */
static long psync[SHMEM_BARRIER_SYNC_SIZE];
static long counter;

START_TEST(test_generic_sync)
{
  int np = shmem_n_pes();
  ck_assert_int_eq(shmem_sync(SHMEM_TEAM_WORLD), 0);
  counter = 0;
  shmem_barrier_all();
  for (int round = 1; round <= 3; round++) {
    shmem_long_atomic_inc(&counter, 0);
    shmem_quiet();
    if (round % 2) ck_assert_int_eq(shmem_sync(SHMEM_TEAM_WORLD), 0);
    else shmem_sync(0, 0, np, psync);   /* deprecated active-set form */
    if (shmem_my_pe() == 0) ck_assert_int_eq(shmem_long_atomic_fetch(&counter, 0), (long)round * np);
    shmem_sync(0, 0, np, psync);
  }
  /* an active set of the even PEs */
  if (shmem_my_pe() % 2 == 0) shmem_sync(0, 1, (np + 1) / 2, psync);
  shmem_barrier_all();
}
END_TEST

/* ---- deprecated AMO generics --------------------------------------------- */
#define SAME_TYPE(expr, T) _Generic((expr), T: 1, default: 0)
#define DEPR_EXT(T, N) \
  { \
    static T x; \
    T a = SMALL(T, me, 0, 9), b = SMALL(T, me, 1, 9); \
    ck_assert(SAME_TYPE(shmem_swap(&x, a, me), T)); \
    ck_assert(SAME_TYPE(shmem_fetch(&x, me), T)); \
    shmem_barrier_all(); \
    shmem_set(&x, a, right); \
    shmem_barrier_all(); \
    ck_assert(x == SMALL(T, left, 0, 9)); \
    shmem_barrier_all(); \
    T old = shmem_swap(&x, b, right); \
    ck_assert_msg(old == a, "shmem_swap on %s returned a wrong old value", #T); \
    shmem_barrier_all(); \
    ck_assert(x == SMALL(T, left, 1, 9)); \
    ck_assert(shmem_fetch(&x, right) == b); \
    shmem_barrier_all(); \
  }
#define DEPR_INT(T, N) \
  { \
    static T y; \
    T c = SMALL(T, me, 2, 9), d = SMALL(T, me, 3, 9); \
    shmem_barrier_all(); \
    shmem_set(&y, c, right); \
    shmem_barrier_all(); \
    ck_assert(SAME_TYPE(shmem_cswap(&y, c, c, me), T)); \
    shmem_barrier_all(); \
    ck_assert(shmem_cswap(&y, c, d, right) == c); \
    shmem_add(&y, 5, right); \
    shmem_inc(&y, right); \
    ck_assert(shmem_fadd(&y, 3, right) == d + 6); \
    ck_assert(shmem_finc(&y, right) == d + 9); \
    shmem_barrier_all(); \
    ck_assert(y == SMALL(T, left, 3, 9) + 10); \
    shmem_barrier_all(); \
  }
START_TEST(test_generic_deprecated_amo)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  DEPR_EXT(int, int) DEPR_EXT(long, long) DEPR_EXT(long long, longlong)
  DEPR_EXT(float, float) DEPR_EXT(double, double)
  DEPR_INT(int, int) DEPR_INT(long, long) DEPR_INT(long long, longlong)
  /* the 1.2 long routine is still there, under its own name */
  static long z;
  z = 7;
  shmem_barrier_all();
  ck_assert_int_eq((shmem_swap)(&z, 9, me), 7);
  ck_assert_int_eq(z, 9);
  shmem_barrier_all();
}
END_TEST

static Suite *generic_coll_suite(void)
{
  Suite *s = suite_create("generic_coll");
  TCase *tc = tcase_create("generic_coll");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_generic_team_coll);
  tcase_add_test(tc, test_generic_reduce_bitwise);
  tcase_add_test(tc, test_generic_reduce_arith);
  tcase_add_test(tc, test_generic_sync);
  tcase_add_test(tc, test_generic_deprecated_amo);
  suite_add_tcase(s, tc);
  return s;
}

SHOAL_TEST_MAIN(generic_coll_suite)
