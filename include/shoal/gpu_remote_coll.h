/* GPU collectives on teams with members behind the host proxy (another
 * node): the shared algorithms of collectives/ -- the ones the CPU runs --
 * run by one thread of the block, their puts, gets and signals going
 * through the device API (load/store to mapped members, the host proxy to
 * the others).  "One algorithm, every target", for the remote case: no
 * GPU-only algorithm.  Included by <shoal/gpu_block.h>.
 *
 * Which teams: the kernels' copy of a team says (gpu_proxied, set once when
 * the team is made visible to kernels).  GPU heaps are mapped per node, so
 * every member of a team that spans nodes has an unmapped member and takes
 * this path: all members run the same algorithm.  Every entry point of a
 * block, grid or _on_stream collective (and the host's blocking ones on GPU
 * memory, which launch those kernels) tests the flag first; teams that are
 * all mapped keep their load/store paths.
 *
 * Which algorithm (the same on every member, by sizes alone):
 *  - all-reduce: on a team whose node layout allows it (some node holds
 *    several members: teams/team.h hier), the hierarchical one
 *    (collectives/hier.h: load/store inside the node, only the leaders
 *    through the proxy), as the CPU's auto picks it; else the push one-shot
 *    (collectives/reduce_push.h).  Both go in slot-sized chunks through the
 *    pushbox, so source and dest may be any global memory and in place
 *    works (shoal_allreduce_pick: two-shot where a team has no pushbox,
 *    which then needs both symmetric);
 *  - broadcast: the push broadcast, one pushbox slot per round (the pull
 *    broadcast where a team has no pushbox: the root's source symmetric);
 *  - fcollect (dest symmetric): the hierarchical one (collectives/hier.h)
 *    where the node layout allows it, else collectives/fcollect.h;
 *  - reduce-scatter (source symmetric): the hierarchical one
 *    (collectives/hier.h: the leader reads its node's sources over
 *    load/store, leaders exchange only the other nodes' ranges) where the
 *    node layout allows it, as the CPU's selection (shoal_reduce_scatter_pick),
 *    else collectives/reduce_scatter.h;
 *  - the prefix sums (source symmetric), alltoall (dest symmetric):
 *    scan.h, alltoall.h.
 * Buffers are global device memory (the proxy copies from and to them with
 * the GPU runtime), not __shared__ or local memory. */
#ifndef SHOAL_GPU_REMOTE_COLL_H
#define SHOAL_GPU_REMOTE_COLL_H

#include <shoal/collectives/reduce_select.h>
#include <shoal/collectives/reduce_scatter.h>
#include <shoal/collectives/broadcast_push.h>
#include <shoal/collectives/fcollect.h>
#include <shoal/collectives/alltoall.h>
#include <shoal/collectives/scan.h>
#include "gpu_f16.h"
#include "gpu_complex.h"

__device__ inline bool shoal_gpu_team_proxied(const shoal_team *t) { return t->gpu_proxied != 0; }

/* The type-erased algorithms' reduction type of T.  Bitwise types first:
 * int8_t is signed char, and the bitwise table knows it as int8.  The
 * 16-bit floats of <shoal/gpu_f16.h> and their pairs: bfloat16, half16;
 * the complex pairs of <shoal/gpu_complex.h>: cpairf, cpaird. */
template <class T> __host__ __device__ constexpr int shoal_gpu_rtype(void)
{
#define SHOAL_GPU_RT_IS(TT, N) \
  if (std::is_same<T, TT>::value) return SHOAL_RT_##N;
  SHOAL_REDUCE_BITWISE_TYPES(SHOAL_GPU_RT_IS)
  SHOAL_REDUCE_MINMAX_DEVICE_TYPES(SHOAL_GPU_RT_IS)
#undef SHOAL_GPU_RT_IS
  if (std::is_same<T, shoal_gpu_bfloat16>::value || std::is_same<T, shoal_gpu_bfloat162>::value)
    return SHOAL_RT_bfloat16;
  if (std::is_same<T, shoal_gpu_half>::value || std::is_same<T, shoal_gpu_half2>::value) return SHOAL_RT_half16;
  if (std::is_same<T, shoal_gpu_complexf>::value) return SHOAL_RT_cpairf;
  if (std::is_same<T, shoal_gpu_complexd>::value) return SHOAL_RT_cpaird;
  return -1;
}
/* Elements of that type in one T: two in a pair. */
template <class T> __host__ __device__ constexpr size_t shoal_gpu_relems(void)
{
  return std::is_same<T, shoal_gpu_bfloat162>::value || std::is_same<T, shoal_gpu_half2>::value ? 2 : 1;
}
/* ... and operator of OP (shoal_gpu_op_sum, ...). */
template <class OP> struct shoal_gpu_rop;
#define SHOAL_GPU_ROP(OP, CLASS) \
  template <> struct shoal_gpu_rop<shoal_gpu_op_##OP> { static const int value = SHOAL_OP_##OP; };
SHOAL_REDUCE_OPS(SHOAL_GPU_ROP)
#undef SHOAL_GPU_ROP

enum shoal_gpu_rcoll {
  SHOAL_GPU_RC_BROADCAST = 0, SHOAL_GPU_RC_FCOLLECT = 1, SHOAL_GPU_RC_ALLTOALL = 2,   /* shoal_grid_move's which */
  SHOAL_GPU_RC_ALLREDUCE, SHOAL_GPU_RC_REDUCE_SCATTER, SHOAL_GPU_RC_INSCAN, SHOAL_GPU_RC_EXSCAN,
};

SHOAL_COLD_FN void shoal_gpu_rcoll_fail(const char *call, const char *arg, const void *p, const char *why)
{
  printf("shoal: PE %d: error: %s: argument '%s' (%p) %s (the team has members behind the host proxy, "
         "on another node)\n", SHOAL_STATE->my_pe, call, arg, p, why);
  shoal_gpu_trap();
}
SHOAL_FN void shoal_gpu_rcoll_need_sym(const char *call, const char *arg, const void *p, size_t bytes)
{
  if (bytes && !(shoal_dev_is_symmetric(p) && shoal_dev_is_symmetric((const char *)p + bytes - 1)))
    shoal_gpu_rcoll_fail(call, arg, p, "must be in the symmetric GPU heap");
}

/* Broadcast in pushbox-slot rounds: the root's source may be any memory. */
SHOAL_FN void shoal_gpu_rcoll_broadcast(const char *call, shoal_team *t, void *dest, const void *src,
                                        size_t bytes, int root)
{
  size_t slot = shoal_pushbox_slot_bytes(t);
  if (slot == 0) {
    if (t->my_pe == root) shoal_gpu_rcoll_need_sym(call, "source", src, bytes);
    shoal_coll_broadcast(t, dest, src, bytes, root, 1);
    return;
  }
  for (size_t off = 0; off < bytes; off += slot) {
    size_t c = bytes - off < slot ? bytes - off : slot;
    shoal_coll_broadcast_push(t, (char *)dest + off, (const char *)src + off, c, root, 1);
  }
}

/* Thread 0 of the block: one collective of collectives/ on team t.  n:
 * elements (reductions) or bytes (the data movers).  Out of line: one copy
 * per unit, however many types and operators call it. */
static __device__ __noinline__ void shoal_gpu_rcoll_run(const char *call, int which, shoal_team *t, int type,
                                                       int op, void *dest, const void *src, size_t n, int root)
{
  shoal_fence_system();   /* the block's stores (ordered by __syncthreads) before peers or the proxy read */
  switch (which) {
  case SHOAL_GPU_RC_ALLREDUCE: {
    size_t es = shoal_reduce_size(type);
    /* auto's hierarchical choice where it applies: it takes any memory, as push does */
    int algo = shoal_allreduce_pick(t, shoal_allreduce_hier_wins(t, n, es) ? SHOAL_ALLREDUCE_HIER : SHOAL_ALLREDUCE_PUSH,
                                    n, es, dest == src);
    if (algo != SHOAL_ALLREDUCE_PUSH && algo != SHOAL_ALLREDUCE_HIER) {   /* no pushbox: peers read my source and write my dest */
      shoal_gpu_rcoll_need_sym(call, "source", src, n * es);
      shoal_gpu_rcoll_need_sym(call, "dest", dest, n * es);
    }
    shoal_coll_allreduce(t, algo, type, op, dest, src, n);
    break;
  }
  case SHOAL_GPU_RC_REDUCE_SCATTER: {
    size_t es = shoal_reduce_size(type), all = n * es * (size_t)t->size;
    const char *d = (const char *)dest, *s = (const char *)src;
    shoal_gpu_rcoll_need_sym(call, "source", src, all);
    if (n && d < s + all && s < d + n * es)
      shoal_gpu_rcoll_fail(call, "dest", dest, "overlaps the source (peers read all of it)");
    shoal_coll_reduce_scatter_run(t, shoal_reduce_scatter_pick(t, n, es), type, op, dest, src, n);   /* hier or flat */
    break;
  }
  case SHOAL_GPU_RC_INSCAN:
  case SHOAL_GPU_RC_EXSCAN:   /* peers read my source; in place goes through scratch */
    shoal_gpu_rcoll_need_sym(call, "source", src, n * shoal_reduce_size(type));
    shoal_coll_scan(t, type, which == SHOAL_GPU_RC_INSCAN, dest, src, n);
    break;
  case SHOAL_GPU_RC_BROADCAST: shoal_gpu_rcoll_broadcast(call, t, dest, src, n, root); break;
  case SHOAL_GPU_RC_FCOLLECT:
    shoal_gpu_rcoll_need_sym(call, "dest", dest, n * (size_t)t->size);
    if (t->hier) shoal_coll_fcollect_hier(t, dest, src, n);   /* as shoal_coll_fcollect_pick: nodes first */
    else shoal_coll_fcollect(t, dest, src, n);
    break;
  default:
    shoal_gpu_rcoll_need_sym(call, "dest", dest, n * (size_t)t->size);
    shoal_coll_alltoall(t, dest, src, n);
    break;
  }
  shoal_fence_system();
}

/* The whole block (or warp: L) calls: it meets, thread 0 runs the
 * collective, it meets again, and every thread sees what thread 0 and the
 * proxy wrote. */
template <class L = shoal_gpu_block_scope>
__device__ inline void shoal_gpu_rcoll_block(const char *call, int which, shoal_team *t, int type, int op,
                                             void *dest, const void *src, size_t n, int root)
{
  L::sync();
  if (L::tid() == 0) shoal_gpu_rcoll_run(call, which, t, type, op, dest, src, n, root);
  L::sync();
  shoal_fence_system();   /* no stale line of dest in this thread's view */
}
template <class T, class OP, class L = shoal_gpu_block_scope>
__device__ inline void shoal_gpu_rcoll_reduce(const char *call, shoal_team *t, T *dest, const T *src, size_t n,
                                              bool scatter)
{
  static_assert(shoal_gpu_rtype<T>() >= 0, "a GPU reduction's element type the type-erased algorithms know");
  shoal_gpu_rcoll_block<L>(call, scatter ? SHOAL_GPU_RC_REDUCE_SCATTER : SHOAL_GPU_RC_ALLREDUCE, t,
                        shoal_gpu_rtype<T>(), shoal_gpu_rop<OP>::value, dest, src, n * shoal_gpu_relems<T>(), 0);
}
template <class T, class L = shoal_gpu_block_scope>
__device__ inline void shoal_gpu_rcoll_scan(const char *call, shoal_team *t, T *dest, const T *src, size_t n,
                                            bool inclusive)
{
  static_assert(shoal_gpu_rtype<T>() >= 0, "a GPU scan's element type the type-erased algorithms know");
  shoal_gpu_rcoll_block<L>(call, inclusive ? SHOAL_GPU_RC_INSCAN : SHOAL_GPU_RC_EXSCAN, t, shoal_gpu_rtype<T>(),
                        SHOAL_OP_sum, dest, src, n, 0);
}
template <class L = shoal_gpu_block_scope>
__device__ inline void shoal_gpu_rcoll_move(const char *call, int which, shoal_team *t, void *dest,
                                            const void *src, size_t nbytes, int root)
{
  shoal_gpu_rcoll_block<L>(call, which, t, 0, 0, dest, src, nbytes, root);
}

#endif
