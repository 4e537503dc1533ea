/* Contexts: create with every option, use with puts, AMOs, fence and quiet,
 * destroy; many at once; the default context; a context's team. */
#include "shoal_test.h"

#define NE 64

static const long options[] = {0, SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE, SHMEM_CTX_NOSTORE,
                               SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE,
                               SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE};
#define N_OPTIONS (int)(sizeof options / sizeof *options)

START_TEST(test_ctx_options)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  long opt = options[_i];
  unsigned salt = 10 + (unsigned)_i;
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  ck_assert_int_eq(shmem_ctx_create(opt, &ctx), 0);
  ck_assert_ptr_ne(ctx, SHMEM_CTX_INVALID);
  ck_assert_ptr_ne(ctx, SHMEM_CTX_DEFAULT);
  shmem_team_t team = SHMEM_TEAM_INVALID;
  ck_assert_int_eq(shmem_ctx_get_team(ctx, &team), 0);
  ck_assert_ptr_eq(team, SHMEM_TEAM_WORLD);

  long *dst = shmem_malloc(sizeof(long) * (NE + 1)), src[NE];
  shoal_test_poison(dst, sizeof(long) * (NE + 1));
  for (int i = 0; i < NE; i++) src[i] = (long)shoal_test_val(me, (size_t)i, salt);
  shmem_barrier_all();
  /* data, fence, flag: the flag must not overtake the data */
  shmem_ctx_long_put_nbi(ctx, dst, src, NE, right);
  shmem_ctx_fence(ctx);
  shmem_ctx_long_atomic_set(ctx, &dst[NE], 1, right);
  shmem_ctx_quiet(ctx);
  shmem_long_wait_until(&dst[NE], SHMEM_CMP_EQ, 1);
  for (int i = 0; i < NE; i++)
    ck_assert_msg(dst[i] == (long)shoal_test_val(left, (size_t)i, salt), "options %#lx element %d", opt, i);
  shmem_barrier_all();
  shmem_ctx_destroy(ctx);
  shmem_free(dst);
}
END_TEST

/* Many contexts at once, each used, destroyed in a different order. */
START_TEST(test_ctx_many)
{
  enum { M = 40 };
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  shmem_ctx_t ctx[M];
  long *slots = shmem_calloc(M, sizeof(long));
  for (int k = 0; k < M; k++) ck_assert_int_eq(shmem_ctx_create(k % 2 ? SHMEM_CTX_PRIVATE : 0, &ctx[k]), 0);
  for (int k = 0; k < M; k++)
    for (int j = 0; j < k; j++) ck_assert_ptr_ne(ctx[k], ctx[j]);
  shmem_barrier_all();
  for (int k = 0; k < M; k++) shmem_ctx_long_p(ctx[k], &slots[k], (long)me * 1000 + k, right);
  for (int k = 0; k < M; k++) shmem_ctx_quiet(ctx[k]);
  shmem_barrier_all();
  for (int k = 0; k < M; k++) ck_assert_int_eq(slots[k], (long)left * 1000 + k);
  for (int k = M - 1; k >= 0; k -= 2) shmem_ctx_destroy(ctx[k]);
  for (int k = 0; k < M; k += 2) shmem_ctx_destroy(ctx[k]);
  shmem_ctx_destroy(SHMEM_CTX_INVALID);   /* a no-op */
  shmem_barrier_all();
  shmem_free(slots);
}
END_TEST

/* SHMEM_CTX_DEFAULT works in every ctx form and belongs to the world team. */
START_TEST(test_ctx_default)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  shmem_team_t team = SHMEM_TEAM_INVALID;
  ck_assert_int_eq(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team), 0);
  ck_assert_ptr_eq(team, SHMEM_TEAM_WORLD);
  ck_assert_int_eq(shmem_ctx_get_team(SHMEM_CTX_INVALID, &team), -1);
  ck_assert_ptr_eq(team, SHMEM_TEAM_INVALID);
  int *v = shmem_calloc(2, sizeof(int));
  shmem_barrier_all();
  shmem_ctx_int_p(SHMEM_CTX_DEFAULT, &v[0], me + 7, right);
  shmem_ctx_int_atomic_add(SHMEM_CTX_DEFAULT, &v[1], me + 1, right);
  shmem_ctx_fence(SHMEM_CTX_DEFAULT);
  shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
  shmem_barrier_all();
  ck_assert_int_eq(v[0], left + 7);
  ck_assert_int_eq(v[1], left + 1);
  ck_assert_int_eq(shmem_ctx_int_g(SHMEM_CTX_DEFAULT, &v[0], right), me + 7);
  shmem_barrier_all();
  shmem_free(v);
}
END_TEST

/* A context created on a team reports that team. */
START_TEST(test_team_ctx)
{
  shmem_ctx_t ctx;
  shmem_team_t team = SHMEM_TEAM_INVALID;
  ck_assert_int_eq(shmem_team_create_ctx(SHMEM_TEAM_WORLD, 0, &ctx), 0);
  ck_assert_int_eq(shmem_ctx_get_team(ctx, &team), 0);
  ck_assert_ptr_eq(team, SHMEM_TEAM_WORLD);
  shmem_ctx_destroy(ctx);
}
END_TEST

static Suite *ctx_suite(void)
{
  Suite *s = suite_create("ctx");
  TCase *tc = tcase_create("ctx");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_ctx_options, 0, N_OPTIONS);
  tcase_add_test(tc, test_ctx_many);
  tcase_add_test(tc, test_ctx_default);
  tcase_add_test(tc, test_team_ctx);
  suite_add_tcase(s, tc);
  return s;
}

SHOAL_TEST_MAIN(ctx_suite)
