/* GPU extensions (shmemx_*): cooperative transfers where all threads of a
 * warp or block share one put/get, collectives run by one block per PE,
 * and host entry points that only enqueue work on a stream (capturable in
 * a CUDA/HIP graph).  Included by <shoal/gpu.h>; `man shmemx_putmem_block`,
 * `man shmemx_barrier_all_block`, `man shmemx_putmem_on_stream`. */
#ifndef SHOAL_GPU_X_H
#define SHOAL_GPU_X_H

/* ---- cooperative copies -------------------------------------------------- */
__device__ inline unsigned shoal_gpu_block_tid(void)
{
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline unsigned shoal_gpu_block_size(void) { return blockDim.x * blockDim.y * blockDim.z; }
/* Threads of a warp: 32 on NVIDIA, the wavefront (64 on CDNA) on AMD. */
#if defined(__CUDACC__)
#define SHOAL_GPU_WARP_SIZE 32u
__device__ inline unsigned shoal_gpu_lane(void)
{
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));   /* one register read, any block shape */
  return lane;
}
#else
#if defined(__AMDGCN_WAVEFRONT_SIZE)
#define SHOAL_GPU_WARP_SIZE ((unsigned)__AMDGCN_WAVEFRONT_SIZE)
#else
#define SHOAL_GPU_WARP_SIZE 64u
#endif
__device__ inline unsigned shoal_gpu_lane(void) { return __lane_id(); }
#endif

#if defined(__CUDACC__)
#define SHOAL_GPU_SYNCWARP() __syncwarp()
#define SHOAL_GPU_LDCG(p) __ldcg(p)
#else
#define SHOAL_GPU_SYNCWARP() __builtin_amdgcn_wave_barrier()
#define SHOAL_GPU_LDCG(p) (*(p))
#endif

/* Word-wide cooperative copy of nw words of type W, four loads in flight per
 * thread before the stores. */
template <class W>
__device__ inline void shoal_gpu_copy_words(W *d, const W *s, size_t nw, unsigned tid, unsigned nt)
{
  size_t i = tid;
  for (; i + 3 * (size_t)nt < nw; i += 4 * (size_t)nt) {
    W a = s[i], b = s[i + nt], c = s[i + 2 * (size_t)nt], e = s[i + 3 * (size_t)nt];
    d[i] = a; d[i + nt] = b; d[i + 2 * (size_t)nt] = c; d[i + 3 * (size_t)nt] = e;
  }
  for (; i < nw; i += nt) d[i] = s[i];
}

/* The general case of shoal_gpu_copy_coop (misaligned, or a size that is
 * not a whole number of 16-byte words): a byte head up to the widest
 * alignment src and dst share, words of that width, a byte tail.  Out of
 * line, so that the common path stays short and light on registers.
 * Copying a buffer onto itself (dst == src) rewrites the same bytes. */
static __device__ __noinline__ void shoal_gpu_copy_coop_misaligned(char *d, const char *s, size_t n,
                                                                     unsigned tid, unsigned nt)
{
  uintptr_t rel = (uintptr_t)d ^ (uintptr_t)s;
  unsigned w = (rel & 15) == 0 ? 16 : (rel & 7) == 0 ? 8 : (rel & 3) == 0 ? 4 : 1;
  size_t head = (w - ((uintptr_t)d & (w - 1))) & (w - 1);
  if (head > n) head = n;
  for (size_t i = tid; i < head; i += nt) d[i] = s[i];
  d += head; s += head; n -= head;
  size_t nw = n / w;
  switch (w) {
  case 16: shoal_gpu_copy_words((uint4 *)d, (const uint4 *)s, nw, tid, nt); break;
  case 8: shoal_gpu_copy_words((uint64_t *)d, (const uint64_t *)s, nw, tid, nt); break;
  case 4: shoal_gpu_copy_words((uint32_t *)d, (const uint32_t *)s, nw, tid, nt); break;
  default: shoal_gpu_copy_words((uint8_t *)d, (const uint8_t *)s, nw, tid, nt); break;
  }
  for (size_t i = nw * w + tid; i < n; i += nt) d[i] = s[i];
}

/* n bytes from src to dst by threads tid of nt, 16 bytes per access.  The
 * common case -- both 16-byte aligned (what shmem_malloc returns) and a
 * whole number of 16-byte words -- is tested first and alone, and at most
 * one word a thread (a warp's put of up to 512 bytes, a 512-thread block's
 * of up to 8 KB) takes no loop at all: a small put's cost is the length of
 * this path, so heads, tails and other widths go out of line. */
__device__ inline void shoal_gpu_copy_coop(void *dst, const void *src, size_t n, unsigned tid, unsigned nt)
{
  char *d = (char *)dst;
  const char *s = (const char *)src;
  uintptr_t a = (uintptr_t)d | (uintptr_t)s;
  if (((a | n) & 15) != 0) {
    /* One 64- or 32-bit element: one access by one thread. */
    if (n == 8 && (a & 7) == 0) {
      if (tid == 0) *(uint64_t *)d = *(const uint64_t *)s;
    } else if (n == 4 && (a & 3) == 0) {
      if (tid == 0) *(uint32_t *)d = *(const uint32_t *)s;
    } else {
      shoal_gpu_copy_coop_misaligned(d, s, n, tid, nt);
    }
    return;
  }
  size_t nw = n >> 4;
  if (nw <= nt) {
    if (tid < nw) ((uint4 *)d)[tid] = ((const uint4 *)s)[tid];
  } else {
    shoal_gpu_copy_words((uint4 *)d, (const uint4 *)s, nw, tid, nt);
  }
}

/* Scope of a cooperative call: which threads share it, and how they meet. */
struct shoal_gpu_warp_scope {
  __device__ static unsigned tid(void) { return shoal_gpu_lane(); }
  __device__ static unsigned size(void) { return SHOAL_GPU_WARP_SIZE; }
  __device__ static void sync(void) { SHOAL_GPU_SYNCWARP(); }
};
struct shoal_gpu_block_scope {
  __device__ static unsigned tid(void) { return shoal_gpu_block_tid(); }
  __device__ static unsigned size(void) { return shoal_gpu_block_size(); }
  __device__ static void sync(void) { __syncthreads(); }
};

/* Blocking forms (wait) meet at the end: the source may be reused by any
 * thread on return.  The _nbi forms do not: completion is quiet's job. */
template <class S, bool wait = true>
__device__ inline void shoal_gpu_put_coop(void *dest, const void *src, size_t n, int pe)
{
  void *r = shoal_dev_ptr(dest, pe);
  if (SHOAL_UNLIKELY(!r)) {   /* through the host proxy: one thread posts for the group */
    S::sync();
    if (S::tid() == 0) shoal_remote_put(SHOAL_DEV_CTX, dest, src, n, pe);
    S::sync();
    return;
  }
  shoal_gpu_copy_coop(r, src, n, S::tid(), S::size());
  if (wait) S::sync();
}
template <class S, bool wait = true>
__device__ inline void shoal_gpu_get_coop(void *dest, const void *src, size_t n, int pe)
{
  const void *r = shoal_dev_ptr(src, pe);
  if (SHOAL_UNLIKELY(!r)) {   /* through the host proxy: one thread posts for the group */
    S::sync();
    if (S::tid() == 0) shoal_remote_get(SHOAL_DEV_CTX, dest, src, n, pe);
    S::sync();
    return;
  }
  shoal_gpu_copy_coop(dest, r, n, S::tid(), S::size());
  if (wait) S::sync();
}
template <class S>
__device__ inline void shoal_gpu_put_signal_coop(void *dest, const void *src, size_t n, uint64_t *sig,
                                                 uint64_t v, int op, int pe)
{
  shoal_gpu_put_coop<S>(dest, src, n, pe);
  if (S::tid() == 0) {
    shoal_fence_system();   /* every thread's data (ordered by S::sync) before the signal */
    shoal_dev_signal_update(SHOAL_DEV_CTX, sig, v, op, pe);
  }
  S::sync();
}

#define SHOAL_GPU_COOP_MEM(SCOPE, SFX) \
  __device__ inline void shmemx_putmem##SFX(void *d, const void *s, size_t n, int pe) \
  { shoal_gpu_put_coop<SCOPE>(d, s, n, pe); } \
  __device__ inline void shmemx_putmem_nbi##SFX(void *d, const void *s, size_t n, int pe) \
  { shoal_gpu_put_coop<SCOPE, false>(d, s, n, pe); } \
  __device__ inline void shmemx_getmem##SFX(void *d, const void *s, size_t n, int pe) \
  { shoal_gpu_get_coop<SCOPE>(d, s, n, pe); } \
  __device__ inline void shmemx_getmem_nbi##SFX(void *d, const void *s, size_t n, int pe) \
  { shoal_gpu_get_coop<SCOPE, false>(d, s, n, pe); } \
  __device__ inline void shmemx_putmem_signal##SFX(void *d, const void *s, size_t n, uint64_t *sig, \
                                                   uint64_t v, int op, int pe) \
  { shoal_gpu_put_signal_coop<SCOPE>(d, s, n, sig, v, op, pe); } \
  __device__ inline void shmemx_putmem_signal_nbi##SFX(void *d, const void *s, size_t n, uint64_t *sig, \
                                                       uint64_t v, int op, int pe) \
  { shoal_gpu_put_signal_coop<SCOPE>(d, s, n, sig, v, op, pe); }
SHOAL_GPU_COOP_MEM(shoal_gpu_warp_scope, _warp)
SHOAL_GPU_COOP_MEM(shoal_gpu_block_scope, _block)

#define SHOAL_GPU_COOP_TYPED_SCOPE(T, N, SCOPE, SFX) \
  __device__ inline void shmemx_##N##_put##SFX(T *d, const T *s, size_t n, int pe) \
  { shoal_gpu_put_coop<SCOPE>(d, s, n * sizeof(T), pe); } \
  __device__ inline void shmemx_##N##_put_nbi##SFX(T *d, const T *s, size_t n, int pe) \
  { shoal_gpu_put_coop<SCOPE, false>(d, s, n * sizeof(T), pe); } \
  __device__ inline void shmemx_##N##_get##SFX(T *d, const T *s, size_t n, int pe) \
  { shoal_gpu_get_coop<SCOPE>(d, s, n * sizeof(T), pe); } \
  __device__ inline void shmemx_##N##_get_nbi##SFX(T *d, const T *s, size_t n, int pe) \
  { shoal_gpu_get_coop<SCOPE, false>(d, s, n * sizeof(T), pe); } \
  __device__ inline void shmemx_##N##_put_signal##SFX(T *d, const T *s, size_t n, uint64_t *sig, \
                                                      uint64_t v, int op, int pe) \
  { shoal_gpu_put_signal_coop<SCOPE>(d, s, n * sizeof(T), sig, v, op, pe); } \
  __device__ inline void shmemx_##N##_put_signal_nbi##SFX(T *d, const T *s, size_t n, uint64_t *sig, \
                                                          uint64_t v, int op, int pe) \
  { shoal_gpu_put_signal_coop<SCOPE>(d, s, n * sizeof(T), sig, v, op, pe); }
#define SHOAL_GPU_COOP_TYPED(T, N) \
  SHOAL_GPU_COOP_TYPED_SCOPE(T, N, shoal_gpu_warp_scope, _warp) \
  SHOAL_GPU_COOP_TYPED_SCOPE(T, N, shoal_gpu_block_scope, _block)
SHOAL_RMA_DEVICE_TYPES(SHOAL_GPU_COOP_TYPED)

/* ---- collectives, one block per PE --------------------------------------- */
/* Reduction operators. */
#define SHOAL_GPU_OPDEF(NAME, EXPR) \
  struct shoal_gpu_op_##NAME { \
    template <class T> __device__ static T f(T a, T b) { return EXPR; } \
  };
SHOAL_GPU_OPDEF(sum, a + b)
SHOAL_GPU_OPDEF(prod, a * b)
SHOAL_GPU_OPDEF(min, b < a ? b : a)
SHOAL_GPU_OPDEF(max, a < b ? b : a)
SHOAL_GPU_OPDEF(and, a & b)
SHOAL_GPU_OPDEF(or, a | b)
SHOAL_GPU_OPDEF(xor, a ^ b)

#include "gpu_remote_coll.h"
#include <shoal/collectives/ll.h>

#define SHOAL_GPU_MAX_FAST_PEERS 64

#include "gpu_reduce.h"   /* the typed vector combine: shoal_gpu_vec, shoal_gpu_reduce_range */

/* The load/store paths below need every member mapped into this GPU;
 * teams with a member behind the host proxy (another node) take the
 * shared algorithms of <shoal/gpu_remote_coll.h> first.  Should an
 * unmapped member still reach one, it stops the kernel with a message
 * rather than a fault (collectives/scope.h: shoal_scope_unmapped). */

/* The GPU's reducer for the reduction algorithms of collectives/
 * (reduce_combine.h says what a reducer does): typed, each thread 16-byte
 * vectors, the loads of four members out together (two vectors a thread
 * where there are fewer), the members' bases hoisted (the lane's peer
 * tables in shared memory), the element combine OP inlined. */
template <class T, class OP> struct shoal_gpu_reducer {};
template <class T, class OP> __device__ inline size_t shoal_reducer_size(const shoal_gpu_reducer<T, OP> *)
{
  return sizeof(T);
}

template <class T, class OP>
__device__ inline void shoal_reducer_range(const shoal_scope *s, const shoal_gpu_reducer<T, OP> *, char *out,
                                           const char *const *in, int np, size_t lo, size_t hi)
{
  T *o = (T *)out;
  shoal_gpu_reduce_range<T, OP, false>(&o, 0, (const T *const *)in, np, lo, hi, s->tid, s->nthreads);
}
template <class T, class OP>
__device__ inline void shoal_reducer_range_all(const shoal_scope *s, const shoal_gpu_reducer<T, OP> *,
                                               char *const *pd, int me, const char *const *in, int np, size_t lo,
                                               size_t hi)
{
  shoal_gpu_reduce_range<T, OP, true>((T *const *)pd, me, (const T *const *)in, np, lo, hi, s->tid, s->nthreads);
}

/* Small collectives: LL, the flag-in-data pushes of collectives/ll.h, at
 * block scope (one lane; the lane's slot table in shared memory).  The
 * GPU's reducer combines one element typed (OP inlined). */
template <class T, class OP>
__device__ inline void shoal_reducer_combine1(const shoal_gpu_reducer<T, OP> *, uint64_t *acc, const uint64_t *x)
{
  T a, b;
  memcpy(&a, acc, sizeof(T));
  memcpy(&b, x, sizeof(T));
  a = OP::f(a, b);
  memcpy(acc, &a, sizeof(T));
}
/* The block as one lane of one PE; fresh: the block's kernel began with
 * this call (an _on_stream kernel, collectives/scope.h). */
__device__ inline shoal_scope shoal_gpu_block_lane(bool fresh = false)
{
  shoal_scope s = shoal_scope_make(shoal_gpu_block_tid(), shoal_gpu_block_size(), 0, 1, 0);
  s.fresh = fresh;
  return s;
}
/* The block meets the team (team_sync, barrier_all; the library's
 * barrier on a stream).  Where every member is mapped it is the block's
 * meeting of collectives/scope.h, as the collectives' own: after the
 * block's barrier, thread j adds my arrival on team PE me + 1 + j behind
 * a fence (shoal_scope_publish: the block's earlier stores reach the
 * peers first) and
 * thread 0 waits on its own word: one one-way trip over the link.  The
 * dissemination barrier of collectives/barrier.h that one thread ran
 * before takes log2(n) such trips one after the other, each behind a
 * fetch-add's round trip (bench/RESULTS.md, session 27).  Members behind
 * the host proxy keep it.  fresh: the block's kernel began with this
 * call, so it has written nothing and the stream's earlier work completed
 * before it: no fence.  Counters only grow: a captured graph replays with
 * no reset. */
__device__ inline void shoal_gpu_block_barrier(shoal_team *t, const char *call, bool fresh = false)
{
  if (t->slot >= 0 && !shoal_gpu_team_proxied(t)) {
    shoal_scope s = shoal_gpu_block_lane(fresh);
    shoal_scope_enter(&s, t, call);
    return;
  }
  __syncthreads();
  if (shoal_gpu_block_tid() == 0) {
    shoal_fence_system();
    shoal_coll_sync(t);
  }
  __syncthreads();
}

__device__ inline int shmemx_team_sync_block(shmem_team_t team)
{
  shoal_gpu_block_barrier(shoal_gpu_team_or_fail("shmemx_team_sync_block", team), "shmemx_team_sync_block");
  return 0;
}
__device__ inline void shmemx_barrier_all_block(void)
{
  shoal_gpu_block_barrier(shoal_gpu_team_or_fail("shmemx_barrier_all_block", SHMEM_TEAM_WORLD),
                          "shmemx_barrier_all_block");
}
__device__ inline void shmemx_sync_all_block(void)
{
  shoal_gpu_block_barrier(shoal_gpu_team_or_fail("shmemx_sync_all_block", SHMEM_TEAM_WORLD), "shmemx_sync_all_block");
}


/* OpenSHMEM allows dest == source or no overlap; anything else stops the
 * kernel with a message (a partial overlap has no defined result). */
SHOAL_COLD_FN void shoal_gpu_overlap_fail(const char *call, const void *dest, const void *src, bool say)
{
  if (say)
    printf("shoal: PE %d: error: %s: dest %p and source %p overlap but are not the same array\n",
           SHOAL_STATE->my_pe, call, dest, src);
  shoal_gpu_trap_after(say);
}
SHOAL_COLD_FN void shoal_gpu_root_fail(const char *call, int root, int size, bool say)
{
  if (say)
    printf("shoal: PE %d: error: %s: PE_root %d is not a member of the team (size %d)\n", SHOAL_STATE->my_pe,
           call, root, size);
  shoal_gpu_trap_after(say);
}
/* reduce_scatter: every member reads all of my source, so dest may not
 * overlap it at all (not even be it). */
SHOAL_COLD_FN void shoal_gpu_scatter_overlap_fail(const char *call, const void *dest, const void *src, bool say)
{
  if (say)
    printf("shoal: PE %d: error: %s: dest %p overlaps the source %p (every member reads all of the source)\n",
           SHOAL_STATE->my_pe, call, dest, src);
  shoal_gpu_trap_after(say);
}
__host__ __device__ inline bool shoal_gpu_scatter_overlaps(const void *dest, size_t dbytes, const void *src,
                                                           size_t sbytes)
{
  const char *d = (const char *)dest, *s = (const char *)src;
  return dbytes && d < s + sbytes && s < d + dbytes;
}
/* A reduction's arguments break the rule: dest == source or no overlap
 * for the all-reduce; for the reduce-scatter, no overlap with all of the
 * source (nb bytes a member). */
__device__ inline bool shoal_gpu_reduce_overlaps(const shoal_team *t, bool scatter, const void *dest,
                                                 const void *src, size_t nb)
{
  if (scatter) return shoal_gpu_scatter_overlaps(dest, nb, src, nb * (size_t)t->size);
  return dest != src && shoal_gpu_scatter_overlaps(dest, nb, src, nb);
}
__device__ inline void shoal_gpu_check_overlap(const char *call, const void *dest, const void *src, size_t bytes)
{
  const char *d = (const char *)dest, *s = (const char *)src;
  if (SHOAL_UNLIKELY(d != s && d < s + bytes && s < d + bytes))
    shoal_gpu_overlap_fail(call, dest, src, shoal_gpu_block_tid() == 0);
}
/* LL's lane: the block (GRID false: the block entry points and the
 * one-block _on_stream kernels, where the lane count is a constant), or a
 * block of LL's _on_stream kernel over several (GRID: lanes that do not
 * meet, collectives/ll.h; a kernel of its own: with the lane count a
 * runtime value the small calls cost 0.2-0.3 us more, bench/RESULTS.md
 * session 20), whose calls take up to half the team's ring. */
__device__ inline shoal_scope shoal_grid_scope(bool local);   /* gpu_grid.h */
template <bool GRID>
__device__ inline shoal_scope shoal_gpu_ll_scope(void)
{
  return GRID ? shoal_grid_scope(false) : shoal_gpu_block_lane();
}
/* All-reduce of 4- and 8-byte types (collectives/reduce_select.h:
 * shoal_reduce_ll_fits).  dest may be src (checked by the caller: or
 * disjoint from it). */
template <class T, class OP, bool GRID = false>
__device__ inline void shoal_gpu_reduce_ll(const char *call, shoal_team *t, T *dest, const T *src, size_t n)
{
  __shared__ shoal_ll ll;
  shoal_scope s = shoal_gpu_ll_scope<GRID>();
  shoal_gpu_reducer<T, OP> r;
  shoal_ll_reduce(&s, t, &ll, &r, dest, src, n, call);
}
/* Reduce-scatter of the same types, n elements per member's block: dest
 * disjoint from the source, which may be private (only read here).  Not
 * inlined: one body per type and op however many entry points (block,
 * grid, both _on_stream kernels) reach it -- inlined into each, with the
 * all-reduce beside it behind a runtime flag, it multiplied ptxas's time
 * for gpu_lib.cu (RESULTS.md, session 9). */
template <class T, class OP, bool GRID = false>
__device__ __noinline__ void shoal_gpu_reduce_scatter_ll(const char *call, shoal_team *t, T *dest, const T *src,
                                                         size_t n)
{
  __shared__ shoal_ll ll;
  shoal_scope s = shoal_gpu_ll_scope<GRID>();
  shoal_gpu_reducer<T, OP> r;
  shoal_ll_reduce_scatter(&s, t, &ll, &r, dest, src, n, call);
}
/* Broadcast (which 0), fcollect (1), alltoall (2) of nbytes, a whole
 * number of words (shoal_ll_fits, shoal_ll_words). */
template <bool GRID = false>
__device__ inline void shoal_gpu_move_ll(const char *call, int which, shoal_team *t, void *dest, const void *src,
                                         size_t nbytes, int root)
{
  __shared__ shoal_ll ll;
  shoal_scope s = shoal_gpu_ll_scope<GRID>();
  shoal_ll_move(&s, t, &ll, which, dest, src, nbytes, root, call);
}

/* What the reduction selection (collectives/reduce_select.h) rests on, in
 * a kernel.  Teams with a member behind the host proxy never get here
 * (the entry points take <shoal/gpu_remote_coll.h> first), so every member
 * is mapped; at most SHOAL_SCOPE_MAX_PEERS fit a lane's peer tables. */
__device__ inline bool shoal_gpu_symmetric(const void *p, size_t bytes)
{
  return shoal_dev_is_symmetric(p) && shoal_dev_is_symmetric((const char *)p + (bytes ? bytes - 1 : 0));
}
/* Where the buffers are, if the selection needs to know (not for LL, most
 * small calls). */
__device__ inline void shoal_gpu_reduce_ask_buffers(shoal_reduce_ask *a, const shoal_team *t, const void *dest,
                                                    const void *src)
{
  if (shoal_reduce_needs_buffers(a)) {
    a->src_sym = shoal_gpu_symmetric(src, a->count * a->es * (a->scatter ? (size_t)t->size : 1));
    a->dest_sym = shoal_gpu_symmetric(dest, a->count * a->es);
  }
}
__device__ inline int shoal_gpu_reduce_pick(const shoal_team *t, int where, bool scatter, const void *dest,
                                            const void *src, size_t n, size_t es, bool ll = true,
                                            size_t ll_span = 1)
{
  shoal_reduce_ask a;
  memset(&a, 0, sizeof a);
  shoal_reduce_ask_team(&a, t);
  a.where = where;
  a.forced = shoal_dgpu.allreduce_ring ? SHOAL_ALLREDUCE_RING : SHOAL_ALLREDUCE_AUTO;   /* the host's SHOAL_ALLREDUCE */
  a.scatter = scatter;
  a.count = n;
  a.es = es;
  a.direct = t->size <= SHOAL_SCOPE_MAX_PEERS;
  a.in_place = dest == src;
  a.ll_apart = !ll;
  a.ll_span = ll_span;
  shoal_gpu_reduce_ask_buffers(&a, t, dest, src);
  int algo = shoal_reduce_select(&a);
  /* Every member on this GPU: the all-reduce in a user's grid keeps LL
   * within SHOAL_GPU_LL_LOCAL_ALL of LL words from all of them
   * (shoal_ll_local_span).  The team's gpu_local is read only where that
   * bound can bind: read ahead of the selection, or the span worked out
   * by every thread, it cost every other call 3-5% (bench/RESULTS.md,
   * session 35). */
  if (algo == SHOAL_REDUCE_LL && where == SHOAL_AT_GRID && !scatter && shoal_ll_local_binds(t->size, n * es) &&
      t->gpu_local) {
    a.ll_span = shoal_ll_local_span(a.ll_span, t->size, t->pushbox_slot);
    shoal_gpu_reduce_ask_buffers(&a, t, dest, src);   /* LL did not need them */
    algo = shoal_reduce_select(&a);
  }
  return algo;
}

/* The same, by thread 0 of the block, whose every thread calls it and gets
 * the answer: the selection's struct would otherwise sit in the local
 * memory of each thread (the block all-reduce of 16 KB: 9.8 -> 9.1 us,
 * bench/RESULTS.md, session 10). */
__device__ inline int shoal_gpu_reduce_pick_block(const shoal_team *t, int where, bool scatter, const void *dest,
                                                  const void *src, size_t n, size_t es, bool ll = true,
                                                  size_t ll_span = 1)
{
  __shared__ int picked;
  if (shoal_gpu_block_tid() == 0) picked = shoal_gpu_reduce_pick(t, where, scatter, dest, src, n, es, ll, ll_span);
  __syncthreads();
  int algo = picked;
  __syncthreads();   /* picked is read before a later call writes it */
  return algo;
}

/* A reduction algorithm of collectives/ at scope s (a block, or a grid of
 * them), with the typed reducer: algo PULL, STAGED, TWOSHOT or RING
 * (scatter: PULL, on block my_pe of src); without RING, not the ring
 * (collectives/reduce_select.h: shoal_reduce_run_direct). */
template <class T, class OP, bool RING = true>
__device__ inline void shoal_gpu_reduce_scoped(const char *call, const shoal_scope *s, shoal_team *t, int algo,
                                               bool scatter, T *dest, const T *src, size_t n)
{
  __shared__ char *ps[SHOAL_SCOPE_MAX_PEERS], *pd[SHOAL_SCOPE_MAX_PEERS];
  shoal_gpu_reducer<T, OP> r;
  if (RING) shoal_reduce_run_scope(s, t, &r, algo, scatter, ps, pd, dest, src, n, call);
  else shoal_reduce_run_direct(s, t, &r, algo, scatter, ps, pd, dest, src, n, call);
}

/* What only a whole block runs (on a grid: block 0): LL (ll: where it can
 * be picked), the channel algorithms, a refusal. */
template <class T, class OP>
__device__ inline void shoal_gpu_reduce_block_only(const char *call, shoal_team *t, int algo, bool scatter, T *dest,
                                                   const T *src, size_t n, bool ll = true)
{
  if (ll && algo == SHOAL_REDUCE_LL) {
    if (scatter) shoal_gpu_reduce_scatter_ll<T, OP>(call, t, dest, src, n);
    else shoal_gpu_reduce_ll<T, OP>(call, t, dest, src, n);
  } else if (algo == SHOAL_REDUCE_CHANNELS || algo == SHOAL_ALLREDUCE_HIER) {   /* more members than a lane's tables hold, or nodes */
    shoal_gpu_rcoll_reduce<T, OP>(call, t, dest, src, n, scatter);
  } else {
    if (shoal_gpu_block_tid() == 0) shoal_gpu_fail(call, src, -1);   /* the source must be symmetric */
  }
}
__device__ inline bool shoal_gpu_reduce_scoped_algo(int algo)
{
  return algo == SHOAL_REDUCE_PULL || algo == SHOAL_REDUCE_STAGED || algo == SHOAL_REDUCE_TWOSHOT ||
         algo == SHOAL_REDUCE_RING;
}
template <class T, class OP>
__device__ inline void shoal_gpu_reduce_block(const char *call, shoal_team *t, T *dest, const T *src, size_t n,
                                              bool scatter, bool fresh = false, bool ll = true)
{
  if (scatter && SHOAL_UNLIKELY(shoal_gpu_scatter_overlaps(dest, n * sizeof(T), src, n * sizeof(T) * (size_t)t->size)))
    shoal_gpu_scatter_overlap_fail(call, dest, src, shoal_gpu_block_tid() == 0);
  int algo = shoal_gpu_reduce_pick_block(t, SHOAL_AT_BLOCK, scatter, dest, src, n, sizeof(T), ll);
  if (!shoal_gpu_reduce_scoped_algo(algo)) {
    shoal_gpu_reduce_block_only<T, OP>(call, t, algo, scatter, dest, src, n, ll);
    return;
  }
  shoal_scope s = shoal_gpu_block_lane(fresh);
  shoal_gpu_reduce_scoped<T, OP>(call, &s, t, algo, scatter, dest, src, n);
}

#define SHOAL_GPU_REDUCE_OP(T, N, OP) \
  template <class shoal_unused = void> __device__ inline int shmemx_##N##_##OP##_reduce_block(shmem_team_t team, T *dest, const T *src, \
                                                        size_t nreduce) \
  { \
    shoal_team *t = shoal_gpu_team_or_fail("shmemx_" #N "_" #OP "_reduce_block", team); \
    shoal_gpu_check_overlap("shmemx_" #N "_" #OP "_reduce_block", dest, src, nreduce * sizeof(T)); \
    if (SHOAL_UNLIKELY(shoal_gpu_team_proxied(t))) \
      shoal_gpu_rcoll_reduce<T, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_block", t, dest, src, nreduce, \
                                                   false); \
    else \
      shoal_gpu_reduce_block<T, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_block", t, dest, src, nreduce, \
                                                    false); \
    return 0; \
  } \
  template <class shoal_unused = void> __device__ inline int shmemx_##N##_##OP##_reduce_scatter_block(shmem_team_t team, T *dest, \
                                                                const T *src, size_t nreduce) \
  { \
    shoal_team *t = shoal_gpu_team_or_fail("shmemx_" #N "_" #OP "_reduce_scatter_block", team); \
    if (SHOAL_UNLIKELY(shoal_gpu_team_proxied(t))) { \
      shoal_gpu_rcoll_reduce<T, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_scatter_block", t, dest, src, \
                                                   nreduce, true); \
      return 0; \
    } \
    shoal_gpu_reduce_block<T, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP \
                                                  "_reduce_scatter_block (source must be symmetric)", \
                                                  t, dest, src, nreduce, true); \
    return 0; \
  }
#define SHOAL_GPU_REDUCE_BITWISE(T, N) \
  SHOAL_GPU_REDUCE_OP(T, N, and) SHOAL_GPU_REDUCE_OP(T, N, or) SHOAL_GPU_REDUCE_OP(T, N, xor)
#define SHOAL_GPU_REDUCE_MINMAX(T, N) SHOAL_GPU_REDUCE_OP(T, N, min) SHOAL_GPU_REDUCE_OP(T, N, max)
#define SHOAL_GPU_REDUCE_ARITH(T, N) SHOAL_GPU_REDUCE_OP(T, N, sum) SHOAL_GPU_REDUCE_OP(T, N, prod)
SHOAL_REDUCE_BITWISE_TYPES(SHOAL_GPU_REDUCE_BITWISE)
SHOAL_REDUCE_MINMAX_DEVICE_TYPES(SHOAL_GPU_REDUCE_MINMAX)
SHOAL_REDUCE_MINMAX_DEVICE_TYPES(SHOAL_GPU_REDUCE_ARITH)

/* Broadcast (which 0), fcollect (1), alltoall (2) by one block: small
 * ones LL (collectives/ll.h), larger ones the push of collectives/push.h
 * at block scope (meet the peers, store into every member's dest, meet
 * again); teams with a member behind the host proxy (or more than
 * SHOAL_SCOPE_MAX_PEERS members), the channel algorithms
 * (<shoal/gpu_remote_coll.h>).  ll false: the push at every size (the
 * _on_stream push kernel, which the host launches only where LL does not
 * fit: without LL's branch it ran 2-4% faster, bench/RESULTS.md session
 * 16). */
__device__ inline int shoal_gpu_move_block(const char *call, int which, shmem_team_t team, void *dest,
                                           const void *src, size_t nbytes, int root, bool fresh = false,
                                           bool ll = true)
{
  shoal_team *t = shoal_gpu_team_or_fail(call, team);
  if (which == 0 && SHOAL_UNLIKELY(root < 0 || root >= t->size))
    shoal_gpu_root_fail(call, root, t->size, shoal_gpu_block_tid() == 0);
  /* behind the proxy, or more members than a lane's peer table holds */
  if (SHOAL_UNLIKELY(shoal_gpu_team_proxied(t) || t->size > SHOAL_SCOPE_MAX_PEERS)) {
    shoal_gpu_rcoll_move(call, which, t, dest, src, nbytes, root);
    return 0;
  }
  if (ll && shoal_move_ll_fits(which, shoal_ll_slot(t), 1, t->size, nbytes)) {
    shoal_gpu_move_ll<>(call, which, t, dest, src, nbytes, root);
    return 0;
  }
  __shared__ char *pd[SHOAL_SCOPE_MAX_PEERS];
  shoal_scope s = shoal_gpu_block_lane(fresh);
  shoal_push_move(&s, t, pd, which, dest, src, nbytes, root, call);   /* an unmapped member stops the kernel */
  return 0;
}
__device__ inline int shmemx_broadcastmem_block(shmem_team_t team, void *dest, const void *src,
                                                size_t nbytes, int root)
{
  return shoal_gpu_move_block("shmemx_broadcastmem_block", 0, team, dest, src, nbytes, root);
}
__device__ inline int shmemx_fcollectmem_block(shmem_team_t team, void *dest, const void *src, size_t nbytes)
{
  return shoal_gpu_move_block("shmemx_fcollectmem_block", 1, team, dest, src, nbytes, 0);
}
__device__ inline int shmemx_alltoallmem_block(shmem_team_t team, void *dest, const void *src, size_t nbytes)
{
  return shoal_gpu_move_block("shmemx_alltoallmem_block", 2, team, dest, src, nbytes, 0);
}

#include "gpu_grid.h"

/* ---- host entry points that enqueue on a stream -------------------------- */
/* The _on_stream kernels run 1024 threads; __launch_bounds__ keeps their
 * registers within what that needs.  User kernels that call the block
 * collectives with 1024 threads need the same (__launch_bounds__(1024)). */
#define SHOAL_GPU_LAUNCH_THREADS 1024
/* The one-block kernel of the data movers' push (collectives/push.h) runs
 * fewer: at 1024 threads its state spilled to local memory (64 registers a
 * thread), at 512 it fits in 128 (fcollect/alltoall of 64 KB at 2 PEs
 * 0.3-0.6 us faster on an H100, bench/RESULTS.md session 13).  LL keeps
 * 1024: each thread polls fewer words. */
#define SHOAL_GPU_PUSH_THREADS 512
/* The movers' grid kernel likewise: at 1024 threads a block it spilled
 * (ptxas: 460 bytes of spill stores, 1.1 KB of spill loads), and at 512
 * with four loads in flight a thread (collectives/scope.h) it moves 256
 * KB-64 MB as fast or faster.  The reductions' one grid kernel of the time
 * kept 1024: at 512 (768) it was 5-11% (2-6%) faster up to 8 MB but 4-25%
 * (up to 7%) slower from 16 MB (bench/RESULTS.md, session 14). */
#define SHOAL_GPU_GRID_THREADS 512
/* The all-reduce's grid kernel, a kernel of its own since session 26,
 * likewise: at 1024 threads two-shot spilled 96 / 428 bytes, at 512 it
 * takes 128 registers and spills 4 / 4, and the all-reduce of 256 KB-2 MB
 * is 3-7% faster on 4 H200 (256 KB 13.65 -> 12.88 us), 4-16 MB within
 * 1.5% (bench/RESULTS.md, session 26). */
#define SHOAL_GPU_ALLREDUCE_GRID_THREADS 512
/* The reduce-scatter's too: its blocks take 16 KB of the source each, so
 * at 4 PEs a block's 4 KB of dest keeps only 256 threads busy; at 512 it
 * takes 128 registers (spills 20 / 12 bytes, 32 / 28 at 1024) and the
 * reduce-scatter of 1-4 MB on 4 H200 is 2-5% faster (1 MB 13.29 -> 12.63
 * us; bench/RESULTS.md, session 27). */
#ifndef SHOAL_GPU_SCATTER_GRID_THREADS   /* a benchmark's build may set it */
#define SHOAL_GPU_SCATTER_GRID_THREADS 512
#endif

template <class shoal_unused = void>
__global__ void shoal_gpu_k_sync(shmem_team_t team)
{
  shoal_gpu_block_barrier(shoal_gpu_team_or_fail("shmemx_team_sync_on_stream", team), "shmemx_team_sync_on_stream",
                          true);
}
template <class T, class OP>
__global__ void __launch_bounds__(SHOAL_GPU_LAUNCH_THREADS) shoal_gpu_k_reduce(shmem_team_t team, T *dest, const T *src, size_t n, int scatter)
{
  shoal_team *t = shoal_gpu_team_or_fail("shmemx_..._reduce_on_stream", team);
  if (!scatter) shoal_gpu_check_overlap("shmemx_..._reduce_on_stream", dest, src, n * sizeof(T));
  if (SHOAL_UNLIKELY(shoal_gpu_team_proxied(t))) {
    shoal_gpu_rcoll_reduce<T, OP>("shmemx_..._reduce_on_stream", t, dest, src, n, scatter);
    return;
  }
  /* no LL: the host launches LL's own kernel where it fits; without its
   * branch this kernel's reduce-scatter ran 1-4% faster (bench/RESULTS.md,
   * session 16) */
  shoal_gpu_reduce_block<T, OP>(scatter ? "shmemx_..._reduce_scatter_on_stream (source must be symmetric)"
                                        : "shmemx_..._reduce_on_stream",
                                t, dest, src, n, scatter != 0, true, false);
}
template <int THREADS>
__global__ void __launch_bounds__(THREADS) shoal_gpu_k_coll(int which, shmem_team_t team, void *dest, const void *src, size_t n, int root)
{
  /* which a constant in each call: each inlined copy is specialized; no
   * LL (its own kernel, shoal_gpu_k_move_ll, serves those sizes) */
  if (which == 0) (void)shoal_gpu_move_block("shmemx_broadcastmem_on_stream", 0, team, dest, src, n, root, true, false);
  else if (which == 1) (void)shoal_gpu_move_block("shmemx_fcollectmem_on_stream", 1, team, dest, src, n, 0, true, false);
  else (void)shoal_gpu_move_block("shmemx_alltoallmem_on_stream", 2, team, dest, src, n, 0, true, false);
}

/* The kernels the host launches where it expects LL (collectives/
 * reduce_select.h: SHOAL_REDUCE_LAUNCH_LL and _LL_GRID): LL alone, in
 * registers.  With every algorithm inlined, the one-block kernels spill
 * (ptxas, sm_90: k_coll 152 / 288 bytes of spill stores / loads at 1024
 * threads, the float sum k_reduce 232 / 548), where LL alone takes 55
 * registers and none: LL calls 2-6% faster on an H200 (bench/RESULTS.md,
 * session 15).
 * They take the team's device record by value from the host
 * (shoalx_gpu_team_record), read where it is (shoal_grid_record: a
 * __grid_constant__ on CUDA; its copy to shared memory by one thread sat
 * on the path of every call, bench/RESULTS.md session 34), and the host made
 * their checks: the team is known here, and LL fits it
 * (shoal_move_select_launch and shoal_reduce_select chose LL from the
 * slot and span that team_to_device derived from this very record, as
 * the kernels' own choice does: tests/unit/test_reduce_select); a
 * broadcast's root is a member; a reduction's buffers do not overlap.
 * Input that fails them goes to the one-block kernels, which report it.
 * Looked up and checked in the kernel, before any word moved, they took
 * 5-11% of a call at 2-4 PEs on one H200 under MPS (bench/RESULTS.md
 * sessions 32-33).  GRID: LL's kernel over several blocks, else one. */
template <bool GRID = false>
__global__ void __launch_bounds__(SHOAL_GPU_LAUNCH_THREADS) shoal_gpu_k_move_ll(int which, SHOAL_GRID_TEAM_PARAM rec,
                                                                               void *dest, const void *src,
                                                                               size_t n, int root)
{
  shoal_team *team = shoal_grid_record(rec);
  /* which a constant in each call: each inlined copy is specialized */
  if (which == 0) shoal_gpu_move_ll<GRID>("shmemx_broadcastmem_on_stream", 0, team, dest, src, n, root);
  else if (which == 1) shoal_gpu_move_ll<GRID>("shmemx_fcollectmem_on_stream", 1, team, dest, src, n, 0);
  else shoal_gpu_move_ll<GRID>("shmemx_alltoallmem_on_stream", 2, team, dest, src, n, 0);
}
template <class T, class OP, bool GRID = false>
__global__ void __launch_bounds__(SHOAL_GPU_LAUNCH_THREADS) shoal_gpu_k_reduce_ll(SHOAL_GRID_TEAM_PARAM rec, T *dest,
                                                                                 const T *src, size_t n,
                                                                                 int scatter)
{
  shoal_team *team = shoal_grid_record(rec);
  if (scatter) shoal_gpu_reduce_scatter_ll<T, OP, GRID>("shmemx_..._reduce_scatter_on_stream", team, dest, src, n);
  else shoal_gpu_reduce_ll<T, OP, GRID>("shmemx_..._reduce_on_stream", team, dest, src, n);
}
template <class shoal_unused = void>
__global__ void shoal_gpu_k_signal(uint64_t *sig, uint64_t v, int op, int pe)
{
  shoal_fence_system();
  shoal_dev_signal_update(SHOAL_DEV_CTX, sig, v, op, pe);
}
template <class shoal_unused = void>
__global__ void shoal_gpu_k_fence(void) { shoal_fence_system(); }

/* Large transfers from the host: one kernel over the GPU running the grid
 * collectives of <shoal/gpu_grid.h> (they meet inside, so no barrier
 * kernels around it).  Below the grid thresholds (collectives/
 * reduce_select.h's table) one block is faster.  A kernel each for the
 * reduce-scatter and the all-reduce: each holds inline only the
 * algorithms it runs (shoal_grid_reduce_any), the reduce-scatter's the
 * pull alone, and spills less (session 26). */
template <class T, class OP, bool SCATTER>
__global__ void __launch_bounds__(SCATTER ? SHOAL_GPU_SCATTER_GRID_THREADS : SHOAL_GPU_ALLREDUCE_GRID_THREADS) shoal_gpu_k_reduce_grid(shmem_team_t team, T *dest,
                                                                                   const T *src, size_t n)
{
  shoal_grid_reduce_any<T, OP>(SCATTER ? "shmemx_..._reduce_scatter_on_stream" : "shmemx_..._reduce_on_stream",
                               team, dest, src, n, SCATTER, false);
}
/* The _on_stream data mover's name, for the kernels' messages. */
__device__ inline const char *shoal_gpu_move_name(int which)
{
  return which == 0 ? "shmemx_broadcastmem_on_stream"
         : which == 1 ? "shmemx_fcollectmem_on_stream" : "shmemx_alltoallmem_on_stream";
}
template <class shoal_unused = void>
__global__ void __launch_bounds__(SHOAL_GPU_GRID_THREADS) shoal_gpu_k_move_grid(int which, shmem_team_t team,
                                                                               void *dest, const void *src,
                                                                               size_t nbytes, int root)
{
  (void)shoal_grid_move(shoal_gpu_move_name(which), which, team, dest, src, nbytes, root, false);
}
template <class shoal_unused = void>
__global__ void __launch_bounds__(SHOAL_GPU_GRID_THREADS) shoal_gpu_k_move_grid_planned(int which, SHOAL_GRID_PLAN_PARAM plan,
                                                                                       void *dest, const void *src,
                                                                                       size_t nbytes, int root)
{
  shoal_grid_move_planned(shoal_gpu_move_name(which), which, plan, dest, src, nbytes, root);
}
template <class shoal_unused = void>
__global__ void __launch_bounds__(SHOAL_GPU_GRID_THREADS) shoal_gpu_k_move_grid_staged(int which, SHOAL_GRID_PLAN_PARAM plan,
                                                                                      void *dest, const void *src,
                                                                                      size_t nbytes)
{
  shoal_grid_move_staged(shoal_gpu_move_name(which), which, plan, dest, src, nbytes);
}
/* The grid of an _on_stream kernel: all of its blocks resident (as many
 * per SM as its registers allow), the SMs shared with the other PEs on
 * this GPU. */
template <int KIND, class K>   /* KIND: 0 the grid kernels, 1 LL's (one signature, other registers) */
static inline int shoal_gpu_stream_blocks(K *kernel, int threads)
{
  static int blocks;
  if (!blocks) blocks = shmemx_grid_max_blocks(kernel, threads, 0);
  return blocks;
}
/* Whether e is word, in any case (word in lower case). */
static inline bool shoal_gpu_env_is(const char *e, const char *word)
{
  while (e && *e && *word && (*e | 32) == *word) e++, word++;
  return e && !*e && !*word;
}
/* Tuning knobs of the _on_stream launches, read once: from how many bytes
 * (per member) the grid kernel runs (SHOAL_GPU_STREAM_GRID_MIN; 0: the
 * thresholds of collectives/reduce_select.h) and how many
 * bytes each of its blocks takes at least (SHOAL_GPU_STREAM_BLOCK_BYTES;
 * 0: every block the GPU holds; unset, SIZE_MAX: the reductions' and the
 * movers' own, reduce_select.h).  K, M, G suffixes.  2: whether
 * SHOAL_ALLREDUCE forces the ring.  3: up to how many bytes per pair LL's
 * grid kernel runs (SHOAL_GPU_STREAM_LL_MAX; 0: never).  Unset, empty or
 * "auto" (the default as README and shoal-info name it): dflt.  Every PE
 * must set the same values: the grids must match. */
static inline size_t shoal_gpu_env_bytes(const char *name, size_t dflt)
{
  const char *e = getenv(name);
  if (!e || !*e || shoal_gpu_env_is(e, "auto")) return dflt;
  char *end;
  unsigned long long v = strtoull(e, &end, 0);
  if (*end == 'K' || *end == 'k') v <<= 10;
  else if (*end == 'M' || *end == 'm') v <<= 20;
  else if (*end == 'G' || *end == 'g') v <<= 30;
  return (size_t)v;
}
static inline size_t shoal_gpu_stream_knob(int which)
{
  static size_t v[4];
  static bool read;
  if (!read) {
    v[0] = shoal_gpu_env_bytes("SHOAL_GPU_STREAM_GRID_MIN", 0);
    v[1] = shoal_gpu_env_bytes("SHOAL_GPU_STREAM_BLOCK_BYTES", SIZE_MAX);
    v[3] = shoal_gpu_env_bytes("SHOAL_GPU_STREAM_LL_MAX", SHOAL_GPU_LL_STREAM_MAX);
    /* SHOAL_ALLREDUCE=ring (any case, as the library reads it): the kernels' ring */
    v[2] = shoal_gpu_env_is(getenv("SHOAL_ALLREDUCE"), "ring");
    read = true;
  }
  return v[which];
}
/* Up to how many bytes per pair LL's _on_stream kernel runs on a team of
 * np: SHOAL_GPU_STREAM_LL_MAX, within the LL words a member may send in
 * one call, which depend on whether PEs share a GPU (shoal_ll_stream_max;
 * every PE finds the same). */
static inline size_t shoal_gpu_stream_ll_max(int np)
{
  return shoal_ll_stream_max(shoal_gpu_stream_knob(3), np, shoalx_gpu_shared() != 0);
}
/* Blocks of a grid _on_stream kernel moving `bytes` (per member), each
 * taking at least `block_bytes` unless SHOAL_GPU_STREAM_BLOCK_BYTES says. */
template <class K>
static inline int shoal_gpu_stream_grid(K *kernel, int threads, size_t bytes, size_t block_bytes)
{
  int max = shoal_gpu_stream_blocks<0>(kernel, threads);
  size_t per = shoal_gpu_stream_knob(1);
  if (per == SIZE_MAX) per = block_bytes;
  if (!per) return max;
  size_t want = (bytes + per - 1) / per;
  return want < 1 ? 1 : want < (size_t)max ? (int)want : max;
}
/* Blocks of LL's grid kernel for bytes_per_pair (collectives/
 * reduce_select.h: shoal_ll_stream_blocks), all resident (a lane waits
 * for words that a peer's lanes send).
 * Where fewer are resident (a small MPS share) it runs on fewer, even one:
 * words go by index, so a peer on more blocks still matches it, whereas
 * another algorithm would not (each PE decides alone). */
template <class K>
static inline int shoal_gpu_ll_blocks(K *kernel, size_t bytes_per_pair)
{
  int max = shoal_gpu_stream_blocks<1>(kernel, SHOAL_GPU_LAUNCH_THREADS);
  size_t want = shoal_ll_stream_blocks(bytes_per_pair);   /* at least 1 */
  if (max < 1) max = 1;
  return want < (size_t)max ? (int)want : max;
}
static inline int shoal_gpu_launched(const char *call)
{
  shoal_gpu_hcheck(call, SHOAL_GPURT(GetLastError)());
  return 0;
}

template <class shoal_unused = void>
static inline int shmemx_team_sync_on_stream(shmem_team_t team, shoal_gpu_stream_t stream)
{
  shoal_gpu_k_sync<><<<1, 32, 0, stream>>>(team);
  return shoal_gpu_launched("shmemx_team_sync_on_stream");
}
template <class shoal_unused = void>
static inline void shmemx_barrier_all_on_stream(shoal_gpu_stream_t stream)
{
  shoal_gpu_k_sync<><<<1, 32, 0, stream>>>(SHMEM_TEAM_WORLD);
  (void)shoal_gpu_launched("shmemx_barrier_all_on_stream");
}
/* Broadcast (which 0), fcollect (1) and alltoall (2) on a stream, for the
 * entry points below and the library's blocking ones on GPU memory. */
template <class shoal_unused = void>
static inline int shoal_gpu_move_on_stream(const char *call, int which, shmem_team_t team, void *dest,
                                           const void *src, size_t nbytes, int root, shoal_gpu_stream_t stream)
{
  bool dest_sym = shoalx_gpu_heap_has(dest);
  size_t slot = shoalx_gpu_team_ll_slot(team), span = shoalx_gpu_team_ll_span(team);
  int np = shmem_team_n_pes(team);
  size_t ll_max = shoal_move_ll_stream_max(shoal_gpu_stream_ll_max(np), shoalx_gpu_shared() != 0, np);
  int launch = shoal_move_select_launch(which, nbytes, dest_sym, slot, span, ll_max, np, shoal_gpu_stream_knob(0));
  /* LL's kernels take the team's record from the host, which checks the
   * root for them (a bad one, an unknown team: the one-block kernel, which
   * says so); the grid push the host's plan where it has one */
  bool root_ok = which != 0 || (root >= 0 && root < np);
  shoal_gpu_plan plan;
  if ((launch == SHOAL_REDUCE_LAUNCH_LL || launch == SHOAL_REDUCE_LAUNCH_LL_GRID) &&
      (!root_ok || !shoalx_gpu_team_record(team, &plan.team)))
    launch = SHOAL_REDUCE_LAUNCH_BLOCK;
  if (launch == SHOAL_REDUCE_LAUNCH_LL_GRID)
    shoal_gpu_k_move_ll<true><<<shoal_gpu_ll_blocks(shoal_gpu_k_move_ll<true>, nbytes), SHOAL_GPU_LAUNCH_THREADS, 0,
                                stream>>>(which, plan.team, dest, src, nbytes, root);
  else if (launch == SHOAL_REDUCE_LAUNCH_GRID) {
    bool planned = root_ok && shoalx_gpu_team_plan(team, dest, &plan);
    if (planned && shoal_move_staged(which, launch, nbytes, plan.stage_cap))
      shoal_gpu_k_move_grid_staged<><<<shoal_gpu_stream_grid(shoal_gpu_k_move_grid_staged<>, SHOAL_GPU_GRID_THREADS,
                                                             nbytes, SHOAL_GPU_MOVE_BLOCK_BYTES),
                                       SHOAL_GPU_GRID_THREADS, 0, stream>>>(which, plan, dest, src, nbytes);
    else if (planned)
      shoal_gpu_k_move_grid_planned<><<<shoal_gpu_stream_grid(shoal_gpu_k_move_grid_planned<>, SHOAL_GPU_GRID_THREADS,
                                                              nbytes, SHOAL_GPU_MOVE_BLOCK_BYTES),
                                        SHOAL_GPU_GRID_THREADS, 0, stream>>>(which, plan, dest, src, nbytes, root);
    else
      shoal_gpu_k_move_grid<><<<shoal_gpu_stream_grid(shoal_gpu_k_move_grid<>, SHOAL_GPU_GRID_THREADS, nbytes,
                                                      SHOAL_GPU_MOVE_BLOCK_BYTES),
                                SHOAL_GPU_GRID_THREADS, 0, stream>>>(which, team, dest, src, nbytes, root);
  }
  else if (launch == SHOAL_REDUCE_LAUNCH_LL)
    shoal_gpu_k_move_ll<><<<1, SHOAL_GPU_LAUNCH_THREADS, 0, stream>>>(which, plan.team, dest, src, nbytes, root);
  else
    shoal_gpu_k_coll<SHOAL_GPU_PUSH_THREADS><<<1, SHOAL_GPU_PUSH_THREADS, 0, stream>>>(which, team, dest, src,
                                                                                     nbytes, root);
  return shoal_gpu_launched(call);
}
template <class shoal_unused = void>
static inline int shmemx_broadcastmem_on_stream(shmem_team_t team, void *dest, const void *src,
                                                size_t nbytes, int root, shoal_gpu_stream_t stream)
{
  return shoal_gpu_move_on_stream("shmemx_broadcastmem_on_stream", 0, team, dest, src, nbytes, root, stream);
}
template <class shoal_unused = void>
static inline int shmemx_fcollectmem_on_stream(shmem_team_t team, void *dest, const void *src,
                                               size_t nbytes, shoal_gpu_stream_t stream)
{
  return shoal_gpu_move_on_stream("shmemx_fcollectmem_on_stream", 1, team, dest, src, nbytes, 0, stream);
}
template <class shoal_unused = void>
static inline int shmemx_alltoallmem_on_stream(shmem_team_t team, void *dest, const void *src,
                                               size_t nbytes, shoal_gpu_stream_t stream)
{
  return shoal_gpu_move_on_stream("shmemx_alltoallmem_on_stream", 2, team, dest, src, nbytes, 0, stream);
}
/* Every reduction entry point on a stream (and the library's blocking
 * ones on GPU memory) launches through here. */
template <class T, class OP>
static inline int shoal_gpu_reduce_on_stream(const char *call, shmem_team_t team, T *dest, const T *src,
                                             size_t nreduce, int scatter, shoal_gpu_stream_t stream)
{
  shoal_reduce_ask a;
  memset(&a, 0, sizeof a);
  a.where = SHOAL_AT_STREAM;
  a.scatter = scatter != 0;
  a.count = nreduce;
  a.es = sizeof(T);
  a.team_size = shmem_team_n_pes(team);
  a.pushbox_slot = shoalx_gpu_team_ll_slot(team);   /* where LL runs */
  a.ll_span = shoalx_gpu_team_ll_span(team);
  a.ll_stream_max = shoal_gpu_stream_ll_max(a.team_size);
  a.gpu_shared = shoalx_gpu_shared() != 0;
  a.forced = shoal_gpu_stream_knob(2) ? SHOAL_ALLREDUCE_RING : SHOAL_ALLREDUCE_AUTO;
  a.in_place = dest == src;
  a.grid_min = shoal_gpu_stream_knob(0);
  /* the grid kernel reads the peers' sources: in the GPU heap; a partial
   * overlap goes to the one-block kernel, which reports it */
  size_t db = nreduce * sizeof(T), sb = scatter ? db * (size_t)(a.team_size > 0 ? a.team_size : 1) : db;
  const char *s = (const char *)src, *d = (const char *)dest;
  a.src_sym = sb && shoalx_gpu_heap_has(src) && shoalx_gpu_heap_has(s + sb - 1) &&
              (d == s || d + db <= s || s + sb <= d);
  int launch = shoal_reduce_select(&a);
  /* LL's kernels take the team's record from the host, which checks the
   * buffers for them (overlapping ones, an unknown team: the one-block
   * kernel, which says so) */
  shoal_team rec;
  if ((launch == SHOAL_REDUCE_LAUNCH_LL || launch == SHOAL_REDUCE_LAUNCH_LL_GRID) &&
      ((scatter ? shoal_gpu_scatter_overlaps(dest, db, src, sb) : d != s && shoal_gpu_scatter_overlaps(d, db, s, db)) ||
       !shoalx_gpu_team_record(team, &rec)))
    launch = SHOAL_REDUCE_LAUNCH_BLOCK;
  if (launch == SHOAL_REDUCE_LAUNCH_LL_GRID) {
    int blocks = shoal_gpu_ll_blocks(shoal_gpu_k_reduce_ll<T, OP, true>, nreduce * sizeof(T));
    shoal_gpu_k_reduce_ll<T, OP, true><<<blocks, SHOAL_GPU_LAUNCH_THREADS, 0, stream>>>(rec, dest, src, nreduce,
                                                                                      scatter);
  } else if (launch == SHOAL_REDUCE_LAUNCH_GRID && scatter) {
    shoal_gpu_k_reduce_grid<T, OP, true><<<shoal_gpu_stream_grid(shoal_gpu_k_reduce_grid<T, OP, true>,
                                                                 SHOAL_GPU_SCATTER_GRID_THREADS, sb,
                                                                 SHOAL_GPU_BLOCK_BYTES),
                                           SHOAL_GPU_SCATTER_GRID_THREADS, 0, stream>>>(team, dest, src, nreduce);
  } else if (launch == SHOAL_REDUCE_LAUNCH_GRID) {
    shoal_gpu_k_reduce_grid<T, OP, false><<<shoal_gpu_stream_grid(shoal_gpu_k_reduce_grid<T, OP, false>,
                                                                  SHOAL_GPU_ALLREDUCE_GRID_THREADS, sb,
                                                                  SHOAL_GPU_BLOCK_BYTES),
                                            SHOAL_GPU_ALLREDUCE_GRID_THREADS, 0, stream>>>(team, dest, src,
                                                                                          nreduce);
  } else if (launch == SHOAL_REDUCE_LAUNCH_LL) {
    shoal_gpu_k_reduce_ll<T, OP><<<1, SHOAL_GPU_LAUNCH_THREADS, 0, stream>>>(rec, dest, src, nreduce, scatter);
  } else {
    shoal_gpu_k_reduce<T, OP><<<1, SHOAL_GPU_LAUNCH_THREADS, 0, stream>>>(team, dest, src, nreduce, scatter);
  }
  return shoal_gpu_launched(call);
}
#define SHOAL_GPU_REDUCE_STREAM(T, N, OP) \
  template <class shoal_unused = void> \
  static inline int shmemx_##N##_##OP##_reduce_on_stream(shmem_team_t team, T *dest, const T *src, \
                                                         size_t nreduce, shoal_gpu_stream_t stream) \
  { \
    return shoal_gpu_reduce_on_stream<T, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_on_stream", team, \
                                                            dest, src, nreduce, 0, stream); \
  } \
  template <class shoal_unused = void> \
  static inline int shmemx_##N##_##OP##_reduce_scatter_on_stream(shmem_team_t team, T *dest, const T *src, \
                                                                 size_t nreduce, shoal_gpu_stream_t stream) \
  { \
    return shoal_gpu_reduce_on_stream<T, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_scatter_on_stream", \
                                                            team, dest, src, nreduce, 1, stream); \
  }
#define SHOAL_GPU_REDUCE_STREAM_BITWISE(T, N) \
  SHOAL_GPU_REDUCE_STREAM(T, N, and) SHOAL_GPU_REDUCE_STREAM(T, N, or) SHOAL_GPU_REDUCE_STREAM(T, N, xor)
#define SHOAL_GPU_REDUCE_STREAM_MINMAX(T, N) SHOAL_GPU_REDUCE_STREAM(T, N, min) SHOAL_GPU_REDUCE_STREAM(T, N, max)
#define SHOAL_GPU_REDUCE_STREAM_ARITH(T, N) SHOAL_GPU_REDUCE_STREAM(T, N, sum) SHOAL_GPU_REDUCE_STREAM(T, N, prod)
SHOAL_REDUCE_BITWISE_TYPES(SHOAL_GPU_REDUCE_STREAM_BITWISE)
SHOAL_REDUCE_MINMAX_DEVICE_TYPES(SHOAL_GPU_REDUCE_STREAM_MINMAX)
SHOAL_REDUCE_MINMAX_DEVICE_TYPES(SHOAL_GPU_REDUCE_STREAM_ARITH)

/* Host put/get on a stream: an asynchronous copy to or from the peer's
 * mapping; put_signal adds a one-thread kernel after it; quiet orders the
 * stream's earlier transfers before what follows (stream order already
 * does, the fence makes them visible at system scope). */
static inline void shoal_gpu_stream_copy(const char *call, void *d, const void *s, size_t n,
                                         shoal_gpu_stream_t stream)
{
  shoal_gpu_hcheck(call, SHOAL_GPURT(MemcpyAsync)(d, s, n, SHOAL_GPURT(MemcpyDefault), stream));
}
static inline void *shoal_gpu_peer_or_fail(const char *call, const void *addr, int pe)
{
  void *r = shoalx_gpu_peer_ptr(addr, pe);
  if (!r) {
    fprintf(stderr, "shoal: PE %d: error: %s: address %p is not in the symmetric GPU heap, or PE %d is "
            "not mapped\n", shoalh_my_pe(), call, addr, pe);
    abort();
  }
  return r;
}
static inline void shmemx_putmem_on_stream(void *dest, const void *src, size_t nbytes, int pe,
                                           shoal_gpu_stream_t stream)
{
  if (nbytes)
    shoal_gpu_stream_copy("shmemx_putmem_on_stream",
                          shoal_gpu_peer_or_fail("shmemx_putmem_on_stream", dest, pe), src, nbytes, stream);
}
static inline void shmemx_getmem_on_stream(void *dest, const void *src, size_t nbytes, int pe,
                                           shoal_gpu_stream_t stream)
{
  if (nbytes)
    shoal_gpu_stream_copy("shmemx_getmem_on_stream", dest,
                          shoal_gpu_peer_or_fail("shmemx_getmem_on_stream", src, pe), nbytes, stream);
}
template <class shoal_unused = void>
static inline void shmemx_putmem_signal_on_stream(void *dest, const void *src, size_t nbytes,
                                                  uint64_t *sig, uint64_t signal, int sig_op, int pe,
                                                  shoal_gpu_stream_t stream)
{
  shmemx_putmem_on_stream(dest, src, nbytes, pe, stream);
  (void)shoal_gpu_peer_or_fail("shmemx_putmem_signal_on_stream", sig, pe);
  shoal_gpu_k_signal<><<<1, 1, 0, stream>>>(sig, signal, sig_op, pe);
  (void)shoal_gpu_launched("shmemx_putmem_signal_on_stream");
}
template <class shoal_unused = void>
static inline void shmemx_quiet_on_stream(shoal_gpu_stream_t stream)
{
  shoal_gpu_k_fence<><<<1, 1, 0, stream>>>();
  (void)shoal_gpu_launched("shmemx_quiet_on_stream");
}
#define SHOAL_GPU_STREAM_TYPED(T, N) \
  static inline void shmemx_##N##_put_on_stream(T *d, const T *s, size_t n, int pe, shoal_gpu_stream_t st) \
  { shmemx_putmem_on_stream(d, s, n * sizeof(T), pe, st); } \
  static inline void shmemx_##N##_get_on_stream(T *d, const T *s, size_t n, int pe, shoal_gpu_stream_t st) \
  { shmemx_getmem_on_stream(d, s, n * sizeof(T), pe, st); } \
  template <class shoal_unused = void> \
  static inline void shmemx_##N##_put_signal_on_stream(T *d, const T *s, size_t n, uint64_t *sig, \
                                                       uint64_t v, int op, int pe, shoal_gpu_stream_t st) \
  { shmemx_putmem_signal_on_stream(d, s, n * sizeof(T), sig, v, op, pe, st); }
SHOAL_RMA_DEVICE_TYPES(SHOAL_GPU_STREAM_TYPED)

#endif
