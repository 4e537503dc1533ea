/* Checks shared by the host entry points of the collectives. */
#ifndef SHOAL_COLL_HOST_H
#define SHOAL_COLL_HOST_H

#include "../teams/team_host.h"

/* false: team is SHMEM_TEAM_INVALID (warned; the call does nothing).  A
 * PE that is not a member ends the job. */
static inline bool coll_team_ok(const char *call, shmem_team_t team)
{
  if (!shoal_team_handle_ok(call, team)) {
    shoal_warn("%s: argument 'team' is SHMEM_TEAM_INVALID", call);
    return false;
  }
  if (team->my_pe < 0)
    shoal_error(call, "this PE (%d) is not a member of argument 'team'", shoal_dstate.my_pe);
  shoal_wait_in_team(call, team);
  return true;
}

/* GPU builds: the host algorithms cannot touch GPU memory. */
static inline void coll_no_gpu(const char *call, const char *arg, const void *addr)
{
  if (shoal_gpu_owns(addr, 1))
    shoal_error(call, "argument '%s' is GPU memory, which %s does not take (broadcast, fcollect, "
                "alltoall, reduce and reduce_scatter run on GPU memory; collect, alltoalls and the "
                "active-set calls do not yet)", arg, call);
}

/* A buffer other PEs access must be symmetric (Iris #526). */
static inline void coll_need_sym(const char *call, const char *arg, const void *addr, size_t bytes)
{
  coll_no_gpu(call, arg, addr);
  if (bytes && !shoal_is_symmetric_range(addr, bytes)) shoal_bad_sym(call, arg, addr, bytes);
}

/* GPU builds: true when the call works on the symmetric GPU heap, so the
 * GPU runs it (block collectives kernels, gpu/gpu_lib.cu).  dest must
 * then be in the GPU heap and source (where this PE reads it) GPU memory. */
static inline bool coll_on_gpu(const char *call, const void *dest, size_t dbytes, const void *src,
                               bool src_read)
{
#ifdef SHOAL_HAVE_GPU
  bool d = shoal_gpu_owns(dest, 1), s = shoal_gpu_owns(src, 1);
  if (!d && !(s && src_read)) return false;
  if (!d) shoal_error(call, "argument 'source' is GPU memory but 'dest' is not: put both in the "
                      "symmetric GPU heap (shmem_malloc)");
  if (!shoal_gpu_owns(dest, dbytes)) shoal_bad_sym(call, "dest", dest, dbytes);
  if (src_read && !s && !shoal_gpu_is_device(src))
    shoal_error(call, "argument 'dest' is GPU memory but 'source' (%p) is host memory: the source "
                "of a collective on GPU memory must be GPU memory too", src);
  return true;
#else
  (void)call; (void)dest; (void)dbytes; (void)src; (void)src_read;
  return false;
#endif
}

/* dest and source are the same buffer or do not overlap at all. */
static inline void coll_no_partial_overlap(const char *call, const void *dest, size_t dbytes,
                                           const void *src, size_t sbytes, bool same_ok)
{
  uintptr_t d = (uintptr_t)dest, s = (uintptr_t)src;
  if (!dbytes || !sbytes) return;
  if (same_ok && d == s) return;
  if (d < s + sbytes && s < d + dbytes)
    shoal_error(call, "arguments 'dest' (%p, %zu bytes) and 'source' (%p, %zu bytes) overlap%s",
                dest, dbytes, src, sbytes, same_ok ? " (only the exact same buffer is allowed)" : "");
}

/* n elements of es bytes, without overflow. */
static inline size_t coll_bytes(const char *call, const char *arg, size_t n, size_t es)
{
  if (n > (SIZE_MAX >> 4) / es) shoal_bad_count(call, arg, n);
  return n * es;
}

#endif
