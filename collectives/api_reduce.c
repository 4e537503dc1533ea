/* Host entry points of the reductions: shmem_TYPE_OP_reduce (all-reduce),
 * shmemx_TYPE_OP_reduce_scatter, and the 16-bit float extensions. */
#include "coll_api.h"
#include "reduce_scatter.h"

#ifdef SHOAL_HAVE_GPU
#include "../gpu/gpu_lib.h"
/* Integer (0 signed, 1 unsigned) or floating (2) type: how kernels see it. */
static int reduce_kind(int type)
{
  switch (type) {
#define SHOAL_RT_KIND(T, N) case SHOAL_RT_##N: return (T)0.5 != (T)0 ? 2 : (T)-1 < (T)1 ? 0 : 1;
    SHOAL_REDUCE_MINMAX_TYPES(SHOAL_RT_KIND)
#undef SHOAL_RT_KIND
  default: return -1;   /* complex, 16-bit floats */
  }
}
#endif

/* GPU builds: a reduction on the GPU heap runs the block reduction. */
static bool reduce_on_gpu(const char *call, shoal_team *team, void *dest, const void *source,
                          size_t count, size_t dbytes, int type, int op, int scatter)
{
  if (!coll_on_gpu(call, dest, dbytes, source, true)) return false;
#ifdef SHOAL_HAVE_GPU
  if (shoal_gpu_lib_reduce(call, team, dest, source, count, reduce_kind(type), (int)shoal_reduce_size(type),
                           op, scatter) != 0)
    shoal_error(call, "this type is not reduced on GPU memory (the integer types, float and double are)");
#else
  (void)team; (void)count; (void)type; (void)op; (void)scatter;
#endif
  return true;
}

static int allreduce_forced(void)
{
  const char *a = shoal_rt.env.allreduce;
  if (!a) return SHOAL_ALLREDUCE_AUTO;
  if (!strcmp(a, "oneshot")) return SHOAL_ALLREDUCE_ONESHOT;
  if (!strcmp(a, "twoshot")) return SHOAL_ALLREDUCE_TWOSHOT;
  if (!strcmp(a, "ring")) return SHOAL_ALLREDUCE_RING;
  if (!strcmp(a, "push")) return SHOAL_ALLREDUCE_PUSH;
  if (!strcmp(a, "hier")) return SHOAL_ALLREDUCE_HIER;
  return SHOAL_ALLREDUCE_AUTO;
}

int shoal_reduce_call(const char *call, shoal_team *team, void *dest, const void *source,
                      size_t count, int type, int op)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  if (!coll_team_ok(call, team)) return -1;
  size_t es = shoal_reduce_size(type);
  size_t bytes = coll_bytes(call, "nreduce", count, es);
  if (bytes == 0) return 0;
  if (reduce_on_gpu(call, team, dest, source, count, bytes, type, op, 0)) return 0;
  coll_no_partial_overlap(call, dest, bytes, source, bytes, true);
  int algo = shoal_allreduce_pick(team, allreduce_forced(), count, es, dest == source);
  if (shoal_rt.env.debug && !(team->coll_logged & (1u << algo))) {   /* once per team and algorithm */
    static const char *const names[] = {"auto", "oneshot", "twoshot", "ring", "push", "hier"};
    team->coll_logged |= 1u << algo;
    shoal_debug("%s: all-reduce on the team of world PEs %d + %d i (%d PEs, %d nodes%s) takes %s", call,
                team->start, team->stride, team->size, team->hier_nodes ? team->hier_nodes : -1,
                team->hier ? ", hierarchical" : "", names[algo]);
  }
  /* Depending on size, an algorithm reads the source or writes the dest of
   * other PEs (Iris #526): require both always, so that a program does not
   * pass or fail by message size. */
  coll_need_sym(call, "source", source, bytes);
  coll_need_sym(call, "dest", dest, bytes);
  shoal_coll_allreduce(team, algo, type, op, dest, source, count);
  return 0;
}

static int reduce_scatter_call(const char *call, shoal_team *team, void *dest, const void *source,
                               size_t count, int type, int op)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  if (!coll_team_ok(call, team)) return -1;
  size_t es = shoal_reduce_size(type);
  size_t bytes = coll_bytes(call, "nreduce", count, es);
  if (bytes == 0) return 0;
  size_t all = coll_bytes(call, "nreduce", count, es * (size_t)team->size);
  if (reduce_on_gpu(call, team, dest, source, count, bytes, type, op, 1)) return 0;
  coll_need_sym(call, "source", source, all);
  coll_no_partial_overlap(call, dest, bytes, source, all, false);
  shoal_coll_reduce_scatter(team, type, op, dest, source, count);
  return 0;
}

#define SHOAL_REDUCE_API_PFX(PFX, T, N, OP) \
  int PFX##_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce) \
  { \
    return shoal_reduce_call(#PFX "_" #N "_" #OP "_reduce", team, dest, source, nreduce, \
                             SHOAL_RT_##N, SHOAL_OP_##OP); \
  } \
  int shmemx_##N##_##OP##_reduce_scatter(shmem_team_t team, T *dest, const T *source, \
                                         size_t nreduce) \
  { \
    return reduce_scatter_call("shmemx_" #N "_" #OP "_reduce_scatter", team, dest, source, \
                               nreduce, SHOAL_RT_##N, SHOAL_OP_##OP); \
  }
#define SHOAL_REDUCE_API_OP(T, N, OP) SHOAL_REDUCE_API_PFX(shmem, T, N, OP)
#define SHOAL_REDUCE_API_BITWISE(T, N) \
  SHOAL_REDUCE_API_OP(T, N, and) SHOAL_REDUCE_API_OP(T, N, or) SHOAL_REDUCE_API_OP(T, N, xor)
#define SHOAL_REDUCE_API_MINMAX(T, N) SHOAL_REDUCE_API_OP(T, N, min) SHOAL_REDUCE_API_OP(T, N, max)
#define SHOAL_REDUCE_API_ARITH(T, N) SHOAL_REDUCE_API_OP(T, N, sum) SHOAL_REDUCE_API_OP(T, N, prod)
SHOAL_REDUCE_BITWISE_TYPES(SHOAL_REDUCE_API_BITWISE)
SHOAL_REDUCE_MINMAX_TYPES(SHOAL_REDUCE_API_MINMAX)
SHOAL_REDUCE_ARITH_TYPES(SHOAL_REDUCE_API_ARITH)

/* 16-bit floats (shmemx.h): sum, prod, min, max. */
#define SHOAL_REDUCE_API_F16(T, N) \
  SHOAL_REDUCE_API_PFX(shmemx, T, N, sum) SHOAL_REDUCE_API_PFX(shmemx, T, N, prod) \
  SHOAL_REDUCE_API_PFX(shmemx, T, N, min) SHOAL_REDUCE_API_PFX(shmemx, T, N, max)
SHMEMX_F16_TYPES(SHOAL_REDUCE_API_F16)
