/* Deprecated OpenSHMEM 1.4 active-set collectives, as thin layers over the
 * team algorithms.  The active set (PE_start, logPE_stride, PE_size) becomes
 * a cached internal team; pSync and pWrk are checked for symmetry (programs
 * written for other libraries rely on passing them) but never used: Shoal
 * keeps its own sequence-numbered signals. */
#include "coll_api.h"
#include "alltoall.h"
#include "alltoalls.h"
#include "barrier.h"
#include "broadcast_push.h"
#include "collect.h"
#include "fcollect.h"

static shoal_team *active_team(const char *call, int start, int log_stride, int size,
                               const long *pSync, size_t sync_len)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  int n = shoal_dstate.n_pes, me = shoal_dstate.my_pe;
  if (start < 0 || start >= n)
    shoal_error(call, "argument 'PE_start' = %d is out of range: valid PEs are 0..%d", start, n - 1);
  if (log_stride < 0 || log_stride > 30)
    shoal_error(call, "argument 'logPE_stride' = %d must be in [0, 30]", log_stride);
  if (size < 1 || start + (long)(size - 1) * (1L << log_stride) >= n)
    shoal_error(call, "argument 'PE_size' = %d: the active set (start %d, stride %d) must lie in "
                "PEs 0..%d", size, start, 1 << log_stride, n - 1);
  coll_need_sym(call, "pSync", pSync, sync_len * sizeof(long));
  shoal_team *t = shoal_team_active_set(start, log_stride, size);
  shoal_wait_in_team(call, t);
  if (t->my_pe < 0)
    shoal_error(call, "this PE (%d) is not in the active set (PE_start %d, logPE_stride %d, "
                "PE_size %d)", me, start, log_stride, size);
  return t;
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
  shoal_team *t = active_team("shmem_barrier", PE_start, logPE_stride, PE_size, pSync,
                              SHMEM_BARRIER_SYNC_SIZE);
  shoal_coll_barrier(t);
}

/* Parenthesized: <shoal/generic.h> makes shmem_sync a macro (with one
 * argument, shmem_team_sync). */
void (shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
  shoal_team *t = active_team("shmem_sync", PE_start, logPE_stride, PE_size, pSync,
                              SHMEM_BARRIER_SYNC_SIZE);
  shoal_fence_system();
  shoal_coll_sync(t);
}

static void broadcast_as(const char *call, void *dest, const void *source, size_t nelems, size_t es,
                         int root, int start, int log_stride, int size, long *pSync)
{
  shoal_team *t = active_team(call, start, log_stride, size, pSync, SHMEM_BCAST_SYNC_SIZE);
  if (root < 0 || root >= size)
    shoal_error(call, "argument 'PE_root' = %d must be in [0, PE_size = %d)", root, size);
  size_t bytes = coll_bytes(call, "nelems", nelems, es);
  if (bytes == 0) return;
  coll_need_sym(call, "source", source, bytes);
  /* in place (dest == source) is fine: the root's dest is not written */
  coll_no_partial_overlap(call, dest, bytes, source, bytes, true);
  shoal_coll_broadcast_pick(t, dest, source, bytes, root, 0, call);   /* 1.4: root's dest untouched */
}

static void fcollect_as(const char *call, void *dest, const void *source, size_t nelems, size_t es,
                        int start, int log_stride, int size, long *pSync)
{
  shoal_team *t = active_team(call, start, log_stride, size, pSync, SHMEM_COLLECT_SYNC_SIZE);
  size_t bytes = coll_bytes(call, "nelems", nelems, es);
  if (bytes == 0) return;
  coll_need_sym(call, "dest", dest, bytes * (size_t)size);
  coll_no_partial_overlap(call, dest, bytes * (size_t)size, source, bytes, false);
  shoal_coll_fcollect(t, dest, source, bytes);
}

static void collect_as(const char *call, void *dest, const void *source, size_t nelems, size_t es,
                       int start, int log_stride, int size, long *pSync)
{
  shoal_team *t = active_team(call, start, log_stride, size, pSync, SHMEM_COLLECT_SYNC_SIZE);
  size_t bytes = coll_bytes(call, "nelems", nelems, es);
  coll_need_sym(call, "dest", dest, bytes);
  coll_no_partial_overlap(call, dest, bytes, source, bytes, false);
  shoal_coll_collect(t, dest, source, bytes);
}

static void alltoall_as(const char *call, void *dest, const void *source, size_t nelems, size_t es,
                        int start, int log_stride, int size, long *pSync)
{
  shoal_team *t = active_team(call, start, log_stride, size, pSync, SHMEM_ALLTOALL_SYNC_SIZE);
  size_t bytes = coll_bytes(call, "nelems", nelems, es);
  if (bytes == 0) return;
  size_t all = bytes * (size_t)size;
  coll_need_sym(call, "dest", dest, all);
  coll_no_partial_overlap(call, dest, all, source, all, false);
  shoal_coll_alltoall(t, dest, source, bytes);
}

static void alltoalls_as(const char *call, void *dest, const void *source, ptrdiff_t dst,
                         ptrdiff_t sst, size_t nelems, size_t es, int start, int log_stride,
                         int size, long *pSync)
{
  shoal_team *t = active_team(call, start, log_stride, size, pSync, SHMEM_ALLTOALLS_SYNC_SIZE);
  if (dst < 1) shoal_error(call, "argument 'dst' = %td must be at least 1", dst);
  if (sst < 1) shoal_error(call, "argument 'sst' = %td must be at least 1", sst);
  size_t total = coll_bytes(call, "nelems", nelems, (size_t)size);
  if (total == 0) return;
  size_t dspan = coll_bytes(call, "dst", total - 1, (size_t)dst) + 1;
  size_t sspan = coll_bytes(call, "sst", total - 1, (size_t)sst) + 1;
  coll_need_sym(call, "dest", dest, coll_bytes(call, "dst", dspan, es));
  coll_no_partial_overlap(call, dest, dspan * es, source, sspan * es, false);
  shoal_coll_alltoalls(t, dest, source, dst, sst, nelems, es);
}

#define SHOAL_ACTIVE_SIZED(BITS) \
  void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root, \
                             int PE_start, int logPE_stride, int PE_size, long *pSync) \
  { \
    broadcast_as("shmem_broadcast" #BITS, dest, source, nelems, BITS / 8, PE_root, PE_start, \
                 logPE_stride, PE_size, pSync); \
  } \
  void shmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start, \
                            int logPE_stride, int PE_size, long *pSync) \
  { \
    fcollect_as("shmem_fcollect" #BITS, dest, source, nelems, BITS / 8, PE_start, logPE_stride, \
                PE_size, pSync); \
  } \
  void shmem_collect##BITS(void *dest, const void *source, size_t nelems, int PE_start, \
                           int logPE_stride, int PE_size, long *pSync) \
  { \
    collect_as("shmem_collect" #BITS, dest, source, nelems, BITS / 8, PE_start, logPE_stride, \
               PE_size, pSync); \
  } \
  void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start, \
                            int logPE_stride, int PE_size, long *pSync) \
  { \
    alltoall_as("shmem_alltoall" #BITS, dest, source, nelems, BITS / 8, PE_start, logPE_stride, \
                PE_size, pSync); \
  } \
  void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                             size_t nelems, int PE_start, int logPE_stride, int PE_size, \
                             long *pSync) \
  { \
    alltoalls_as("shmem_alltoalls" #BITS, dest, source, dst, sst, nelems, BITS / 8, PE_start, \
                 logPE_stride, PE_size, pSync); \
  }
SHOAL_ACTIVE_SIZED(32)
SHOAL_ACTIVE_SIZED(64)

static void to_all(const char *call, void *dest, const void *source, int nreduce, size_t es,
                   int start, int log_stride, int size, const void *pWrk, long *pSync, int type,
                   int op)
{
  shoal_team *t = active_team(call, start, log_stride, size, pSync, SHMEM_REDUCE_SYNC_SIZE);
  if (nreduce < 0) shoal_error(call, "argument 'nreduce' = %d is negative", nreduce);
  if (nreduce == 0) return;
  coll_need_sym(call, "pWrk", pWrk, es * SHMEM_REDUCE_MIN_WRKDATA_SIZE);
  shoal_reduce_call(call, t, dest, source, (size_t)nreduce, type, op);
}

#define SHOAL_TOALL_OP(T, N, OP) \
  void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, \
                                 int logPE_stride, int PE_size, T *pWrk, long *pSync) \
  { \
    to_all("shmem_" #N "_" #OP "_to_all", dest, source, nreduce, sizeof(T), PE_start, \
           logPE_stride, PE_size, pWrk, pSync, SHOAL_RT_##N, SHOAL_OP_##OP); \
  }
#define SHOAL_TOALL_BITWISE(T, N) \
  SHOAL_TOALL_OP(T, N, and) SHOAL_TOALL_OP(T, N, or) SHOAL_TOALL_OP(T, N, xor)
#define SHOAL_TOALL_MINMAX(T, N) SHOAL_TOALL_OP(T, N, min) SHOAL_TOALL_OP(T, N, max)
#define SHOAL_TOALL_ARITH(T, N) SHOAL_TOALL_OP(T, N, sum) SHOAL_TOALL_OP(T, N, prod)
SHOAL_TOALL_BITWISE_TYPES(SHOAL_TOALL_BITWISE)
SHOAL_TOALL_MINMAX_TYPES(SHOAL_TOALL_MINMAX)
SHOAL_TOALL_ARITH_TYPES(SHOAL_TOALL_ARITH)
