/* Reductions: every op on representative types of its class, on every test
 * team and size, in place and not, against a reference computed locally
 * from each member's fresh data; reduce-scatter and the 16-bit floats.
 * reduce.sh runs this once per all-reduce algorithm (SHOAL_ALLREDUCE). */
#include "coll_test.h"
#include <complex.h>

static int errors;
#define CHECK(cond, ...) do { if (!(cond)) { if (errors++ < 10) { \
  fprintf(stderr, "PE %d: ", shmem_my_pe()); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

#define BIG_ELEMS 60013   /* past the 8K test scratch: chunked one-shot, multi-segment ring */
#define BUF_BYTES (sizeof(double _Complex) * (BIG_ELEMS + 16) * 4)
static void *buf_a, *buf_b;

/* Data per op, small enough that sums and products are exact in every type
 * (a few PEs of values < 30, or products of 1..3). */
static inline long long datum(const char *op, int pe, size_t i, unsigned salt)
{
  uint64_t v = shoal_test_val(pe, i, salt);
  if (!strcmp(op, "sum")) return (long long)(v % 29);
  if (!strcmp(op, "prod")) return (long long)(v % 3) + 1;
  if (!strcmp(op, "min") || !strcmp(op, "max")) return (long long)(v % 251);
  return (long long)v;
}

#define REF_and(a, b) ((a) & (b))
#define REF_or(a, b) ((a) | (b))
#define REF_xor(a, b) ((a) ^ (b))
#define REF_min(a, b) ((b) < (a) ? (b) : (a))
#define REF_max(a, b) ((b) > (a) ? (b) : (a))
#define REF_sum(a, b) ((a) + (b))
#define REF_prod(a, b) ((a) * (b))

#define REDUCE_TEST(T, N, OP) \
  static void reduce_##N##_##OP(shmem_team_t t, const char *tn, size_t ne, unsigned salt, int in_place) \
  { \
    int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t); \
    T *src = buf_a, *dst = in_place ? buf_a : buf_b; \
    for (size_t i = 0; i < ne; i++) src[i] = (T)datum(#OP, wpe(t, me), i, salt); \
    if (!in_place) shoal_test_poison(dst, sizeof(T) * (ne + 1)); \
    CHECK(shmem_##N##_##OP##_reduce(t, dst, src, ne) == 0, "rc"); \
    for (size_t i = 0; i < ne; i++) { \
      T want = (T)datum(#OP, wpe(t, 0), i, salt); \
      for (int q = 1; q < n; q++) want = (T)REF_##OP(want, (T)datum(#OP, wpe(t, q), i, salt)); \
      if (dst[i] != want) { \
        CHECK(0, #N "_" #OP "_reduce %s n %zu%s: element %zu wrong", tn, ne, \
              in_place ? " in place" : "", i); \
        break; \
      } \
    } \
    if (!in_place) CHECK(((unsigned char *)dst)[sizeof(T) * ne] == POISON_BYTE, "wrote past the end"); \
    shmem_team_sync(t); \
  }

#define RS_TEST(T, N, OP) \
  static void rs_##N##_##OP(shmem_team_t t, const char *tn, size_t ne, unsigned salt) \
  { \
    int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t); \
    T *src = buf_a, *dst = buf_b; \
    for (size_t i = 0; i < ne * n; i++) src[i] = (T)datum(#OP, wpe(t, me), i, salt); \
    shoal_test_poison(dst, sizeof(T) * (ne + 1)); \
    CHECK(shmemx_##N##_##OP##_reduce_scatter(t, dst, src, ne) == 0, "rc"); \
    for (size_t i = 0; i < ne; i++) { \
      size_t k = (size_t)me * ne + i; \
      T want = (T)datum(#OP, wpe(t, 0), k, salt); \
      for (int q = 1; q < n; q++) want = (T)REF_##OP(want, (T)datum(#OP, wpe(t, q), k, salt)); \
      if (dst[i] != want) { CHECK(0, #N "_" #OP "_reduce_scatter %s n %zu: element %zu", tn, ne, i); break; } \
    } \
    CHECK(((unsigned char *)dst)[sizeof(T) * ne] == POISON_BYTE, "reduce_scatter wrote past the end"); \
    shmem_team_sync(t); \
  }

#define ALL_OPS(X) \
  X(unsigned int, uint, and) X(int64_t, int64, or) X(unsigned char, uchar, xor) X(size_t, size, and) \
  X(uint16_t, uint16, xor) X(int8_t, int8, or) \
  X(int, int, min) X(double, double, max) X(float, float, min) X(char, char, max) \
  X(long double, longdouble, min) X(ptrdiff_t, ptrdiff, max) X(unsigned long long, ulonglong, min) \
  X(int, int, sum) X(long, long, prod) X(double, double, sum) X(float, float, prod) \
  X(short, short, sum) X(signed char, schar, prod) X(uint64_t, uint64, sum) X(long double, longdouble, prod) \
  X(double _Complex, complexd, sum) X(float _Complex, complexf, prod)
ALL_OPS(REDUCE_TEST)
ALL_OPS(RS_TEST)

START_TEST(test_reduce)
{
  errors = 0;
  const char *ppn = getenv("SHOAL_PES_PER_NODE");
  int remote = ppn && atoi(ppn) > 0;   /* peers reached through libfabric */
  buf_a = shmem_malloc(BUF_BYTES);
  buf_b = shmem_malloc(BUF_BYTES);
  teams_make();
  static const size_t rsizes[] = {0, 1, 97, 5003, BIG_ELEMS};
  for (int k = 0; k < N_TEAMS; k++) {
    if (teams[k] == SHMEM_TEAM_INVALID) continue;
    for (size_t s = 0; s < 5; s++)
      for (int ip = 0; ip < 2; ip++) {
        size_t ne = rsizes[s];
        unsigned salt = (unsigned)(100 * k + 10 * s + ip);
        /* the big sizes on a few types only: they are the slow part (more
         * so when CI reruns everything through libfabric) */
#define RUN(T, N, OP) \
        if (ne < 5003 || (ne < BIG_ELEMS && !remote) || !strcmp(#N, "int") || \
            (!remote && (!strcmp(#N, "double") || !strcmp(#N, "uint")))) \
          reduce_##N##_##OP(teams[k], team_name[k], ne, salt, ip);
        ALL_OPS(RUN)
#undef RUN
      }
    for (size_t s = 0; s < 4; s++) {
#define RUN(T, N, OP) rs_##N##_##OP(teams[k], team_name[k], rsizes[s], (unsigned)(7 * k + s));
      ALL_OPS(RUN)
#undef RUN
    }
  }
  teams_free();
  shmem_free(buf_a);
  shmem_free(buf_b);
  ck_assert_int_eq(errors, 0);
}
END_TEST

/* 16-bit floats: small integers are exact in half and bfloat16. */
static float bf16_to_float(shmemx_bfloat16_t h)
{
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static shmemx_bfloat16_t float_to_bf16(float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return (shmemx_bfloat16_t)(u >> 16);   /* exact for the small integers used here */
}

START_TEST(test_reduce_f16)
{
  errors = 0;
  int me = shmem_my_pe(), n = shmem_n_pes();
  enum { NE = 1031 };
  shmemx_bfloat16_t *bs = shmem_malloc(sizeof *bs * NE * 4), *bd = shmem_malloc(sizeof *bd * NE * 4);
  static const char *const ops[] = {"sum", "prod", "min", "max"};
  for (int o = 0; o < 4; o++) {
    for (size_t i = 0; i < NE; i++) bs[i] = float_to_bf16((float)datum(ops[o], me, i, 5u + (unsigned)o));
    int rc = o == 0 ? shmemx_bfloat16_sum_reduce(SHMEM_TEAM_WORLD, bd, bs, NE)
           : o == 1 ? shmemx_bfloat16_prod_reduce(SHMEM_TEAM_WORLD, bd, bs, NE)
           : o == 2 ? shmemx_bfloat16_min_reduce(SHMEM_TEAM_WORLD, bd, bs, NE)
                    : shmemx_bfloat16_max_reduce(SHMEM_TEAM_WORLD, bd, bs, NE);
    CHECK(rc == 0, "bf16 rc");
    for (size_t i = 0; i < NE; i++) {
      float want = (float)datum(ops[o], 0, i, 5u + (unsigned)o);
      for (int q = 1; q < n; q++) {
        float v = (float)datum(ops[o], q, i, 5u + (unsigned)o);
        want = o == 0 ? want + v : o == 1 ? want * v : o == 2 ? (v < want ? v : want) : (v > want ? v : want);
      }
      if (bf16_to_float(bd[i]) != want) { CHECK(0, "bfloat16 %s element %zu: %g != %g", ops[o], i, bf16_to_float(bd[i]), want); break; }
    }
  }
  for (size_t i = 0; i < NE * (size_t)n; i++) bs[i] = float_to_bf16((float)datum("sum", me, i, 9));
  CHECK(shmemx_bfloat16_sum_reduce_scatter(SHMEM_TEAM_WORLD, bd, bs, NE) == 0, "bf16 rs rc");
  for (size_t i = 0; i < NE; i++) {
    float want = 0;
    for (int q = 0; q < n; q++) want += (float)datum("sum", q, (size_t)me * NE + i, 9);
    if (bf16_to_float(bd[i]) != want) { CHECK(0, "bfloat16 reduce_scatter element %zu", i); break; }
  }
#ifdef SHMEMX_HAVE_HALF
  shmemx_half_t *hs = (shmemx_half_t *)bs, *hd = (shmemx_half_t *)bd;
  for (int o = 0; o < 4; o++) {
    for (size_t i = 0; i < NE; i++) hs[i] = (shmemx_half_t)datum(ops[o], me, i, 15u + (unsigned)o);
    int rc = o == 0 ? shmemx_half_sum_reduce(SHMEM_TEAM_WORLD, hd, hs, NE)
           : o == 1 ? shmemx_half_prod_reduce(SHMEM_TEAM_WORLD, hd, hs, NE)
           : o == 2 ? shmemx_half_min_reduce(SHMEM_TEAM_WORLD, hd, hs, NE)
                    : shmemx_half_max_reduce(SHMEM_TEAM_WORLD, hd, hs, NE);
    CHECK(rc == 0, "half rc");
    for (size_t i = 0; i < NE; i++) {
      float want = (float)datum(ops[o], 0, i, 15u + (unsigned)o);
      for (int q = 1; q < n; q++) {
        float v = (float)datum(ops[o], q, i, 15u + (unsigned)o);
        want = o == 0 ? want + v : o == 1 ? want * v : o == 2 ? (v < want ? v : want) : (v > want ? v : want);
      }
      if ((float)hd[i] != want) { CHECK(0, "half %s element %zu", ops[o], i); break; }
    }
  }
#endif
  shmem_barrier_all();
  shmem_free(bs);
  shmem_free(bd);
  ck_assert_int_eq(errors, 0);
}
END_TEST

static Suite *reduce_suite(void)
{
  Suite *s = suite_create("reduce");
  TCase *tc = tcase_create("reduce");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_reduce);
  tcase_add_test(tc, test_reduce_f16);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  setenv("SHOAL_TEAM_SCRATCH", "8K", 0);   /* small: chunked one-shot, multi-segment ring */
  return shoal_test_run(reduce_suite());
}
