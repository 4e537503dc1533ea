/* The C11 type-generic names of <shoal/generic.h>: every family is called
 * through its generic name, with and without a context first, for every
 * type of the standard tables (the <stdint.h> names resolve to the routine
 * of the type they alias), and must reach the routine of that type (the
 * data and the result types say so). */
#include "shoal_test.h"

#define NE 5

static shmem_ctx_t ctx;

/* Compile-time: the generic call has the routine's result type. */
#define SAME_TYPE(expr, T) _Generic((expr), T: 1, default: 0)

/* One round: fresh data, poisoned slots, the put expression PUT to my
 * right neighbour, then every element of my left neighbour checked. */
#define PUT_ROUND(T, salt, PUT) \
  do { \
    for (int i = 0; i < NE * 3; i++) src[i] = (T)shoal_test_val(me, (size_t)i, salt); \
    shoal_test_poison(dst, sizeof(T) * NE * 3); \
    shmem_barrier_all(); \
    PUT; \
    shmem_quiet(); \
    shmem_ctx_quiet(ctx); \
    shmem_barrier_all(); \
  } while (0)
#define CHECK_FROM_LEFT(T, salt, stride_d, stride_s, what) \
  for (int i = 0; i < NE; i++) \
    if (dst[i * (stride_d)] != (T)shoal_test_val(left, (size_t)(i * (stride_s)), salt)) \
      ck_abort_msg("%s %s: element %d wrong", #T, what, i)

#define TEST_GENERIC_RMA(T, N) \
  START_TEST(test_generic_rma_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np; \
    T *dst = shmem_malloc(sizeof(T) * NE * 3), *src = shmem_malloc(sizeof(T) * NE * 3); \
    T loc[NE * 3]; \
    uint64_t *sig = shmem_calloc(4, sizeof(uint64_t)); \
    ck_assert(SAME_TYPE(shmem_g(dst, 0), T)); \
    ck_assert(SAME_TYPE(shmem_g(ctx, dst, 0), T)); \
    PUT_ROUND(T, 1, shmem_put(dst, src, NE, right)); \
    CHECK_FROM_LEFT(T, 1, 1, 1, "put"); \
    PUT_ROUND(T, 2, shmem_put(ctx, dst, src, NE, right)); \
    CHECK_FROM_LEFT(T, 2, 1, 1, "ctx put"); \
    PUT_ROUND(T, 3, shmem_put_nbi(dst, src, NE, right)); \
    CHECK_FROM_LEFT(T, 3, 1, 1, "put_nbi"); \
    PUT_ROUND(T, 4, shmem_put_nbi(ctx, dst, src, NE, right)); \
    CHECK_FROM_LEFT(T, 4, 1, 1, "ctx put_nbi"); \
    PUT_ROUND(T, 5, for (int i = 0; i < NE; i++) shmem_p(&dst[i], src[i], right)); \
    CHECK_FROM_LEFT(T, 5, 1, 1, "p"); \
    PUT_ROUND(T, 6, for (int i = 0; i < NE; i++) shmem_p(ctx, &dst[i], src[i], right)); \
    CHECK_FROM_LEFT(T, 6, 1, 1, "ctx p"); \
    PUT_ROUND(T, 7, shmem_iput(dst, src, 3, 2, NE, right)); \
    CHECK_FROM_LEFT(T, 7, 3, 2, "iput"); \
    PUT_ROUND(T, 8, shmem_iput(ctx, dst, src, 2, 3, NE, right)); \
    CHECK_FROM_LEFT(T, 8, 2, 3, "ctx iput"); \
    PUT_ROUND(T, 9, shmem_put_signal(dst, src, NE, &sig[0], 9, SHMEM_SIGNAL_SET, right)); \
    ck_assert_uint_eq(shmem_signal_fetch(&sig[0]), 9); \
    CHECK_FROM_LEFT(T, 9, 1, 1, "put_signal"); \
    PUT_ROUND(T, 10, shmem_put_signal(ctx, dst, src, NE, &sig[1], 2, SHMEM_SIGNAL_ADD, right)); \
    ck_assert_uint_eq(shmem_signal_fetch(&sig[1]), 2); \
    CHECK_FROM_LEFT(T, 10, 1, 1, "ctx put_signal"); \
    PUT_ROUND(T, 11, shmem_put_signal_nbi(dst, src, NE, &sig[2], 11, SHMEM_SIGNAL_SET, right)); \
    CHECK_FROM_LEFT(T, 11, 1, 1, "put_signal_nbi"); \
    PUT_ROUND(T, 12, shmem_put_signal_nbi(ctx, dst, src, NE, &sig[3], 12, SHMEM_SIGNAL_SET, right)); \
    CHECK_FROM_LEFT(T, 12, 1, 1, "ctx put_signal_nbi"); \
    ck_assert_uint_eq(shmem_signal_wait_until(&sig[3], SHMEM_CMP_EQ, 12), 12); \
    /* gets from my right neighbour's src */ \
    for (int form = 0; form < 8; form++) { \
      unsigned salt = 20 + (unsigned)form; \
      for (int i = 0; i < NE * 3; i++) src[i] = (T)shoal_test_val(me, (size_t)i, salt); \
      shoal_test_poison(loc, sizeof loc); \
      shmem_barrier_all(); \
      int ds = 1, ss = 1; \
      switch (form) { \
      case 0: shmem_get(loc, src, NE, right); break; \
      case 1: shmem_get(ctx, loc, src, NE, right); break; \
      case 2: shmem_get_nbi(loc, src, NE, right); shmem_quiet(); break; \
      case 3: shmem_get_nbi(ctx, loc, src, NE, right); shmem_ctx_quiet(ctx); break; \
      case 4: for (int i = 0; i < NE; i++) loc[i] = shmem_g(&src[i], right); break; \
      case 5: for (int i = 0; i < NE; i++) loc[i] = shmem_g(ctx, (const T *)&src[i], right); break; \
      case 6: shmem_iget(loc, src, 2, 3, NE, right); ds = 2; ss = 3; break; \
      default: shmem_iget(ctx, loc, src, 3, 2, NE, right); ds = 3; ss = 2; break; \
      } \
      for (int i = 0; i < NE; i++) \
        if (loc[i * ds] != (T)shoal_test_val(right, (size_t)(i * ss), salt)) \
          ck_abort_msg(#T " get form %d: element %d wrong", form, i); \
      shmem_barrier_all(); \
    } \
    shmem_free(sig); shmem_free(src); shmem_free(dst); \
  } \
  END_TEST
SHOAL_RMA_TYPES(TEST_GENERIC_RMA)

#define SMALL(T, i) ((T)((shoal_test_val(me, i, 77) & 0xff) + 2))

#define TEST_GENERIC_AMO_EXT(T, N) \
  START_TEST(test_generic_amo_ext_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np; \
    T *w = shmem_malloc(sizeof(T) * (size_t)np), *d = &w[me], f, x = SMALL(T, 0); \
    ck_assert(SAME_TYPE(shmem_atomic_fetch(d, 0), T)); \
    ck_assert(SAME_TYPE(shmem_atomic_swap(ctx, d, x, 0), T)); \
    shmem_barrier_all(); \
    shmem_atomic_set(d, x, right); \
    ck_assert(shmem_atomic_fetch(d, right) == x); \
    ck_assert(shmem_atomic_fetch(ctx, (const T *)d, right) == x); \
    shmem_atomic_set(ctx, d, (T)(x + 1), right); x++; \
    f = 0; shmem_atomic_fetch_nbi(&f, d, right); shmem_quiet(); ck_assert(f == x); \
    f = 0; shmem_atomic_fetch_nbi(ctx, &f, d, right); shmem_ctx_quiet(ctx); ck_assert(f == x); \
    ck_assert(shmem_atomic_swap(d, (T)3, right) == x); \
    ck_assert(shmem_atomic_swap(ctx, d, (T)4, right) == (T)3); \
    f = 0; shmem_atomic_swap_nbi(&f, d, (T)5, right); shmem_quiet(); ck_assert(f == (T)4); \
    f = 0; shmem_atomic_swap_nbi(ctx, &f, d, (T)6, right); shmem_ctx_quiet(ctx); ck_assert(f == (T)5); \
    ck_assert(shmem_atomic_fetch(d, right) == (T)6); \
    shmem_barrier_all(); \
    shmem_free(w); \
  } \
  END_TEST
SHOAL_AMO_EXT_TYPES(TEST_GENERIC_AMO_EXT)

#define TEST_GENERIC_AMO_STD(T, N) \
  START_TEST(test_generic_amo_std_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np; \
    T *w = shmem_malloc(sizeof(T) * (size_t)np), *d = &w[me], f, x = SMALL(T, 1); \
    ck_assert(SAME_TYPE(shmem_atomic_fetch_inc(d, 0), T)); \
    shmem_barrier_all(); \
    shmem_atomic_set(d, x, right); \
    ck_assert(shmem_atomic_compare_swap(d, (T)(x + 1), (T)0, right) == x); \
    ck_assert(shmem_atomic_compare_swap(d, x, (T)(x + 1), right) == x); x++; \
    ck_assert(shmem_atomic_compare_swap(ctx, d, x, (T)(x + 1), right) == x); x++; \
    ck_assert(shmem_atomic_fetch_inc(d, right) == x); x++; \
    ck_assert(shmem_atomic_fetch_inc(ctx, d, right) == x); x++; \
    shmem_atomic_inc(d, right); shmem_atomic_inc(ctx, d, right); x += 2; \
    ck_assert(shmem_atomic_fetch_add(d, (T)3, right) == x); x += 3; \
    ck_assert(shmem_atomic_fetch_add(ctx, d, (T)3, right) == x); x += 3; \
    shmem_atomic_add(d, (T)2, right); shmem_atomic_add(ctx, d, (T)2, right); x += 4; \
    f = 0; shmem_atomic_compare_swap_nbi(&f, d, x, (T)(x + 1), right); shmem_quiet(); ck_assert(f == x); x++; \
    f = 0; shmem_atomic_compare_swap_nbi(ctx, &f, d, x, (T)(x + 1), right); shmem_ctx_quiet(ctx); \
    ck_assert(f == x); x++; \
    f = 0; shmem_atomic_fetch_inc_nbi(&f, d, right); shmem_quiet(); ck_assert(f == x); x++; \
    f = 0; shmem_atomic_fetch_inc_nbi(ctx, &f, d, right); shmem_ctx_quiet(ctx); ck_assert(f == x); x++; \
    f = 0; shmem_atomic_fetch_add_nbi(&f, d, (T)5, right); shmem_quiet(); ck_assert(f == x); x += 5; \
    f = 0; shmem_atomic_fetch_add_nbi(ctx, &f, d, (T)5, right); shmem_ctx_quiet(ctx); ck_assert(f == x); x += 5; \
    ck_assert(shmem_atomic_fetch(d, right) == x); \
    shmem_barrier_all(); \
    shmem_free(w); \
  } \
  END_TEST
SHOAL_AMO_STD_TYPES(TEST_GENERIC_AMO_STD)

#define TEST_GENERIC_AMO_BIT(T, N) \
  START_TEST(test_generic_amo_bit_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np; \
    T *w = shmem_malloc(sizeof(T) * (size_t)np), *d = &w[me], f, x = (T)0x5a5a; \
    ck_assert(SAME_TYPE(shmem_atomic_fetch_xor(d, (T)1, 0), T)); \
    shmem_barrier_all(); \
    shmem_atomic_set(d, x, right); \
    ck_assert(shmem_atomic_fetch_and(d, (T)0x0ff0, right) == x); x &= (T)0x0ff0; \
    ck_assert(shmem_atomic_fetch_or(ctx, d, (T)0x3, right) == x); x |= (T)0x3; \
    ck_assert(shmem_atomic_fetch_xor(d, (T)0x101, right) == x); x ^= (T)0x101; \
    shmem_atomic_and(ctx, d, (T)0xfff, right); x &= (T)0xfff; \
    shmem_atomic_or(d, (T)0x8000, right); x |= (T)0x8000; \
    shmem_atomic_xor(ctx, d, (T)0x7, right); x ^= (T)0x7; \
    shmem_atomic_and(d, (T)0xfffe, right); x &= (T)0xfffe; \
    shmem_atomic_or(ctx, d, (T)0x40, right); x |= (T)0x40; \
    shmem_atomic_xor(d, (T)0x1000, right); x ^= (T)0x1000; \
    f = 0; shmem_atomic_fetch_and_nbi(&f, d, (T)0xff7f, right); shmem_quiet(); ck_assert(f == x); x &= (T)0xff7f; \
    f = 0; shmem_atomic_fetch_or_nbi(ctx, &f, d, (T)0x20, right); shmem_ctx_quiet(ctx); ck_assert(f == x); x |= (T)0x20; \
    f = 0; shmem_atomic_fetch_xor_nbi(&f, d, (T)0x11, right); shmem_quiet(); ck_assert(f == x); x ^= (T)0x11; \
    f = 0; shmem_atomic_fetch_and_nbi(ctx, &f, d, (T)0xffff, right); shmem_ctx_quiet(ctx); ck_assert(f == x); \
    f = 0; shmem_atomic_fetch_or_nbi(&f, d, (T)0, right); shmem_quiet(); ck_assert(f == x); \
    f = 0; shmem_atomic_fetch_xor_nbi(ctx, &f, d, (T)0, right); shmem_ctx_quiet(ctx); ck_assert(f == x); \
    ck_assert(shmem_atomic_fetch(d, right) == x); \
    shmem_barrier_all(); \
    shmem_free(w); \
  } \
  END_TEST
SHOAL_AMO_BIT_TYPES(TEST_GENERIC_AMO_BIT)

#define TEST_GENERIC_SYNC(T, N) \
  START_TEST(test_generic_sync_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np; \
    T *iv = shmem_calloc(4, sizeof(T)); \
    T vals[4] = {1, 2, 3, 4}; \
    size_t idx[4]; \
    int status[4] = {0, 0, 0, 1}; \
    ck_assert(SAME_TYPE(shmem_test(iv, SHMEM_CMP_EQ, (T)0), int)); \
    ck_assert_int_eq(shmem_test(iv, SHMEM_CMP_EQ, (T)1), 0); \
    ck_assert_int_eq(shmem_test_all(iv, 4, NULL, SHMEM_CMP_EQ, (T)0), 1); \
    ck_assert_uint_eq(shmem_test_any(iv, 4, NULL, SHMEM_CMP_NE, (T)0), SIZE_MAX); \
    ck_assert_uint_eq(shmem_test_some(iv, 4, idx, NULL, SHMEM_CMP_NE, (T)0), 0); \
    ck_assert_int_eq(shmem_test_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, vals), 0); \
    ck_assert_uint_eq(shmem_test_any_vector(iv, 4, NULL, SHMEM_CMP_EQ, vals), SIZE_MAX); \
    ck_assert_uint_eq(shmem_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, vals), 0); \
    shmem_barrier_all(); \
    shmem_put(iv, vals, 3, right); \
    shmem_quiet(); \
    shmem_wait_until(&iv[0], SHMEM_CMP_EQ, (T)1); \
    shmem_wait_until_all(iv, 4, status, SHMEM_CMP_GT, (T)0); \
    ck_assert_uint_eq(shmem_wait_until_any(iv, 4, NULL, SHMEM_CMP_EQ, (T)2), 1); \
    ck_assert_uint_eq(shmem_wait_until_some(iv, 4, idx, NULL, SHMEM_CMP_GE, (T)2), 2); \
    ck_assert(idx[0] == 1 && idx[1] == 2); \
    shmem_wait_until_all_vector(iv, 4, status, SHMEM_CMP_EQ, vals); \
    /* 0, 1 and 2 qualify: _any may return either (it rotates) */ \
    ck_assert_uint_lt(shmem_wait_until_any_vector(iv, 4, NULL, SHMEM_CMP_EQ, vals), 3); \
    ck_assert_uint_eq(shmem_wait_until_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, vals), 3); \
    ck_assert_int_eq(shmem_test(&iv[2], SHMEM_CMP_EQ, (T)3), 1); \
    ck_assert_int_eq(shmem_test_all(iv, 4, status, SHMEM_CMP_LE, (T)3), 1); \
    ck_assert_uint_eq(shmem_test_any(iv, 4, NULL, SHMEM_CMP_EQ, (T)3), 2); \
    ck_assert_uint_eq(shmem_test_some(iv, 4, idx, NULL, SHMEM_CMP_LT, (T)3), 3); \
    ck_assert_int_eq(shmem_test_all_vector(iv, 4, status, SHMEM_CMP_EQ, vals), 1); \
    ck_assert_uint_eq(shmem_test_any_vector(iv, 4, status, SHMEM_CMP_GT, vals), SIZE_MAX); \
    ck_assert_uint_eq(shmem_test_some_vector(iv, 4, idx, status, SHMEM_CMP_GE, vals), 3); \
    shmem_barrier_all(); \
    shmem_free(iv); \
  } \
  END_TEST
SHOAL_SYNC_TYPES(TEST_GENERIC_SYNC)

/* Arrays (globals) decay to pointers in the selection too. */
static long garr[NE];
START_TEST(test_generic_array)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  long src[NE];
  for (int i = 0; i < NE; i++) src[i] = (long)shoal_test_val(me, (size_t)i, 90);
  shmem_barrier_all();
  shmem_put(garr, src, NE, right);
  shmem_barrier_all();
  for (int i = 0; i < NE; i++) ck_assert_int_eq(garr[i], (long)shoal_test_val(left, (size_t)i, 90));
  shmem_barrier_all();
}
END_TEST

static void ctx_setup(void) { ck_assert_int_eq(shmem_ctx_create(0, &ctx), 0); }
static void ctx_teardown(void) { shmem_ctx_destroy(ctx); }

#define ADD_RMA(T, N) tcase_add_test(tc, test_generic_rma_##N);
#define ADD_EXT(T, N) tcase_add_test(tc, test_generic_amo_ext_##N);
#define ADD_STD(T, N) tcase_add_test(tc, test_generic_amo_std_##N);
#define ADD_BIT(T, N) tcase_add_test(tc, test_generic_amo_bit_##N);
#define ADD_SYNC(T, N) tcase_add_test(tc, test_generic_sync_##N);
static Suite *generic_suite(void)
{
  Suite *s = suite_create("generic");
  TCase *tc = tcase_create("generic");
  tcase_set_timeout(tc, 60);
  tcase_add_unchecked_fixture(tc, ctx_setup, ctx_teardown);
  SHOAL_RMA_TYPES(ADD_RMA)
  SHOAL_AMO_EXT_TYPES(ADD_EXT)
  SHOAL_AMO_STD_TYPES(ADD_STD)
  SHOAL_AMO_BIT_TYPES(ADD_BIT)
  SHOAL_SYNC_TYPES(ADD_SYNC)
  tcase_add_test(tc, test_generic_array);
  suite_add_tcase(s, tc);
  return s;
}

SHOAL_TEST_MAIN(generic_suite)
