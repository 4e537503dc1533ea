/* Cooperative transfers of the GPU extensions: the threads of a warp or a
 * block share one put or get (shmemx_putmem_warp, shmemx_getmem_block,
 * shmemx_TYPE_put_signal_block, ...), and the copies and thread scopes
 * every GPU collective is built on (shoal_gpu_copy_coop, the warp and
 * block scopes).  Included by <shoal/gpu_x.h>; `man shmemx_putmem_block`. */
#ifndef SHOAL_GPU_COOP_H
#define SHOAL_GPU_COOP_H

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
/* A wavefront runs in lockstep; the fences order its lanes' memory
 * accesses around the barrier, as HIP's own __syncwarp (ROCm 6). */
#define SHOAL_GPU_SYNCWARP() \
  do { \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"); \
    __builtin_amdgcn_wave_barrier(); \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"); \
  } while (0)
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

/* Scope of a cooperative call: which threads share it, and how they meet
 * (warp: a lane of the collectives is one warp, collectives/scope.h). */
struct shoal_gpu_warp_scope {
  static constexpr bool warp = true;
  __device__ static unsigned tid(void) { return shoal_gpu_lane(); }
  __device__ static unsigned size(void) { return SHOAL_GPU_WARP_SIZE; }
  __device__ static void sync(void) { SHOAL_GPU_SYNCWARP(); }
};
struct shoal_gpu_block_scope {
  static constexpr bool warp = false;
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

#endif
