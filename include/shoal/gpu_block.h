/* Collectives run by one block, or one warp, per PE inside user kernels
 * (shmemx_barrier_all_block, shmemx_TYPE_OP_reduce_block,
 * shmemx_fcollectmem_block, ..., and the same names ending in _warp):
 * the shared algorithms of collectives/ with the threads of a block or a
 * warp as one lane (L: shoal_gpu_block_scope or shoal_gpu_warp_scope of
 * <shoal/gpu_coop.h>), with the GPU's typed reducer, the checks of their
 * arguments and the choice of algorithm (shoal_gpu_reduce_pick).  A
 * warp's calls keep their tables in the block's shared memory, as a
 * block's: one warp of a block at a time.  Included by <shoal/gpu_x.h>;
 * `man shmemx_barrier_all_block`, `man shmemx_barrier_all_warp`. */
#ifndef SHOAL_GPU_BLOCK_H
#define SHOAL_GPU_BLOCK_H

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
/* The threads of L (the block, or this thread's warp) as one lane of one
 * PE; fresh: the block's kernel began with this call (an _on_stream
 * kernel, collectives/scope.h). */
template <class L = shoal_gpu_block_scope>
__device__ inline shoal_scope shoal_gpu_lane_of(bool fresh = false)
{
  shoal_scope s = shoal_scope_make(L::tid(), L::size(), 0, 1, 0);
  s.fresh = fresh;
  s.warp = L::warp;
  return s;
}
__device__ inline shoal_scope shoal_gpu_block_lane(bool fresh = false) { return shoal_gpu_lane_of<>(fresh); }

/* A _warp collective needs the warp's every thread: the last warp of a
 * block whose size is not a multiple of the warp's would wait for
 * threads that do not exist. */
SHOAL_COLD_FN void shoal_gpu_warp_partial(const char *call, unsigned nthreads, bool say)
{
  if (say)
    printf("shoal: PE %d: error: %s: called by a warp of fewer than %u threads (a block of %u threads): a _warp "
           "collective needs a whole warp\n", SHOAL_STATE->my_pe, call, SHOAL_GPU_WARP_SIZE, nthreads);
  shoal_gpu_trap_after(say);
}
template <class L> __device__ inline void shoal_gpu_lane_check(const char *call)
{
  if (L::warp) {
    unsigned nt = shoal_gpu_block_size();
    if (SHOAL_UNLIKELY((shoal_gpu_block_tid() / SHOAL_GPU_WARP_SIZE + 1) * SHOAL_GPU_WARP_SIZE > nt))
      shoal_gpu_warp_partial(call, nt, shoal_gpu_lane() == 0);
  }
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
template <class L = shoal_gpu_block_scope>
__device__ inline void shoal_gpu_block_barrier(shoal_team *t, const char *call, bool fresh = false, bool quiet = false)
{
  if (t->slot >= 0 && !shoal_gpu_team_proxied(t)) {
    shoal_scope s = shoal_gpu_lane_of<L>(fresh);
    shoal_scope_enter(&s, t, call);
    return;
  }
  L::sync();
  if (L::tid() == 0) {
    /* barrier_all completes this PE's puts first (quiet: the proxy's are
     * applied at their targets).  A fence alone let a member learn through
     * a mapped peer that everyone had arrived while a put of a third
     * member, behind the proxy, had not landed yet (test_device at 4 PEs,
     * 2 a "node": 9-12 of 800 slots, session 40). */
    if (quiet) shoal_dev_quiet(SHOAL_DEV_CTX);
    else shoal_fence_system();
    shoal_coll_sync(t);
  }
  L::sync();
}

__device__ inline int shmemx_team_sync_block(shmem_team_t team)
{
  shoal_gpu_block_barrier(shoal_gpu_team_or_fail("shmemx_team_sync_block", team), "shmemx_team_sync_block");
  return 0;
}
__device__ inline void shmemx_barrier_all_block(void)
{
  shoal_gpu_block_barrier(shoal_gpu_team_or_fail("shmemx_barrier_all_block", SHMEM_TEAM_WORLD),
                          "shmemx_barrier_all_block", false, true);
}
__device__ inline void shmemx_sync_all_block(void)
{
  shoal_gpu_block_barrier(shoal_gpu_team_or_fail("shmemx_sync_all_block", SHMEM_TEAM_WORLD), "shmemx_sync_all_block");
}
/* The same, by one warp. */
__device__ inline void shoal_gpu_warp_barrier(const char *call, shmem_team_t team, bool quiet)
{
  shoal_gpu_lane_check<shoal_gpu_warp_scope>(call);
  shoal_gpu_block_barrier<shoal_gpu_warp_scope>(shoal_gpu_team_or_fail(call, team), call, false, quiet);
}
__device__ inline int shmemx_team_sync_warp(shmem_team_t team)
{
  shoal_gpu_warp_barrier("shmemx_team_sync_warp", team, false);
  return 0;
}
__device__ inline void shmemx_barrier_all_warp(void) { shoal_gpu_warp_barrier("shmemx_barrier_all_warp", SHMEM_TEAM_WORLD, true); }
__device__ inline void shmemx_sync_all_warp(void) { shoal_gpu_warp_barrier("shmemx_sync_all_warp", SHMEM_TEAM_WORLD, false); }


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
template <class L = shoal_gpu_block_scope>
__device__ inline void shoal_gpu_check_overlap(const char *call, const void *dest, const void *src, size_t bytes)
{
  const char *d = (const char *)dest, *s = (const char *)src;
  if (SHOAL_UNLIKELY(d != s && d < s + bytes && s < d + bytes)) shoal_gpu_overlap_fail(call, dest, src, L::tid() == 0);
}
/* LL's lane: the block (GRID false: the block entry points and the
 * one-block _on_stream kernels, where the lane count is a constant), or a
 * block of LL's _on_stream kernel over several (GRID: lanes that do not
 * meet, collectives/ll.h; a kernel of its own: with the lane count a
 * runtime value the small calls cost 0.2-0.3 us more, bench/RESULTS.md
 * session 20), whose calls take up to half the team's ring. */
__device__ inline shoal_scope shoal_grid_scope(bool local);   /* gpu_grid.h */
/* END: the call of an _on_stream kernel, which ends it and lets the next
 * kernel be scheduled before its count (collectives/scope.h:
 * shoal_scope_release_next): over several blocks at any team size, one
 * block on teams of up to SHOAL_GPU_LL_RELEASE_PES.  One H200 under MPS
 * (bench/RESULTS.md session 45), graph replay: the grid's calls 3-9%
 * faster at 2-4 PEs; one block's 3-6% faster at 2 PEs, but its fcollect
 * and alltoall of 4-16 KB 4-6% slower at 4. */
#ifndef SHOAL_GPU_LL_RELEASE_PES   /* a benchmark's build may set it */
#define SHOAL_GPU_LL_RELEASE_PES 2
#endif
template <bool GRID, class L = shoal_gpu_block_scope, bool END = false>
__device__ inline shoal_scope shoal_gpu_ll_scope(const shoal_team *t)
{
  shoal_scope s = GRID ? shoal_grid_scope(false) : shoal_gpu_lane_of<L>();
  s.ends_kernel = END && (GRID || t->size <= SHOAL_GPU_LL_RELEASE_PES);
  return s;
}
/* The element sizes LL carries (collectives/reduce_select.h:
 * shoal_reduce_ll_fits): the entry points leave LL's code out for the
 * others (the 16-bit floats' single elements), which the selection never
 * sends there (instantiated and never run, its kernels were 16 of
 * tests/gpu/test_f16's 77, 8% of its PTX). */
template <class T> constexpr bool shoal_gpu_ll_elem = sizeof(T) == 4 || sizeof(T) == 8;
/* All-reduce of 4- and 8-byte types (collectives/reduce_select.h:
 * shoal_reduce_ll_fits).  dest may be src (checked by the caller: or
 * disjoint from it). */
template <class T, class OP, bool GRID = false, class L = shoal_gpu_block_scope, bool END = false>
__device__ inline void shoal_gpu_reduce_ll(const char *call, shoal_team *t, T *dest, const T *src, size_t n)
{
  __shared__ shoal_ll ll;
  shoal_scope s = shoal_gpu_ll_scope<GRID, L, END>(t);
  shoal_gpu_reducer<T, OP> r;
  shoal_ll_reduce(&s, t, &ll, &r, dest, src, n, call);
}
/* Reduce-scatter of the same types, n elements per member's block: dest
 * disjoint from the source, which may be private (only read here).
 * Inlined into LL's own _on_stream kernel, which runs nothing else; a
 * call there, as below, read the team record through a generic pointer
 * and kept a stack frame: 0.5 us more of each call's open than the
 * all-reduce's (bench/gpu/bench_ll_trace, bench/RESULTS.md session 58). */
template <class T, class OP, bool GRID = false, class L = shoal_gpu_block_scope, bool END = false>
__device__ __forceinline__ void shoal_gpu_reduce_scatter_ll_inline(const char *call, shoal_team *t, T *dest,
                                                                   const T *src, size_t n)
{
  __shared__ shoal_ll ll;
  shoal_scope s = shoal_gpu_ll_scope<GRID, L, END>(t);
  shoal_gpu_reducer<T, OP> r;
  shoal_ll_reduce_scatter(&s, t, &ll, &r, dest, src, n, call);
}
/* The same not inlined, for the entry points that hold other algorithms
 * beside it: one body per type and op however many of them (block, grid,
 * the one-block _on_stream kernel) reach it -- inlined into each, with
 * the all-reduce beside it behind a runtime flag, it multiplied ptxas's
 * time for gpu_lib.cu (RESULTS.md, session 9). */
template <class T, class OP, bool GRID = false, class L = shoal_gpu_block_scope, bool END = false>
__device__ __noinline__ void shoal_gpu_reduce_scatter_ll(const char *call, shoal_team *t, T *dest, const T *src,
                                                         size_t n)
{
  shoal_gpu_reduce_scatter_ll_inline<T, OP, GRID, L, END>(call, t, dest, src, n);
}
/* Broadcast (which 0), fcollect (1), alltoall (2) of nbytes, a whole
 * number of words (shoal_ll_fits, shoal_ll_words).  PAIRS: fcollect and
 * alltoall may move two words a store where ll.h takes them. */
template <bool GRID = false, class L = shoal_gpu_block_scope, bool END = false, bool PAIRS = false>
__device__ inline void shoal_gpu_move_ll(const char *call, int which, shoal_team *t, void *dest, const void *src,
                                         size_t nbytes, int root)
{
  __shared__ shoal_ll ll;
  shoal_scope s = shoal_gpu_ll_scope<GRID, L, END>(t);
  s.ll_pairs = PAIRS;
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

/* The same, by thread 0 of the block (or warp), whose every thread calls
 * it and gets the answer: the selection's struct would otherwise sit in
 * the local memory of each thread (the block all-reduce of 16 KB: 9.8 ->
 * 9.1 us, bench/RESULTS.md, session 10). */
template <class L = shoal_gpu_block_scope>
__device__ inline int shoal_gpu_reduce_pick_block(const shoal_team *t, int where, bool scatter, const void *dest,
                                                  const void *src, size_t n, size_t es, bool ll = true,
                                                  size_t ll_span = 1)
{
  __shared__ int picked;
  if (L::tid() == 0) picked = shoal_gpu_reduce_pick(t, where, scatter, dest, src, n, es, ll, ll_span);
  L::sync();
  int algo = picked;
  L::sync();   /* picked is read before a later call writes it */
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

/* What only a whole lane runs (a block or a warp; on a grid: block 0): LL
 * (ll: where it can be picked), the channel algorithms, a refusal. */
template <class T, class OP, class L = shoal_gpu_block_scope>
__device__ inline void shoal_gpu_reduce_block_only(const char *call, shoal_team *t, int algo, bool scatter, T *dest,
                                                   const T *src, size_t n, bool ll = true)
{
  if (shoal_gpu_ll_elem<T> && ll && algo == SHOAL_REDUCE_LL) {
    if constexpr (shoal_gpu_ll_elem<T>) {
      if (scatter) shoal_gpu_reduce_scatter_ll<T, OP, false, L>(call, t, dest, src, n);
      else shoal_gpu_reduce_ll<T, OP, false, L>(call, t, dest, src, n);
    }
  } else if (algo == SHOAL_REDUCE_CHANNELS || algo == SHOAL_ALLREDUCE_HIER) {   /* more members than a lane's tables hold, or nodes */
    shoal_gpu_rcoll_reduce<T, OP, L>(call, t, dest, src, n, scatter);
  } else {
    if (L::tid() == 0) shoal_gpu_fail(call, src, -1);   /* the source must be symmetric */
  }
}
__device__ inline bool shoal_gpu_reduce_scoped_algo(int algo)
{
  return algo == SHOAL_REDUCE_PULL || algo == SHOAL_REDUCE_STAGED || algo == SHOAL_REDUCE_TWOSHOT ||
         algo == SHOAL_REDUCE_RING;
}
template <class T, class OP, class L = shoal_gpu_block_scope>
__device__ inline void shoal_gpu_reduce_block(const char *call, shoal_team *t, T *dest, const T *src, size_t n,
                                              bool scatter, bool fresh = false, bool ll = true)
{
  if (scatter && SHOAL_UNLIKELY(shoal_gpu_scatter_overlaps(dest, n * sizeof(T), src, n * sizeof(T) * (size_t)t->size)))
    shoal_gpu_scatter_overlap_fail(call, dest, src, L::tid() == 0);
  ll = ll && shoal_ll_lane_fits(L::warp, L::size(), t->size, n * sizeof(T));   /* a warp's LL: small calls only */
  int algo = shoal_gpu_reduce_pick_block<L>(t, SHOAL_AT_BLOCK, scatter, dest, src, n, sizeof(T), ll);
  if (!shoal_gpu_reduce_scoped_algo(algo)) {
    shoal_gpu_reduce_block_only<T, OP, L>(call, t, algo, scatter, dest, src, n, ll);
    return;
  }
  shoal_scope s = shoal_gpu_lane_of<L>(fresh);
  shoal_gpu_reduce_scoped<T, OP>(call, &s, t, algo, scatter, dest, src, n);
}

/* The typed _reduce_block and _reduce_scatter_block entry points, and
 * their _warp forms (below, and the 16-bit floats' in
 * <shoal/gpu_reduce16.h>). */
template <class T, class OP, class L = shoal_gpu_block_scope>
__device__ inline int shoal_gpu_reduce_block_call(const char *call, const char *call_sym, shmem_team_t team,
                                                  T *dest, const T *src, size_t nreduce, bool scatter)
{
  shoal_gpu_lane_check<L>(call);
  shoal_team *t = shoal_gpu_team_or_fail(call, team);
  if (!scatter) shoal_gpu_check_overlap<L>(call, dest, src, nreduce * sizeof(T));
  if (SHOAL_UNLIKELY(shoal_gpu_team_proxied(t)))
    shoal_gpu_rcoll_reduce<T, OP, L>(call, t, dest, src, nreduce, scatter);
  else
    shoal_gpu_reduce_block<T, OP, L>(scatter ? call_sym : call, t, dest, src, nreduce, scatter);
  return 0;
}
#define SHOAL_GPU_REDUCE_OP_AT(T, N, OP, L, SFX) \
  template <class shoal_unused = void> __device__ inline int shmemx_##N##_##OP##_reduce##SFX(shmem_team_t team, T *dest, const T *src, \
                                                        size_t nreduce) \
  { \
    return shoal_gpu_reduce_block_call<T, shoal_gpu_op_##OP, L>("shmemx_" #N "_" #OP "_reduce" #SFX, NULL, team, \
                                                                dest, src, nreduce, false); \
  } \
  template <class shoal_unused = void> __device__ inline int shmemx_##N##_##OP##_reduce_scatter##SFX(shmem_team_t team, T *dest, \
                                                                const T *src, size_t nreduce) \
  { \
    return shoal_gpu_reduce_block_call<T, shoal_gpu_op_##OP, L>( \
        "shmemx_" #N "_" #OP "_reduce_scatter" #SFX, \
        "shmemx_" #N "_" #OP "_reduce_scatter" #SFX " (source must be symmetric)", team, dest, src, nreduce, true); \
  }
#define SHOAL_GPU_REDUCE_OP(T, N, OP) \
  SHOAL_GPU_REDUCE_OP_AT(T, N, OP, shoal_gpu_block_scope, _block) \
  SHOAL_GPU_REDUCE_OP_AT(T, N, OP, shoal_gpu_warp_scope, _warp)
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
template <class L = shoal_gpu_block_scope>
__device__ inline int shoal_gpu_move_block(const char *call, int which, shmem_team_t team, void *dest,
                                           const void *src, size_t nbytes, int root, bool fresh = false,
                                           bool ll = true)
{
  shoal_gpu_lane_check<L>(call);
  shoal_team *t = shoal_gpu_team_or_fail(call, team);
  if (which == 0 && SHOAL_UNLIKELY(root < 0 || root >= t->size)) shoal_gpu_root_fail(call, root, t->size, L::tid() == 0);
  /* behind the proxy, or more members than a lane's peer table holds */
  if (SHOAL_UNLIKELY(shoal_gpu_team_proxied(t) || t->size > SHOAL_SCOPE_MAX_PEERS)) {
    shoal_gpu_rcoll_move<L>(call, which, t, dest, src, nbytes, root);
    return 0;
  }
  if (ll && shoal_ll_lane_fits(L::warp, L::size(), t->size, nbytes) &&
      shoal_move_ll_fits(which, shoal_ll_slot(t), 1, t->size, nbytes)) {
    shoal_gpu_move_ll<false, L>(call, which, t, dest, src, nbytes, root);
    return 0;
  }
  __shared__ char *pd[SHOAL_SCOPE_MAX_PEERS];
  shoal_scope s = shoal_gpu_lane_of<L>(fresh);
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
__device__ inline int shmemx_broadcastmem_warp(shmem_team_t team, void *dest, const void *src, size_t nbytes,
                                               int root)
{
  return shoal_gpu_move_block<shoal_gpu_warp_scope>("shmemx_broadcastmem_warp", 0, team, dest, src, nbytes, root);
}
__device__ inline int shmemx_fcollectmem_warp(shmem_team_t team, void *dest, const void *src, size_t nbytes)
{
  return shoal_gpu_move_block<shoal_gpu_warp_scope>("shmemx_fcollectmem_warp", 1, team, dest, src, nbytes, 0);
}
__device__ inline int shmemx_alltoallmem_warp(shmem_team_t team, void *dest, const void *src, size_t nbytes)
{
  return shoal_gpu_move_block<shoal_gpu_warp_scope>("shmemx_alltoallmem_warp", 2, team, dest, src, nbytes, 0);
}

#endif
