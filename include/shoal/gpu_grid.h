/* Collectives of a whole grid inside user kernels (shmemx_*_grid): every
 * block of the kernel calls, and the call behaves as one collective of the
 * grid -- what any thread wrote before is what is moved, and every thread
 * sees the complete result after.  Included by <shoal/gpu_x.h>;
 * `man shmemx_barrier_all_grid`.
 *
 * How the blocks meet (words: teams/team.h, SHOAL_GRID_*):
 *  - inside a PE, a grid barrier on a per-team word in device memory (one
 *    add per block, the last one flips its top bit; collectives/scope.h):
 *    safe without a cooperative launch as long as every block
 *    is resident at once (shmemx_grid_max_blocks sizes such a grid);
 *  - across PEs, block b meets only block b of the other members, through
 *    its own arrival counter: each adds 1 on every peer and waits for
 *    (its own arrivals) x (size - 1).  Counts only grow and nobody resets
 *    them, so a captured graph replays the same code.
 * A collective is: grid barrier, block b meets its peers (every member's
 * data is ready and its destination free), block b moves its share, block
 * b meets its peers again, grid barrier (every share of every member has
 * landed, and nobody reads my source any more).
 *
 * The meetings, the data movers and the reductions are the shared
 * algorithms of collectives/ (scope.h, push.h, reduce_oneshot.h,
 * reduce_twoshot.h, reduce_scatter.h) at grid scope (a lane per block);
 * what is here is the grid as a scope and the entry points.
 *
 * Small and medium messages in a user's kernel (what fits half the team's
 * LL ring and the LL words a member may send a call, shoal_ll_grid_max) go
 * LL (collectives/ll.h) with every block taking its share of the words;
 * teams the grid
 * algorithms cannot address directly run the block algorithm
 * (<shoal/gpu_block.h>) on block 0 between two grid barriers. */
#ifndef SHOAL_GPU_GRID_H
#define SHOAL_GPU_GRID_H

#include <shoal/collectives/push.h>
static_assert(SHOAL_GPU_MAX_FAST_PEERS <= SHOAL_SCOPE_MAX_PEERS, "a lane's pd holds every fast peer");

__device__ inline unsigned shoal_grid_nblocks(void) { return gridDim.x * gridDim.y * gridDim.z; }
__device__ inline unsigned shoal_grid_block(void)
{
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
/* The grid as an execution scope (collectives/scope.h): a lane per block.
 * local: the blocks of this PE meet at entry and exit (in a user's kernel);
 * a kernel launched for an _on_stream call starts after the stream's
 * earlier work and ends with all of its blocks, so it meets only the peers,
 * and its lanes are fresh (nothing to publish at entry). */
__device__ inline shoal_scope shoal_grid_scope(bool local)
{
  shoal_scope s = shoal_scope_make(shoal_gpu_block_tid(), shoal_gpu_block_size(), shoal_grid_block(),
                                   shoal_grid_nblocks(), local);
  s.fresh = !local;
  return s;
}

/* Every block of this PE's grid has arrived; what each wrote before is
 * visible to all (and to the peers: system-scope fences). */
__device__ inline void shoal_grid_sync_local(shoal_team *t, const char *call)
{
  shoal_scope s = shoal_grid_scope(true);
  shoal_scope_sync_local(&s, t, call);
}

SHOAL_COLD_FN void shoal_grid_too_big(const char *call, unsigned nb, bool say)
{
  if (say)
    printf("shoal: PE %d: error: %s: a grid of %u blocks; grid collectives allow at most %d (shmemx_grid_max_blocks)\n",
           SHOAL_STATE->my_pe, call, nb, SHOAL_GRID_MAX_BLOCKS);
  shoal_gpu_trap_after(say);
}
__device__ inline void shoal_grid_check(const char *call)
{
  unsigned nb = shoal_grid_nblocks();
  if (SHOAL_UNLIKELY(nb > SHOAL_GRID_MAX_BLOCKS)) shoal_grid_too_big(call, nb, shoal_grid_block() == 0 && shoal_gpu_block_tid() == 0);
}

/* ---- which algorithm ------------------------------------------------------- */
/* The data movers: block b pushes its share, or block 0 runs the block
 * form (LL for small messages).  The reductions: collectives/
 * reduce_select.h, with the thresholds of every reduction. */
typedef enum shoal_grid_algo {
  SHOAL_GRID_ON_BLOCK0,   /* the block algorithm on block 0 */
  SHOAL_GRID_PUSH,        /* the data movers: block b pushes its share to every member */
  SHOAL_GRID_LL,          /* small messages in a user's kernel: LL, a lane per block */
} shoal_grid_algo;

/* Can block b address every member's memory directly? */
__device__ inline bool shoal_grid_direct(const shoal_team *t)
{
  if (t->size > SHOAL_GPU_MAX_FAST_PEERS) return false;
  for (int j = 0; j < t->size; j++)
    if (!shoal_dev_ptr(t->sync, shoal_team_world_pe(t, j))) return false;
  return true;
}
/* LL where the blocks meet (a user's kernel: over every block, a call
 * taking up to half the team's ring); an _on_stream grid kernel has LL's
 * own kernel beside it (gpu_stream.h) and runs without it.  The _on_stream
 * movers' bounds where PEs share a GPU (SHOAL_GPU_LL_SHARED_MOVE_MAX and
 * _ALL, collectives/reduce_select.h) do not hold here: in a user's grid,
 * whose push meets inside the PE besides, LL kept winning past them (one
 * H200 under MPS, 4 PEs, fcollect of 48 KB a member 10.71 us against the
 * push's 12.20; 2 PEs, 192 KB a member 8.09 against 10.48;
 * bench/RESULTS.md session 36). */
__device__ inline int shoal_grid_pick_move(const shoal_team *t, int which, size_t nbytes, bool local)
{
  /* LL needs no direct check: its fit bounds the team by its tables, and
   * teams behind the proxy never get here */
  if (local && shoal_move_ll_fits(which, shoal_ll_slot(t), shoal_ll_span_max(t->pushbox_depth), t->size, nbytes))
    return SHOAL_GRID_LL;
  return shoal_grid_direct(t) ? SHOAL_GRID_PUSH : SHOAL_GRID_ON_BLOCK0;
}

/* Block 0 runs the block form between two grid barriers. */
#define SHOAL_GRID_ON_BLOCK0(t, call, local, ...) \
  do { \
    if (local) shoal_grid_sync_local(t, call); \
    if (shoal_grid_block() == 0) { __VA_ARGS__; } \
    if (local) shoal_grid_sync_local(t, call); \
  } while (0)

/* ---- reductions: collectives/ at grid scope -------------------------------- */
/* All-reduce (scatter: reduce-scatter) of the grid: the algorithms of
 * collectives/reduce_oneshot.h, reduce_twoshot.h, reduce_scatter.h with a
 * lane per block (block b reduces its share, meeting block b of the
 * peers), and LL where the blocks meet (a user's kernel); what only a
 * block does (the channel algorithms of large teams and teams behind the
 * proxy, a refusal) runs on block 0.
 * Inline only what runs in the common case: LL (local), the pull, staged
 * and two-shot; an _on_stream reduce-scatter, the pull alone.  The rest --
 * the forced ring, block 0's algorithms, bad input, and the selection
 * where an _on_stream reduce-scatter cannot take the pull -- is out of
 * line (shoal_grid_reduce_rest).  With every path in one body the
 * _on_stream grid kernel spilled (ptxas, sm_90, float sum: 524 / 840
 * bytes of spill stores / loads; now the reduce-scatter's kernel 32 / 28,
 * the all-reduce's 96 / 428), and the reduce-scatter of 1 MB at 4 H200
 * took 14.3 us where it now takes 13.2 (bench/RESULTS.md, session 26). */
template <class T, class OP>
__device__ __noinline__ void shoal_grid_reduce_rest(const char *call, shoal_team *t, int algo, bool scatter,
                                                    bool overlap, T *dest, const T *src, size_t n, bool local)
{
  bool say = shoal_grid_block() == 0 && shoal_gpu_block_tid() == 0;
  if (algo < 0 && !overlap && !shoal_gpu_team_proxied(t))
    algo = shoal_gpu_reduce_pick_block(t, SHOAL_AT_GRID, scatter, dest, src, n, sizeof(T), local,
                                       shoal_ll_span_max(t->pushbox_depth));
  if (overlap) {
    if (scatter) shoal_gpu_scatter_overlap_fail(call, dest, src, say);
    else shoal_gpu_overlap_fail(call, dest, src, say);
  } else if (shoal_gpu_team_proxied(t)) {
    SHOAL_GRID_ON_BLOCK0(t, call, local, shoal_gpu_rcoll_reduce<T, OP>(call, t, dest, src, n, scatter));
  } else if (algo == SHOAL_REDUCE_RING) {
    shoal_scope s = shoal_grid_scope(local);
    shoal_gpu_reduce_scoped<T, OP>(call, &s, t, algo, scatter, dest, src, n);
  } else {
    SHOAL_GRID_ON_BLOCK0(t, call, local,
                         shoal_gpu_reduce_block_only<T, OP>(call, t, algo, scatter, dest, src, n, false));
  }
}
template <class T, class OP>
__device__ inline void shoal_grid_reduce_any(const char *call, shmem_team_t team, T *dest, const T *src, size_t n,
                                             bool scatter, bool local)
{
  shoal_grid_check(call);
  shoal_team *t = shoal_gpu_team_or_fail(call, team);
  size_t nb = n * sizeof(T);
  bool overlap = shoal_gpu_reduce_overlaps(t, scatter, dest, src, nb);
  int algo = -1;
  if (SHOAL_LIKELY(!overlap && !shoal_gpu_team_proxied(t))) {
    /* An _on_stream reduce-scatter (no LL: below) takes the pull where
     * every member fits a lane's peer tables and the source is symmetric:
     * the selection's answer there (collectives/reduce_select.h;
     * tests/unit/test_reduce_select checks it), known without running it;
     * elsewhere the rest picks.  LL where the blocks meet (a user's
     * kernel); an _on_stream grid kernel has LL's own kernel beside it
     * (gpu_stream.h), and leaves its code out. */
    if (!local && scatter) {
      if (t->size <= SHOAL_SCOPE_MAX_PEERS && shoal_gpu_symmetric(src, nb * (size_t)t->size)) {
        shoal_scope s = shoal_grid_scope(false);
        shoal_gpu_reduce_scoped<T, OP, false>(call, &s, t, SHOAL_REDUCE_PULL, true, dest, src, n);
        return;
      }
      shoal_grid_reduce_rest<T, OP>(call, t, -1, true, false, dest, src, n, false);   /* picks */
      return;
    }
    algo = shoal_gpu_reduce_pick_block(t, SHOAL_AT_GRID, scatter, dest, src, n, sizeof(T), local,
                                       shoal_ll_span_max(t->pushbox_depth));
    if constexpr (shoal_gpu_ll_elem<T>)
      if (local && algo == SHOAL_REDUCE_LL) {   /* LL with a lane per block (collectives/ll.h) */
        __shared__ shoal_ll ll;
        shoal_scope s = shoal_grid_scope(true);
        shoal_gpu_reducer<T, OP> r;
        if (scatter) shoal_ll_reduce_scatter(&s, t, &ll, &r, dest, src, n, call);
        else shoal_ll_reduce(&s, t, &ll, &r, dest, src, n, call);
        return;
      }
    if (algo == SHOAL_REDUCE_PULL || (!scatter && (algo == SHOAL_REDUCE_STAGED || algo == SHOAL_REDUCE_TWOSHOT))) {
      shoal_scope s = shoal_grid_scope(local);
      shoal_gpu_reduce_scoped<T, OP, false>(call, &s, t, algo, scatter, dest, src, n);
      return;
    }
  }
  shoal_grid_reduce_rest<T, OP>(call, t, algo, scatter, overlap, dest, src, n, local);
}
template <class T, class OP>
__device__ inline void shoal_grid_reduce(const char *call, shmem_team_t team, T *dest, const T *src, size_t n,
                                         bool local = true)
{
  shoal_grid_reduce_any<T, OP>(call, team, dest, src, n, false, local);
}
/* Reduce-scatter: member j reduces block j of every member's source into
 * its dest.  Source symmetric, except where LL takes it (small blocks,
 * collectives/reduce_select.h): each member pushes its own blocks. */
template <class T, class OP>
__device__ inline void shoal_grid_reduce_scatter(const char *call, shmem_team_t team, T *dest, const T *src,
                                                 size_t n, bool local = true)
{
  shoal_grid_reduce_any<T, OP>(call, team, dest, src, n, true, local);
}

/* ---- data movers: collectives/push.h at grid scope ------------------------ */
/* which: 0 broadcast, 1 fcollect, 2 alltoall. */
__device__ inline int shoal_grid_move(const char *call, int which, shmem_team_t team, void *dest, const void *src,
                                      size_t nbytes, int root, bool local = true)
{
  shoal_grid_check(call);
  shoal_team *t = shoal_gpu_team_or_fail(call, team);
  int np = t->size;
  if (which == 0 && SHOAL_UNLIKELY(root < 0 || root >= np))
    shoal_gpu_root_fail(call, root, np, shoal_grid_block() == 0 && shoal_gpu_block_tid() == 0);
  if (SHOAL_UNLIKELY(shoal_gpu_team_proxied(t))) {
    SHOAL_GRID_ON_BLOCK0(t, call, local, shoal_gpu_rcoll_move(call, which, t, dest, src, nbytes, root));
    return 0;
  }
  int algo = shoal_grid_pick_move(t, which, nbytes, local);
  if (algo == SHOAL_GRID_LL) {
    __shared__ shoal_ll ll;   /* LL with a lane per block (collectives/ll.h) */
    shoal_scope s = shoal_grid_scope(true);
    shoal_ll_move(&s, t, &ll, which, dest, src, nbytes, root, call);
    return 0;
  }
  if (algo != SHOAL_GRID_PUSH) {   /* block 0's push (without LL: see shoal_grid_pick_move) */
    int rc = 0;
    SHOAL_GRID_ON_BLOCK0(t, call, local, rc = shoal_gpu_move_block(call, which, team, dest, src, nbytes, root,
                                                                   false, false));
    return rc;
  }
  __shared__ char *pd[SHOAL_GPU_MAX_FAST_PEERS];
  shoal_scope s = shoal_grid_scope(local);
  shoal_push_move(&s, t, pd, which, dest, src, nbytes, root, call);
  return 0;
}

#if defined(__CUDACC__)
#define SHOAL_GRID_PLAN_PARAM const __grid_constant__ shoal_gpu_plan
#define SHOAL_GRID_TEAM_PARAM const __grid_constant__ shoal_team
#else
#define SHOAL_GRID_PLAN_PARAM shoal_gpu_plan
#define SHOAL_GRID_TEAM_PARAM shoal_team
#endif
/* The team's record an _on_stream kernel got from the host: on CUDA read
 * where it is (a __grid_constant__ parameter; the algorithms only read
 * it), on HIP copied to shared memory by one thread first. */
__device__ inline shoal_team *shoal_grid_record(const shoal_team &rec)
{
#if defined(__CUDACC__)
  return const_cast<shoal_team *>(&rec);
#else
  __shared__ shoal_team copy;
  if (shoal_gpu_block_tid() == 0) copy = rec;
  __syncthreads();
  return &copy;
#endif
}

/* The same push in an _on_stream kernel whose host found the team and the
 * members' grid words and dests (shoal_gpu_plan, by value: nothing looked
 * up in global memory before the first meeting; read where it is on CUDA,
 * a __grid_constant__, and copied to shared memory on HIP).  On one H200
 * under MPS the lookups were 3.2 of the kernel's 6.8 us at 2 PEs
 * (bench/gpu/bench_push_parts, bench/RESULTS.md session 32); the copy 4-7%
 * of the call at 3-4 PEs (session 34). */
__device__ inline void shoal_grid_move_planned(const char *call, int which, const shoal_gpu_plan &p, void *dest,
                                               const void *src, size_t nbytes, int root)
{
#if defined(__CUDACC__)
  __shared__ char *pd[SHOAL_GPU_PLAN_PEERS];
  shoal_scope s = shoal_grid_scope(false);
  s.words_at = p.words_at;   /* read where they are (a __grid_constant__) */
  s.dest_at = p.dest_at;
  shoal_push_move(&s, shoal_grid_record(p.team), pd, which, dest, src, nbytes, root, call);
#else
  __shared__ shoal_team team;
  __shared__ uint64_t *words_at[SHOAL_GPU_PLAN_PEERS];
  __shared__ char *dest_at[SHOAL_GPU_PLAN_PEERS], *pd[SHOAL_GPU_PLAN_PEERS];
  shoal_scope s = shoal_grid_scope(false);
  if (s.tid == 0) {   /* fixed offsets: the parameters are read where they are, in constant memory */
    team = p.team;
#pragma unroll
    for (int j = 0; j < SHOAL_GPU_PLAN_PEERS; j++) {
      words_at[j] = p.words_at[j];
      dest_at[j] = p.dest_at[j];
    }
  }
  s.words_at = words_at;
  s.dest_at = dest_at;
  shoal_scope_sync_lane(&s);
  shoal_push_move(&s, &team, pd, which, dest, src, nbytes, root, call);
#endif
}

/* fcollect (which 1) and alltoall (2) of the staged push (collectives/
 * push.h: into the members' staging buffers, one meeting) in an
 * _on_stream kernel, from the same plan with the team's staging buffers
 * (gpu/gpu_runtime.c).  On CUDA the kernel's plan is a __grid_constant__
 * parameter and the algorithm reads the team's record where it is: the
 * push's copy of it to shared memory, by one thread before any store,
 * is on a staged call's path (its first meeting hides it), 0.6 us at 2
 * PEs on one H200 (bench/RESULTS.md session 34). */
__device__ inline void shoal_grid_move_staged(const char *call, int which, const shoal_gpu_plan &p, void *dest,
                                              const void *src, size_t nbytes)
{
  uint64_t count = *p.stage_calls;   /* first: its load under the set-up below */
  __shared__ char *pd[SHOAL_GPU_PLAN_PEERS];
  shoal_scope s = shoal_grid_scope(false);
  s.words_at = p.words_at;
  shoal_stage st = {p.stage_at, p.stage, p.stage_calls, p.stage_cap, count};
  shoal_push_staged(&s, shoal_grid_record(p.team), pd, &st, which, dest, src, nbytes, call);
}

/* ---- the public grid collectives -------------------------------------------- */
__device__ inline void shoal_grid_barrier(const char *call, shmem_team_t team, bool quiet = false)
{
  shoal_grid_check(call);
  shoal_team *t = shoal_gpu_team_or_fail(call, team);
  SHOAL_GRID_ON_BLOCK0(t, call, true, shoal_gpu_block_barrier(t, call, false, quiet));
}
__device__ inline int shmemx_team_sync_grid(shmem_team_t team)
{
  shoal_grid_barrier("shmemx_team_sync_grid", team);
  return 0;
}
__device__ inline void shmemx_barrier_all_grid(void)
{
  shoal_grid_barrier("shmemx_barrier_all_grid", SHMEM_TEAM_WORLD, true);
}
__device__ inline void shmemx_sync_all_grid(void) { shoal_grid_barrier("shmemx_sync_all_grid", SHMEM_TEAM_WORLD); }

__device__ inline int shmemx_broadcastmem_grid(shmem_team_t team, void *dest, const void *src, size_t nbytes, int root)
{
  return shoal_grid_move("shmemx_broadcastmem_grid", 0, team, dest, src, nbytes, root);
}
__device__ inline int shmemx_fcollectmem_grid(shmem_team_t team, void *dest, const void *src, size_t nbytes)
{
  return shoal_grid_move("shmemx_fcollectmem_grid", 1, team, dest, src, nbytes, 0);
}
__device__ inline int shmemx_alltoallmem_grid(shmem_team_t team, void *dest, const void *src, size_t nbytes)
{
  return shoal_grid_move("shmemx_alltoallmem_grid", 2, team, dest, src, nbytes, 0);
}

#define SHOAL_GPU_GRID_MOVE_TYPED(T, N) \
  __device__ inline int shmemx_##N##_broadcast_grid(shmem_team_t team, T *d, const T *s, size_t n, int root) \
  { return shoal_grid_move("shmemx_" #N "_broadcast_grid", 0, team, d, s, n * sizeof(T), root); } \
  __device__ inline int shmemx_##N##_fcollect_grid(shmem_team_t team, T *d, const T *s, size_t n) \
  { return shoal_grid_move("shmemx_" #N "_fcollect_grid", 1, team, d, s, n * sizeof(T), 0); } \
  __device__ inline int shmemx_##N##_alltoall_grid(shmem_team_t team, T *d, const T *s, size_t n) \
  { return shoal_grid_move("shmemx_" #N "_alltoall_grid", 2, team, d, s, n * sizeof(T), 0); }
SHOAL_RMA_DEVICE_TYPES(SHOAL_GPU_GRID_MOVE_TYPED)

#define SHOAL_GPU_GRID_REDUCE_OP(T, N, OP) \
  template <class shoal_unused = void> \
  __device__ inline int shmemx_##N##_##OP##_reduce_grid(shmem_team_t team, T *dest, const T *src, size_t nreduce) \
  { \
    shoal_grid_reduce<T, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_grid", team, dest, src, nreduce); \
    return 0; \
  } \
  template <class shoal_unused = void> \
  __device__ inline int shmemx_##N##_##OP##_reduce_scatter_grid(shmem_team_t team, T *dest, const T *src, \
                                                                size_t nreduce) \
  { \
    shoal_grid_reduce_scatter<T, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_scatter_grid", team, dest, src, \
                                                    nreduce); \
    return 0; \
  }
#define SHOAL_GPU_GRID_REDUCE_BITWISE(T, N) \
  SHOAL_GPU_GRID_REDUCE_OP(T, N, and) SHOAL_GPU_GRID_REDUCE_OP(T, N, or) SHOAL_GPU_GRID_REDUCE_OP(T, N, xor)
#define SHOAL_GPU_GRID_REDUCE_MINMAX(T, N) SHOAL_GPU_GRID_REDUCE_OP(T, N, min) SHOAL_GPU_GRID_REDUCE_OP(T, N, max)
#define SHOAL_GPU_GRID_REDUCE_ARITH(T, N) SHOAL_GPU_GRID_REDUCE_OP(T, N, sum) SHOAL_GPU_GRID_REDUCE_OP(T, N, prod)
SHOAL_REDUCE_BITWISE_TYPES(SHOAL_GPU_GRID_REDUCE_BITWISE)
SHOAL_REDUCE_MINMAX_DEVICE_TYPES(SHOAL_GPU_GRID_REDUCE_MINMAX)
SHOAL_REDUCE_MINMAX_DEVICE_TYPES(SHOAL_GPU_GRID_REDUCE_ARITH)

/* ---- sizing a grid (host) ------------------------------------------------------ */
/* PEs of this node that share one GPU (the node's PEs over its GPUs). */
extern "C" shmem_team_t shoalh_team_node __asm__("SHMEMX_TEAM_NODE");
static inline int shoal_grid_gpu_sharers(void)
{
  static int sharers;
  if (!sharers) {
    int ngpu = 1;
    if (SHOAL_GPURT(GetDeviceCount)(&ngpu) != SHOAL_GPURT(Success) || ngpu < 1) ngpu = 1;
    int local = shmem_team_n_pes(shoalh_team_node);
    sharers = local > ngpu ? (local + ngpu - 1) / ngpu : 1;
    /* Under MPS with an active-thread percentage the runtime reports only
     * this process's share of the SMs (66 of 132 at 50%), but the shares
     * are limits, not a partition: two PEs at 50% with 66 blocks each did
     * not all become resident on one H100 (the grid barrier timed out), so
     * the SMs reported are still divided among the sharers. */
    if (sharers < 1) sharers = 1;
  }
  return sharers;
}
/* Largest grid of `kernel` (threads per block, dynamic shared memory)
 * whose blocks are all resident at once, with this GPU's SMs shared among
 * the PEs of this node that use it, and at most SHOAL_GRID_MAX_BLOCKS. */
template <class K>
static inline int shmemx_grid_max_blocks(K *kernel, int threads, size_t smem)
{
  int dev = 0, per_sm = 0, sms = 0;
  const char *call = "shmemx_grid_max_blocks";
  shoal_gpu_hcheck(call, SHOAL_GPURT(GetDevice)(&dev));
#if defined(__CUDACC__)
  shoal_gpu_hcheck(call, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  shoal_gpu_hcheck(call, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
#else
  shoal_gpu_hcheck(call, hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev));
  shoal_gpu_hcheck(call, hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
#endif
  int n = per_sm * sms / shoal_grid_gpu_sharers();
  if (n > SHOAL_GRID_MAX_BLOCKS) n = SHOAL_GRID_MAX_BLOCKS;
  return n > 0 ? n : 1;
}

#endif
