/* Host entry points that only enqueue work on a stream (capturable in a
 * CUDA/HIP graph): the kernels of the _on_stream collectives, how many
 * blocks each gets, and put/get/put_signal/quiet on a stream.  Included
 * by <shoal/gpu_x.h>; `man shmemx_putmem_on_stream`. */
#ifndef SHOAL_GPU_STREAM_H
#define SHOAL_GPU_STREAM_H

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

/* Programmatic dependent launch (CUDA, where every architecture the
 * translation unit is built for is sm_90 or later): the _on_stream kernels
 * are launched so that each may be scheduled once the kernel before it on
 * the stream has ended, and wait, before they touch anything, until that
 * kernel's memory is visible (griddepcontrol.wait).  What it saves is the
 * gap between back-to-back kernels: on one H200 under MPS 7-41% of every
 * _on_stream call from 4 KB to 1 MB at 2-4 PEs (bench/RESULTS.md, sessions
 * 41, 42).  LL's kernels let the next one be scheduled early
 * (griddepcontrol.launch_dependents) once they wait for no peer any more,
 * before their count (collectives/scope.h: shoal_scope_release_next);
 * the others do not, and none does so sooner: from a kernel's start,
 * test_coll hung where PEs share a GPU, the next kernels' early blocks
 * holding the SMs a peer's grid kernel needed resident (session 41).
 * -DSHOAL_GPU_PDL=0 builds plain launches; SHOAL_GPU_PDL=off in the
 * environment makes them at run time. */
#ifndef SHOAL_GPU_PDL
#if defined(__CUDACC__) && !defined(__HIPCC__) && defined(__CUDA_ARCH_LIST__)
#define SHOAL_GPU_PDL 1
#else
#define SHOAL_GPU_PDL 0
#endif
#endif
#if SHOAL_GPU_PDL && defined(__CUDACC__) && !defined(__HIPCC__)
/* Every architecture built is sm_90+: a kernel compiled for an older one
 * would lack the wait (nvcc defines the list in host and device passes). */
static constexpr bool shoal_gpu_pdl_arches(void)
{
#ifdef __CUDA_ARCH_LIST__
  constexpr int a[] = {__CUDA_ARCH_LIST__};
  for (int x : a)
    if (x < 900) return false;
  return true;
#else
  return false;
#endif
}
#define SHOAL_GPU_PDL_BUILT shoal_gpu_pdl_arches()
#else
#define SHOAL_GPU_PDL_BUILT false
#endif
__device__ inline void shoal_gpu_pdl_wait(void)
{
#if SHOAL_GPU_PDL && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
/* Whether e is word, in any case (word in lower case). */
static inline bool shoal_gpu_env_is(const char *e, const char *word)
{
  while (e && *e && *word && (*e | 32) == *word) e++, word++;
  return e && !*e && !*word;
}
/* SHOAL_GPU_PDL=off (or 0) in the environment: plain launches (read once) */
static inline bool shoal_gpu_pdl_on(void)
{
  static int on = -1;
  if (on < 0) {
    const char *e = getenv("SHOAL_GPU_PDL");
    on = !(shoal_gpu_env_is(e, "off") || shoal_gpu_env_is(e, "0"));
  }
  return on != 0;
}
/* The PDL launch through the driver (CUDA 12.5+ for the versioned entry
 * point; -DSHOAL_GPU_DRIVER_LAUNCH=0 takes the runtime's): cuLaunchKernelEx
 * on the kernel's context-free handle (cudaGetKernel), found once per
 * kernel and host thread, where the runtime's cudaLaunchKernelEx looks the
 * kernel up on every launch.  On one H200 under MPS it took 0.07-0.2 us
 * off a launch (bench/gpu/bench_launch.cu) and 10-25% off the host's
 * enqueue of the _on_stream calls (bench/RESULTS.md, session 43); once
 * LL's kernels let the next one start early, the host's enqueue paced the
 * small calls at 2 PEs, and the driver's launch made them 6-14% faster on
 * the stream (fcollect and alltoall of 4-8 KB, the all-reduce of 4 KB),
 * the others within 1% (session 45).  Whatever fails (no entry point, no
 * handle, a refused launch) takes the runtime's launch, which records the
 * error where shoal_gpu_launched looks.  Stream 0 too: what it means to
 * the driver depends on how the program was compiled (--default-stream). */
#ifndef SHOAL_GPU_DRIVER_LAUNCH
#define SHOAL_GPU_DRIVER_LAUNCH 1
#endif
#if SHOAL_GPU_DRIVER_LAUNCH && SHOAL_GPU_PDL && defined(__CUDACC__) && !defined(__HIPCC__) && CUDART_VERSION >= 12050
#define SHOAL_GPU_DRIVER_LAUNCH_BUILT 1
#include <cuda.h>
typedef CUresult (*shoal_gpu_launch_ex_fn)(const CUlaunchConfig *, CUfunction, void **, void **);
static inline shoal_gpu_launch_ex_fn shoal_gpu_driver_launch_fn(void)
{
  static const shoal_gpu_launch_ex_fn fn = [] {
    void *p = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuLaunchKernelEx", &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();   /* not this launch's error */
      return (shoal_gpu_launch_ex_fn) nullptr;
    }
    return (shoal_gpu_launch_ex_fn)p;
  }();
  return fn;
}
/* k's handle, from a small table of this host thread's (a miss costs one
 * cudaGetKernel, the runtime's own look-up). */
static inline CUfunction shoal_gpu_kernel_handle(const void *k)
{
  enum { N = 16 };
  thread_local const void *key[N];
  thread_local CUfunction val[N];
  unsigned h = (unsigned)(((uintptr_t)k >> 4) % N);
  if (key[h] != k) {
    cudaKernel_t ck;
    if (cudaGetKernel(&ck, k) != cudaSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    key[h] = k;
    val[h] = (CUfunction)(CUkernel)ck;
  }
  return val[h];
}
template <class... P>
static inline bool shoal_gpu_launch_driver(const void *k, dim3 grid, dim3 block, size_t smem, cudaStream_t st,
                                           P... p)
{
  shoal_gpu_launch_ex_fn launch = shoal_gpu_driver_launch_fn();
  CUfunction f = st && launch ? shoal_gpu_kernel_handle(k) : nullptr;
  if (!f) return false;
  CUlaunchConfig c = {};
  c.gridDimX = grid.x, c.gridDimY = grid.y, c.gridDimZ = grid.z;
  c.blockDimX = block.x, c.blockDimY = block.y, c.blockDimZ = block.z;
  c.sharedMemBytes = (unsigned)smem;
  c.hStream = (CUstream)st;
  CUlaunchAttribute at[1];
  at[0].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  at[0].value.programmaticStreamSerializationAllowed = 1;
  c.attrs = at;
  c.numAttrs = 1;
  void *args[] = {(void *)&p..., nullptr};
  return launch(&c, f, args, nullptr) == CUDA_SUCCESS;
}
#else
#define SHOAL_GPU_DRIVER_LAUNCH_BUILT 0
#endif
template <class... P, class... A>
static inline void shoal_gpu_launch(void (*k)(P...), dim3 grid, dim3 block, size_t smem, shoal_gpu_stream_t st,
                                    A... a)
{
#if SHOAL_GPU_PDL && defined(__CUDACC__) && !defined(__HIPCC__)
  if (SHOAL_GPU_PDL_BUILT && shoal_gpu_pdl_on()) {
#if SHOAL_GPU_DRIVER_LAUNCH_BUILT
    if (shoal_gpu_launch_driver<P...>((const void *)k, grid, block, smem, st, (P)a...)) return;
#endif
    cudaLaunchConfig_t c = {};
    c.gridDim = grid;
    c.blockDim = block;
    c.dynamicSmemBytes = smem;
    c.stream = st;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    c.attrs = at;
    c.numAttrs = 1;
    (void)cudaLaunchKernelEx(&c, k, (P)a...);   /* an error is the stream's last one: shoal_gpu_launched */
    return;
  }
#endif
  k<<<grid, block, smem, st>>>((P)a...);
}

/* quiet: barrier_all's (the kernels before it on the stream ended, but
 * their puts behind the proxy may not have landed). */
template <class shoal_unused = void>
__global__ void shoal_gpu_k_sync(shmem_team_t team, bool quiet)
{
  shoal_gpu_pdl_wait();
  const char *call = quiet ? "shmemx_barrier_all_on_stream" : "shmemx_team_sync_on_stream";
  shoal_gpu_block_barrier(shoal_gpu_team_or_fail(call, team), call, true, quiet);
}
template <class T, class OP>
__global__ void __launch_bounds__(SHOAL_GPU_LAUNCH_THREADS) shoal_gpu_k_reduce(shmem_team_t team, T *dest, const T *src, size_t n, int scatter)
{
  shoal_gpu_pdl_wait();
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
  shoal_gpu_pdl_wait();
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
 * sessions 32-33).  GRID: LL's kernel over several blocks, else one.
 * WHICH (0 broadcast, 1 fcollect, 2 alltoall; -1: `which`, all three
 * inlined) and SCATTER make a kernel of each call: a small call's fresh
 * kernel pays for the code it runs through.  One block's fcollect and
 * alltoall of 4-16 KB at 4 PEs took 7-15% less as kernels of their own,
 * 2 PEs' calls of 4 KB 1-3.5% more; the grid's kernel keeps all three
 * (WHICH -1), being 2-6% slower split (2 PEs, 16-128 KB; one H100 under
 * MPS, bench/RESULTS.md sessions 53 and 55). */
template <bool GRID = false, int WHICH = -1>
__global__ void __launch_bounds__(SHOAL_GPU_LAUNCH_THREADS) shoal_gpu_k_move_ll(int which, SHOAL_GRID_TEAM_PARAM rec,
                                                                               void *dest, const void *src,
                                                                               size_t n, int root)
{
  using B = shoal_gpu_block_scope;   /* and the call ends the kernel (true) */
  SHOAL_LL_MARK(SHOAL_LL_MARK_ENTRY, 0);
  shoal_gpu_pdl_wait();
  SHOAL_LL_MARK(SHOAL_LL_MARK_START, 0);
  shoal_team *team = shoal_grid_record(rec);
  const int w = WHICH >= 0 ? WHICH : which;
  constexpr bool P = WHICH < 0;   /* the kernel of the grid and of 2 PEs, where LL's pairs run */
  if (w == 0) shoal_gpu_move_ll<GRID, B, true>("shmemx_broadcastmem_on_stream", 0, team, dest, src, n, root);
  else if (w == 1) shoal_gpu_move_ll<GRID, B, true, P>("shmemx_fcollectmem_on_stream", 1, team, dest, src, n, 0);
  else shoal_gpu_move_ll<GRID, B, true, P>("shmemx_alltoallmem_on_stream", 2, team, dest, src, n, 0);
}
#ifndef SHOAL_GPU_SCATTER_LL_INLINE   /* a benchmark's build may set it (0: a call, as the other entry points) */
#define SHOAL_GPU_SCATTER_LL_INLINE 1
#endif
template <class T, class OP, bool GRID = false, bool SCATTER = false>
__global__ void __launch_bounds__(SHOAL_GPU_LAUNCH_THREADS) shoal_gpu_k_reduce_ll(SHOAL_GRID_TEAM_PARAM rec, T *dest,
                                                                                 const T *src, size_t n)
{
  using B = shoal_gpu_block_scope;   /* and the call ends the kernel (true) */
  SHOAL_LL_MARK(SHOAL_LL_MARK_ENTRY, 0);
  shoal_gpu_pdl_wait();
  SHOAL_LL_MARK(SHOAL_LL_MARK_START, 0);
  shoal_team *team = shoal_grid_record(rec);
  if constexpr (SCATTER && SHOAL_GPU_SCATTER_LL_INLINE)
    shoal_gpu_reduce_scatter_ll_inline<T, OP, GRID, B, true>("shmemx_..._reduce_scatter_on_stream", team, dest, src, n);
  else if constexpr (SCATTER)
    shoal_gpu_reduce_scatter_ll<T, OP, GRID, B, true>("shmemx_..._reduce_scatter_on_stream", team, dest, src, n);
  else shoal_gpu_reduce_ll<T, OP, GRID, B, true>("shmemx_..._reduce_on_stream", team, dest, src, n);
}
template <class shoal_unused = void>
__global__ void shoal_gpu_k_signal(uint64_t *sig, uint64_t v, int op, int pe)
{
  shoal_gpu_pdl_wait();
  shoal_fence_system();
  shoal_dev_signal_update(SHOAL_DEV_CTX, sig, v, op, pe);
}
template <class shoal_unused = void>
__global__ void shoal_gpu_k_fence(void)
{
  shoal_gpu_pdl_wait();
  shoal_fence_system();
}

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
  shoal_gpu_pdl_wait();
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
  shoal_gpu_pdl_wait();
  (void)shoal_grid_move(shoal_gpu_move_name(which), which, team, dest, src, nbytes, root, false);
}
template <class shoal_unused = void>
__global__ void __launch_bounds__(SHOAL_GPU_GRID_THREADS) shoal_gpu_k_move_grid_planned(int which, SHOAL_GRID_PLAN_PARAM plan,
                                                                                       void *dest, const void *src,
                                                                                       size_t nbytes, int root)
{
  shoal_gpu_pdl_wait();
  shoal_grid_move_planned(shoal_gpu_move_name(which), which, plan, dest, src, nbytes, root);
}
template <class shoal_unused = void>
__global__ void __launch_bounds__(SHOAL_GPU_GRID_THREADS) shoal_gpu_k_move_grid_staged(int which, SHOAL_GRID_PLAN_PARAM plan,
                                                                                      void *dest, const void *src,
                                                                                      size_t nbytes)
{
  shoal_gpu_pdl_wait();
  shoal_grid_move_staged(shoal_gpu_move_name(which), which, plan, dest, src, nbytes);
}
/* The most blocks of KERNEL resident at `threads` a block, the SMs shared
 * with the other PEs on this GPU (shmemx_grid_max_blocks), asked once a
 * kernel and warp count.  The kernel itself is the template's argument,
 * not its type: kernels of one signature (a type's ops, a reduce-scatter
 * and its all-reduce) may differ in registers, and a count cached for
 * another would launch blocks that are not all resident. */
template <auto KERNEL>
static inline int shoal_gpu_resident(unsigned threads)
{
  static int cache[SHOAL_GPU_LAUNCH_THREADS / 32 + 1];
  unsigned warps = (threads + 31) / 32;
  if (warps > SHOAL_GPU_LAUNCH_THREADS / 32) return shmemx_grid_max_blocks(KERNEL, (int)threads, 0);
  int &c = cache[warps];
  if (!c) c = shmemx_grid_max_blocks(KERNEL, (int)threads, 0);
  return c;
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
template <auto KERNEL>
static inline int shoal_gpu_stream_grid(int threads, size_t bytes, size_t block_bytes)
{
  int max = shoal_gpu_resident<KERNEL>((unsigned)threads);
  size_t per = shoal_gpu_stream_knob(1);
  if (per == SIZE_MAX) per = block_bytes;
  if (!per) return max;
  size_t want = (bytes + per - 1) / per;
  return want < 1 ? 1 : want < (size_t)max ? (int)want : max;
}
/* Threads of the one-block LL kernel for bytes_per_pair: a warp's multiple
 * that gives each thread about one 4-byte word of the pair, at least
 * SHOAL_GPU_LL_THREADS_MIN and at most SHOAL_GPU_LAUNCH_THREADS (fewer
 * warps to start and to meet where most would move nothing);
 * SHOAL_GPU_LL_GRID_THREADS_MIN: the same for each block of LL's grid
 * kernel, on its share of the words (2 KB a block: 512 threads, not
 * 1024).  One H200 under MPS, against 1024 threads always: the grid
 * kernel's calls of 32-128 KB 8% faster at 2 PEs (fcollect of 64 KB 4.20
 * -> 3.87 us in graph replay) and 3-6% at 4; the one-block calls of 4 KB
 * 1-4% (bench/RESULTS.md session 47).  The kernels work at any block
 * size; a benchmark's build may set either. */
#ifndef SHOAL_GPU_LL_THREADS_MIN
#define SHOAL_GPU_LL_THREADS_MIN 128
#endif
#ifndef SHOAL_GPU_LL_GRID_THREADS_MIN
#define SHOAL_GPU_LL_GRID_THREADS_MIN 128
#endif
static inline unsigned shoal_gpu_ll_threads_at_least(size_t bytes_per_pair, size_t min)
{
  size_t t = (bytes_per_pair / 4 + 31) / 32 * 32;
  if (t < min) t = min;
  return t < SHOAL_GPU_LAUNCH_THREADS ? (unsigned)t : SHOAL_GPU_LAUNCH_THREADS;
}
static inline unsigned shoal_gpu_ll_threads(size_t bytes_per_pair)
{
  return shoal_gpu_ll_threads_at_least(bytes_per_pair, SHOAL_GPU_LL_THREADS_MIN);
}
static inline unsigned shoal_gpu_ll_grid_threads(size_t bytes_per_pair, int blocks)
{
  return shoal_gpu_ll_threads_at_least((bytes_per_pair + (size_t)blocks - 1) / (size_t)blocks,
                                       SHOAL_GPU_LL_GRID_THREADS_MIN);
}
/* Blocks of LL's grid kernel for bytes_per_pair (collectives/
 * reduce_select.h: shoal_ll_stream_blocks, and where PEs share a GPU
 * shoal_ll_stream_blocks_shared on the fine blocks' residency at their own
 * thread count), all resident (a lane waits for words that a peer's lanes
 * send); bytes_per_thread: the pair's bytes that take a thread each (a
 * 4-byte word, or 8 where LL's pairs go).  Where fewer are resident (a
 * small MPS share) it runs on fewer, even one: words go by index, so a
 * peer on more blocks still matches it, whereas another algorithm would
 * not (each PE decides alone). */
template <auto KERNEL>
static inline int shoal_gpu_ll_blocks(size_t bytes_per_pair, size_t bytes_per_thread)
{
  int max = shoal_gpu_resident<KERNEL>(SHOAL_GPU_LAUNCH_THREADS);
  if (max < 1) max = 1;
  size_t want = shoal_ll_stream_blocks(bytes_per_pair);   /* at least 1 */
  if (shoalx_gpu_shared()) {
    size_t fine = shoal_ll_stream_blocks_fine(bytes_per_pair);
    unsigned threads = shoal_gpu_ll_grid_threads(bytes_per_thread, (int)fine);
    want = shoal_ll_stream_blocks_shared(bytes_per_pair, (size_t)shoal_gpu_resident<KERNEL>(threads));
    if (want == fine) return (int)fine;   /* resident at its own thread count */
  }
  return want < (size_t)max ? (int)want : max;
}
#ifndef SHOAL_GPU_LL_PAIR_THREADS   /* a benchmark's build may set it (0: a thread per word) */
#define SHOAL_GPU_LL_PAIR_THREADS 1
#endif
template <bool GRID, int WHICH>
static inline void shoal_gpu_launch_move_ll(int which, const shoal_team &rec, void *dest, const void *src, size_t nbytes,
                                            int root, shoal_gpu_stream_t stream)
{
  constexpr auto k = shoal_gpu_k_move_ll<GRID, WHICH>;
  /* fcollect and alltoall that go two words a thread (collectives/ll.h's
   * pairs): a thread per pair */
  bool pairs = which != 0 && WHICH < 0 && SHOAL_GPU_LL_PAIR_THREADS && shoal_ll_pairs_pay(GRID, nbytes, rec.size);
  size_t per_thread = pairs ? nbytes / 2 : nbytes;
  int blocks = GRID ? shoal_gpu_ll_blocks<k>(nbytes, per_thread) : 1;
  unsigned threads = GRID ? shoal_gpu_ll_grid_threads(per_thread, blocks) : shoal_gpu_ll_threads(per_thread);
  shoal_gpu_launch(k, blocks, threads, 0, stream, which, rec, dest, src, nbytes, root);
}
/* LL's kernel for one call (`which` as above): GRID over the blocks
 * shoal_gpu_ll_blocks gives, the three movers in one kernel; else one
 * block, a kernel per mover, but on teams of up to SHOAL_GPU_LL_TRIO_PES
 * the three in one: split, 2 PEs' fcollect and alltoall of 4 KB took 1-3%
 * more (one H100 under MPS: fcollect 2.60 against 2.67 us, alltoall 2.89
 * against 2.94; bench/RESULTS.md sessions 55 and 56). */
#ifndef SHOAL_GPU_LL_TRIO_PES   /* a benchmark's build may set it (0: split at any size) */
#define SHOAL_GPU_LL_TRIO_PES 2
#endif
template <bool GRID>
static inline void shoal_gpu_launch_move_ll_any(int which, const shoal_team &rec, void *dest, const void *src,
                                                size_t nbytes, int root, shoal_gpu_stream_t stream)
{
  if constexpr (GRID) shoal_gpu_launch_move_ll<GRID, -1>(which, rec, dest, src, nbytes, root, stream);
  else if (rec.size <= SHOAL_GPU_LL_TRIO_PES) shoal_gpu_launch_move_ll<GRID, -1>(which, rec, dest, src, nbytes, root, stream);
  else if (which == 0) shoal_gpu_launch_move_ll<GRID, 0>(0, rec, dest, src, nbytes, root, stream);
  else if (which == 1) shoal_gpu_launch_move_ll<GRID, 1>(1, rec, dest, src, nbytes, root, stream);
  else shoal_gpu_launch_move_ll<GRID, 2>(2, rec, dest, src, nbytes, root, stream);
}
template <class T, class OP, bool GRID, bool SCATTER>
static inline void shoal_gpu_launch_reduce_ll(const shoal_team &rec, T *dest, const T *src, size_t nreduce,
                                              shoal_gpu_stream_t stream)
{
  constexpr auto k = shoal_gpu_k_reduce_ll<T, OP, GRID, SCATTER>;
  size_t bytes = nreduce * sizeof(T);
  int blocks = GRID ? shoal_gpu_ll_blocks<k>(bytes, bytes) : 1;
  unsigned threads = GRID ? shoal_gpu_ll_grid_threads(bytes, blocks) : shoal_gpu_ll_threads(bytes);
  shoal_gpu_launch(k, blocks, threads, 0, stream, rec, dest, src, nreduce);
}
static inline int shoal_gpu_launched(const char *call)
{
  shoal_gpu_hcheck(call, SHOAL_GPURT(GetLastError)());
  return 0;
}

template <class shoal_unused = void>
static inline int shmemx_team_sync_on_stream(shmem_team_t team, shoal_gpu_stream_t stream)
{
  shoal_gpu_launch(shoal_gpu_k_sync<>, 1, 32, 0, stream, team, false);
  return shoal_gpu_launched("shmemx_team_sync_on_stream");
}
template <class shoal_unused = void>
static inline void shmemx_barrier_all_on_stream(shoal_gpu_stream_t stream)
{
  shoal_gpu_launch(shoal_gpu_k_sync<>, 1, 32, 0, stream, SHMEM_TEAM_WORLD, true);
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
  if (launch == SHOAL_REDUCE_LAUNCH_LL_GRID) {
    shoal_gpu_launch_move_ll_any<true>(which, plan.team, dest, src, nbytes, root, stream);
  } else if (launch == SHOAL_REDUCE_LAUNCH_GRID) {
    bool planned = root_ok && shoalx_gpu_team_plan(team, dest, &plan);
    constexpr auto staged = shoal_gpu_k_move_grid_staged<>;
    constexpr auto planned_k = shoal_gpu_k_move_grid_planned<>;
    constexpr auto plain = shoal_gpu_k_move_grid<>;
    const int th = SHOAL_GPU_GRID_THREADS;
    const size_t bb = SHOAL_GPU_MOVE_BLOCK_BYTES;
    if (planned && shoal_move_staged(which, launch, nbytes, plan.stage_cap))
      shoal_gpu_launch(staged, shoal_gpu_stream_grid<staged>(th, nbytes, bb), th, 0, stream, which, plan, dest, src, nbytes);
    else if (planned)
      shoal_gpu_launch(planned_k, shoal_gpu_stream_grid<planned_k>(th, nbytes, bb), th, 0, stream, which, plan, dest, src,
                       nbytes, root);
    else
      shoal_gpu_launch(plain, shoal_gpu_stream_grid<plain>(th, nbytes, bb), th, 0, stream, which, team, dest, src, nbytes,
                       root);
  }
  else if (launch == SHOAL_REDUCE_LAUNCH_LL)
    shoal_gpu_launch_move_ll_any<false>(which, plan.team, dest, src, nbytes, root, stream);
  else
    shoal_gpu_launch(shoal_gpu_k_coll<SHOAL_GPU_PUSH_THREADS>, 1, SHOAL_GPU_PUSH_THREADS, 0, stream, which, team, dest, src,
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
  if constexpr (!shoal_gpu_ll_elem<T>) {
    if (launch == SHOAL_REDUCE_LAUNCH_LL || launch == SHOAL_REDUCE_LAUNCH_LL_GRID) launch = SHOAL_REDUCE_LAUNCH_BLOCK;
  } else if (launch == SHOAL_REDUCE_LAUNCH_LL_GRID) {
    if (scatter) shoal_gpu_launch_reduce_ll<T, OP, true, true>(rec, dest, src, nreduce, stream);
    else shoal_gpu_launch_reduce_ll<T, OP, true, false>(rec, dest, src, nreduce, stream);
    return shoal_gpu_launched(call);
  } else if (launch == SHOAL_REDUCE_LAUNCH_LL) {
    if (scatter) shoal_gpu_launch_reduce_ll<T, OP, false, true>(rec, dest, src, nreduce, stream);
    else shoal_gpu_launch_reduce_ll<T, OP, false, false>(rec, dest, src, nreduce, stream);
    return shoal_gpu_launched(call);
  }
  if (launch == SHOAL_REDUCE_LAUNCH_GRID && scatter) {
    constexpr auto k = shoal_gpu_k_reduce_grid<T, OP, true>;
    int blocks = shoal_gpu_stream_grid<k>(SHOAL_GPU_SCATTER_GRID_THREADS, sb, SHOAL_GPU_BLOCK_BYTES);
    shoal_gpu_launch(k, blocks, SHOAL_GPU_SCATTER_GRID_THREADS, 0, stream, team, dest, src, nreduce);
  } else if (launch == SHOAL_REDUCE_LAUNCH_GRID) {
    constexpr auto k = shoal_gpu_k_reduce_grid<T, OP, false>;
    int blocks = shoal_gpu_stream_grid<k>(SHOAL_GPU_ALLREDUCE_GRID_THREADS, sb, SHOAL_GPU_BLOCK_BYTES);
    shoal_gpu_launch(k, blocks, SHOAL_GPU_ALLREDUCE_GRID_THREADS, 0, stream, team, dest, src, nreduce);
  } else {
    shoal_gpu_launch(shoal_gpu_k_reduce<T, OP>, 1, SHOAL_GPU_LAUNCH_THREADS, 0, stream, team, dest, src, nreduce, scatter);
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
  shoal_gpu_launch(shoal_gpu_k_signal<>, 1, 1, 0, stream, sig, signal, sig_op, pe);
  (void)shoal_gpu_launched("shmemx_putmem_signal_on_stream");
}
template <class shoal_unused = void>
static inline void shmemx_quiet_on_stream(shoal_gpu_stream_t stream)
{
  shoal_gpu_launch(shoal_gpu_k_fence<>, 1, 1, 0, stream);
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
