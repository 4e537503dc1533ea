/* Host entry points of the OpenSHMEM 1.6 scans: shmem_TYPE_sum_inscan and
 * shmem_TYPE_sum_exscan for every type of the SUM reduction. */
#include "coll_host.h"
#include "scan.h"

static int scan_call(const char *call, shmem_team_t team, void *dest, const void *source,
                     size_t count, int type, int inclusive)
{
  SHOAL_REQUIRE_INIT(call);
  if (!coll_team_ok(call, team)) return -1;
  size_t es = shoal_reduce_size(type);
  size_t bytes = coll_bytes(call, "nelems", count, es);
  if (bytes == 0) return 0;
  if (dest == source && shoal_coll_scratch_size(team) < es)
    shoal_error(call, "the team's scratch is too small for an in-place scan: raise SHOAL_TEAM_SCRATCH");
  coll_no_partial_overlap(call, dest, bytes, source, bytes, true);
  /* Other members read my source; dest must be symmetric like every
   * collective's (the spec: the same symmetric arrays on every member). */
  coll_need_sym(call, "source", source, bytes);
  coll_need_sym(call, "dest", dest, bytes);
  shoal_coll_scan(team, type, inclusive, dest, source, count);
  return 0;
}

#define SHOAL_SCAN_API(T, N) \
  int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems) \
  { return scan_call("shmem_" #N "_sum_inscan", team, dest, source, nelems, SHOAL_RT_##N, 1); } \
  int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems) \
  { return scan_call("shmem_" #N "_sum_exscan", team, dest, source, nelems, SHOAL_RT_##N, 0); }
SHOAL_REDUCE_ARITH_TYPES(SHOAL_SCAN_API)
