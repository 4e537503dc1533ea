/* Environment parsing (runtime/env.c, compiled into this test). */
#include "internal.h"

#include <check.h>
#include <stdlib.h>

START_TEST(test_parse_size_good)
{
  static const struct { const char *in; size_t out; } cases[] = {
      {"0", 0}, {"4096", 4096}, {"1K", 1024}, {"1k", 1024}, {"64M", 64ull << 20},
      {"64m", 64ull << 20}, {"2G", 2ull << 30}, {"1.5G", 3ull << 29}, {"0.5K", 512},
      {"64MB", 64ull << 20}, {"8kb", 8192}, {" 8M ", 8ull << 20}, {"1T", 1ull << 40},
      {"123456789", 123456789},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    size_t out = 7;
    ck_assert_msg(shoal_parse_size(cases[i].in, &out), "\"%s\" rejected", cases[i].in);
    ck_assert_msg(out == cases[i].out, "\"%s\" gave %zu, expected %zu", cases[i].in, out,
                  cases[i].out);
  }
}
END_TEST

START_TEST(test_parse_size_bad)
{
  static const char *const bad[] = {"", " ", "M", "K1", "abc", "-5", "-1M", "5X", "5MX",
                                    "1 2", "64M!", "nan", "inf", "1e400", "99999999999T",
                                    "+5", ".5"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    size_t out = 7;
    ck_assert_msg(!shoal_parse_size(bad[i], &out), "\"%s\" accepted as %zu", bad[i], out);
    ck_assert_uint_eq(out, 7);   /* untouched on failure */
  }
  ck_assert(!shoal_parse_size(NULL, &(size_t){0}));
}
END_TEST

START_TEST(test_env_load_defaults)
{
  for (const shoal_env_var *e = shoal_env_vars; e->name; e++) unsetenv(e->name);
  shoal_env env;
  shoal_env_load(&env);
  ck_assert_uint_eq(env.symmetric_size, 256ull << 20);
  ck_assert(!env.debug);
  ck_assert_int_eq(env.pes_per_node, 0);
  ck_assert_str_eq(env.transport, "auto");
  ck_assert(env.symmetric_data);
  /* every variable has a default and a help line (shoal-info prints them) */
  for (const shoal_env_var *e = shoal_env_vars; e->name; e++) {
    ck_assert_ptr_nonnull(e->default_value);
    ck_assert_ptr_nonnull(e->help);
  }
}
END_TEST

START_TEST(test_env_load_values)
{
  setenv("SHMEM_SYMMETRIC_SIZE", "3M", 1);
  setenv("SHMEM_DEBUG", "yes", 1);
  setenv("SHOAL_PES_PER_NODE", "2", 1);
  setenv("SHOAL_ALLREDUCE", "RING", 1);
  setenv("SHOAL_SYMMETRIC_DATA", "0", 1);
  setenv("SHOAL_TEAM_SCRATCH", "100", 1);
  shoal_env env;
  shoal_env_load(&env);
  ck_assert_uint_eq(env.symmetric_size, 3ull << 20);
  ck_assert(env.debug);
  ck_assert_int_eq(env.pes_per_node, 2);
  ck_assert_str_eq(env.allreduce, "ring");
  ck_assert(!env.symmetric_data);
  ck_assert_uint_eq(env.team_scratch, 4096);   /* raised to the minimum */
}
END_TEST

/* A bad value ends the program with status 1 (and a message on stderr). */
START_TEST(test_env_bad_size_exits)
{
  setenv("SHMEM_SYMMETRIC_SIZE", "lots", 1);
  shoal_env env;
  shoal_env_load(&env);
}
END_TEST

START_TEST(test_env_bad_int_exits)
{
  setenv("SHOAL_MAX_TEAMS", "2", 1);   /* below the minimum of 3 */
  shoal_env env;
  shoal_env_load(&env);
}
END_TEST

START_TEST(test_env_bad_choice_exits)
{
  setenv("SHOAL_TRANSPORT", "carrier-pigeon", 1);
  shoal_env env;
  shoal_env_load(&env);
}
END_TEST

static Suite *env_suite(void)
{
  Suite *s = suite_create("env");
  TCase *tc = tcase_create("env");
  tcase_add_test(tc, test_parse_size_good);
  tcase_add_test(tc, test_parse_size_bad);
  tcase_add_test(tc, test_env_load_defaults);
  tcase_add_test(tc, test_env_load_values);
  tcase_add_exit_test(tc, test_env_bad_size_exits, 1);
  tcase_add_exit_test(tc, test_env_bad_int_exits, 1);
  tcase_add_exit_test(tc, test_env_bad_choice_exits, 1);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(env_suite());
  srunner_set_fork_status(sr, CK_FORK);   /* each test gets its own environment */
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
