/* Shared by the collective tests: the teams every collective runs on, and
 * fresh per-(team PE, element, salt) data any member can recompute. */
#ifndef SHOAL_COLL_TEST_H
#define SHOAL_COLL_TEST_H

#include "shoal_test.h"

enum { T_WORLD, T_EVEN, T_ODD, T_STRIDE3, T_NESTED, T_ONE, N_TEAMS };
static const char *const team_name[N_TEAMS] = {"world", "even", "odd", "stride3", "nested", "size1"};
static shmem_team_t teams[N_TEAMS];
static shmem_team_t nested_parent;

/* Every PE makes the same splits in the same order (splits are collective
 * over the parent).  Non-members get SHMEM_TEAM_INVALID. */
static void teams_make(void)
{
  int n = shmem_n_pes();
  teams[T_WORLD] = SHMEM_TEAM_WORLD;
  ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &teams[T_EVEN]), 0);
  teams[T_ODD] = SHMEM_TEAM_INVALID;
  if (n > 1) ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &teams[T_ODD]), 0);
  ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 3, (n + 2) / 3, NULL, 0, &teams[T_STRIDE3]), 0);
  /* nested: PEs 1..n-1, then every other one of those (world 1, 3, ...) */
  nested_parent = teams[T_NESTED] = SHMEM_TEAM_INVALID;
  if (n > 1) {
    ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, n - 1, NULL, 0, &nested_parent), 0);
    if (nested_parent != SHMEM_TEAM_INVALID)
      ck_assert_int_eq(shmem_team_split_strided(nested_parent, 0, 2, n / 2, NULL, 0, &teams[T_NESTED]), 0);
  }
  ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, 1, 1, NULL, 0, &teams[T_ONE]), 0);
}

static void teams_free(void)
{
  for (int i = 1; i < N_TEAMS; i++) shmem_team_destroy(teams[i]);
  shmem_team_destroy(nested_parent);
}

/* World PE of team PE q. */
static inline int wpe(shmem_team_t t, int q) { return shmem_team_translate_pe(t, q, SHMEM_TEAM_WORLD); }

static const size_t sizes[] = {0, 1, 97, 5003};
#define N_SIZES (sizeof sizes / sizeof sizes[0])
#define MAX_ELEMS 5003

#endif
