/* Deprecated 1.4 active-set collectives: barrier, broadcast, fcollect,
 * collect, alltoall(s) in 32 and 64 bits, and TYPE_OP_to_all, on several
 * active sets (all PEs, even, odd, all but PE 0), back to back with no
 * barrier in between, reusing one pSync as the 1.4 rules allow. */
#include "shoal_test.h"
#include <unistd.h>

static int errors;
#define CHECK(cond, ...) do { if (!(cond)) { if (errors++ < 10) { \
  fprintf(stderr, "PE %d: ", shmem_my_pe()); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long pwrk_l[1024];
static double pwrk_d[1024];
static int pwrk_i[1024];
enum { NE = 131 };

typedef struct { int start, log, size; } aset;

/* broadcast64 on the whole job 200 times in a row, rotating roots, with
 * nothing between calls: the root runs ahead through its pushbox slots. */
START_TEST(test_active_run_ahead)
{
  errors = 0;
  int me = shmem_my_pe(), n = shmem_n_pes();
  uint64_t *src = shmem_malloc(sizeof(uint64_t) * NE), *dst = shmem_malloc(sizeof(uint64_t) * NE);
  for (unsigned it = 0; it < 200; it++) {
    int root = (int)((it / 50) % (unsigned)n);   /* long stretches: the root gets far ahead */
    size_t ne = 1 + (it * 7) % NE;
    for (size_t i = 0; i < NE; i++) src[i] = shoal_test_val(me, i, it);
    if (me != root && it % 16 == 5) usleep(3000);   /* a slow member: the root runs ahead */
    shmem_broadcast64(dst, src, ne, root, 0, 0, n, psync);
    if (me != root)
      for (size_t i = 0; i < ne; i++)
        CHECK(dst[i] == shoal_test_val(root, i, it), "run-ahead broadcast64 it %u element %zu", it, i);
  }
  shmem_barrier_all();
  shmem_free(src); shmem_free(dst);
  ck_assert_int_eq(errors, 0);
}
END_TEST

START_TEST(test_active_sets)
{
  errors = 0;
  int me = shmem_my_pe(), n = shmem_n_pes();
  aset sets[4] = {{0, 0, n}, {0, 1, (n + 1) / 2}, {1, 1, n / 2}, {1, 0, n - 1}};
  uint64_t *src = shmem_malloc(sizeof(uint64_t) * NE * 4), *dst = shmem_malloc(sizeof(uint64_t) * NE * 4 + 64);
  for (unsigned it = 0; it < 6; it++)
    for (int k = 0; k < 4; k++) {
      aset a = sets[k];
      int stride = 1 << a.log;
      if (a.size < 1 || me < a.start || (me - a.start) % stride || (me - a.start) / stride >= a.size) continue;
      int ame = (me - a.start) / stride;
#define W(q) (a.start + (q) * stride)
      unsigned salt = it * 10 + (unsigned)k;
      shmem_barrier(a.start, a.log, a.size, psync);
      /* broadcast64 from the last member: the root's dest stays untouched */
      int root = a.size - 1;
      for (size_t i = 0; i < NE; i++) src[i] = shoal_test_val(me, i, salt);
      shoal_test_poison(dst, sizeof(uint64_t) * NE);
      shmem_broadcast64(dst, src, NE, root, a.start, a.log, a.size, psync);
      for (size_t i = 0; i < NE; i++)
        if (ame == root) CHECK(((unsigned char *)&dst[i])[0] == POISON_BYTE, "broadcast64 wrote the root's dest");
        else CHECK(dst[i] == shoal_test_val(W(root), i, salt), "broadcast64 set %d element %zu", k, i);
      /* broadcast32 */
      uint32_t *s32 = (uint32_t *)src, *d32 = (uint32_t *)dst;
      for (size_t i = 0; i < NE; i++) s32[i] = (uint32_t)shoal_test_val(me, i, salt + 1);
      shmem_broadcast32(d32, s32, NE, 0, a.start, a.log, a.size, psync);
      if (ame != 0)
        for (size_t i = 0; i < NE; i++)
          CHECK(d32[i] == (uint32_t)shoal_test_val(W(0), i, salt + 1), "broadcast32 set %d", k);
      /* fcollect64 / fcollect32 */
      for (size_t i = 0; i < NE; i++) src[i] = shoal_test_val(me, i, salt + 2);
      shmem_fcollect64(dst, src, NE, a.start, a.log, a.size, psync);
      for (int q = 0; q < a.size; q++)
        for (size_t i = 0; i < NE; i++)
          CHECK(dst[q * NE + i] == shoal_test_val(W(q), i, salt + 2), "fcollect64 set %d", k);
      for (size_t i = 0; i < NE; i++) s32[i] = (uint32_t)shoal_test_val(me, i, salt + 3);
      shmem_fcollect32(d32, s32, NE, a.start, a.log, a.size, psync);
      for (int q = 0; q < a.size; q++)
        for (size_t i = 0; i < NE; i++)
          CHECK(d32[q * NE + i] == (uint32_t)shoal_test_val(W(q), i, salt + 3), "fcollect32 set %d", k);
      /* collect64: member q gives q + 1 elements */
      for (size_t i = 0; i <= (size_t)ame; i++) src[i] = shoal_test_val(me, i, salt + 4);
      shmem_collect64(dst, src, (size_t)ame + 1, a.start, a.log, a.size, psync);
      for (int q = 0, off = 0; q < a.size; off += q + 1, q++)
        for (int i = 0; i <= q; i++)
          CHECK(dst[off + i] == shoal_test_val(W(q), (size_t)i, salt + 4), "collect64 set %d", k);
      for (size_t i = 0; i <= (size_t)ame; i++) s32[i] = (uint32_t)shoal_test_val(me, i, salt + 5);
      shmem_collect32(d32, s32, (size_t)ame + 1, a.start, a.log, a.size, psync);
      for (int q = 0, off = 0; q < a.size; off += q + 1, q++)
        for (int i = 0; i <= q; i++)
          CHECK(d32[off + i] == (uint32_t)shoal_test_val(W(q), (size_t)i, salt + 5), "collect32 set %d", k);
      /* alltoall64 / alltoalls32 */
      enum { B = 7 };
      for (size_t i = 0; i < (size_t)B * a.size; i++) src[i] = shoal_test_val(me, i, salt + 6);
      shmem_alltoall64(dst, src, B, a.start, a.log, a.size, psync);
      for (int q = 0; q < a.size; q++)
        for (size_t i = 0; i < B; i++)
          CHECK(dst[q * B + i] == shoal_test_val(W(q), (size_t)ame * B + i, salt + 6), "alltoall64 set %d", k);
      for (size_t i = 0; i < (size_t)B * a.size; i++) s32[2 * i] = (uint32_t)shoal_test_val(me, i, salt + 7);
      shmem_alltoalls32(d32, s32, 1, 2, B, a.start, a.log, a.size, psync);
      for (int q = 0; q < a.size; q++)
        for (size_t i = 0; i < B; i++)
          CHECK(d32[q * B + i] == (uint32_t)shoal_test_val(W(q), (size_t)ame * B + i, salt + 7), "alltoalls32 set %d", k);
      for (size_t i = 0; i < (size_t)B * a.size; i++) src[i] = shoal_test_val(me, i, salt + 8);
      shmem_alltoall32(d32, src, B * 2, a.start, a.log, a.size, psync);   /* 32-bit units */
      for (int q = 0; q < a.size; q++)
        for (size_t i = 0; i < B; i++)
          CHECK(((uint64_t *)d32)[q * B + i] == shoal_test_val(W(q), (size_t)ame * B + i, salt + 8), "alltoall32 set %d", k);
      shmem_alltoalls64(dst, src, 1, 1, B, a.start, a.log, a.size, psync);
      for (int q = 0; q < a.size; q++)
        for (size_t i = 0; i < B; i++)
          CHECK(dst[q * B + i] == shoal_test_val(W(q), (size_t)ame * B + i, salt + 8), "alltoalls64 set %d", k);
      /* to_all: long sum in place, double max, int xor */
      long *ls = (long *)src;
      for (size_t i = 0; i < NE; i++) ls[i] = (long)(shoal_test_val(me, i, salt + 9) % 1000);
      shmem_long_sum_to_all(ls, ls, NE, a.start, a.log, a.size, pwrk_l, psync);
      for (size_t i = 0; i < NE; i++) {
        long want = 0;
        for (int q = 0; q < a.size; q++) want += (long)(shoal_test_val(W(q), i, salt + 9) % 1000);
        CHECK(ls[i] == want, "long_sum_to_all set %d element %zu", k, i);
      }
      double *ds = (double *)src, *dd = (double *)dst;
      for (size_t i = 0; i < NE; i++) ds[i] = (double)(shoal_test_val(me, i, salt + 10) % 100000);
      shmem_double_max_to_all(dd, ds, NE, a.start, a.log, a.size, pwrk_d, psync);
      for (size_t i = 0; i < NE; i++) {
        double want = 0;
        for (int q = 0; q < a.size; q++) {
          double v = (double)(shoal_test_val(W(q), i, salt + 10) % 100000);
          if (v > want) want = v;
        }
        CHECK(dd[i] == want, "double_max_to_all set %d element %zu", k, i);
      }
      int *is = (int *)src, *id = (int *)dst;
      for (size_t i = 0; i < NE; i++) is[i] = (int)shoal_test_val(me, i, salt + 11);
      shmem_int_xor_to_all(id, is, NE, a.start, a.log, a.size, pwrk_i, psync);
      for (size_t i = 0; i < NE; i++) {
        int want = 0;
        for (int q = 0; q < a.size; q++) want ^= (int)shoal_test_val(W(q), i, salt + 11);
        CHECK(id[i] == want, "int_xor_to_all set %d element %zu", k, i);
      }
#undef W
    }
  shmem_barrier_all();
  shmem_free(src);
  shmem_free(dst);
  ck_assert_int_eq(errors, 0);
}
END_TEST

static Suite *active_suite(void)
{
  Suite *s = suite_create("active");
  TCase *tc = tcase_create("active");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_active_sets);
  tcase_add_test(tc, test_active_run_ahead);
  suite_add_tcase(s, tc);
  return s;
}

SHOAL_TEST_MAIN(active_suite)
