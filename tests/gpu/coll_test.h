/* Helpers of the GPU collective tests (test_grid, test_warp, test_coll):
 * a member that falls behind, small-integer data whose float and double
 * sums are exact in any order, the operators to check them with, and the
 * world and strided teams (even and odd world PEs). */
#ifndef SHOAL_GPU_COLL_TEST_H
#define SHOAL_GPU_COLL_TEST_H

#include "gpu_test.h"

/* A member that falls behind for about `us` microseconds. */
__device__ inline void fall_behind(int us)
{
#if defined(__CUDACC__)
  for (int k = 0; k < us; k++) __nanosleep(1000);
#else
  for (int k = 0; k < us; k++) __builtin_amdgcn_s_sleep(32);   /* 64 x 32 clocks: about 1 us */
#endif
}

/* Small integers: float and double sums are exact in any order. */
template <class T> __host__ __device__ inline T tv(uint64_t seed, int pe, size_t i, unsigned salt)
{
  return (T)((int64_t)(gt_val(seed, pe, i, salt) % 2001) - 1000);
}
struct op_sum { template <class T> __device__ static T f(T a, T b) { return a + b; } };
struct op_max { template <class T> __device__ static T f(T a, T b) { return a < b ? b : a; } };
struct op_xor { template <class T> __device__ static T f(T a, T b) { return a ^ b; } };

/* A team and where this PE and the members sit: member j is world PE
 * start + j stride, this PE member me. */
struct team_info { shmem_team_t team; int start, stride, size, me; };
/* The world, and the strided team this PE is in: the even world PEs or
 * the odd ones (sizes 1 and 2 at 2-4 PEs); *even and *odd to destroy. */
static inline void gt_teams(team_info *world, team_info *strided, shmem_team_t *even, shmem_team_t *odd)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  *even = *odd = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (np + 1) / 2, NULL, 0, even);
  if (np > 1) shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, np / 2, NULL, 0, odd);
  *world = team_info{SHMEM_TEAM_WORLD, 0, 1, np, me};
  *strided = me % 2 == 0 ? team_info{*even, 0, 2, (np + 1) / 2, me / 2} : team_info{*odd, 1, 2, np / 2, me / 2};
}

#endif
