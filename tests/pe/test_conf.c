/* OpenSHMEM 1.5 conformance (issue 11): zero-length calls with NULL
 * pointers, ctx_quiet/fence on SHMEM_CTX_INVALID, test_any/wait_until_any
 * servicing every satisfied index, in-place active-set broadcast, unknown
 * malloc hints.  Each case failed (aborted the job or hung) before the
 * fix. */
#include "shoal_test.h"

#define NE 8

/* ---- 1. zero-length RMA with NULL pointers ----------------------------- */
#define ZERO_RMA_TYPED(T, N) \
  shmem_##N##_put(NULL, NULL, 0, pe); \
  shmem_##N##_get(NULL, NULL, 0, pe); \
  shmem_##N##_put_nbi(NULL, NULL, 0, pe); \
  shmem_##N##_get_nbi(NULL, NULL, 0, pe); \
  shmem_ctx_##N##_put(SHMEM_CTX_DEFAULT, NULL, NULL, 0, pe); \
  shmem_ctx_##N##_get_nbi(SHMEM_CTX_DEFAULT, NULL, NULL, 0, pe); \
  shmem_##N##_iput(NULL, NULL, 1, 1, 0, pe); \
  shmem_##N##_iget(NULL, NULL, 1, 1, 0, pe); \
  shmem_ctx_##N##_iput(SHMEM_CTX_DEFAULT, NULL, NULL, 1, 1, 0, pe); \
  shmem_ctx_##N##_iget(SHMEM_CTX_DEFAULT, NULL, NULL, 1, 1, 0, pe);
#define ZERO_RMA_SIZED(BITS, BYTES) \
  shmem_put##BITS(NULL, NULL, 0, pe); \
  shmem_get##BITS(NULL, NULL, 0, pe); \
  shmem_put##BITS##_nbi(NULL, NULL, 0, pe); \
  shmem_get##BITS##_nbi(NULL, NULL, 0, pe); \
  shmem_iput##BITS(NULL, NULL, 1, 1, 0, pe); \
  shmem_iget##BITS(NULL, NULL, 1, 1, 0, pe); \
  shmem_ctx_iget##BITS(SHMEM_CTX_DEFAULT, NULL, NULL, 1, 1, 0, pe);

START_TEST(test_zero_rma)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  uint64_t *sig = shmem_calloc(8, sizeof *sig);
  int *data = shmem_malloc(NE * sizeof *data);
  for (int i = 0; i < NE; i++) data[i] = (int)shoal_test_val(me, (size_t)i, 1);
  shmem_barrier_all();
  for (int pe = 0; pe < np; pe++) {
    SHOAL_RMA_TYPES(ZERO_RMA_TYPED)
    SHOAL_SIZED_RMA(ZERO_RMA_SIZED)
    shmem_putmem(NULL, NULL, 0, pe);
    shmem_getmem(NULL, NULL, 0, pe);
    shmem_putmem_nbi(NULL, NULL, 0, pe);
    shmem_getmem_nbi(NULL, NULL, 0, pe);
    shmem_ctx_putmem(SHMEM_CTX_DEFAULT, NULL, NULL, 0, pe);
    shmem_ctx_getmem_nbi(SHMEM_CTX_DEFAULT, NULL, NULL, 0, pe);
  }
  shmem_quiet();
  /* put_signal with no data still updates the signal: PE p adds p + 1 to
   * sig[0] of its right neighbour in each form (8 forms) */
  int right = (me + 1) % np, left = (me + np - 1) % np;
  uint64_t v = (uint64_t)me + 1;
  shmem_putmem_signal(NULL, NULL, 0, &sig[0], v, SHMEM_SIGNAL_ADD, right);
  shmem_putmem_signal_nbi(NULL, NULL, 0, &sig[0], v, SHMEM_SIGNAL_ADD, right);
  shmem_ctx_putmem_signal(SHMEM_CTX_DEFAULT, NULL, NULL, 0, &sig[0], v, SHMEM_SIGNAL_ADD, right);
  shmem_int_put_signal(NULL, NULL, 0, &sig[0], v, SHMEM_SIGNAL_ADD, right);
  shmem_ctx_long_put_signal_nbi(SHMEM_CTX_DEFAULT, NULL, NULL, 0, &sig[0], v, SHMEM_SIGNAL_ADD,
                                right);
  shmem_put_signal32(NULL, NULL, 0, &sig[0], v, SHMEM_SIGNAL_ADD, right);
  shmem_put_signal64_nbi(NULL, NULL, 0, &sig[0], v, SHMEM_SIGNAL_ADD, right);
  shmem_ctx_put_signal128(SHMEM_CTX_DEFAULT, NULL, NULL, 0, &sig[0], v, SHMEM_SIGNAL_ADD, right);
  /* SET form, with a fresh value */
  uint64_t setv = shoal_test_val(me, 0, 2);
  shmem_double_put_signal(NULL, NULL, 0, &sig[1], setv, SHMEM_SIGNAL_SET, right);
  shmem_signal_wait_until(&sig[0], SHMEM_CMP_EQ, 8 * ((uint64_t)left + 1));
  shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, shoal_test_val(left, 0, 2));
  ck_assert_uint_eq(shmem_signal_fetch(&sig[0]), 8 * ((uint64_t)left + 1));
  shmem_barrier_all();
  /* the zero-length calls touched no data */
  for (int i = 0; i < NE; i++) ck_assert_int_eq(data[i], (int)shoal_test_val(me, (size_t)i, 1));
  shmem_free(data);
  shmem_free(sig);
}
END_TEST

/* ---- 1, 2. zero-count collectives with NULL buffers --------------------- */
#define ZERO_REDUCE_OP(T, N, OP) ck_assert_int_eq(shmem_##N##_##OP##_reduce(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
#define ZERO_REDUCE_BITWISE(T, N) ZERO_REDUCE_OP(T, N, and) ZERO_REDUCE_OP(T, N, or) ZERO_REDUCE_OP(T, N, xor)
#define ZERO_REDUCE_MINMAX(T, N) ZERO_REDUCE_OP(T, N, min) ZERO_REDUCE_OP(T, N, max)
#define ZERO_REDUCE_ARITH(T, N) ZERO_REDUCE_OP(T, N, sum) ZERO_REDUCE_OP(T, N, prod)
#define ZERO_COLL(T, N) \
  ck_assert_int_eq(shmem_##N##_broadcast(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0), 0); \
  ck_assert_int_eq(shmem_##N##_collect(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0); \
  ck_assert_int_eq(shmem_##N##_fcollect(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0); \
  ck_assert_int_eq(shmem_##N##_alltoall(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0); \
  ck_assert_int_eq(shmem_##N##_alltoalls(SHMEM_TEAM_WORLD, NULL, NULL, 1, 1, 0), 0);
#define ZERO_TOALL_OP(T, N, OP) shmem_##N##_##OP##_to_all(NULL, NULL, 0, 0, 0, np, NULL, psync);
#define ZERO_TOALL_BITWISE(T, N) ZERO_TOALL_OP(T, N, and) ZERO_TOALL_OP(T, N, or) ZERO_TOALL_OP(T, N, xor)
#define ZERO_TOALL_MINMAX(T, N) ZERO_TOALL_OP(T, N, min) ZERO_TOALL_OP(T, N, max)
#define ZERO_TOALL_ARITH(T, N) ZERO_TOALL_OP(T, N, sum) ZERO_TOALL_OP(T, N, prod)

static long psync[SHMEM_REDUCE_SYNC_SIZE > SHMEM_BCAST_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE
                                                                 : SHMEM_BCAST_SYNC_SIZE];

START_TEST(test_zero_coll)
{
  int np = shmem_n_pes();
  SHOAL_RMA_TYPES(ZERO_COLL)
  SHOAL_REDUCE_BITWISE_TYPES(ZERO_REDUCE_BITWISE)
  SHOAL_REDUCE_MINMAX_TYPES(ZERO_REDUCE_MINMAX)
  SHOAL_REDUCE_ARITH_TYPES(ZERO_REDUCE_ARITH)
  ck_assert_int_eq(shmem_broadcastmem(SHMEM_TEAM_WORLD, NULL, NULL, 0, 0), 0);
  ck_assert_int_eq(shmem_collectmem(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
  ck_assert_int_eq(shmem_fcollectmem(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
  ck_assert_int_eq(shmem_alltoallmem(SHMEM_TEAM_WORLD, NULL, NULL, 0), 0);
  ck_assert_int_eq(shmem_alltoallsmem(SHMEM_TEAM_WORLD, NULL, NULL, 1, 1, 0), 0);
  /* the active-set forms (item 2: collect32/64 with nelems 0) */
  shmem_broadcast32(NULL, NULL, 0, 0, 0, 0, np, psync);
  shmem_broadcast64(NULL, NULL, 0, 0, 0, 0, np, psync);
  shmem_collect32(NULL, NULL, 0, 0, 0, np, psync);
  shmem_collect64(NULL, NULL, 0, 0, 0, np, psync);
  shmem_fcollect32(NULL, NULL, 0, 0, 0, np, psync);
  shmem_fcollect64(NULL, NULL, 0, 0, 0, np, psync);
  shmem_alltoall32(NULL, NULL, 0, 0, 0, np, psync);
  shmem_alltoall64(NULL, NULL, 0, 0, 0, np, psync);
  shmem_alltoalls32(NULL, NULL, 1, 1, 0, 0, 0, np, psync);
  shmem_alltoalls64(NULL, NULL, 1, 1, 0, 0, 0, np, psync);
  SHOAL_TOALL_BITWISE_TYPES(ZERO_TOALL_BITWISE)
  SHOAL_TOALL_MINMAX_TYPES(ZERO_TOALL_MINMAX)
  SHOAL_TOALL_ARITH_TYPES(ZERO_TOALL_ARITH)
  /* collect: some PEs contribute nothing (NULL source), others data */
  int me = shmem_my_pe();
  long *dest = shmem_malloc((size_t)np * sizeof *dest);
  long mine = (long)shoal_test_val(me, 0, 3);
  shoal_test_poison(dest, (size_t)np * sizeof *dest);
  shmem_barrier_all();
  ck_assert_int_eq(shmem_long_collect(SHMEM_TEAM_WORLD, dest, me % 2 ? &mine : NULL, me % 2), 0);
  for (int p = 1, k = 0; p < np; p += 2, k++)
    ck_assert_int_eq(dest[k], (long)shoal_test_val(p, 0, 3));
  shmem_barrier_all();
  shmem_collect64(dest, me % 2 ? &mine : NULL, (size_t)(me % 2), 0, 0, np, psync);
  for (int p = 1, k = 0; p < np; p += 2, k++)
    ck_assert_int_eq(dest[k], (long)shoal_test_val(p, 0, 3));
  shmem_barrier_all();
  shmem_free(dest);
}
END_TEST

/* ---- 3. quiet and fence on SHMEM_CTX_INVALID: no operation -------------- */
START_TEST(test_ctx_invalid)
{
  shmem_ctx_quiet(SHMEM_CTX_INVALID);
  shmem_ctx_fence(SHMEM_CTX_INVALID);
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) ctx = SHMEM_CTX_INVALID;
  shmem_ctx_quiet(ctx);   /* a failed create leaves SHMEM_CTX_INVALID: still fine */
  shmem_ctx_fence(ctx);
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
}
END_TEST

/* ---- 4. a loop over test_any / wait_until_any sees every satisfied flag -- */
START_TEST(test_any_rotates)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  int nf = 4 * np;
  long *flags = shmem_calloc((size_t)nf, sizeof *flags);
  int *status = calloc((size_t)nf, sizeof *status);
  int *seen = calloc((size_t)nf, sizeof *seen);
  long *vals = calloc((size_t)nf, sizeof *vals);
  /* every PE sets flags of its right neighbour at indices i % np == me to
   * a fresh value; the flags stay set: a loop servicing them must still
   * reach each one (the lowest satisfied one would win forever before) */
  int right = (me + 1) % np, left = (me + np - 1) % np;
  shmem_barrier_all();
  for (int i = me; i < nf; i += np) shmem_long_p(&flags[i], (long)shoal_test_val(me, (size_t)i, 4), right);
  shmem_quiet();
  shmem_barrier_all();
  int want = 0;
  for (int i = 0; i < nf; i++) want += i % np == left;
  for (int round = 0; round < 4; round++) {
    memset(seen, 0, (size_t)nf * sizeof *seen);
    int got = 0;
    for (int iter = 0; iter < 4 * nf && got < want; iter++) {
      size_t i;
      switch (round) {
      case 0: i = shmem_long_test_any(flags, (size_t)nf, status, SHMEM_CMP_NE, 0); break;
      case 1: i = shmem_long_wait_until_any(flags, (size_t)nf, status, SHMEM_CMP_NE, 0); break;
      case 2: i = shmem_long_test_any_vector(flags, (size_t)nf, status, SHMEM_CMP_NE, vals); break;
      default: i = shmem_long_wait_until_any_vector(flags, (size_t)nf, status, SHMEM_CMP_NE, vals); break;
      }
      ck_assert_msg(i < (size_t)nf, "round %d: no satisfied index returned", round);
      ck_assert_int_eq((int)i % np, left);
      ck_assert_int_eq(flags[i], (long)shoal_test_val(left, i, 4));
      if (!seen[i]) got++;
      seen[i] = 1;
    }
    ck_assert_msg(got == want, "round %d: a loop over _any saw %d of %d satisfied flags", round,
                  got, want);
  }
  /* excluded by status: never returned; nothing satisfied: SIZE_MAX */
  for (int i = 0; i < nf; i++) status[i] = 1;
  ck_assert_uint_eq(shmem_long_test_any(flags, (size_t)nf, status, SHMEM_CMP_NE, 0), SIZE_MAX);
  ck_assert_uint_eq(shmem_long_test_any(flags, (size_t)nf, NULL, SHMEM_CMP_EQ, 1), SIZE_MAX);
  shmem_barrier_all();
  free(status);
  free(seen);
  free(vals);
  shmem_free(flags);
}
END_TEST

/* ---- 9. in-place active-set broadcast (dest == source) ------------------ */
START_TEST(test_bcast_in_place)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  uint32_t *a = shmem_malloc(NE * sizeof *a);
  uint64_t *b = shmem_malloc(NE * sizeof *b);
  int *c = shmem_malloc(NE * sizeof *c);
  for (int root = 0; root < np; root++) {
    for (int i = 0; i < NE; i++) {
      a[i] = (uint32_t)shoal_test_val(me, (size_t)i, (unsigned)(10 + root));
      b[i] = shoal_test_val(me, (size_t)i, (unsigned)(20 + root));
      c[i] = (int)shoal_test_val(me, (size_t)i, (unsigned)(30 + root));
    }
    shmem_barrier_all();
    shmem_broadcast32(a, a, NE, root, 0, 0, np, psync);
    shmem_barrier_all();
    shmem_broadcast64(b, b, NE, root, 0, 0, np, psync);
    ck_assert_int_eq(shmem_int_broadcast(SHMEM_TEAM_WORLD, c, c, NE, root), 0);
    for (int i = 0; i < NE; i++) {
      ck_assert_uint_eq(a[i], (uint32_t)shoal_test_val(root, (size_t)i, (unsigned)(10 + root)));
      ck_assert_uint_eq(b[i], shoal_test_val(root, (size_t)i, (unsigned)(20 + root)));
      ck_assert_int_eq(c[i], (int)shoal_test_val(root, (size_t)i, (unsigned)(30 + root)));
    }
    shmem_barrier_all();
  }
  /* large enough for the pull algorithm too */
  size_t big = 1 << 16;
  uint64_t *d = shmem_malloc(big * sizeof *d);
  for (size_t i = 0; i < big; i++) d[i] = shoal_test_val(me, i, 40);
  shmem_barrier_all();
  shmem_broadcast64(d, d, big, np - 1, 0, 0, np, psync);
  for (size_t i = 0; i < big; i++) ck_assert_uint_eq(d[i], shoal_test_val(np - 1, i, 40));
  shmem_barrier_all();
  shmem_free(d);
  shmem_free(a);
  shmem_free(b);
  shmem_free(c);
}
END_TEST

/* ---- 11. unknown malloc hints are ignored ------------------------------- */
START_TEST(test_hints_unknown)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  long *p = shmem_malloc_with_hints(NE * sizeof *p, (1L << 40) | SHMEM_MALLOC_ATOMICS_REMOTE);
  ck_assert_ptr_nonnull(p);
  long *q = shmem_malloc_with_hints(NE * sizeof *q, 0x7f00);
  ck_assert_ptr_nonnull(q);
  /* the blocks are symmetric: a put into the right neighbour lands */
  long src[NE];
  for (int i = 0; i < NE; i++) src[i] = (long)shoal_test_val(me, (size_t)i, 5);
  shoal_test_poison(q, NE * sizeof *q);
  shmem_barrier_all();
  shmem_long_put(q, src, NE, (me + 1) % np);
  shmem_barrier_all();
  for (int i = 0; i < NE; i++) ck_assert_int_eq(q[i], (long)shoal_test_val((me + np - 1) % np, (size_t)i, 5));
  shmem_free(q);
  shmem_free(p);
}
END_TEST

/* A case per item, so that CK_RUN_CASE=any (say) runs one alone. */
#define add_case(s, name, test) \
  do { \
    TCase *tc = tcase_create(name); \
    tcase_set_timeout(tc, 120); \
    tcase_add_test(tc, test); \
    suite_add_tcase(s, tc); \
  } while (0)

static Suite *conf_suite(void)
{
  Suite *s = suite_create("conf");
  add_case(s, "zero_rma", test_zero_rma);
  add_case(s, "zero_coll", test_zero_coll);
  add_case(s, "ctx_invalid", test_ctx_invalid);
  add_case(s, "any", test_any_rotates);
  add_case(s, "bcast_in_place", test_bcast_in_place);
  add_case(s, "hints", test_hints_unknown);
  return s;
}

SHOAL_TEST_MAIN(conf_suite)
