/* Teams: strided splits in the shape of tensor- and data-parallel groups,
 * nested splits, teams of one, split_2d, translate_pe, get_config,
 * contexts, bad arguments, running out of team slots, non-members, and
 * slot reuse after destroy. */
#include "coll_test.h"

static int errors;
#define CHECK(cond, ...) do { if (!(cond)) { if (errors++ < 10) { \
  fprintf(stderr, "PE %d: ", shmem_my_pe()); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

/* Sum over a team of each member's world PE + 1, checked by all members. */
static void check_team_sum(shmem_team_t t, const char *what)
{
  static long in, out;
  if (t == SHMEM_TEAM_INVALID) return;
  in = shmem_my_pe() + 1;
  out = -1;
  CHECK(shmem_long_sum_reduce(t, &out, &in, 1) == 0, "%s: reduce rc", what);
  long want = 0;
  for (int q = 0; q < shmem_team_n_pes(t); q++) want += wpe(t, q) + 1;
  CHECK(out == want, "%s: sum %ld, want %ld", what, out, want);
}

/* TP groups of 2 consecutive PEs ([0,1], [2,3], like [0,1,2,3] of 8 GPUs)
 * and DP groups of stride 2 ([0,2], [1,3], like [0,4,8,12]). */
START_TEST(test_tp_dp)
{
  errors = 0;
  int me = shmem_my_pe(), n = shmem_n_pes();
  int tp_size = n >= 2 ? 2 : 1, n_tp = (n + tp_size - 1) / tp_size;
  shmem_team_t tp = SHMEM_TEAM_INVALID, dp = SHMEM_TEAM_INVALID, t;
  for (int g = 0; g < n_tp; g++) {
    int size = n - g * tp_size < tp_size ? n - g * tp_size : tp_size;
    ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, g * tp_size, 1, size, NULL, 0, &t), 0);
    if (t != SHMEM_TEAM_INVALID) tp = t;
  }
  for (int r = 0; r < tp_size; r++) {
    ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, r, tp_size, (n - r + tp_size - 1) / tp_size,
                                              NULL, 0, &t), 0);
    if (t != SHMEM_TEAM_INVALID) dp = t;
  }
  ck_assert(tp != SHMEM_TEAM_INVALID && dp != SHMEM_TEAM_INVALID);
  CHECK(shmem_team_my_pe(tp) == me % tp_size, "tp my_pe");
  CHECK(shmem_team_my_pe(dp) == me / tp_size, "dp my_pe");
  CHECK(shmem_team_translate_pe(dp, shmem_team_my_pe(dp), SHMEM_TEAM_WORLD) == me, "dp -> world");
  CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, tp) == me % tp_size, "world -> tp");
  /* tp's first PE is world (me / 2) * 2: in my dp only if I am even */
  CHECK(shmem_team_translate_pe(tp, 0, dp) == (me % tp_size == 0 ? me / tp_size : -1), "tp 0 -> dp");
  /* a PE of dp that is not in tp translates to -1 */
  if (n >= 2) CHECK(shmem_team_translate_pe(dp, (shmem_team_my_pe(dp) + 1) % shmem_team_n_pes(dp), tp) == -1 ||
                    shmem_team_n_pes(dp) == 1, "dp peer not in tp");
  CHECK(shmem_team_translate_pe(tp, 5, SHMEM_TEAM_WORLD) == -1, "out of range src_pe");
  CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, tp) == -1, "invalid team");
  /* overlapping teams, back to back, no barrier between */
  for (int i = 0; i < 20; i++) {
    check_team_sum(tp, "tp");
    check_team_sum(dp, "dp");
    check_team_sum(SHMEM_TEAM_WORLD, "world");
  }
  shmem_team_destroy(tp);
  shmem_team_destroy(dp);
  ck_assert_int_eq(errors, 0);
}
END_TEST

START_TEST(test_nested_and_one)
{
  errors = 0;
  int me = shmem_my_pe(), n = shmem_n_pes();
  teams_make();
  for (int k = 0; k < N_TEAMS; k++) {
    shmem_team_t t = teams[k];
    int member;
    switch (k) {
    case T_WORLD: member = 1; break;
    case T_EVEN: member = me % 2 == 0; break;
    case T_ODD: member = me % 2 == 1; break;
    case T_STRIDE3: member = me % 3 == 0; break;
    case T_NESTED: member = me % 2 == 1; break;   /* 1, 3, ... */
    default: member = me == n - 1; break;
    }
    CHECK((t != SHMEM_TEAM_INVALID) == member, "%s: membership", team_name[k]);
    if (t == SHMEM_TEAM_INVALID) {
      CHECK(shmem_team_my_pe(t) == -1 && shmem_team_n_pes(t) == -1, "invalid team queries");
      continue;
    }
    CHECK(wpe(t, shmem_team_my_pe(t)) == me, "%s: translate my_pe", team_name[k]);
    check_team_sum(t, team_name[k]);
  }
  if (teams[T_ONE] != SHMEM_TEAM_INVALID) CHECK(shmem_team_n_pes(teams[T_ONE]) == 1, "size 1");
  if (teams[T_NESTED] != SHMEM_TEAM_INVALID) {
    /* nested: world 1, 3, ...; its parent is world 1..n-1 */
    CHECK(shmem_team_n_pes(teams[T_NESTED]) == n / 2, "nested size");
    CHECK(shmem_team_translate_pe(teams[T_NESTED], shmem_team_my_pe(teams[T_NESTED]), nested_parent) == me - 1,
          "nested -> parent");
  }
  teams_free();
  ck_assert_int_eq(errors, 0);
}
END_TEST

START_TEST(test_split_2d)
{
  errors = 0;
  int me = shmem_my_pe(), n = shmem_n_pes();
  shmem_team_t x, y;
  shmem_team_config_t cfg = {.num_contexts = 2};
  ck_assert_int_eq(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &x, NULL, 0, &y), 0);
  ck_assert(x != SHMEM_TEAM_INVALID && y != SHMEM_TEAM_INVALID);
  CHECK(shmem_team_my_pe(x) == me % 2, "x my_pe");
  CHECK(shmem_team_my_pe(y) == me / 2, "y my_pe");
  int xs = me / 2 * 2 + 2 <= n ? 2 : n - me / 2 * 2;
  CHECK(shmem_team_n_pes(x) == xs, "x size %d", shmem_team_n_pes(x));
  CHECK(shmem_team_n_pes(y) == (n - me % 2 + 1) / 2, "y size");
  shmem_team_config_t got = {0};
  CHECK(shmem_team_get_config(x, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 2, "x config");
  check_team_sum(x, "x");
  check_team_sum(y, "y");
  /* a context on a team knows its team */
  shmem_ctx_t ctx;
  shmem_team_t back = SHMEM_TEAM_INVALID;
  CHECK(shmem_team_create_ctx(x, 0, &ctx) == 0, "create_ctx");
  CHECK(shmem_ctx_get_team(ctx, &back) == 0 && back == x, "ctx_get_team");
  shmem_ctx_destroy(ctx);
  CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &back) == 0 && back == SHMEM_TEAM_WORLD, "default ctx team");
  CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &back) != 0 && back == SHMEM_TEAM_INVALID, "invalid ctx");
  CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx) != 0 && ctx == SHMEM_CTX_INVALID, "ctx on invalid team");
  shmem_team_destroy(x);
  shmem_team_destroy(y);
  ck_assert_int_eq(errors, 0);
}
END_TEST

/* Bad start, stride and size return non-zero and SHMEM_TEAM_INVALID on
 * every PE, and leave the parent usable. */
START_TEST(test_bad_splits)
{
  errors = 0;
  int n = shmem_n_pes();
  shmem_team_t t = SHMEM_TEAM_WORLD;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, -1, 1, 1, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID, "start -1");
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n, 1, 1, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID, "start n");
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 0, NULL, 0, &t) != 0, "size 0");
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n + 1, NULL, 0, &t) != 0, "size n+1");
  if (n > 1) {
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 0, 2, NULL, 0, &t) != 0, "stride 0");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, n, 2, NULL, 0, &t) != 0, "past the end");
  }
  CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &t, NULL, 0, &t) != 0, "xrange 0");
  check_team_sum(SHMEM_TEAM_WORLD, "world after bad splits");
  ck_assert_int_eq(errors, 0);
}
END_TEST

/* SHOAL_MAX_TEAMS is 10 here: world, shared and node hold 3 slots.  Splits
 * succeed until the slots run out, then fail cleanly on every PE; after
 * destroying, slots are reused (and start from fresh sync words). */
START_TEST(test_exhaust_and_reuse)
{
  errors = 0;
  shmem_team_t made[16];
  int got = 0;
  for (int i = 0; i < 16; i++) {
    shmem_team_t t;
    int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t);
    if (rc != 0) {
      CHECK(t == SHMEM_TEAM_INVALID, "failed split gives INVALID");
      break;
    }
    made[got++] = t;
    check_team_sum(t, "fresh team");
  }
  CHECK(got == 10 - 3, "made %d teams before running out, expected 7", got);
  for (int round = 0; round < 10; round++) {
    shmem_team_destroy(made[got - 1]);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &made[got - 1]) == 0,
          "split after destroy");
    for (int k = 0; k < got; k++) check_team_sum(made[k], "reused slot");
  }
  for (int k = 0; k < got; k++) shmem_team_destroy(made[k]);
  ck_assert_int_eq(errors, 0);
}
END_TEST

static Suite *teams_suite(void)
{
  Suite *s = suite_create("teams");
  TCase *tc = tcase_create("teams");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_tp_dp);
  tcase_add_test(tc, test_nested_and_one);
  tcase_add_test(tc, test_split_2d);
  tcase_add_test(tc, test_bad_splits);
  tcase_add_test(tc, test_exhaust_and_reuse);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  setenv("SHOAL_MAX_TEAMS", "10", 1);
  return shoal_test_run(teams_suite());
}
