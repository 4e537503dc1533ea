/* Host entry points of the reductions: shmem_TYPE_OP_reduce (all-reduce),
 * shmemx_TYPE_OP_reduce_scatter, and the 16-bit float extensions. */
#include "coll_api.h"
#include "coll_lane.h"
#include "reduce_scatter.h"
#include "ll.h"

#ifdef SHOAL_HAVE_GPU
#include "../gpu/gpu_lib.h"
/* Integer (0 signed, 1 unsigned), floating (2), half (3), bfloat16 (4),
 * complexf (5) or complexd (6) type: how kernels see it (gpu/gpu_lib.h). */
static int reduce_kind(int type)
{
  switch (type) {
#define SHOAL_RT_KIND(T, N) case SHOAL_RT_##N: return (T)0.5 != (T)0 ? 2 : (T)-1 < (T)1 ? 0 : 1;
    SHOAL_REDUCE_MINMAX_TYPES(SHOAL_RT_KIND)
#undef SHOAL_RT_KIND
#ifdef SHOAL_HAVE_HALF
  case SHOAL_RT_half: return 3;
#endif
  case SHOAL_RT_bfloat16: return 4;
  case SHOAL_RT_complexf: return 5;
  case SHOAL_RT_complexd: return 6;
  default: return -1;
  }
}
#endif

/* GPU builds: a reduction on the GPU heap runs the block reduction. */
static bool reduce_on_gpu(const char *call, shoal_team *team, void *dest, const void *source,
                          size_t count, size_t dbytes, int type, int op, int scatter)
{
  if (!coll_on_gpu(call, dest, dbytes, source, true)) return false;
#ifdef SHOAL_HAVE_GPU
  size_t es = shoal_reduce_size(type);
  int rc = shoal_gpu_lib_reduce(call, team, dest, source, count, reduce_kind(type), (int)es, op, scatter);
  if (rc == -2) {
    bool d = ((uintptr_t)dest & (es - 1)) != 0;
    shoal_error(call, "argument '%s' (%p): complex products on GPU memory take buffers aligned to %zu bytes",
                d ? "dest" : "source", d ? dest : source, es);
  }
  if (rc != 0)
    shoal_error(call, "this type is not reduced on GPU memory (the integer types, float, double, half, "
                      "bfloat16 and complex are)");
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

/* The CPU's selection (collectives/reduce_select.h) for this team and call. */
static inline int reduce_pick(shoal_team *team, size_t count, size_t es, bool scatter, bool in_place)
{
  shoal_reduce_ask a = {
    .where = SHOAL_AT_CPU,
    .forced = scatter ? SHOAL_ALLREDUCE_AUTO : allreduce_forced(),
    .scatter = scatter,
    .count = count,
    .es = es,
    .direct = shoal_push_ok(team),
    .in_place = in_place,
    .src_sym = true,   /* the entry points require both */
    .dest_sym = true,
  };
  shoal_reduce_ask_team(&a, team);
  return shoal_reduce_select(&a);
}

/* Run what reduce_pick chose: a scope algorithm at one lane of one thread,
 * or a channel algorithm. */
static inline void reduce_run(const char *call, shoal_team *team, int algo, bool scatter, void *dest, const void *source,
                       size_t count, int type, int op)
{
  if (algo == SHOAL_REDUCE_PULL || algo == SHOAL_REDUCE_STAGED || algo == SHOAL_REDUCE_TWOSHOT ||
      algo == SHOAL_REDUCE_RING) {
    shoal_scope s = shoal_scope_make(0, 1, 0, 1, 0);
    shoal_reducer r = shoal_reducer_make(type, op);
    char *ps[SHOAL_SCOPE_MAX_PEERS], *pd[SHOAL_SCOPE_MAX_PEERS];
    shoal_reduce_run_scope(&s, team, &r, algo, scatter, ps, pd, dest, source, count, call);
  } else if (scatter) {
    shoal_coll_reduce_scatter_run(team, algo, type, op, dest, source, count);
  } else {
    shoal_coll_allreduce(team, algo, type, op, dest, source, count);
  }
}

/* SHMEM_DEBUG: which algorithm, once per team, kind and algorithm (bits
 * 0-15 of coll_logged: all-reduce; 16-31: reduce-scatter). */
static void reduce_log(const char *call, shoal_team *team, int algo, bool scatter)
{
  static const char *const names[] = {"auto", "oneshot", "twoshot", "ring", "push", "hier", "pull", "staged",
                                      "twoshot-scope", "ll", "channels", "launch-block", "launch-grid", "refuse",
                                      "ring-scope"};
  unsigned bit = 1u << ((algo & 15) + (scatter ? 16 : 0));
  if (!shoal_rt.env.debug || algo < 0 || (team->coll_logged & bit)) return;
  team->coll_logged |= bit;
  shoal_debug("%s: %s on the team of world PEs %d + %d i (%d PEs, %d nodes%s) takes %s", call,
              scatter ? "reduce-scatter" : "all-reduce", team->start, team->stride, team->size,
              team->hier_nodes ? team->hier_nodes : -1, team->hier ? ", hierarchical" : "",
              algo < (int)(sizeof names / sizeof names[0]) ? names[algo] : "?");
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
  int algo = reduce_pick(team, count, es, false, dest == source);
  reduce_log(call, team, algo, false);
  /* Depending on size, an algorithm reads the source or writes the dest of
   * other PEs (Iris #526): require both always, so that a program does not
   * pass or fail by message size. */
  coll_need_sym(call, "source", source, bytes);
  coll_need_sym(call, "dest", dest, bytes);
  reduce_run(call, team, algo, false, dest, source, count, type, op);
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
  int algo = reduce_pick(team, count, es, true, false);
  reduce_log(call, team, algo, true);
  reduce_run(call, team, algo, true, dest, source, count, type, op);
  return 0;
}

/* A reduction type and operator by name ("long", "sum"); -1 if unknown. */
static int reduce_type_index(const char *type)
{
  static const char *const types[] = {
#define SHOAL_RT_NAME(T, N) #N,
    SHOAL_REDUCE_ARITH_TYPES(SHOAL_RT_NAME) SHOAL_HALF_TYPES(SHOAL_RT_NAME)
#undef SHOAL_RT_NAME
  };
  for (int i = 0; i < (int)(sizeof types / sizeof types[0]); i++)
    if (type && !strcmp(type, types[i])) return i;
  return -1;
}
static int reduce_op_index(const char *op)
{
  static const char *const ops[] = {
#define SHOAL_OP_NAME(OP, CLASS) #OP,
    SHOAL_REDUCE_OPS(SHOAL_OP_NAME)
#undef SHOAL_OP_NAME
  };
  for (int i = 0; i < SHOAL_OP_COUNT; i++)
    if (op && !strcmp(op, ops[i])) return i;
  return -1;
}

/* For tests/coll/test_lanes (not a public API): the reductions of
 * collectives/ at a scope of nlanes lanes, this thread lane `lane`, the way
 * a GPU grid runs them with a block per lane.  which: 0 the one-shot pull,
 * 1 the staged pull, 2 two-shot (all-reduce; in place: 1, 2 or 4), 3
 * reduce-scatter, 4 the ring (reduce_ring.h).  type, op: names as in shmem_TYPE_OP_reduce ("long",
 * "sum").  Every PE must run the same nlanes; the threads of a PE call it
 * concurrently.  nlanes < 0: -nlanes lanes that meet only the peers' (as
 * an _on_stream kernel's blocks), not each other. */
SHOAL_API int shoalx_coll_reduce_lane(int which, shmem_team_t team, void *dest, const void *source, size_t count,
                                      const char *type, const char *op, int lane, int nlanes)
{
  static const int algos[5] = {SHOAL_REDUCE_PULL, SHOAL_REDUCE_STAGED, SHOAL_REDUCE_TWOSHOT, SHOAL_REDUCE_PULL,
                               SHOAL_REDUCE_RING};
  const char *call = "shoalx_coll_reduce_lane";
  int ti = reduce_type_index(type), oi = reduce_op_index(op);
  int local = nlanes > 0;   /* negative: the lanes meet only the peers (an _on_stream kernel's grid) */
  if (!local) nlanes = -nlanes;
  if (!coll_lane_check(call, team, lane, nlanes)) return -1;
  if (which < 0 || which > 4) shoal_error(call, "argument 'which' = %d must be 0, 1, 2, 3 or 4", which);
  if (ti < 0 || oi < 0) shoal_error(call, "argument 'type' (%s) or 'op' (%s) is unknown", type ? type : "NULL",
                                    op ? op : "NULL");
  if (which == 0 && dest == source) shoal_error(call, "the pull is not in place (1 and 2 are)");
  if (which == 1 && shoal_coll_scratch_size(team) < shoal_reduce_size(ti))
    shoal_error(call, "the team has no scratch to stage through");
  if (which == 4 && dest == source && team->size > 1 &&
      !shoal_ring_share_elems(shoal_ring_slot_bytes(shoal_coll_scratch_size(team), team->size),
                              shoal_reduce_size(ti)))
    shoal_error(call, "the team's scratch is too small for the ring in place");
  shoal_scope s = shoal_scope_make(0, 1, (unsigned)lane, (unsigned)nlanes, local);
  shoal_reducer r = shoal_reducer_make(ti, oi);
  char *ps[SHOAL_SCOPE_MAX_PEERS], *pd[SHOAL_SCOPE_MAX_PEERS];
  shoal_reduce_run_scope(&s, team, &r, algos[which], which == 3, ps, pd, dest, source, count, call);
  return 0;
}

/* For tests/coll/test_lanes (not a public API): the LL collectives of
 * collectives/ll.h on the CPU.  Bytes per pair LL carries on this team in
 * one call (half a pushbox slot; a call of more takes several slots of the
 * ring, up to half of it; 0: none); *one_slot: what one slot carries. */
SHOAL_API size_t shoalx_coll_ll_capacity(shmem_team_t team, size_t *one_slot)
{
  if (one_slot) *one_slot = 0;
  if (!shoal_team_handle_ok("shoalx_coll_ll_capacity", team)) return 0;
  if (!shoal_ll_fits(team, 0) || team->slot < 0) return 0;
  size_t half = shoal_pushbox_slot_bytes(team) / 2;
  if (one_slot) *one_slot = half;
  return shoal_ll_span_max(team->pushbox_depth) * half;
}
/* Run one as lane `lane` of `nlanes` (one CPU thread each; LL's words go
 * by index, so the PEs may run different numbers).  A negative nlanes:
 * -nlanes lanes that do not meet, as an _on_stream kernel's blocks
 * (collectives/ll.h): the caller makes sure every lane of the previous
 * call has returned first.  which: 0 broadcast (nbytes from team PE root; in place
 * allowed), 1 fcollect, 2 alltoall (nbytes per member, a whole number of
 * 4-byte words), 3 all-reduce (count elements of `type` (4 or 8 bytes)
 * with `op`, in place allowed), 4 reduce-scatter (the same types; count
 * elements per member's block, the source team size x count; dest must
 * not overlap it).  The team's pushbox must be used by LL calls only
 * (collectives/ll.h says why). */
SHOAL_API int shoalx_coll_ll_lane(int which, shmem_team_t team, void *dest, const void *source, size_t count,
                                  const char *type, const char *op, int root, int lane, int nlanes)
{
  const char *call = "shoalx_coll_ll_lane";
  int local = nlanes > 0;
  if (!local) nlanes = -nlanes;
  if (!coll_lane_check(call, team, lane, nlanes)) return -1;
  if (which < 0 || which > 4) shoal_error(call, "argument 'which' = %d must be 0, 1, 2, 3 or 4", which);
  int ti = -1, oi = -1;
  size_t es = 1, bytes = count;
  bool reduction = which == 3 || which == 4;
  if (reduction) {
    ti = reduce_type_index(type);
    oi = reduce_op_index(op);
    if (ti < 0 || oi < 0) shoal_error(call, "argument 'type' (%s) or 'op' (%s) is unknown", type ? type : "NULL",
                                      op ? op : "NULL");
    es = shoal_reduce_size(ti);
    if (es != 4 && es != 8) shoal_error(call, "argument 'type' (%s): LL reduces 4- and 8-byte types only", type);
    bytes = count * es;
  } else if (!shoal_ll_words(bytes)) {
    shoal_error(call, "argument 'count' = %zu: LL moves whole 4-byte words", count);
  }
  if (!shoal_ll_fits(team, bytes))
    shoal_error(call, "argument 'count' = %zu: %zu bytes per pair do not fit the team's LL pushbox (%zu)", count,
                bytes, shoalx_coll_ll_capacity(team, NULL));
  if (which == 0 && (root < 0 || root >= team->size))
    shoal_error(call, "argument 'root' = %d is out of range: the team has PEs 0..%d", root, team->size - 1);
  size_t dbytes = which == 1 || which == 2 ? bytes * (size_t)team->size : bytes;
  size_t sbytes = which == 2 || which == 4 ? bytes * (size_t)team->size : bytes;
  const char *d = dest, *s = source;
  bool same_ok = which == 0 || which == 3;
  if (bytes && d < s + sbytes && s < d + dbytes && !(same_ok && d == s))
    shoal_error(call, "dest %p and source %p overlap%s", dest, source, same_ok ? " but are not the same array" : "");
  shoal_scope sc = shoal_scope_make(0, 1, (unsigned)lane, (unsigned)nlanes, local);
  sc.fresh = !local;
  sc.ends_kernel = !local;   /* as the kernel's blocks: the same paths (ll.h's pairs) */
  sc.ll_pairs = 2;   /* whatever the size: the tests' calls are small */
  shoal_ll ll;
  if (reduction) {
    shoal_reducer r = shoal_reducer_make(ti, oi);
    if (which == 4) shoal_ll_reduce_scatter(&sc, team, &ll, &r, dest, source, count, call);
    else shoal_ll_reduce(&sc, team, &ll, &r, dest, source, count, call);
  } else {
    shoal_ll_move(&sc, team, &ll, which, dest, source, bytes, root, call);
  }
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
