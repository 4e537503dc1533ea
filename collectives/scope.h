/* An execution scope: who runs a collective algorithm together and how
 * they meet, written once for the CPU (C11) and the GPU (CUDA/HIP).
 *
 *  - threads: thread tid of nthreads of a lane; they split the lane's work.
 *  - lanes: lane b of nlanes (on every PE the same nlanes) owns its share
 *    of the data and its own arrival counter (teams/team.h,
 *    SHOAL_GRID_BLOCK0 + 2 b); lane b meets only lane b of the other
 *    members.  At grid scope a lane is a GPU block; otherwise the whole
 *    scope is one lane (the CPU's collectives: one lane of one thread).
 *  - meetings: the threads of a lane (CPU: one thread, nothing; GPU:
 *    __syncthreads), the lanes of this PE (the grid barrier: one word per
 *    team, whose top bit the last lane to arrive flips), and
 *    lane b with lane b of the peers (per-lane counters: each adds 1 on
 *    every peer and waits for its own arrivals x (size - 1)).
 * Counters only grow and nobody resets them, so a captured graph replays
 * the same code, and a member that runs ahead cannot be mistaken.
 *
 * tests/coll/test_lanes runs k CPU threads per PE as k lanes, like a grid
 * of k blocks.  On the GPU this file is included by <shoal/gpu_grid.h>
 * (it uses the cooperative copies of <shoal/gpu_coop.h>). */
#ifndef SHOAL_COLL_SCOPE_H
#define SHOAL_COLL_SCOPE_H

#include "coll.h"

typedef struct shoal_scope {
  unsigned tid, nthreads;   /* this thread among its lane's */
  unsigned lane, nlanes;    /* this lane among this PE's */
  int local;                /* the lanes of this PE meet at entry and exit */
  int fresh;                /* the lane's kernel began with this call (an _on_stream kernel) */
  int warp;                 /* GPU: the lane is one warp (the _warp collectives), not a block */
  int ends_kernel;          /* the call ends the lane's kernel (an _on_stream kernel's LL): shoal_scope_release_next */
  int ll_pairs;             /* LL may move two words a store: 1 where it pays, 2 always (collectives/ll.h: shoal_ll_pairs_fit) */
  /* Where an _on_stream kernel's host found them (<shoal/gpu_stream.h>,
   * shoal_gpu_plan), else NULL and looked up in the kernel: team PE q's
   * grid words as mapped here, and team PE q's dest (words_at[q] and
   * dest_at[q]).  Each lookup is a chain of dependent loads on the path
   * of a small call: with the team's own, 3.2 us of a 6.8 us grid push
   * on one H200 under MPS (bench/gpu/bench_push_parts, bench/RESULTS.md
   * session 32). */
  uint64_t *const *words_at;
  char *const *dest_at;
} shoal_scope;

SHOAL_FN shoal_scope shoal_scope_make(unsigned tid, unsigned nthreads, unsigned lane, unsigned nlanes, int local)
{
  shoal_scope s;
  s.tid = tid;
  s.nthreads = nthreads;
  s.lane = lane;
  s.nlanes = nlanes;
  s.local = local;
  s.fresh = 0;
  s.warp = 0;
  s.ends_kernel = 0;
  s.ll_pairs = 0;
  s.words_at = NULL;
  s.dest_at = NULL;
  return s;
}

/* ---- what differs between targets ----------------------------------------- */
#if SHOAL_TARGET_GPU
/* A lane is a block, or one warp of a block (the _warp collectives). */
SHOAL_FN void shoal_scope_sync_lane(const shoal_scope *s)
{
  if (s->warp) SHOAL_GPU_SYNCWARP();
  else __syncthreads();
}

/* Where the call ends its kernel (s->ends_kernel) and no thread of the
 * lane waits for a peer any more: the next kernel on the stream may be
 * scheduled now (programmatic dependent launch, CUDA sm_90+), so its
 * launch overlaps this kernel's tail; it still waits
 * (griddepcontrol.wait, <shoal/gpu_stream.h>) until this kernel has ended
 * and its memory is visible.  Not before the lane's last wait: the next
 * kernel's early blocks could hold SMs that a peer's kernel, which this
 * one waits for, needs resident (test_coll hung so where PEs share a
 * GPU, bench/RESULTS.md session 41).  A no-op where the kernel was not
 * launched for it. */
SHOAL_FN void shoal_scope_release_next(const shoal_scope *s)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && !defined(__HIPCC__)
  if (s->ends_kernel) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#else
  (void)s;
#endif
}

#define SHOAL_GRID_TIMEOUT_NS 20000000000ull

SHOAL_COLD_FN void shoal_grid_stuck(const char *call, const char *who)
{
  printf("shoal: PE %d: error: %s: %s did not arrive within 20 s; a grid collective needs every block of "
         "the grid resident at once (size the grid with shmemx_grid_max_blocks), the same grid size "
         "on every PE, and every PE calling the same collectives\n", SHOAL_STATE->my_pe, call, who);
  shoal_gpu_trap();
}
/* One more spin of a grid wait: back off; trap once it has waited past
 * the timeout (*t0: when the clock was first read). */
SHOAL_FN void shoal_scope_wait_spin(shoal_backoff *b, uint64_t *t0, const char *call, const char *who)
{
  shoal_backoff_wait(b);
  if ((b->spins & 4095) == 0) {
    uint64_t now = shoal_gpu_clock_ns();   /* device/arch_gpu.h */
    if (!*t0) *t0 = now;
    else if (now - *t0 > SHOAL_GRID_TIMEOUT_NS) shoal_grid_stuck(call, who);
  }
}
/* Spin until *p >= v (ge) or *p != v (!ge), acquire; trap after the timeout. */
SHOAL_FN void shoal_scope_wait(const uint64_t *p, uint64_t v, bool ge, const char *call, const char *who)
{
  uint64_t t0 = 0;
  shoal_backoff b = SHOAL_BACKOFF_INIT;
  for (;;) {
    uint64_t x = shoal_load_acquire(p);
    if (ge ? x >= v : x != v) return;
    shoal_scope_wait_spin(&b, &t0, call, who);
  }
}

/* The grid barrier's word: atomics and loads at the GPU's scope (the word
 * is this GPU's and only its blocks touch it; a system-scope acquire
 * would cost each poll more).
 * The add is one PTX instruction on CUDA, a global atomic (ATOMG):
 * through cuda::atomic_ref it was a generic one (ATOM.E) whose answer a
 * branch waited for at once (had the address been shared memory, a CAS
 * loop).  Either way ptxas aggregates it over the warp and shuffles the
 * answer to the lanes right after it, so the thread waits for its round
 * trip where it is issued (collectives/ll.h: shoal_ll_sent says where LL
 * arrives because of it; bench/RESULTS.md session 58). */
#ifndef SHOAL_SCOPE_ADD_PTX   /* a benchmark's build may set it (0: cuda::atomic_ref) */
#define SHOAL_SCOPE_ADD_PTX 1
#endif
SHOAL_FN uint64_t shoal_scope_add_local(uint64_t *p, uint64_t v)
{
#if defined(__CUDACC__)
#if defined(__CUDA_ARCH__) && SHOAL_SCOPE_ADD_PTX
  uint64_t old;
  asm volatile("atom.relaxed.gpu.global.add.u64 %0, [%1], %2;"
               : "=l"(old)
               : "l"((uint64_t)__cvta_generic_to_global(p)), "l"(v)
               : "memory");
  return old;
#else
  return cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*p).fetch_add(v, cuda::memory_order_relaxed);
#endif
#else
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#endif
}
SHOAL_FN uint64_t shoal_scope_load_local(const uint64_t *p)
{
#if defined(__CUDACC__)
  return cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*const_cast<uint64_t *>(p)).load(cuda::memory_order_acquire);
#else
  return __hip_atomic_load(const_cast<uint64_t *>(p), __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
#endif
}
/* Spin until the top bit of *p differs from that of old (the grid
 * barrier's flip, below); trap after the timeout. */
SHOAL_FN void shoal_scope_wait_flip(const uint64_t *p, uint64_t old, const char *call)
{
  uint64_t t0 = 0;
  shoal_backoff b = SHOAL_BACKOFF_INIT;
  while (((shoal_scope_load_local(p) ^ old) >> 63) == 0) shoal_scope_wait_spin(&b, &t0, call, "a block of this PE's grid");
}

/* Orders this thread's memory accesses for the other threads of the GPU:
 * the grid barrier needs no more (a meeting with the peers after it
 * publishes, shoal_scope_publish, and causality carries the other blocks'
 * writes). */
SHOAL_FN void shoal_scope_fence_local(void)
{
#if defined(__CUDACC__)
  cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
#else
  __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "agent");
#endif
}

SHOAL_COLD_FN void shoal_scope_lanes_differ(const char *call, unsigned nl, int pe, unsigned theirs)
{
  printf("shoal: PE %d: error: %s: this grid has %u blocks, PE %d's has %u: every PE must launch the same grid\n",
         SHOAL_STATE->my_pe, call, nl, pe, theirs);
  shoal_gpu_trap();
}
SHOAL_FN void shoal_scope_unmapped(const char *call, const void *addr, int pe) { shoal_gpu_fail(call, addr, pe); }

/* src[a, b) to every member, a word at a time and then bytes (a on a
 * 4-byte boundary, the destinations too): the shifted push's edges. */
static __device__ inline void shoal_scope_push_words(unsigned tid, unsigned nt, char *const *dst, int np, int me,
                                                     const char *src, size_t a, size_t b)
{
  size_t wb = a + (b - a) / 4 * 4;
  for (size_t j = a + 4 * (size_t)tid; j < wb; j += 4 * (size_t)nt) {
    uint32_t x = *(const uint32_t *)(src + j);
    for (int k = 1; k <= np; k++) *(uint32_t *)(dst[(me + k) % np] + j) = x;
  }
  for (size_t j = wb + tid; j < b; j += nt)
    for (int k = 1; k <= np; k++) dst[(me + k) % np][j] = src[j];
}
/* The aligned destination vector that starts `off` bytes before the end
 * of source vector x: its last off bytes, then y's first 16 - off. */
static __device__ inline uint4 shoal_scope_shift_vec(uint4 x, uint4 y, unsigned off)
{
  if (off == 4) return make_uint4(x.w, y.x, y.y, y.z);
  if (off == 8) return make_uint4(x.z, x.w, y.x, y.y);
  return make_uint4(x.y, x.z, x.w, y.x);
}
/* shoal_scope_push_shifted's whole vectors (off: 4, 8 or 12): every
 * destination vector is whole and aligned, the last off bytes of source
 * vector i and the first 16 - off of vector i + 1 (which the next thread
 * loads too, from the cache), each stored to every member; the edges of
 * the range go a word at a time.  Out of line, as its caller. */
static __device__ __noinline__ void shoal_scope_push_vectors(unsigned tid, unsigned nt, char *const *dst, int np,
                                                             int me, const char *src, size_t lo, size_t hi,
                                                             unsigned off)
{
  /* destination vector i: source bytes 16 i + c .. 16 i + c + 16, where
   * both source vectors lie in [lo, hi): i from lo / 16 to hi / 16 - 2 */
  size_t c = 16 - off, i0 = lo / 16, iend = hi / 16 > i0 + 1 ? hi / 16 - 1 : i0;
  if (iend == i0) {
    shoal_scope_push_words(tid, nt, dst, np, me, src, lo, hi);
    return;
  }
  /* The edges first, by the lane's last threads (the tail from the fifth
   * last on): where a lane has fewer vectors than threads they are threads
   * without a vector, and the edges' loads go out beside the vectors'
   * rather than after them, a second round trip on the lane's path */
  unsigned r = nt - 1 - tid;
  shoal_scope_push_words(r, nt, dst, np, me, src, lo, lo + c);
  shoal_scope_push_words((r + 4 * nt - 4) % nt, nt, dst, np, me, src, iend * 16 + c, hi);
  const uint4 *v = (const uint4 *)src;
  size_t i = i0 + tid;
  for (; i + nt < iend; i += 2 * (size_t)nt) {   /* two vectors in flight, and their neighbours */
    uint4 x0 = v[i], y0 = v[i + 1], x1 = v[i + nt], y1 = v[i + nt + 1];
    uint4 o0 = shoal_scope_shift_vec(x0, y0, off), o1 = shoal_scope_shift_vec(x1, y1, off);
    for (int k = 1; k <= np; k++) {
      uint4 *d = (uint4 *)(dst[(me + k) % np] + c);
      d[i] = o0;
      d[i + nt] = o1;
    }
  }
  for (; i < iend; i += nt) {
    uint4 o = shoal_scope_shift_vec(v[i], v[i + 1], off);
    for (int k = 1; k <= np; k++) ((uint4 *)(dst[(me + k) % np] + c))[i] = o;
  }
}
/* shoal_scope_push's case of a source on a 16-byte boundary and
 * destinations that all sit one multiple of 4 bytes past one: fcollect's
 * blocks of a size that is not whole vectors (member me's block starts me
 * x bytes into every dest).  Whole vectors (above), but for 8 bytes off
 * and at most four vectors a thread (the 512-thread blocks of an
 * _on_stream grid, 16 KB or more each): there each vector loaded once and
 * stored as two 8-byte words was faster (3 PEs, 2 MB: 12.0 us against
 * 12.8).  Before, 4 and 12 bytes off went as 4-byte words, and one
 * block's fcollect of 1 MB at 3 PEs took 72.4 us (NVSHMEM's 68.1; now
 * 27.8) where 2 MB, 8 bytes off, took 63.0 (one H200 under MPS,
 * bench/RESULTS.md session 36).  False where it does not apply.  Out of
 * line, as the reducer's shifted path (gpu_reduce.h): the aligned loop's
 * kernels keep their registers. */
static __device__ __noinline__ bool shoal_scope_push_shifted(unsigned tid, unsigned nt, char *const *dst, int np,
                                                             int me, const char *src, size_t lo, size_t hi)
{
  unsigned off = (unsigned)((uintptr_t)dst[0] & 15);
  if ((((uintptr_t)src | lo) & 15) != 0 || off == 0 || (off & 3) != 0) return false;
  for (int q = 1; q < np; q++)
    if (((uintptr_t)dst[q] & 15) != off) return false;
  if (off != 8 || (hi - lo) / 16 > 4 * (size_t)nt) {
    shoal_scope_push_vectors(tid, nt, dst, np, me, src, lo, hi, off);
    return true;
  }
  const uint4 *v = (const uint4 *)src;
  size_t vhi = hi / 16;
  for (size_t i = lo / 16 + tid; i < vhi; i += nt) {
    uint4 x = v[i];
    for (int k = 1; k <= np; k++) {
      uint64_t *d = (uint64_t *)(dst[(me + k) % np] + i * 16);
      d[0] = (uint64_t)x.y << 32 | x.x;
      d[1] = (uint64_t)x.w << 32 | x.z;
    }
  }
  for (size_t j = vhi * 16 + tid; j < hi; j += nt)   /* a last partial vector */
    for (int k = 1; k <= np; k++) dst[(me + k) % np][j] = src[j];
  return true;
}

/* Stores src[lo, hi) at dst[q] + [lo, hi) for every team PE q, in the
 * staggered order me + 1, ..., me + np: each 16-byte vector loaded once,
 * four loads in flight per thread (Iris Gluon all-gather; with two, the
 * grid kernels' 512-thread blocks kept too few bytes in flight from 16 MB
 * on). */
SHOAL_FN void shoal_scope_push(const shoal_scope *s, char *const *dst, int np, int me, const char *src,
                               size_t lo, size_t hi)
{
  unsigned tid = s->tid, nt = s->nthreads;
  uintptr_t a = (uintptr_t)src;
  for (int q = 0; q < np; q++) a |= (uintptr_t)dst[q];
  if ((a & 15) == 0) {
    size_t vlo = lo / 16, vhi = hi / 16;
    const uint4 *v = (const uint4 *)src;
    size_t i = vlo + tid;
    for (; i + 3 * (size_t)nt < vhi; i += 4 * (size_t)nt) {
      uint4 x = v[i], y = v[i + nt], z = v[i + 2 * (size_t)nt], w = v[i + 3 * (size_t)nt];
      for (int k = 1; k <= np; k++) {
        uint4 *d = (uint4 *)dst[(me + k) % np];
        d[i] = x;
        d[i + nt] = y;
        d[i + 2 * (size_t)nt] = z;
        d[i + 3 * (size_t)nt] = w;
      }
    }
    for (; i < vhi; i += nt) {
      uint4 x = v[i];
      for (int k = 1; k <= np; k++) ((uint4 *)dst[(me + k) % np])[i] = x;
    }
    for (size_t j = vhi * 16 + tid; j < hi; j += nt)   /* a last partial vector */
      for (int k = 1; k <= np; k++) dst[(me + k) % np][j] = src[j];
    return;
  }
  if (shoal_scope_push_shifted(tid, nt, dst, np, me, src, lo, hi)) return;
  for (int k = 1; k <= np; k++) shoal_gpu_copy_coop(dst[(me + k) % np] + lo, src + lo, hi - lo, tid, nt);
}

/* shoal_scope_scatter's loop in words of W bytes (16: uint4; 8 and 4:
 * blocks that are not whole vectors), src, the stride, lo and every dst on
 * a W boundary, and hi too unless `tail` (the bytes past the last whole
 * word, one at a time).  Each thread loads four words of two members
 * before it stores any: eight loads in flight, where one copy per member
 * waited for its loads member after member (four were too few for the
 * 512-thread grid kernel at 16 MB and 4 PEs). */
template <class W, bool tail>
static __device__ inline void shoal_scope_scatter_words(unsigned tid, unsigned nt, char *const *dst, int np, int me,
                                                        const char *src, size_t stride, size_t lo, size_t hi)
{
  size_t vlo = lo / sizeof(W), vhi = hi / sizeof(W);
  for (int k = 1; k <= np; k += 2) {
    bool two = k < np;   /* not an odd last member */
    int q0 = (me + k) % np, q1 = two ? (me + k + 1) % np : q0;
    const W *v0 = (const W *)(src + (size_t)q0 * stride), *v1 = (const W *)(src + (size_t)q1 * stride);
    W *d0 = (W *)dst[q0], *d1 = (W *)dst[q1];
    size_t i = vlo + tid;
    for (; i + 3 * (size_t)nt < vhi; i += 4 * (size_t)nt) {
      W x0[4], x1[4];
      for (int u = 0; u < 4; u++) {
        x0[u] = v0[i + u * (size_t)nt];
        x1[u] = v1[i + u * (size_t)nt];
      }
      for (int u = 0; u < 4; u++) {
        d0[i + u * (size_t)nt] = x0[u];
        if (two) d1[i + u * (size_t)nt] = x1[u];
      }
    }
    for (; i < vhi; i += nt) {
      W x0 = v0[i], x1 = v1[i];
      d0[i] = x0;
      if (two) d1[i] = x1;
    }
  }
  if (tail)
    for (size_t j = vhi * sizeof(W) + tid; j < hi; j += nt)   /* a last partial word */
      for (int k = 1; k <= np; k++) {
        int q = (me + k) % np;
        dst[q][j] = src[(size_t)q * stride + j];
      }
}
/* shoal_scope_scatter's blocks that are not whole vectors (an alltoall of
 * an odd number of floats a member at 3 PEs sits 8 or 4 bytes past one):
 * the widest words every address allows, two members' loads in flight,
 * where a thread has at most 64 bytes of each member; beyond, false, and
 * the caller copies member after member (a copy reaches 16-byte vectors for
 * the members whose source and dest sit alike, and there a lane's
 * bandwidth, not its loads' round trip, is what costs).  One H200 under
 * MPS, 3 PEs, 8 bytes off, against the copies everywhere: alltoall on
 * stream of 512 KB 12.64 -> 11.34 us, of 2 MB 14.44 -> 12.83, in a grid of
 * 512 KB 14.53 -> 12.90; one block's of 4 MB with words everywhere 128.7 ->
 * 145.1 (bench/RESULTS.md session 38).  Out of line, as
 * shoal_scope_push_shifted: the aligned loop's kernels keep their
 * registers (inline, the 4-PE alltoall on stream took 2-3% longer). */
static __device__ __noinline__ bool shoal_scope_scatter_shifted(unsigned tid, unsigned nt, char *const *dst, int np,
                                                                int me, const char *src, size_t stride, size_t lo,
                                                                size_t hi, uintptr_t a)
{
  if (hi - lo > 64 * (size_t)nt) return false;
  if ((a & 7) == 0) shoal_scope_scatter_words<uint64_t, true>(tid, nt, dst, np, me, src, stride, lo, hi);
  else if ((a & 3) == 0) shoal_scope_scatter_words<uint32_t, true>(tid, nt, dst, np, me, src, stride, lo, hi);
  else return false;
  return true;
}
/* Stores src + q stride + [lo, hi) at dst[q] + [lo, hi) for every team PE
 * q (alltoall's blocks), in the staggered order: 16-byte vectors, or
 * shoal_scope_scatter_shifted's words, or a copy member after member. */
SHOAL_FN void shoal_scope_scatter(const shoal_scope *s, char *const *dst, int np, int me, const char *src,
                                  size_t stride, size_t lo, size_t hi)
{
  unsigned tid = s->tid, nt = s->nthreads;
  uintptr_t a = (uintptr_t)src | stride | lo;
  for (int q = 0; q < np; q++) a |= (uintptr_t)dst[q];
  if (((a | hi) & 15) != 0) {
    if (shoal_scope_scatter_shifted(tid, nt, dst, np, me, src, stride, lo, hi, a)) return;
    for (int k = 1; k <= np; k++) {
      int q = (me + k) % np;
      shoal_gpu_copy_coop(dst[q] + lo, src + (size_t)q * stride + lo, hi - lo, tid, nt);
    }
    return;
  }
  shoal_scope_scatter_words<uint4, false>(tid, nt, dst, np, me, src, stride, lo, hi);
}

/* n bytes by the threads of the lane. */
SHOAL_FN void shoal_scope_copy(const shoal_scope *s, void *d, const void *src, size_t n)
{
  shoal_gpu_copy_coop(d, src, n, s->tid, s->nthreads);
}

/* dst + q stride + [lo, hi) = src + q sstride + [lo, hi) for every team
 * PE q but me (the staged push's copy out of its staging buffer,
 * collectives/push.h), in the staggered order.  Each thread loads a
 * vector of up to four members before it stores any, as the scatter. */
SHOAL_FN void shoal_scope_gather(const shoal_scope *s, char *dst, size_t stride, const char *src, size_t sstride,
                                 int np, int me, size_t lo, size_t hi)
{
  unsigned tid = s->tid, nt = s->nthreads;
  if ((((uintptr_t)dst | (uintptr_t)src | stride | sstride | lo) & 15) != 0) {
    for (int k = 1; k < np; k++) {
      int q = (me + k) % np;
      shoal_gpu_copy_coop(dst + (size_t)q * stride + lo, src + (size_t)q * sstride + lo, hi - lo, tid, nt);
    }
    return;
  }
  size_t vhi = hi / 16;
  for (int k = 1; k < np; k += 4) {
    int m = np - k < 4 ? np - k : 4;
    const uint4 *v[4];
    uint4 *d[4];
    for (int j = 0; j < 4; j++) {
      int q = (me + k + (j < m ? j : 0)) % np;
      v[j] = (const uint4 *)(src + (size_t)q * sstride);
      d[j] = (uint4 *)(dst + (size_t)q * stride);
    }
    for (size_t i = lo / 16 + tid; i < vhi; i += nt) {
      uint4 x[4];
      for (int j = 0; j < 4; j++)
        if (j < m) x[j] = v[j][i];
      for (int j = 0; j < 4; j++)
        if (j < m) d[j][i] = x[j];
    }
    for (size_t b = vhi * 16 + tid; b < hi; b += nt)   /* a last partial vector */
      for (int j = 0; j < m; j++) ((char *)d[j])[b] = ((const char *)v[j])[b];
  }
}

#else /* CPU */
SHOAL_HIDDEN _Noreturn void shoal_error(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A CPU lane is one thread. */
SHOAL_FN void shoal_scope_sync_lane(const shoal_scope *s) { (void)s; }
/* No kernels follow a CPU's call. */
SHOAL_FN void shoal_scope_release_next(const shoal_scope *s) { (void)s; }

/* Back off and yield while waiting (the runtime's watchdog names a wait
 * that never ends). */
SHOAL_FN void shoal_scope_wait(const uint64_t *p, uint64_t v, bool ge, const char *call, const char *who)
{
  (void)call;
  (void)who;
  shoal_dev_uint64_wait_until(p, ge ? SHMEM_CMP_GE : SHMEM_CMP_NE, v);
}

SHOAL_FN void shoal_scope_fence_local(void) { shoal_fence_system(); }

SHOAL_FN uint64_t shoal_scope_add_local(uint64_t *p, uint64_t v) { return shoal_fetch_add(p, v); }
/* Until the top bit of *p differs from that of old (the grid barrier's
 * flip, below), backing off and yielding. */
SHOAL_FN void shoal_scope_wait_flip(const uint64_t *p, uint64_t old, const char *call)
{
  (void)call;
  if (old >> 63) shoal_dev_uint64_wait_until(p, SHMEM_CMP_LT, (uint64_t)1 << 63);
  else shoal_dev_uint64_wait_until(p, SHMEM_CMP_GE, (uint64_t)1 << 63);
}

SHOAL_COLD_FN void shoal_scope_lanes_differ(const char *call, unsigned nl, int pe, unsigned theirs)
{
  shoal_error(call, "this PE runs %u lanes, PE %d runs %u: every PE must run the same number", nl, pe, theirs);
}
SHOAL_COLD_FN void shoal_scope_unmapped(const char *call, const void *addr, int pe)
{
  shoal_error(call, "address %p is not mapped on PE %d (the lane algorithms need every member reachable by "
              "load/store)", addr, pe);
}

/* Bytes a CPU lane copies to every destination before the next piece: a
 * piece is loaded from memory once and stays in the cache for the others. */
#define SHOAL_SCOPE_CPU_PIECE (32u << 10)

/* Stores src[lo, hi) at dst[q] + [lo, hi) for every team PE q, in the
 * staggered order me + 1, ..., me + np, a cache-sized piece at a time. */
SHOAL_FN void shoal_scope_push(const shoal_scope *s, char *const *dst, int np, int me, const char *src,
                               size_t lo, size_t hi)
{
  (void)s;
  for (size_t off = lo; off < hi; off += SHOAL_SCOPE_CPU_PIECE) {
    size_t len = hi - off < SHOAL_SCOPE_CPU_PIECE ? hi - off : SHOAL_SCOPE_CPU_PIECE;
    for (int k = 1; k <= np; k++) shoal_copy(dst[(me + k) % np] + off, src + off, len);
  }
}

SHOAL_FN void shoal_scope_copy(const shoal_scope *s, void *d, const void *src, size_t n)
{
  (void)s;
  shoal_copy(d, src, n);
}

/* Stores src + q stride + [lo, hi) at dst[q] + [lo, hi) for every team PE
 * q (alltoall's blocks), in the staggered order. */
SHOAL_FN void shoal_scope_scatter(const shoal_scope *s, char *const *dst, int np, int me, const char *src,
                                  size_t stride, size_t lo, size_t hi)
{
  (void)s;
  for (int k = 1; k <= np; k++) {
    int q = (me + k) % np;
    shoal_copy(dst[q] + lo, src + (size_t)q * stride + lo, hi - lo);
  }
}

/* dst + q stride + [lo, hi) = src + q sstride + [lo, hi) for every team
 * PE q but me, in the staggered order. */
SHOAL_FN void shoal_scope_gather(const shoal_scope *s, char *dst, size_t stride, const char *src, size_t sstride,
                                 int np, int me, size_t lo, size_t hi)
{
  (void)s;
  for (int k = 1; k < np; k++) {
    int q = (me + k) % np;
    shoal_copy(dst + (size_t)q * stride + lo, src + (size_t)q * sstride + lo, hi - lo);
  }
}
#endif

/* ---- meetings, the same on every target ----------------------------------- */
SHOAL_FN uint64_t *shoal_scope_words(const shoal_team *t) { return t->sync + SHOAL_SYNC_GRID(t->n_world); }
/* Team PE q's grid words as mapped here, or NULL. */
SHOAL_FN uint64_t *shoal_scope_peer_words(const shoal_scope *s, const shoal_team *t, int q)
{
  if (s->words_at) return s->words_at[q];
  return (uint64_t *)shoal_dev_ptr(shoal_scope_words(t), shoal_team_world_pe(t, q));
}

/* Every lane of this PE has arrived; what each wrote before is visible to
 * all (and to the peers: their meetings publish it, shoal_scope_publish).
 *
 * One add per lane on one word, polled by all (cooperative groups' grid
 * barrier): lane 0 adds 2^63 - (nlanes - 1), every other lane 1, so the
 * arrivals of one barrier sum to 2^63 and the top bit flips when the last
 * lane arrives, whatever the number of lanes, with nobody resetting
 * anything (a graph replays it).  Between barriers the word is 0 or 2^63;
 * the adds of lanes that run ahead into the next barrier keep it on the
 * same side of 2^63 until every lane has arrived there too (lane 0's add
 * borrows from the top bit), so a slow lane still sees its flip.  The
 * count and generation words before it cost the last lane a fence and two
 * stores on every lane's path (bench/gpu/bench_gridsync). */
/* A lane's add to the word. */
SHOAL_FN uint64_t shoal_scope_arrival(const shoal_scope *s)
{
  return s->lane == 0 ? ((uint64_t)1 << 63) - (s->nlanes - 1) : 1;
}
/* Thread 0 of a lane: its add to the word (what the lane did before comes
 * first); returns the word's value before it. */
SHOAL_FN uint64_t shoal_scope_arrive_local(const shoal_scope *s, shoal_team *t, uint64_t *add)
{
  *add = shoal_scope_arrival(s);
  shoal_scope_fence_local();
  return shoal_scope_add_local(&shoal_scope_words(t)[SHOAL_GRID_COUNT], *add);
}
SHOAL_FN void shoal_scope_sync_local(const shoal_scope *s, shoal_team *t, const char *call)
{
  shoal_scope_sync_lane(s);
  if (s->tid == 0 && s->nlanes > 1) {
    uint64_t add, old = shoal_scope_arrive_local(s, t, &add);
    shoal_scope_wait_flip(&shoal_scope_words(t)[SHOAL_GRID_COUNT], old, call);
    /* Kept although the wait's load is an acquire (the meetings with the
     * peers do without theirs): without it test_grid reported wrong
     * elements once in ten runs (session 12: the in-place staged
     * all-reduce of a one-member team on a grid of 3).  That the fence is
     * what prevents it is not established; bench/RESULTS.md. */
    shoal_scope_fence_local();
  }
  shoal_scope_sync_lane(s);
}
/* The lane's threads meet, and the PE's lanes too where they meet locally
 * (a user's grid): what any of them wrote before is seen by all. */
SHOAL_FN void shoal_scope_sync(const shoal_scope *s, shoal_team *t, const char *call)
{
  if (s->local) shoal_scope_sync_local(s, t, call);
  else shoal_scope_sync_lane(s);
}

/* Thread 0 of a lane that has read LL's call count (LL's lanes that
 * never meet locally, a fresh kernel's, one of which must count the call
 * once all have read it; collectives/ll.h: shoal_ll_open): arrive at the
 * grid barrier's word without waiting; returns the word before the add,
 * from which shoal_scope_arrived_last finds whether this lane was the
 * last of this PE to arrive (the others' adds flip no bit; the last one's
 * flips the top bit, as in the barrier above).  Two steps, so that the
 * add's answer is waited for only where it is used.
 * On a GPU without the fences around the add: the count's load had
 * returned before the lane met (it fed a store to the lane's shared
 * record), and what the last lane then writes is that count, which only
 * the next kernel reads -- NCCL's LL likewise hands back its buffer
 * without a fence.  The fences cost the last block of LL's _on_stream
 * kernel 1.1 us a call (bench/RESULTS.md session 23).  A CPU's lanes are
 * threads, which keep them. */
SHOAL_FN uint64_t shoal_scope_arrive_count(const shoal_scope *s, shoal_team *t)
{
#if !SHOAL_TARGET_GPU
  shoal_scope_fence_local();
#endif
  return shoal_scope_add_local(&shoal_scope_words(t)[SHOAL_GRID_COUNT], shoal_scope_arrival(s));
}
SHOAL_FN bool shoal_scope_arrived_last(const shoal_scope *s, uint64_t old)
{
  uint64_t add = shoal_scope_arrival(s);
  bool last = ((old ^ (old + add)) >> 63) != 0;
#if !SHOAL_TARGET_GPU
  if (last) shoal_scope_fence_local();
#endif
  return last;
}

/* My arrival at the lane's meeting, on team PE q. */
SHOAL_FN void shoal_scope_arrive(const shoal_scope *s, shoal_team *t, int q, const char *call)
{
  uint64_t *w = shoal_scope_peer_words(s, t, q);
  if (SHOAL_UNLIKELY(!w)) shoal_scope_unmapped(call, shoal_scope_words(t), shoal_team_world_pe(t, q));
  (void)shoal_fetch_add(&w[SHOAL_GRID_BLOCK0 + 2 * (size_t)s->lane], 1);
}

/* Lane 0 of a scope of several lanes tags each meeting e with its lane
 * count, (e << 32 | nlanes), on every peer: stored into the peer's slot
 * for me just before my arrivals (after the meeting's fence, which would
 * otherwise wait for it to land), and read back from my own slots
 * by the peers' lane 0 after the meeting -- a local load, where reading
 * each peer's tag over the link put a round trip on every meeting's path
 * (the grid waits for lane 0; bench/RESULTS.md session 19).  Only a tag of
 * this very meeting is compared; one not there yet is skipped (a peer
 * with more lanes than mine leaves lanes that wait for mine in vain, and
 * that wait's timeout names the grid rule).  A call's last meeting is not
 * tagged: grids that differ have met before it.  A one-lane
 * scope (the CPU, a GPU block) leaves the check to the peers with more
 * lanes, and its meetings stay one round of atomics. */
SHOAL_FN bool shoal_scope_tags(const shoal_scope *s, const shoal_team *t)
{
  return s->lane == 0 && s->nlanes > 1 && t->size <= SHOAL_GRID_TAG_PEERS;
}
SHOAL_FN void shoal_scope_push_tag(const shoal_scope *s, shoal_team *t, int q, uint64_t e)
{
  uint64_t *w = shoal_scope_peer_words(s, t, q);
  if (w) shoal_store_relaxed(&w[SHOAL_GRID_TAGS0 + (size_t)t->my_pe], e << 32 | s->nlanes);   /* unmapped: the arrival names it */
}

/* Thread 0 of lane b, after its own arrivals at meeting e: the peers'. */
SHOAL_FN void shoal_scope_await_peers(const shoal_scope *s, shoal_team *t, uint64_t e, bool tags, const char *call)
{
  uint64_t *g = shoal_scope_words(t);
  /* The wait's load is an acquire at system scope: what the peers wrote
   * before they arrived is ordered before what this thread does next, and
   * the lane's barrier after it carries that to its other threads (no
   * second fence). */
  shoal_scope_wait(&g[SHOAL_GRID_BLOCK0 + 2 * (size_t)s->lane], e * (uint64_t)(t->size - 1), true, call,
                   "the same block of another PE");
  if (tags)
    for (int k = 1; k < t->size; k++) {
      int q = (t->my_pe + k) % t->size;
      uint64_t v = shoal_load_relaxed(&g[SHOAL_GRID_TAGS0 + (size_t)q]);
      if (SHOAL_UNLIKELY(v >> 32 == e && (uint32_t)v != s->nlanes))
        shoal_scope_lanes_differ(call, s->nlanes, shoal_team_world_pe(t, q), (unsigned)v);
    }
}

/* Thread 0 of lane b: the lane's next meeting number. */
SHOAL_FN uint64_t shoal_scope_next_meeting(const shoal_scope *s, shoal_team *t)
{
  uint64_t *arrivals = &shoal_scope_words(t)[SHOAL_GRID_BLOCK0 + 2 * (size_t)s->lane];
  uint64_t e = arrivals[1] + 1;   /* only thread 0 of the lane writes it */
  arrivals[1] = e;
  return e;
}

/* What this thread and (through the lane's barrier) its lane wrote
 * reaches the peers before what it writes next (its arrivals): at the
 * GPU's scope where every member runs on this GPU (several PEs under MPS:
 * the stores and the peers' loads meet in its L2), else at the system's.
 * The system fence waits longer for the stores to be acknowledged: 2.1
 * against 0.9 us after a grid push's last stores at 4 PEs on one H200
 * (bench/RESULTS.md session 32).  SHOAL_GPU_FENCE=system keeps the
 * system's everywhere.  The CPU's is its one fence. */
SHOAL_FN void shoal_scope_publish(const shoal_team *t)
{
#if SHOAL_TARGET_GPU
  if (t->gpu_local) {
    shoal_scope_fence_local();
    return;
  }
#else
  (void)t;
#endif
  shoal_fence_system();
}

/* Thread 0 of lane b: meet lane b of every other member.  publish: what
 * the lane wrote before must reach the peers first (shoal_scope_publish).
 * tags: lane 0 tags the meeting and checks the peers' tags (a call's
 * first meeting: a grid that differs is found there; its last one skips
 * them, a load before lane 0's arrivals and one after its wait). */
SHOAL_FN void shoal_scope_meet_peers_as(const shoal_scope *s, shoal_team *t, bool publish, bool tags,
                                        const char *call)
{
  int n = t->size, me = t->my_pe;
  if (n <= 1) return;
  uint64_t e = shoal_scope_next_meeting(s, t);
  tags = tags && shoal_scope_tags(s, t);
  if (publish) shoal_scope_publish(t);
  for (int k = 1; k < n; k++) {
    if (tags) shoal_scope_push_tag(s, t, (me + k) % n, e);
    shoal_scope_arrive(s, t, (me + k) % n, call);
  }
  shoal_scope_await_peers(s, t, e, tags, call);
}
SHOAL_FN void shoal_scope_meet_peers(const shoal_scope *s, shoal_team *t, const char *call)
{
  shoal_scope_meet_peers_as(s, t, true, true, call);
}

/* The same meeting with every thread of the lane taking part; it begins
 * with the lane's barrier (what its threads wrote, and thread 0's meeting
 * number, come before it).  Thread j adds my arrival on team PE
 * me + 1 + j, behind its own fence where the lane publishes
 * (shoal_scope_publish; the barrier carried the lane's writes to that
 * fence); thread 0 waits.  One
 * thread adding on every peer in turn put a chain of lookups and fences
 * on the path of teams of more than two. */
SHOAL_FN void shoal_scope_meet_peers_spread(const shoal_scope *s, shoal_team *t, bool publish, bool tags,
                                            const char *call)
{
  int n = t->size, me = t->my_pe;
  if (s->nthreads == 1) {
    shoal_scope_meet_peers_as(s, t, publish, tags, call);
    return;
  }
  tags = tags && shoal_scope_tags(s, t);
  uint64_t e = s->tid == 0 && n > 1 ? shoal_scope_next_meeting(s, t) : 0;
  shoal_scope_sync_lane(s);
  if (n <= 1) return;
  for (unsigned j = s->tid; j + 1 < (unsigned)n; j += s->nthreads) {
    int q = (me + 1 + (int)j) % n;
    if (publish) shoal_scope_publish(t);
    /* Thread 0 tags every peer: it holds the number, which each thread
     * read back from memory before its arrival (a round trip on lane 0's
     * path) when each tagged its own peer. */
    if (tags && j == 0)
      for (int k = 1; k < n; k++) shoal_scope_push_tag(s, t, (me + k) % n, e);
    shoal_scope_arrive(s, t, q, call);
  }
  if (s->tid == 0) shoal_scope_await_peers(s, t, e, tags, call);
}

/* The lane meets lane b of the peers: what its threads wrote before is in
 * place first. */
SHOAL_FN void shoal_scope_meet(const shoal_scope *s, shoal_team *t, const char *call)
{
  shoal_scope_sync_lane(s);
  if (s->tid == 0) shoal_scope_meet_peers(s, t, call);
  shoal_scope_sync_lane(s);
}

/* Sources ready and destinations free on every member; once per call, at
 * its start.  Without a local meeting the lane still meets first: what any
 * of its threads wrote before is in place before thread 0 tells the peers
 * so.  A fresh lane (the first call of an _on_stream kernel) has written
 * nothing yet, and the stream's earlier work completed before its kernel
 * began: its arrival needs no fence before it (0.7-0.9 us less per call on
 * an H100, bench/RESULTS.md session 12). */
SHOAL_FN void shoal_scope_enter(const shoal_scope *s, shoal_team *t, const char *call)
{
  if (s->local) shoal_scope_sync_local(s, t, call);
  else if (s->nthreads == 1) shoal_scope_sync_lane(s);   /* the spread meeting begins with it */
  shoal_scope_meet_peers_spread(s, t, !s->fresh, true, call);
  shoal_scope_sync_lane(s);
}
/* Every share has landed everywhere, and nobody reads my source any more:
 * no thread of the lane returns before thread 0 has met the peers. */
SHOAL_FN void shoal_scope_leave_as(const shoal_scope *s, shoal_team *t, bool publish, const char *call)
{
  if (s->nthreads == 1) shoal_scope_sync_lane(s);   /* the spread meeting begins with it */
  shoal_scope_meet_peers_spread(s, t, publish, false, call);
  shoal_scope_sync(s, t, call);
}
SHOAL_FN void shoal_scope_leave(const shoal_scope *s, shoal_team *t, const char *call)
{
  shoal_scope_leave_as(s, t, true, call);
}

/* The same for a lane that only read the peers' memory (the pull, the
 * reduce-scatter: what it wrote, its own dest, no peer reads): its
 * arrival only tells the peers that it is done reading their sources.  On
 * a GPU without the system fence before it, as LL's lanes hand back their
 * slots (shoal_scope_arrive_count): every load of the lane had returned
 * before the lane's barrier (each fed a store issued before it), and the
 * fence would only wait for the lane's stores to its own dest.  A CPU's
 * loads may pass a later store, so it keeps the fence. */
SHOAL_FN void shoal_scope_leave_read(const shoal_scope *s, shoal_team *t, const char *call)
{
#if SHOAL_TARGET_GPU
  shoal_scope_leave_as(s, t, false, call);
#else
  shoal_scope_leave_as(s, t, true, call);
#endif
}

/* The share [lo, hi) of `units` that chunk c of `chunks` owns.  One chunk
 * (a block's lane) without a division, and a 32-bit division where the
 * products fit: a 64-bit one is a long subroutine on a GPU, on the path
 * of every small call. */
SHOAL_FN void shoal_scope_share(size_t units, size_t c, size_t chunks, size_t *lo, size_t *hi)
{
  if (chunks == 1) {
    *lo = 0;
    *hi = units;
    return;
  }
  if (units < ((size_t)1 << 22) && chunks <= ((size_t)1 << 10)) {   /* units x chunks < 2^32 */
    uint32_t u = (uint32_t)units, k = (uint32_t)c, n = (uint32_t)chunks;
    *lo = u * k / n;
    *hi = u * (k + 1) / n;
    return;
  }
  *lo = units * c / chunks;
  *hi = units * (c + 1) / chunks;
}
/* This lane's share of nbytes, cut at 16-byte units. */
SHOAL_FN void shoal_scope_byte_share(const shoal_scope *s, size_t nbytes, size_t *lo, size_t *hi)
{
  size_t units = (nbytes + 15) / 16;
  shoal_scope_share(units, s->lane, s->nlanes, lo, hi);
  *lo = *lo * 16 < nbytes ? *lo * 16 : nbytes;
  *hi = *hi * 16 < nbytes ? *hi * 16 : nbytes;
}

#endif
