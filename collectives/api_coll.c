/* Host entry points of broadcast, fcollect, collect, alltoall and alltoalls:
 * check the arguments, then run the device algorithm on the calling PE. */
#include "coll_host.h"
#include "coll_lane.h"
#include "alltoall.h"
#include "alltoalls.h"
#include "broadcast_push.h"
#include "collect.h"
#include "fcollect.h"
#ifdef SHOAL_HAVE_GPU
#include "../gpu/gpu_lib.h"
#define GPU_MOVE(call, which, team, dest, src, bytes, root) \
  shoal_gpu_lib_move(call, which, team, dest, src, bytes, root)
#else
#define GPU_MOVE(call, which, team, dest, src, bytes, root) ((void)0)
#endif

static int coll_broadcast(const char *call, shmem_team_t team, void *dest, const void *source,
                          size_t nelems, size_t es, int root)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  if (!coll_team_ok(call, team)) return -1;
  size_t bytes = coll_bytes(call, "nelems", nelems, es);
  if (root < 0 || root >= team->size)
    shoal_error(call, "argument 'PE_root' = %d is out of range: the team has PEs 0..%d", root,
                team->size - 1);
  if (bytes == 0) return 0;
  if (coll_on_gpu(call, dest, bytes, source, team->my_pe == root)) {
    GPU_MOVE(call, 0, team, dest, source, bytes, root);
    return 0;
  }
  /* the pull form reads the root's source; check it always, so a program
   * does not pass or fail by message size */
  coll_need_sym(call, "source", source, bytes);
  coll_no_partial_overlap(call, dest, bytes, source, bytes, true);
  shoal_coll_broadcast_pick(team, dest, source, bytes, root, 1, call);
  return 0;
}

static int coll_fcollect(const char *call, shmem_team_t team, void *dest, const void *source,
                         size_t nelems, size_t es)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  if (!coll_team_ok(call, team)) return -1;
  size_t bytes = coll_bytes(call, "nelems", nelems, es);
  if (bytes == 0) return 0;
  if (coll_on_gpu(call, dest, bytes * (size_t)team->size, source, true)) {
    GPU_MOVE(call, 1, team, dest, source, bytes, 0);
    return 0;
  }
  coll_need_sym(call, "dest", dest, bytes * (size_t)team->size);
  coll_no_partial_overlap(call, dest, bytes * (size_t)team->size, source, bytes, false);
  shoal_coll_fcollect_pick(team, dest, source, bytes, call);
  return 0;
}

/* nelems may differ between PEs, so even 0 takes part. */
static int coll_collect(const char *call, shmem_team_t team, void *dest, const void *source,
                        size_t nelems, size_t es)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  if (!coll_team_ok(call, team)) return -1;
  size_t bytes = coll_bytes(call, "nelems", nelems, es);
  coll_no_gpu(call, "source", source);
  coll_need_sym(call, "dest", dest, bytes);
  coll_no_partial_overlap(call, dest, bytes, source, bytes, false);
  shoal_coll_collect(team, dest, source, bytes);
  return 0;
}

static int coll_alltoall(const char *call, shmem_team_t team, void *dest, const void *source,
                         size_t nelems, size_t es)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  if (!coll_team_ok(call, team)) return -1;
  size_t bytes = coll_bytes(call, "nelems", nelems, es);
  if (bytes == 0) return 0;
  size_t all = bytes * (size_t)team->size;
  if (coll_on_gpu(call, dest, all, source, true)) {
    GPU_MOVE(call, 2, team, dest, source, bytes, 0);
    return 0;
  }
  coll_need_sym(call, "dest", dest, all);
  coll_no_partial_overlap(call, dest, all, source, all, false);
  shoal_coll_alltoall_pick(team, dest, source, bytes, call);
  return 0;
}

static int coll_alltoalls(const char *call, shmem_team_t team, void *dest, const void *source,
                          ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t es)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  if (!coll_team_ok(call, team)) return -1;
  if (dst < 1) shoal_error(call, "argument 'dst' = %td must be at least 1", dst);
  if (sst < 1) shoal_error(call, "argument 'sst' = %td must be at least 1", sst);
  size_t total = coll_bytes(call, "nelems", nelems, (size_t)team->size);
  if (total == 0) return 0;
  coll_no_gpu(call, "source", source);
  size_t dspan = coll_bytes(call, "dst", (total - 1), (size_t)dst) + 1;
  size_t sspan = coll_bytes(call, "sst", (total - 1), (size_t)sst) + 1;
  coll_need_sym(call, "dest", dest, coll_bytes(call, "dst", dspan, es));
  coll_no_partial_overlap(call, dest, dspan * es, source, sspan * es, false);
  shoal_coll_alltoalls(team, dest, source, dst, sst, nelems, es);
  return 0;
}

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root)
{
  return coll_broadcast("shmem_broadcastmem", team, dest, source, nelems, 1, PE_root);
}
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
  return coll_fcollect("shmem_fcollectmem", team, dest, source, nelems, 1);
}
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
  return coll_collect("shmem_collectmem", team, dest, source, nelems, 1);
}
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
  return coll_alltoall("shmem_alltoallmem", team, dest, source, nelems, 1);
}
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems)
{
  return coll_alltoalls("shmem_alltoallsmem", team, dest, source, dst, sst, nelems, 1);
}

#define SHOAL_COLL_API(T, N) \
  int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root) \
  { return coll_broadcast("shmem_" #N "_broadcast", team, dest, source, nelems, sizeof(T), PE_root); } \
  int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems) \
  { return coll_fcollect("shmem_" #N "_fcollect", team, dest, source, nelems, sizeof(T)); } \
  int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems) \
  { return coll_collect("shmem_" #N "_collect", team, dest, source, nelems, sizeof(T)); } \
  int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems) \
  { return coll_alltoall("shmem_" #N "_alltoall", team, dest, source, nelems, sizeof(T)); } \
  int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, \
                            ptrdiff_t sst, size_t nelems) \
  { return coll_alltoalls("shmem_" #N "_alltoalls", team, dest, source, dst, sst, nelems, sizeof(T)); }
SHOAL_RMA_TYPES(SHOAL_COLL_API)

/* For tests/coll/test_lanes (not a public API): run the lane push of
 * collectives/push.h as lane `lane` of `nlanes` on this PE, one CPU
 * thread per lane, the way a GPU grid runs it with a block per lane.
 * which: 0 broadcast, 1 fcollect, 2 alltoall.  Every PE must run the same
 * nlanes; the threads of a PE call it concurrently.  Negative nlanes: the
 * lanes meet only the peers (an _on_stream kernel's grid). */
SHOAL_API int shoalx_coll_move_lane(int which, shmem_team_t team, void *dest, const void *source, size_t bytes,
                                    int root, int lane, int nlanes)
{
  const char *call = "shoalx_coll_move_lane";
  int local = nlanes > 0;
  if (!local) nlanes = -nlanes;
  if (!coll_lane_check(call, team, lane, nlanes)) return -1;
  if (which < 0 || which > 2) shoal_error(call, "argument 'which' = %d must be 0, 1 or 2", which);
  if (which == 0 && (root < 0 || root >= team->size))
    shoal_error(call, "argument 'root' = %d is out of range: the team has PEs 0..%d", root, team->size - 1);
  shoal_scope s = shoal_scope_make(0, 1, (unsigned)lane, (unsigned)nlanes, local);
  char *pd[SHOAL_SCOPE_MAX_PEERS];
  shoal_push_move(&s, team, pd, which, dest, source, bytes, root, call);
  return 0;
}

/* For tests/coll/test_lanes: the staged push of collectives/push.h
 * (which 1 fcollect, 2 alltoall) as lane `lane` of `nlanes`, as above,
 * through `stage`: stage_bytes of symmetric memory, zeroed before the
 * team's first call, that only these calls on this team use: a word
 * counting them, then the two halves (a member's slot: (stage_bytes - 64)
 * / (2 x team size), cut to 16 bytes; bytes must fit it). */
SHOAL_API int shoalx_coll_stage_lane(int which, shmem_team_t team, void *dest, const void *source, size_t bytes,
                                     void *stage, size_t stage_bytes, int lane, int nlanes)
{
  const char *call = "shoalx_coll_stage_lane";
  int local = nlanes > 0;
  if (!local) nlanes = -nlanes;
  if (!coll_lane_check(call, team, lane, nlanes)) return -1;
  if (which < 1 || which > 2) shoal_error(call, "argument 'which' = %d must be 1 or 2", which);
  size_t cap = stage_bytes > 64 ? ((stage_bytes - 64) / (2 * (size_t)team->size)) & ~(size_t)15 : 0;
  if (!stage || ((uintptr_t)stage & 7) != 0)
    shoal_error(call, "argument 'stage' (%p) must be symmetric memory on an 8-byte boundary", stage);
  if (bytes > cap)
    shoal_error(call, "argument 'bytes' = %zu does not fit argument 'stage_bytes' = %zu (%zu bytes a member)", bytes,
                stage_bytes, cap);
  char *at[SHOAL_SCOPE_MAX_PEERS];
  for (int q = 0; q < team->size; q++) {
    at[q] = (char *)shoal_dev_ptr((char *)stage + 64, shoal_team_world_pe(team, q));
    if (!at[q]) shoal_error(call, "argument 'stage' (%p) is not mapped on PE %d", stage, shoal_team_world_pe(team, q));
  }
  shoal_stage st = {at, (char *)stage + 64, (uint64_t *)stage, cap, local ? 0 : *(uint64_t *)stage};
  shoal_scope s = shoal_scope_make(0, 1, (unsigned)lane, (unsigned)nlanes, local);
  char *pd[SHOAL_SCOPE_MAX_PEERS];
  shoal_push_staged(&s, team, pd, &st, which, dest, source, bytes, call);
  return 0;
}
