/* The libfabric transport: every point-to-point family through the fabric.
 *
 * Run alone (plain make check) it forces the fabric for every peer over the
 * shm provider; under tests/ci-extra.sh it follows FI_PROVIDER and
 * SHOAL_PES_PER_NODE, so mapped and fabric peers mix.  Built three times:
 * native provider atomics, every AMO emulated by compare-swap
 * (SHOAL_OFI_AMO=cas), and every AMO through the fabric, mapped peers too
 * (SHOAL_OFI_AMO_ALL=1). */
#include "shoal_test.h"


#define ROUNDS 50

/* Fetch-add from every PE to every PE, then fetch-and-add results summed. */
#define AMO_ADD_TEST(T, N) \
  START_TEST(test_amo_add_##N) \
  { \
    int me = shmem_my_pe(), n = shmem_n_pes(); \
    T *ctr = shmem_calloc(2, sizeof(T)); \
    ck_assert_ptr_nonnull(ctr); \
    shmem_barrier_all(); \
    for (int r = 0; r < ROUNDS; r++) \
      for (int k = 0; k < n; k++) { \
        int p = (me + k) % n; \
        T old = shmem_##N##_atomic_fetch_add(&ctr[0], (T)(me + 1), p); \
        ck_assert(old < (T)(ROUNDS * n * (n + 1) / 2)); \
        shmem_##N##_atomic_inc(&ctr[1], p); \
      } \
    shmem_barrier_all(); \
    T want = (T)(ROUNDS * n * (n + 1) / 2); \
    ck_assert_msg(ctr[0] == want, #N " fetch_add: got %lld, want %lld", (long long)ctr[0], \
                  (long long)want); \
    ck_assert(ctr[1] == (T)(ROUNDS * n)); \
    ck_assert(shmem_##N##_atomic_fetch(&ctr[0], (me + 1) % n) == want); \
    shmem_barrier_all(); \
    shmem_free(ctr); \
  } \
  END_TEST

/* Increment by compare-swap loops from every PE: lost updates show. */
#define AMO_CAS_TEST(T, N) \
  START_TEST(test_amo_cas_##N) \
  { \
    int me = shmem_my_pe(), n = shmem_n_pes(); \
    T *ctr = shmem_calloc(1, sizeof(T)); \
    shmem_barrier_all(); \
    int target = (me + 1) % n; \
    for (int r = 0; r < ROUNDS; r++) { \
      T seen = shmem_##N##_atomic_fetch(ctr, target); \
      for (;;) { \
        T got = shmem_##N##_atomic_compare_swap(ctr, seen, (T)(seen + 1), target); \
        if (got == seen) break; \
        seen = got; \
      } \
    } \
    shmem_barrier_all(); \
    ck_assert_msg(*ctr == (T)ROUNDS, #N " cas: got %lld", (long long)*ctr); \
    T v = (T)(shoal_test_val(me, 0, 7) & 0x3fffffff); \
    shmem_barrier_all(); \
    T old = shmem_##N##_atomic_swap(ctr, v, me); \
    ck_assert(old == (T)ROUNDS); \
    shmem_##N##_atomic_set(ctr, (T)(v + 1), me); \
    shmem_barrier_all(); \
    ck_assert(shmem_##N##_atomic_fetch(ctr, target) == \
              (T)((T)(shoal_test_val(target, 0, 7) & 0x3fffffff) + 1)); \
    shmem_barrier_all(); \
    shmem_free(ctr); \
  } \
  END_TEST

/* Each PE owns a bit of every PE's word: or sets, xor toggles, and clears. */
#define AMO_BIT_TEST(T, N) \
  START_TEST(test_amo_bit_##N) \
  { \
    int me = shmem_my_pe(), n = shmem_n_pes(); \
    T *w = shmem_calloc(1, sizeof(T)); \
    T all = 0; \
    for (int p = 0; p < n; p++) all |= (T)((T)1 << (p + 3)); \
    shmem_barrier_all(); \
    T mine = (T)((T)1 << (me + 3)); \
    for (int p = 0; p < n; p++) (void)shmem_##N##_atomic_fetch_or(w, mine, p); \
    shmem_barrier_all(); \
    ck_assert(*w == all); \
    shmem_barrier_all(); \
    for (int p = 0; p < n; p++) shmem_##N##_atomic_xor(w, mine, p); \
    shmem_barrier_all(); \
    ck_assert(*w == 0); \
    shmem_barrier_all(); \
    for (int p = 0; p < n; p++) shmem_##N##_atomic_or(w, (T)(mine | 1), p); \
    shmem_barrier_all(); \
    for (int p = 0; p < n; p++) { \
      T old = shmem_##N##_atomic_fetch_and(w, (T)~mine, p); \
      ck_assert(old & 1); \
    } \
    shmem_barrier_all(); \
    ck_assert(*w == 1); \
    shmem_barrier_all(); \
    shmem_free(w); \
  } \
  END_TEST

AMO_ADD_TEST(int, int)
AMO_ADD_TEST(long, long)
AMO_ADD_TEST(unsigned int, uint)
AMO_ADD_TEST(uint64_t, uint64)
AMO_CAS_TEST(int32_t, int32)
AMO_CAS_TEST(unsigned long long, ulonglong)
AMO_BIT_TEST(uint32_t, uint32)
AMO_BIT_TEST(int64_t, int64)

START_TEST(test_amo_float)
{
  int me = shmem_my_pe(), n = shmem_n_pes();
  float *f = shmem_calloc(1, sizeof(float));
  double *d = shmem_calloc(1, sizeof(double));
  shmem_barrier_all();
  for (int r = 0; r < ROUNDS; r++)
    for (int p = 0; p < n; p++) {
      shmem_float_atomic_set(f, (float)me, p);   /* races are fine: we only check it is a PE id */
      (void)shmem_double_atomic_swap(d, (double)me + 0.5, p);
    }
  shmem_barrier_all();
  float fv = shmem_float_atomic_fetch(f, (me + 1) % n);
  double dv = shmem_double_atomic_fetch(d, (me + 1) % n);
  ck_assert(fv >= 0 && fv < n && fv == (float)(int)fv);
  ck_assert(dv > 0 && dv < n && dv - (int)dv == 0.5);
  shmem_barrier_all();
  shmem_free(f);
  shmem_free(d);
}
END_TEST

static unsigned char byte_val(int pe, size_t i)
{
  return (unsigned char)(shoal_test_val(pe, i / 8, 2) >> (8 * (i % 8)));
}

/* Index of the first byte of buf that is not byte_val(pe, i), or SIZE_MAX. */
static size_t first_bad(const unsigned char *buf, size_t bytes, int pe)
{
  for (size_t i = 0; i < bytes; i++)
    if (buf[i] != byte_val(pe, i)) return i;
  return SIZE_MAX;
}

/* Large transfers from private and symmetric memory, odd sizes. */
START_TEST(test_large_put_get)
{
  int me = shmem_my_pe(), n = shmem_n_pes();
  size_t bytes = (3u << 20) + 13, bad;
  unsigned char *dst = shmem_malloc(bytes), *sym_src = shmem_malloc(bytes);
  unsigned char *src = malloc(bytes), *back = malloc(bytes);
  ck_assert_ptr_nonnull(dst);
  ck_assert_ptr_nonnull(sym_src);
  for (size_t i = 0; i < bytes; i++) src[i] = byte_val(me, i);
  memcpy(sym_src, src, bytes);
  shoal_test_poison(dst, bytes);
  shmem_barrier_all();
  int to = (me + 1) % n, from = (me + n - 1) % n, ff = (from + n - 1) % n;
  shmem_putmem(dst, src, bytes, to);
  memset(src, 0, bytes);   /* blocking put: the source is reusable on return */
  shmem_barrier_all();
  bad = first_bad(dst, bytes, from);
  ck_assert_msg(bad == SIZE_MAX, "putmem: byte %zu from PE %d wrong", bad, from);
  shmem_barrier_all();
  shoal_test_poison(dst, bytes);
  shmem_barrier_all();
  shmem_putmem_nbi(dst, sym_src, bytes, to);
  shmem_quiet();
  shmem_barrier_all();
  bad = first_bad(dst, bytes, from);
  ck_assert_msg(bad == SIZE_MAX, "putmem_nbi: byte %zu from PE %d wrong", bad, from);
  shoal_test_poison(back, bytes);
  shmem_getmem(back, sym_src, bytes, to);
  bad = first_bad(back, bytes, to);
  ck_assert_msg(bad == SIZE_MAX, "getmem: byte %zu from PE %d wrong", bad, to);
  shoal_test_poison(back, bytes);
  shmem_getmem(back, dst, bytes, from);   /* from's dst holds what its left neighbour sent */
  bad = first_bad(back, bytes, ff);
  ck_assert_msg(bad == SIZE_MAX, "getmem (heap to private): byte %zu wrong", bad);
  shmem_barrier_all();
  free(src); free(back);
  shmem_free(dst); shmem_free(sym_src);
}
END_TEST

/* Every PE puts to every other at the same time, more than the proxy's
 * send pool and its peer's posted receives hold (64 + 128 messages of
 * 64 KB): a PE's sends complete only as its peers take them in, while
 * those peers wait to send too (it deadlocked on shm before the sends'
 * waits took messages in). */
START_TEST(test_crossing_puts)
{
  int me = shmem_my_pe(), n = shmem_n_pes();
  size_t bytes = (17u << 20) + 5, bad;
  unsigned char *dst = shmem_malloc(bytes * (size_t)n), *src = malloc(bytes);
  ck_assert_ptr_nonnull(dst);
  for (size_t i = 0; i < bytes; i++) src[i] = byte_val(me, i);
  shoal_test_poison(dst, bytes * (size_t)n);
  shmem_barrier_all();
  for (int k = 1; k < n; k++) shmem_putmem(dst + (size_t)me * bytes, src, bytes, (me + k) % n);
  shmem_barrier_all();
  for (int p = 0; p < n; p++) {
    if (p == me) continue;
    bad = first_bad(dst + (size_t)p * bytes, bytes, p);
    ck_assert_msg(bad == SIZE_MAX, "crossing puts: byte %zu from PE %d wrong", bad, p);
  }
  shmem_barrier_all();
  free(src);
  shmem_free(dst);
}
END_TEST

/* Small puts then get of the same bytes with no quiet: the transport
 * orders a PE's own get after its own puts. */
START_TEST(test_put_then_get)
{
  int me = shmem_my_pe(), n = shmem_n_pes();
  long *x = shmem_calloc(64, sizeof(long));
  shmem_barrier_all();
  int to = (me + 1) % n;
  for (int r = 0; r < ROUNDS; r++) {
    long v = (long)shoal_test_val(me, (size_t)r, 3);
    shmem_long_p(&x[me % 64], v, to);
    ck_assert(shmem_long_g(&x[me % 64], to) == v);
  }
  shmem_barrier_all();
  shmem_free(x);
}
END_TEST

/* put_signal: data is visible once the signal is; the target only waits. */
START_TEST(test_put_signal)
{
  int me = shmem_my_pe(), n = shmem_n_pes();
  size_t cnt = 5000;
  long *buf = shmem_malloc(cnt * sizeof(long));
  uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
  long *src = malloc(cnt * sizeof(long));
  shoal_test_poison(buf, cnt * sizeof(long));
  shmem_barrier_all();
  int to = (me + 1) % n, from = (me + n - 1) % n;
  for (int r = 1; r <= 5; r++) {
    for (size_t i = 0; i < cnt; i++) src[i] = (long)shoal_test_val(me, i, (unsigned)(10 + r));
    shmem_long_put_signal(buf, src, cnt, sig, 1, SHMEM_SIGNAL_ADD, to);
    shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)r);
    for (size_t i = 0; i < cnt; i++)
      ck_assert_msg(buf[i] == (long)shoal_test_val(from, i, (unsigned)(10 + r)),
                    "round %d element %zu", r, i);
    shmem_barrier_all();   /* the sender may overwrite buf only after I checked */
  }
  shmem_putmem_signal(buf, src, 8, sig, 77, SHMEM_SIGNAL_SET, to);
  shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 77);
  ck_assert(shmem_signal_fetch(sig) == 77);
  shmem_barrier_all();
  free(src);
  shmem_free(buf);
  shmem_free(sig);
}
END_TEST

/* Strided put and get. */
START_TEST(test_strided)
{
  int me = shmem_my_pe(), n = shmem_n_pes();
  size_t ne = 301;
  int *dst = shmem_malloc(3 * ne * sizeof(int)), *src = malloc(2 * ne * sizeof(int));
  for (size_t i = 0; i < 2 * ne; i++) src[i] = (int)shoal_test_val(me, i, 4);
  shoal_test_poison(dst, 3 * ne * sizeof(int));
  shmem_barrier_all();
  int to = (me + 1) % n, from = (me + n - 1) % n;
  shmem_int_iput(dst, src, 3, 2, ne, to);
  shmem_barrier_all();
  int poison;
  memset(&poison, 0xA5, sizeof poison);
  for (size_t i = 0; i < 3 * ne; i++)
    ck_assert(dst[i] == (i % 3 == 0 ? (int)shoal_test_val(from, 2 * (i / 3), 4) : poison));
  int *back = malloc(ne * sizeof(int));
  shoal_test_poison(back, ne * sizeof(int));
  shmem_int_iget(back, dst, 1, 3, ne, to);
  for (size_t i = 0; i < ne; i++) ck_assert(back[i] == (int)shoal_test_val(me, 2 * i, 4));
  shmem_barrier_all();
  free(back); free(src);
  shmem_free(dst);
}
END_TEST

/* Global (data segment) variables are symmetric through the fabric too. */
static long globals[257];
static int global_flag;

START_TEST(test_globals_and_wait)
{
  int me = shmem_my_pe(), n = shmem_n_pes();
  int to = (me + 1) % n, from = (me + n - 1) % n;
  long src[257];
  for (int i = 0; i < 257; i++) src[i] = (long)shoal_test_val(me, (size_t)i, 5);
  shoal_test_poison(globals, sizeof globals);
  global_flag = 0;
  shmem_barrier_all();
  shmem_long_put(globals, src, 257, to);
  shmem_fence();
  shmem_int_atomic_set(&global_flag, 1, to);
  shmem_int_wait_until(&global_flag, SHMEM_CMP_EQ, 1);
  for (int i = 0; i < 257; i++) ck_assert(globals[i] == (long)shoal_test_val(from, (size_t)i, 5));
  shmem_barrier_all();
}
END_TEST

/* Contexts: quiet on a context completes its puts. */
START_TEST(test_ctx)
{
  int me = shmem_my_pe(), n = shmem_n_pes();
  shmem_ctx_t ctx;
  ck_assert_int_eq(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0);
  long *x = shmem_malloc(100 * sizeof(long));
  int *flag = shmem_calloc(1, sizeof(int));
  shmem_barrier_all();
  int to = (me + 1) % n, from = (me + n - 1) % n;
  long v[100];
  for (int i = 0; i < 100; i++) v[i] = (long)shoal_test_val(me, (size_t)i, 6);
  shmem_ctx_long_put_nbi(ctx, x, v, 100, to);
  shmem_ctx_quiet(ctx);
  shmem_int_atomic_set(flag, 1, to);
  shmem_int_wait_until(flag, SHMEM_CMP_EQ, 1);
  for (int i = 0; i < 100; i++) ck_assert(x[i] == (long)shoal_test_val(from, (size_t)i, 6));
  shmem_barrier_all();
  ck_assert(shmem_ctx_long_atomic_fetch_add(ctx, &x[0], 1, to) == v[0]);
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
  shmem_free(x);
  shmem_free(flag);
}
END_TEST

/* The distributed lock over the fabric: a non-atomic increment inside. */
static long lock;
START_TEST(test_lock)
{
  int n = shmem_n_pes();
  long *c = shmem_calloc(1, sizeof(long));
  shmem_barrier_all();
  for (int r = 0; r < 20; r++) {
    shmem_set_lock(&lock);
    long v = shmem_long_g(c, 0);
    shmem_long_p(c, v + 1, 0);
    shmem_quiet();
    shmem_clear_lock(&lock);
  }
  shmem_barrier_all();
  ck_assert(shmem_long_g(c, 0) == 20L * n);
  shmem_barrier_all();
  shmem_free(c);
}
END_TEST

static Suite *ofi_suite(void)
{
  Suite *s = suite_create("ofi");
  TCase *tc = tcase_create("fabric");
  tcase_set_timeout(tc, 240);
  tcase_add_test(tc, test_amo_add_int);
  tcase_add_test(tc, test_amo_add_long);
  tcase_add_test(tc, test_amo_add_uint);
  tcase_add_test(tc, test_amo_add_uint64);
  tcase_add_test(tc, test_amo_cas_int32);
  tcase_add_test(tc, test_amo_cas_ulonglong);
  tcase_add_test(tc, test_amo_bit_uint32);
  tcase_add_test(tc, test_amo_bit_int64);
  tcase_add_test(tc, test_amo_float);
  tcase_add_test(tc, test_large_put_get);
  tcase_add_test(tc, test_crossing_puts);
  tcase_add_test(tc, test_put_then_get);
  tcase_add_test(tc, test_put_signal);
  tcase_add_test(tc, test_strided);
  tcase_add_test(tc, test_globals_and_wait);
  tcase_add_test(tc, test_ctx);
  tcase_add_test(tc, test_lock);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  /* Alone: the fabric for every peer, over shm.  Under ci-extra.sh the
   * caller's FI_PROVIDER / SHOAL_PES_PER_NODE win. */
  setenv("FI_PROVIDER", "shm", 0);
  if (!getenv("SHOAL_PES_PER_NODE")) setenv("SHOAL_TRANSPORT", "ofi", 0);
#ifdef OFI_TEST_ENV_NAME
  setenv(OFI_TEST_ENV_NAME, OFI_TEST_ENV_VALUE, 1);
#endif
  return shoal_test_run(ofi_suite());
}
