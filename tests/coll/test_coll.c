/* broadcast, fcollect, collect, alltoall, alltoalls: representative types on
 * every test team and size, checked element by element against what each
 * member's fresh data must give.  Then back-to-back collectives on
 * overlapping and disjoint teams with no barrier in between. */
#include "coll_test.h"
#include <unistd.h>

static int errors;
/* Allocated once by every PE: shmem_malloc is collective over the world,
 * and only members of a team run its checks. */
#define BUF_BYTES (sizeof(long double) * (MAX_ELEMS * 3 + 16) * 4)
static void *buf_a, *buf_b;
#define CHECK(cond, ...) do { if (!(cond)) { if (errors++ < 10) { \
  fprintf(stderr, "PE %d: ", shmem_my_pe()); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

#define COLL_TESTS(T, N) \
  static void bcast_##N(shmem_team_t t, const char *tn, size_t ne, unsigned salt) \
  { \
    int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t); \
    T *src = buf_a, *dst = buf_b; \
    for (int root = 0; root < n; root += (n > 1 ? n - 1 : 1)) { \
      for (size_t i = 0; i < ne; i++) src[i] = (T)shoal_test_val(wpe(t, me), i, salt + root); \
      shoal_test_poison(dst, sizeof(T) * MAX_ELEMS); \
      CHECK(shmem_##N##_broadcast(t, dst, src, ne, root) == 0, "broadcast rc"); \
      for (size_t i = 0; i < ne; i++) \
        CHECK(dst[i] == (T)shoal_test_val(wpe(t, root), i, salt + root), \
              #N " broadcast %s root %d n %zu: element %zu wrong", tn, root, ne, i); \
      CHECK(((unsigned char *)dst)[sizeof(T) * ne] == POISON_BYTE, #N " broadcast wrote past the end"); \
      if (n == 1) break; \
    } \
    shmem_team_sync(t); \
  } \
  static void fcollect_##N(shmem_team_t t, const char *tn, size_t ne, unsigned salt) \
  { \
    int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t); \
    T *src = buf_a, *dst = buf_b; \
    for (size_t i = 0; i < ne; i++) src[i] = (T)shoal_test_val(wpe(t, me), i, salt); \
    shoal_test_poison(dst, sizeof(T) * MAX_ELEMS * 4 + 16); \
    CHECK(shmem_##N##_fcollect(t, dst, src, ne) == 0, "fcollect rc"); \
    for (int q = 0; q < n; q++) \
      for (size_t i = 0; i < ne; i++) \
        CHECK(dst[(size_t)q * ne + i] == (T)shoal_test_val(wpe(t, q), i, salt), \
              #N " fcollect %s n %zu: block %d element %zu wrong", tn, ne, q, i); \
    CHECK(((unsigned char *)dst)[sizeof(T) * ne * n] == POISON_BYTE, #N " fcollect wrote past the end"); \
    /* collect: PE q contributes (ne + 3 q) % (ne + 2) elements, some of them 0 */ \
    size_t mine = ne ? (ne + 3 * (size_t)me) % (ne + 2) : (size_t)me % 2; \
    if (mine > MAX_ELEMS) mine = MAX_ELEMS; \
    for (size_t i = 0; i < mine; i++) src[i] = (T)shoal_test_val(wpe(t, me), i, salt + 1); \
    shoal_test_poison(dst, sizeof(T) * MAX_ELEMS * 4 + 16); \
    CHECK(shmem_##N##_collect(t, dst, src, mine) == 0, "collect rc"); \
    size_t off = 0; \
    for (int q = 0; q < n; q++) { \
      size_t cq = ne ? (ne + 3 * (size_t)q) % (ne + 2) : (size_t)q % 2; \
      if (cq > MAX_ELEMS) cq = MAX_ELEMS; \
      for (size_t i = 0; i < cq; i++) \
        CHECK(dst[off + i] == (T)shoal_test_val(wpe(t, q), i, salt + 1), \
              #N " collect %s n %zu: block %d element %zu wrong", tn, ne, q, i); \
      off += cq; \
    } \
    CHECK(((unsigned char *)dst)[sizeof(T) * off] == POISON_BYTE, #N " collect wrote past the end"); \
    shmem_team_sync(t); \
  } \
  static void alltoall_##N(shmem_team_t t, const char *tn, size_t ne, unsigned salt) \
  { \
    int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t); \
    size_t ne4 = ne / 4 + (ne & 1); /* keep 4 blocks within MAX_ELEMS */ \
    size_t cap = sizeof(T) * (MAX_ELEMS * 3 + 16) * 4; \
    T *src = buf_a, *dst = buf_b; \
    for (size_t i = 0; i < ne4 * n; i++) src[i] = (T)shoal_test_val(wpe(t, me), i, salt); \
    shoal_test_poison(dst, cap); \
    CHECK(shmem_##N##_alltoall(t, dst, src, ne4) == 0, "alltoall rc"); \
    for (int q = 0; q < n; q++) \
      for (size_t i = 0; i < ne4; i++) \
        CHECK(dst[(size_t)q * ne4 + i] == (T)shoal_test_val(wpe(t, q), (size_t)me * ne4 + i, salt), \
              #N " alltoall %s n %zu: block %d element %zu wrong", tn, ne4, q, i); \
    CHECK(((unsigned char *)dst)[sizeof(T) * ne4 * n] == POISON_BYTE, #N " alltoall wrote past the end"); \
    /* alltoalls with dst 2, sst 3 */ \
    for (size_t i = 0; i < ne4 * n; i++) src[i * 3] = (T)shoal_test_val(wpe(t, me), i, salt + 7); \
    shoal_test_poison(dst, cap); \
    CHECK(shmem_##N##_alltoalls(t, dst, src, 2, 3, ne4) == 0, "alltoalls rc"); \
    for (int q = 0; q < n; q++) \
      for (size_t i = 0; i < ne4; i++) { \
        size_t k = ((size_t)q * ne4 + i) * 2; \
        CHECK(dst[k] == (T)shoal_test_val(wpe(t, q), (size_t)me * ne4 + i, salt + 7), \
              #N " alltoalls %s n %zu: block %d element %zu wrong", tn, ne4, q, i); \
        unsigned char *gap = (unsigned char *)&dst[k + 1]; \
        if (k + 1 < ne4 * n * 2) CHECK(gap[0] == POISON_BYTE, #N " alltoalls wrote a gap"); \
      } \
    shmem_team_sync(t); \
  } \
  START_TEST(test_coll_##N) \
  { \
    errors = 0; \
    buf_a = shmem_malloc(BUF_BYTES); \
    buf_b = shmem_malloc(BUF_BYTES); \
    teams_make(); \
    for (int k = 0; k < N_TEAMS; k++) { \
      if (teams[k] == SHMEM_TEAM_INVALID) continue; \
      for (size_t s = 0; s < N_SIZES; s++) { \
        bcast_##N(teams[k], team_name[k], sizes[s], 10 * k + (unsigned)s); \
        fcollect_##N(teams[k], team_name[k], sizes[s], 20 * k + (unsigned)s); \
        alltoall_##N(teams[k], team_name[k], sizes[s], 30 * k + (unsigned)s); \
      } \
    } \
    teams_free(); \
    shmem_free(buf_a); \
    shmem_free(buf_b); \
    ck_assert_int_eq(errors, 0); \
  } \
  END_TEST

COLL_TESTS(int, int)
COLL_TESTS(double, double)
COLL_TESTS(uint8_t, uint8)
COLL_TESTS(long double, longdouble)

/* The mem forms, and team argument errors that return rather than abort. */
START_TEST(test_coll_mem)
{
  errors = 0;
  int me = shmem_my_pe(), n = shmem_n_pes();
  char *src = shmem_malloc(64 * 4), *dst = shmem_malloc(64 * 4 * 4);
  for (int i = 0; i < 64 * n; i++) src[i] = (char)shoal_test_val(me, (size_t)i, 99);
  shoal_test_poison(dst, 64 * 16);
  ck_assert_int_eq(shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 61, n - 1), 0);
  for (int i = 0; i < 61; i++) CHECK(dst[i] == (char)shoal_test_val(n - 1, (size_t)i, 99), "broadcastmem");
  ck_assert_int_eq(shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, 13), 0);
  for (int q = 0; q < n; q++)
    for (int i = 0; i < 13; i++) CHECK(dst[q * 13 + i] == (char)shoal_test_val(q, (size_t)i, 99), "fcollectmem");
  ck_assert_int_eq(shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, (size_t)me + 1), 0);
  for (int q = 0, off = 0; q < n; off += q + 1, q++)
    for (int i = 0; i <= q; i++) CHECK(dst[off + i] == (char)shoal_test_val(q, (size_t)i, 99), "collectmem");
  ck_assert_int_eq(shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, 5), 0);
  for (int q = 0; q < n; q++)
    for (int i = 0; i < 5; i++) CHECK(dst[q * 5 + i] == (char)shoal_test_val(q, (size_t)(me * 5 + i), 99), "alltoallmem");
  ck_assert_int_eq(shmem_alltoallsmem(SHMEM_TEAM_WORLD, dst, src, 1, 1, 5), 0);
  for (int q = 0; q < n; q++)
    for (int i = 0; i < 5; i++) CHECK(dst[q * 5 + i] == (char)shoal_test_val(q, (size_t)(me * 5 + i), 99), "alltoallsmem");
  /* SHMEM_TEAM_INVALID: nothing happens, non-zero return */
  ck_assert_int_ne(shmem_broadcastmem(SHMEM_TEAM_INVALID, dst, src, 1, 0), 0);
  ck_assert_int_ne(shmem_int_sum_reduce(SHMEM_TEAM_INVALID, (int *)dst, (int *)src, 1), 0);
  ck_assert_int_ne(shmem_team_sync(SHMEM_TEAM_INVALID), 0);
  shmem_barrier_all();
  shmem_free(src);
  shmem_free(dst);
  ck_assert_int_eq(errors, 0);
}
END_TEST

/* Pushbox run-ahead: many small broadcasts (rotating roots, sizes up to a
 * slot) and sum reductions in a row with nothing else between them, so a
 * root gets several calls ahead of slow members and reuses its slots as
 * soon as the credits allow.  Each result is checked on return against
 * that call's fresh data: a slot reused too early shows up here. */
START_TEST(test_run_ahead)
{
  errors = 0;
  int n = shmem_n_pes(), me = shmem_my_pe();
  enum { NE = 96 };
  long *src = shmem_malloc(sizeof(long) * NE), *dst = shmem_malloc(sizeof(long) * NE);
  for (unsigned it = 0; it < 200; it++) {
    int root = (int)((it / 50) % (unsigned)n);   /* long stretches: the root gets far ahead */
    size_t ne = 1 + (it * 7) % NE;
    for (size_t i = 0; i < NE; i++) src[i] = (long)shoal_test_val(me, i, it);
    if (me != root && it % 16 == 5) usleep(3000);   /* a slow member: the root runs ahead */
    shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, ne, root);
    for (size_t i = 0; i < ne; i++)
      CHECK(dst[i] == (long)shoal_test_val(root, i, it), "run-ahead broadcast it %u root %d element %zu", it, root, i);
  }
  for (unsigned it = 0; it < 100; it++) {
    size_t ne = 1 + (it * 5) % NE;
    for (size_t i = 0; i < NE; i++) src[i] = (long)(shoal_test_val(me, i, it) % 100000);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, ne);
    for (size_t i = 0; i < ne; i++) {
      long want = 0;
      for (int q = 0; q < n; q++) want += (long)(shoal_test_val(q, i, it) % 100000);
      CHECK(dst[i] == want, "run-ahead sum it %u element %zu", it, i);
    }
  }
  shmem_barrier_all();
  shmem_free(src); shmem_free(dst);
  ck_assert_int_eq(errors, 0);
}
END_TEST

/* Back to back, no barriers: world and my parity team overlap, the two
 * parity teams are disjoint.  Buffers are reused every round with new data,
 * so a PE running ahead would corrupt a slower one's results. */
START_TEST(test_back_to_back)
{
  errors = 0;
  int n = shmem_n_pes(), me = shmem_my_pe();
  shmem_team_t even, odd;
  ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even), 0);
  odd = SHMEM_TEAM_INVALID;
  if (n > 1) ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd), 0);
  shmem_team_t par = me % 2 ? odd : even;
  int pn = shmem_team_n_pes(par), pme = shmem_team_my_pe(par);
  enum { NE = 301 };
  long *src = shmem_malloc(sizeof(long) * NE * 4), *dst = shmem_malloc(sizeof(long) * NE * 4);
  long *red = shmem_malloc(sizeof(long) * NE);
  for (unsigned it = 0; it < 40; it++) {
    for (size_t i = 0; i < NE * 4; i++) src[i] = (long)(shoal_test_val(me, i, it) % 1000);
    shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, NE);
    for (int q = 0; q < n; q++)
      for (size_t i = 0; i < NE; i++)
        CHECK(dst[q * NE + i] == (long)(shoal_test_val(q, i, it) % 1000), "b2b fcollect it %u", it);
    shmem_long_sum_reduce(par, red, src, NE);
    for (size_t i = 0; i < NE; i++) {
      long want = 0;
      for (int q = 0; q < pn; q++) want += (long)(shoal_test_val(wpe(par, q), i, it) % 1000);
      CHECK(red[i] == want, "b2b parity sum it %u element %zu", it, i);
    }
    shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, NE, (int)(it % (unsigned)n));
    for (size_t i = 0; i < NE; i++)
      CHECK(dst[i] == (long)(shoal_test_val((int)(it % (unsigned)n), i, it) % 1000), "b2b broadcast it %u", it);
    shmem_long_alltoall(par, dst, src, NE / 4);
    for (int q = 0; q < pn; q++)
      for (size_t i = 0; i < NE / 4; i++)
        CHECK(dst[q * (NE / 4) + i] == (long)(shoal_test_val(wpe(par, q), (size_t)pme * (NE / 4) + i, it) % 1000),
              "b2b alltoall it %u", it);
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, src, src, NE);   /* in place */
    for (size_t i = 0; i < NE; i++) {
      long want = 0;
      for (int q = 0; q < n; q++) {
        long v = (long)(shoal_test_val(q, i, it) % 1000);
        if (v > want) want = v;
      }
      CHECK(src[i] == want, "b2b in-place max it %u element %zu", it, i);
    }
  }
  shmem_barrier_all();
  shmem_free(src); shmem_free(dst); shmem_free(red);
  shmem_team_destroy(even);
  shmem_team_destroy(odd);
  ck_assert_int_eq(errors, 0);
}
END_TEST

static Suite *coll_suite(void)
{
  Suite *s = suite_create("coll");
  TCase *tc = tcase_create("coll");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_coll_int);
  tcase_add_test(tc, test_coll_double);
  tcase_add_test(tc, test_coll_uint8);
  tcase_add_test(tc, test_coll_longdouble);
  tcase_add_test(tc, test_coll_mem);
  tcase_add_test(tc, test_back_to_back);
  tcase_add_test(tc, test_run_ahead);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  setenv("SHOAL_TEAM_SCRATCH", "8K", 0);   /* small: exercises chunking */
  return shoal_test_run(coll_suite());
}
