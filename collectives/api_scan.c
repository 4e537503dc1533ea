/* Host entry points of the OpenSHMEM 1.6 scans: shmem_TYPE_sum_inscan and
 * shmem_TYPE_sum_exscan for every type of the SUM reduction. */
#include "coll_host.h"
#include "scan.h"

#include <stdlib.h>

#ifdef SHOAL_HAVE_GPU
/* GPU heap buffers, from the host: the same sum in team order, staged in
 * host memory (members' sources arrive by GPU copies through the remote
 * seam), then one copy into dest after every member has read its inputs. */
static void scan_gpu(const char *call, shoal_team *t, int type, int inclusive, void *dest,
                     const void *src, size_t count)
{
  size_t bytes = count * shoal_reduce_size(type);
  char *acc = calloc(1, bytes), *in = malloc(bytes);
  if (!acc || !in) shoal_error(call, "out of memory staging %zu bytes", bytes);
  int last = inclusive ? t->my_pe : t->my_pe - 1;
  shoal_coll_all(t);
  for (int q = 0; q <= last; q++) {
    shoal_dev_getmem(SHOAL_DEV_CTX, q ? in : acc, src, bytes, shoal_team_world_pe(t, q));
    if (q) shoal_reduce_combine(type, SHOAL_OP_sum, acc, in, count);
  }
  shoal_coll_all(t);
  shoal_gpu_copy(call, dest, acc, bytes);
  free(in);
  free(acc);
}
#endif

static int scan_call(const char *call, shmem_team_t team, void *dest, const void *source,
                     size_t count, int type, int inclusive)
{
  SHOAL_REQUIRE_INIT(call);
  if (!coll_team_ok(call, team)) return -1;
  size_t es = shoal_reduce_size(type);
  size_t bytes = coll_bytes(call, "nelems", count, es);
  if (bytes == 0) return 0;
  if (coll_on_gpu(call, dest, bytes, source, true)) {
#ifdef SHOAL_HAVE_GPU
    if (!shoal_gpu_owns(source, bytes)) shoal_bad_sym(call, "source", source, bytes);
    coll_no_partial_overlap(call, dest, bytes, source, bytes, true);
    scan_gpu(call, team, type, inclusive, dest, source, count);
#endif
    return 0;
  }
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
