/* The symmetric heap API: shmem_malloc, calloc, align, realloc, free,
 * malloc_with_hints.  The heap is set small (SHMEM_SYMMETRIC_SIZE=4M) so
 * exhaustion is cheap: it must return NULL on every PE and leave the heap
 * fully usable.  Symmetry is checked by using every block remotely. */
#include "shoal_test.h"

#include <stdint.h>

#define HEAP_SIZE ((size_t)4 << 20)

/* Put a fresh pattern into p on my right; check what my left put here. */
static void check_remote_use(void *p, size_t bytes, unsigned salt)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  uint8_t *src = malloc(bytes), *b = p;
  for (size_t i = 0; i < bytes; i++) src[i] = (uint8_t)shoal_test_val(me, i, salt);
  shmem_barrier_all();
  shmem_putmem(p, src, bytes, right);
  shmem_barrier_all();
  /* Check's ck_assert records its location on every call: test the bytes
   * plainly and fail on the first wrong one */
  for (size_t i = 0; i < bytes; i++)
    if (b[i] != (uint8_t)shoal_test_val(left, i, salt))
      ck_abort_msg("byte %zu of %zu from PE %d wrong", i, bytes, left);
  shmem_barrier_all();
  free(src);
}

START_TEST(test_malloc_free)
{
  size_t sizes[] = {1, 8, 63, 64, 1000, 4096, 65537};
  void *p[7];
  for (int k = 0; k < 7; k++) {
    p[k] = shmem_malloc(sizes[k]);
    ck_assert_ptr_nonnull(p[k]);
    ck_assert_uint_eq((uintptr_t)p[k] % 64, 0);   /* fit for any type */
    ck_assert(shmem_addr_accessible(p[k], shmem_n_pes() - 1));
    for (int j = 0; j < k; j++)   /* no overlap */
      ck_assert((char *)p[j] + sizes[j] <= (char *)p[k] || (char *)p[k] + sizes[k] <= (char *)p[j]);
  }
  for (int k = 0; k < 7; k++) check_remote_use(p[k], sizes[k], 1 + (unsigned)k);
  for (int k = 0; k < 7; k += 2) shmem_free(p[k]);
  for (int k = 1; k < 7; k += 2) shmem_free(p[k]);
  shmem_free(NULL);   /* a no-op (and still a barrier) */
  ck_assert_ptr_null(shmem_malloc(0));
}
END_TEST

START_TEST(test_calloc_zeroes)
{
  /* dirty a block, free it, and calloc the same bytes back */
  uint8_t *d = shmem_malloc(8192);
  memset(d, 0xff, 8192);
  shmem_free(d);
  uint64_t *z = shmem_calloc(1024, sizeof(uint64_t));
  ck_assert_ptr_nonnull(z);
  for (int i = 0; i < 1024; i++) ck_assert_uint_eq(z[i], 0);
  check_remote_use(z, 8192, 20);
  shmem_free(z);
  ck_assert_ptr_null(shmem_calloc(0, 8));
  ck_assert_ptr_null(shmem_calloc(SIZE_MAX / 2, 4));   /* the size overflows */
  ck_assert_ptr_null(shmem_calloc(HEAP_SIZE, 2));
}
END_TEST

START_TEST(test_align)
{
  size_t aligns[] = {1, 2, 64, 128, 1024, 4096};
  for (int k = 0; k < 6; k++) {
    void *pad = shmem_malloc(24);   /* knock the heap off alignment */
    void *p = shmem_align(aligns[k], 100);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq((uintptr_t)p % aligns[k], 0);
    check_remote_use(p, 100, 30 + (unsigned)k);
    shmem_free(p);
    shmem_free(pad);
  }
  ck_assert_ptr_null(shmem_align(4096, HEAP_SIZE + 1));
  /* Beyond the page size, alignment depends on where each PE's heap is
   * mapped: the block is aligned on every PE, or NULL on every PE. */
  size_t big[] = {8192, 65536, 1 << 20};
  static int got[3];
  for (int k = 0; k < 3; k++) {
    void *pad = shmem_malloc(48);
    void *q = shmem_align(big[k], 1000);
    if (q) {
      ck_assert_msg((uintptr_t)q % big[k] == 0, "shmem_align(%zu) gave %p", big[k], q);
      shmem_int_atomic_inc(&got[k], 0);
    }
    shmem_barrier_all();
    int all = shmem_int_atomic_fetch(&got[k], 0);
    ck_assert_msg(all == 0 || all == shmem_n_pes(), "shmem_align(%zu): %d of %d PEs got a block",
                  big[k], all, shmem_n_pes());
    if (all) check_remote_use(q, 1000, 40 + (unsigned)k);
    shmem_free(q);
    shmem_free(pad);
  }
  void *p = shmemalign(256, 10);   /* deprecated name */
  ck_assert_uint_eq((uintptr_t)p % 256, 0);
  shfree(p);
}
END_TEST

START_TEST(test_realloc)
{
  int me = shmem_my_pe();
  ck_assert_ptr_null(shmem_realloc(NULL, 0));
  uint32_t *a = shmem_realloc(NULL, 100 * sizeof(uint32_t));   /* acts as malloc */
  ck_assert_ptr_nonnull(a);
  for (int i = 0; i < 100; i++) a[i] = (uint32_t)shoal_test_val(me, (size_t)i, 40);
  /* grow in place: nothing behind it */
  uint32_t *b = shmem_realloc(a, 1000 * sizeof(uint32_t));
  ck_assert_ptr_eq(b, a);
  for (int i = 0; i < 100; i++) ck_assert_uint_eq(b[i], (uint32_t)shoal_test_val(me, (size_t)i, 40));
  /* grow past a block in the way: it moves, keeping the contents */
  void *wall = shmem_malloc(64);
  uint32_t *c = shmem_realloc(b, 100000 * sizeof(uint32_t));
  ck_assert_ptr_nonnull(c);
  ck_assert_ptr_ne(c, b);
  for (int i = 0; i < 100; i++) ck_assert_uint_eq(c[i], (uint32_t)shoal_test_val(me, (size_t)i, 40));
  check_remote_use(c, 100000 * sizeof(uint32_t), 41);
  /* shrink in place */
  uint32_t *d = shmem_realloc(c, 10 * sizeof(uint32_t));
  ck_assert_ptr_eq(d, c);
  /* too big: NULL, the old block is kept and still usable */
  ck_assert_ptr_null(shmem_realloc(d, 2 * HEAP_SIZE));
  check_remote_use(d, 10 * sizeof(uint32_t), 42);
  ck_assert_ptr_null(shmem_realloc(d, 0));   /* frees */
  void *e = shrealloc(NULL, 32);
  ck_assert_ptr_nonnull(e);
  shfree(e);
  shmem_free(wall);
}
END_TEST

START_TEST(test_hints)
{
  long hints[] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE,
                  SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE};
  for (int k = 0; k < 4; k++) {
    long *p = shmem_malloc_with_hints(sizeof(long) * 4, hints[k]);
    ck_assert_ptr_nonnull(p);
    p[0] = 0;
    shmem_barrier_all();
    shmem_long_atomic_add(p, 1, 0);
    shmem_barrier_all();
    if (shmem_my_pe() == 0) ck_assert_int_eq(p[0], shmem_n_pes());
    shmem_barrier_all();
    shmem_free(p);
  }
}
END_TEST

/* Exhaustion: NULL on every PE, then the heap is whole again. */
START_TEST(test_exhaustion)
{
  ck_assert_ptr_null(shmem_malloc(2 * HEAP_SIZE));
  ck_assert_ptr_null(shmem_malloc(SIZE_MAX));
  enum { CHUNK = 200 * 1024, MAXB = 64 };
  void *blocks[MAXB];
  int n = 0;
  while (n < MAXB && (blocks[n] = shmem_malloc(CHUNK)) != NULL) n++;
  ck_assert_int_lt(n, MAXB);
  ck_assert_int_ge(n, (int)(HEAP_SIZE / CHUNK) - 2);
  /* every PE stopped at the same block */
  static int counts[2];
  counts[0] = n;
  shmem_barrier_all();
  ck_assert_int_eq(shmem_int_g(&counts[0], 0), n);
  /* the last blocks are usable, and a small block still fits in the tail */
  check_remote_use(blocks[n - 1], CHUNK, 50);
  void *small = shmem_malloc(1024);
  ck_assert_ptr_nonnull(small);
  check_remote_use(small, 1024, 51);
  shmem_free(small);
  for (int k = 0; k < n; k++) shmem_free(blocks[k]);
  /* everything back: one block of nearly the whole heap fits */
  void *big = shmem_malloc(HEAP_SIZE - 64 * 1024);
  ck_assert_ptr_nonnull(big);
  check_remote_use(big, HEAP_SIZE - 64 * 1024, 52);
  shmem_free(big);
}
END_TEST

/* Many mixed allocations and frees in the same order on every PE: the
 * fragmented heap stays symmetric (each live block usable remotely). */
START_TEST(test_fragmentation)
{
  enum { N = 60 };
  void *p[N] = {0};
  size_t sz[N] = {0};
  unsigned r = 12345;   /* the same sequence on every PE */
  for (int step = 0; step < 300; step++) {
    r = r * 1103515245u + 12345u;
    int k = (int)((r >> 8) % N);
    if (p[k]) {
      shmem_free(p[k]);
      p[k] = NULL;
    } else {
      sz[k] = 1 + (r >> 4) % 20000;
      p[k] = (r & 1) ? shmem_malloc(sz[k]) : shmem_align((size_t)1 << ((r >> 2) % 12), sz[k]);
      ck_assert_ptr_nonnull(p[k]);
    }
  }
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np;
  for (int k = 0; k < N; k++)
    if (p[k]) shmem_int_p((int *)p[k], k * 100 + me, right);
  shmem_barrier_all();
  for (int k = 0; k < N; k++)
    if (p[k]) ck_assert_int_eq(*(int *)p[k], k * 100 + (me + np - 1) % np);
  shmem_barrier_all();
  for (int k = 0; k < N; k++) shmem_free(p[k]);
}
END_TEST

static Suite *heap_suite(void)
{
  Suite *s = suite_create("heap");
  TCase *tc = tcase_create("heap");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_malloc_free);
  tcase_add_test(tc, test_calloc_zeroes);
  tcase_add_test(tc, test_align);
  tcase_add_test(tc, test_realloc);
  tcase_add_test(tc, test_hints);
  tcase_add_test(tc, test_exhaustion);
  tcase_add_test(tc, test_fragmentation);
  tcase_add_test(tc, test_exhaustion);   /* again: nothing leaked */
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  setenv("SHMEM_SYMMETRIC_SIZE", "4M", 1);
  return shoal_test_run(heap_suite());
}
