/* The hierarchical all-reduce (collectives/hier.h) on teams that span
 * "nodes" (SHOAL_PES_PER_NODE=k: k consecutive PEs share memory, libfabric
 * between them): every op of every reduction type class, the 16-bit
 * floats, sizes 1, 7, 1000 and 100001 (many pushbox chunks), in place and
 * not, fresh data, poisoned outputs, every element checked; reduce-scatter
 * (every op and type class, the same sizes per member) and fcollect of the
 * same sizes in bytes, also hierarchical on these teams.
 *
 * Teams: world; PEs 1.. (3 PEs at 4: nodes of 1 + 2 with k = 2, 2 + 1 with
 * k = 3); every other PE (at k = 2 one member per node: flat; at k = 3 one
 * node: flat, all mapped); PEs 0..2.  hier.sh runs it at 4 PEs with k = 2
 * and 3 under SHMEM_DEBUG and checks, from the library's debug lines, that
 * the teams whose layout allows it took the hierarchical all-reduce and
 * reduce-scatter and the others did not (and, with SHOAL_COLL_HIER=0,
 * that none did). */
#include "shoal_test.h"
#include <complex.h>

/* World PE of team PE q. */
static inline int wpe(shmem_team_t t, int q) { return shmem_team_translate_pe(t, q, SHMEM_TEAM_WORLD); }

static int errors;
#define CHECK(cond, ...) do { if (!(cond)) { if (errors++ < 10) { \
  fprintf(stderr, "PE %d: ", shmem_my_pe()); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

#define BIG 100001
#define BUF_BYTES (sizeof(long double) * (BIG + 16))
static void *buf_a, *buf_b, *buf_rs;   /* buf_rs: reduce-scatter sources, n blocks */
#define RS_BYTES(n) (16 * (BIG + 16) * (size_t)(n))   /* the widest type run at BIG: 16 bytes */

/* Values whose sums and products are exact in every type over 4 PEs. */
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

#define HIER_TEST(T, N, OP) \
  static void hier_##N##_##OP(shmem_team_t t, const char *tn, size_t ne, unsigned salt, int in_place) \
  { \
    int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t); \
    T *src = buf_a, *dst = in_place ? buf_a : buf_b; \
    shoal_test_poison(buf_b, sizeof(T) * (ne + 1)); \
    for (size_t i = 0; i < ne; i++) src[i] = (T)datum(#OP, wpe(t, me), i, salt); \
    CHECK(shmem_##N##_##OP##_reduce(t, dst, src, ne) == 0, "rc"); \
    for (size_t i = 0; i < ne; i++) { \
      T want = (T)datum(#OP, wpe(t, 0), i, salt); \
      for (int q = 1; q < n; q++) want = (T)REF_##OP(want, (T)datum(#OP, wpe(t, q), i, salt)); \
      if (dst[i] != want) { \
        CHECK(0, #N "_" #OP "_reduce %s n %zu%s: element %zu wrong", tn, ne, in_place ? " in place" : "", i); \
        break; \
      } \
    } \
    if (!in_place) CHECK(((unsigned char *)dst)[sizeof(T) * ne] == POISON_BYTE, "wrote past the end"); \
    shmem_team_sync(t); \
  }

/* Every op, on types of every class (bitwise, min/max, arithmetic,
 * complex; 1, 2, 4, 8 and 16 bytes). */
#define ALL_OPS(X) \
  X(unsigned char, uchar, and) X(uint16_t, uint16, or) X(unsigned int, uint, xor) X(int64_t, int64, and) \
  X(size_t, size, xor) X(int8_t, int8, or) \
  X(char, char, min) X(short, short, max) X(int, int, max) X(long, long, min) X(float, float, max) \
  X(double, double, min) X(long double, longdouble, max) X(unsigned long long, ulonglong, min) \
  X(int, int, sum) X(long long, longlong, prod) X(float, float, sum) X(double, double, prod) \
  X(signed char, schar, sum) X(uint32_t, uint32, prod) X(long double, longdouble, sum) \
  X(double _Complex, complexd, sum) X(float _Complex, complexf, prod)
ALL_OPS(HIER_TEST)

/* Reduce-scatter: member me gets block me (ne elements) of the reduction
 * of every member's source of n blocks (hierarchical on the same teams:
 * the leader reduces its node's sources, leaders exchange the other
 * nodes' ranges, each member gets its block). */
#define RS_TEST(T, N, OP) \
  static void rs_##N##_##OP(shmem_team_t t, const char *tn, size_t ne, unsigned salt) \
  { \
    int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t); \
    T *src = buf_rs, *dst = buf_b; \
    shoal_test_poison(buf_b, sizeof(T) * (ne + 1)); \
    for (size_t i = 0; i < ne * (size_t)n; i++) src[i] = (T)datum(#OP, wpe(t, me), i, salt); \
    CHECK(shmemx_##N##_##OP##_reduce_scatter(t, dst, src, ne) == 0, "rs rc"); \
    for (size_t i = 0; i < ne; i++) { \
      size_t k = (size_t)me * ne + i; \
      T want = (T)datum(#OP, wpe(t, 0), k, salt); \
      for (int q = 1; q < n; q++) want = (T)REF_##OP(want, (T)datum(#OP, wpe(t, q), k, salt)); \
      if (dst[i] != want) { \
        CHECK(0, #N "_" #OP "_reduce_scatter %s n %zu: element %zu wrong", tn, ne, i); \
        break; \
      } \
    } \
    CHECK(((unsigned char *)dst)[sizeof(T) * ne] == POISON_BYTE, "reduce_scatter wrote past the end"); \
    shmem_team_sync(t); \
  }
ALL_OPS(RS_TEST)

/* A small broadcast between reductions: its pushes take one pushbox slot
 * each, the hierarchical all-reduce's take a whole ring; both count on the
 * same per-pair credits. */
static void bcast_between(shmem_team_t t, const char *tn, unsigned salt)
{
  int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t), root = (int)(salt % (unsigned)n);
  enum { NB = 301 };
  unsigned char *src = buf_a, *dst = buf_b;
  for (size_t i = 0; i < NB; i++) src[i] = (unsigned char)shoal_test_val(wpe(t, me), i, salt + 7);
  shoal_test_poison(dst, NB + 1);
  CHECK(shmem_broadcastmem(t, dst, src, NB, root) == 0, "broadcast rc");
  for (size_t i = 0; i < NB; i++)
    if (dst[i] != (unsigned char)shoal_test_val(wpe(t, root), i, salt + 7)) {
      CHECK(0, "broadcastmem %s root %d between reductions: byte %zu wrong", tn, root, i);
      break;
    }
  CHECK(dst[NB] == POISON_BYTE, "broadcast wrote past the end");
  shmem_team_sync(t);
}

/* fcollect: hierarchical on the same teams as the all-reduce (member
 * blocks to the node leader, node ranges between leaders, all back). */
static void fcollect_check(shmem_team_t t, const char *tn, size_t nb, unsigned salt)
{
  int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t);
  unsigned char *src = buf_a, *dst = buf_b;
  for (size_t i = 0; i < nb; i++) src[i] = (unsigned char)shoal_test_val(wpe(t, me), i, salt + 11);
  shoal_test_poison(dst, nb * (size_t)n + 1);
  CHECK(shmem_fcollectmem(t, dst, src, nb) == 0, "fcollect rc");
  for (int q = 0; q < n; q++)
    for (size_t i = 0; i < nb; i++)
      if (dst[(size_t)q * nb + i] != (unsigned char)shoal_test_val(wpe(t, q), i, salt + 11)) {
        CHECK(0, "fcollectmem %s %zu bytes: block %d byte %zu wrong", tn, nb, q, i);
        q = n;
        break;
      }
  CHECK(dst[nb * (size_t)n] == POISON_BYTE, "fcollect wrote past the end");
  shmem_team_sync(t);
}

enum { H_WORLD, H_TAIL, H_EVEN, H_HEAD, N_HTEAMS };
static const char *const hname[N_HTEAMS] = {"world", "PEs 1..", "even PEs", "PEs 0..2"};

START_TEST(test_hier)
{
  errors = 0;
  int n = shmem_n_pes();
  buf_a = shmem_malloc(BUF_BYTES);
  buf_b = shmem_malloc(BUF_BYTES);
  buf_rs = shmem_malloc(RS_BYTES(n));
  ck_assert_ptr_nonnull(buf_rs);
  ck_assert_ptr_nonnull(buf_a);
  ck_assert_ptr_nonnull(buf_b);
  shmem_team_t t[N_HTEAMS] = {SHMEM_TEAM_WORLD, SHMEM_TEAM_INVALID, SHMEM_TEAM_INVALID, SHMEM_TEAM_INVALID};
  if (n > 1) ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, n - 1, NULL, 0, &t[H_TAIL]), 0);
  ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &t[H_EVEN]), 0);
  if (n > 2) ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 3, NULL, 0, &t[H_HEAD]), 0);
  static const size_t hsizes[] = {1, 7, 1000, BIG};
  for (int k = 0; k < N_HTEAMS; k++) {
    if (t[k] == SHMEM_TEAM_INVALID) continue;
    for (int s = 0; s < 4; s++)
      for (int ip = 0; ip < 2; ip++) {
        unsigned salt = (unsigned)(100 * k + 10 * s + ip);
        size_t ne = hsizes[s];
        /* the largest size on one type per class: it is the slow part */
#define RUN(T, N, OP) \
        if (ne < BIG || !strcmp(#N #OP, "uintxor") || !strcmp(#N #OP, "doublemin") || \
            !strcmp(#N #OP, "intsum") || !strcmp(#N #OP, "complexdsum")) \
          hier_##N##_##OP(t[k], hname[k], ne, salt, ip);
        ALL_OPS(RUN)
#undef RUN
#define RUN_RS(T, N, OP) \
        if (ip == 0 && (ne < BIG || !strcmp(#N #OP, "uintxor") || !strcmp(#N #OP, "doublemin") || \
                        !strcmp(#N #OP, "intsum") || !strcmp(#N #OP, "complexdsum"))) \
          rs_##N##_##OP(t[k], hname[k], ne, salt + 5);
        ALL_OPS(RUN_RS)
#undef RUN_RS
        bcast_between(t[k], hname[k], salt);
        if (ip == 0) fcollect_check(t[k], hname[k], ne, salt);
      }
  }
  for (int k = 1; k < N_HTEAMS; k++) shmem_team_destroy(t[k]);
  shmem_free(buf_a);
  shmem_free(buf_b);
  shmem_free(buf_rs);
  ck_assert_int_eq(errors, 0);
}
END_TEST

/* 16-bit floats on the world team (small integers are exact). */
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
  return (shmemx_bfloat16_t)(u >> 16);
}

START_TEST(test_hier_bf16)
{
  errors = 0;
  int me = shmem_my_pe(), n = shmem_n_pes();
  enum { NE = 3001 };
  shmemx_bfloat16_t *bs = shmem_malloc(sizeof *bs * (NE + 1)), *bd = shmem_malloc(sizeof *bd * (NE + 1));
  static const char *const ops[] = {"sum", "prod", "min", "max"};
  for (int o = 0; o < 4; o++)
    for (int ip = 0; ip < 2; ip++) {
      unsigned salt = 50u + 2u * (unsigned)o + (unsigned)ip;
      shmemx_bfloat16_t *d = ip ? bs : bd;
      shoal_test_poison(bd, sizeof *bd * (NE + 1));
      for (size_t i = 0; i < NE; i++) bs[i] = float_to_bf16((float)datum(ops[o], me, i, salt));
      int rc = o == 0 ? shmemx_bfloat16_sum_reduce(SHMEM_TEAM_WORLD, d, bs, NE)
             : o == 1 ? shmemx_bfloat16_prod_reduce(SHMEM_TEAM_WORLD, d, bs, NE)
             : o == 2 ? shmemx_bfloat16_min_reduce(SHMEM_TEAM_WORLD, d, bs, NE)
                      : shmemx_bfloat16_max_reduce(SHMEM_TEAM_WORLD, d, bs, NE);
      CHECK(rc == 0, "bf16 rc");
      for (size_t i = 0; i < NE; i++) {
        float want = (float)datum(ops[o], 0, i, salt);
        for (int q = 1; q < n; q++) {
          float v = (float)datum(ops[o], q, i, salt);
          want = o == 0 ? want + v : o == 1 ? want * v : o == 2 ? (v < want ? v : want) : (v > want ? v : want);
        }
        if (bf16_to_float(d[i]) != want) {
          CHECK(0, "bfloat16 %s%s element %zu: %g != %g", ops[o], ip ? " in place" : "", i, bf16_to_float(d[i]), want);
          break;
        }
      }
      if (!ip) CHECK(((unsigned char *)bd)[sizeof *bd * NE] == POISON_BYTE, "bf16 wrote past the end");
      shmem_barrier_all();
    }
  shmem_free(bs);
  shmem_free(bd);
  /* reduce-scatter: NE per member, from n blocks */
  bs = shmem_malloc(sizeof *bs * NE * (size_t)n);
  bd = shmem_malloc(sizeof *bd * (NE + 1));
  for (int o = 0; o < 4; o++) {
    unsigned salt = 70u + (unsigned)o;
    shoal_test_poison(bd, sizeof *bd * (NE + 1));
    for (size_t i = 0; i < NE * (size_t)n; i++) bs[i] = float_to_bf16((float)datum(ops[o], me, i, salt));
    int rc = o == 0 ? shmemx_bfloat16_sum_reduce_scatter(SHMEM_TEAM_WORLD, bd, bs, NE)
           : o == 1 ? shmemx_bfloat16_prod_reduce_scatter(SHMEM_TEAM_WORLD, bd, bs, NE)
           : o == 2 ? shmemx_bfloat16_min_reduce_scatter(SHMEM_TEAM_WORLD, bd, bs, NE)
                    : shmemx_bfloat16_max_reduce_scatter(SHMEM_TEAM_WORLD, bd, bs, NE);
    CHECK(rc == 0, "bf16 reduce_scatter rc");
    for (size_t i = 0; i < NE; i++) {
      size_t k = (size_t)me * NE + i;
      float want = (float)datum(ops[o], 0, k, salt);
      for (int q = 1; q < n; q++) {
        float v = (float)datum(ops[o], q, k, salt);
        want = o == 0 ? want + v : o == 1 ? want * v : o == 2 ? (v < want ? v : want) : (v > want ? v : want);
      }
      if (bf16_to_float(bd[i]) != want) {
        CHECK(0, "bfloat16 %s reduce_scatter element %zu: %g != %g", ops[o], i, bf16_to_float(bd[i]), want);
        break;
      }
    }
    CHECK(((unsigned char *)bd)[sizeof *bd * NE] == POISON_BYTE, "bf16 reduce_scatter wrote past the end");
    shmem_barrier_all();
  }
  shmem_free(bs);
  shmem_free(bd);
  ck_assert_int_eq(errors, 0);
}
END_TEST

static Suite *hier_suite(void)
{
  Suite *s = suite_create("hier");
  TCase *tc = tcase_create("hier");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_hier);
  tcase_add_test(tc, test_hier_bf16);
  suite_add_tcase(s, tc);
  return s;
}

SHOAL_TEST_MAIN(hier_suite)
