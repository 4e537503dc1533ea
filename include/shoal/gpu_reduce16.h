/* 16-bit float reductions on the GPU: half (IEEE binary16) and bfloat16,
 * OP sum, prod, min, max, as the host's shmemx_half_OP_reduce:
 *   shmemx_half_OP_reduce_block, shmemx_half_OP_reduce_scatter_block
 *   shmemx_half_OP_reduce_warp, shmemx_half_OP_reduce_scatter_warp
 *   shmemx_half_OP_reduce_grid, shmemx_half_OP_reduce_scatter_grid
 *   shmemx_half_OP_reduce_on_stream, shmemx_half_OP_reduce_scatter_on_stream
 * and the same for bfloat16.  They are the typed forms' algorithms and
 * selection over the element types of <shoal/gpu_f16.h>: sums and
 * products of an even count on 4-byte aligned buffers in pairs (4-byte
 * elements: LL for small calls, one instruction for two elements), the
 * rest element by element.  dest and source may point to any 2-byte type
 * that holds the bits -- __half, __nv_bfloat16, hip_bfloat16, uint16_t,
 * shmemx_bfloat16_t -- so a kernel passes its own tensors without a
 * cast.  Included by <shoal/gpu_x.h>; `man shmemx_half_sum_reduce_block`. */
#ifndef SHOAL_GPU_REDUCE16_H
#define SHOAL_GPU_REDUCE16_H

#include "gpu_f16.h"

/* The caller's 2-byte elements as element type E. */
template <class E, class H> __host__ __device__ inline E *shoal_gpu_f16_elems(H *p)
{
  static_assert(sizeof(H) == 2, "the half and bfloat16 reductions take 2-byte elements (__half, __nv_bfloat16, "
                                "uint16_t, ...)");
  return (E *)(void *)p;
}
template <class E, class H> __host__ __device__ inline const E *shoal_gpu_f16_elems(const H *p)
{
  return shoal_gpu_f16_elems<E>((H *)p);
}
/* Whether a call may go in pairs: an even count (every member's block of
 * a reduce-scatter then starts on a pair too), 4-byte aligned buffers.
 * Every member must find the same: symmetric buffers sit at the same
 * offsets everywhere, and a private source must agree modulo 4 (the man
 * page says so). */
__host__ __device__ inline bool shoal_gpu_f16_paired(const void *dest, const void *src, size_t n)
{
  return (n & 1) == 0 && (((uintptr_t)dest | (uintptr_t)src) & 3) == 0;
}

/* One entry point of each scope over E, or E2 (pairs) where PAIRS and
 * the call allows. */
template <class E, class E2, class OP, bool PAIRS, class L, class H>
__device__ inline int shoal_gpu_reduce16_block(const char *call, const char *call_sym, shmem_team_t team, H *dest,
                                               const H *src, size_t n, bool scatter)
{
  if constexpr (PAIRS)
    if (shoal_gpu_f16_paired(dest, src, n))
      return shoal_gpu_reduce_block_call<E2, OP, L>(call, call_sym, team, (E2 *)(void *)dest,
                                                    (const E2 *)(const void *)src, n / 2, scatter);
  return shoal_gpu_reduce_block_call<E, OP, L>(call, call_sym, team, shoal_gpu_f16_elems<E>(dest),
                                               shoal_gpu_f16_elems<E>(src), n, scatter);
}
template <class E, class E2, class OP, bool PAIRS, class H>
__device__ inline int shoal_gpu_reduce16_grid(const char *call, shmem_team_t team, H *dest, const H *src, size_t n,
                                              bool scatter)
{
  if constexpr (PAIRS)
    if (shoal_gpu_f16_paired(dest, src, n)) {
      E2 *d = (E2 *)(void *)dest;
      const E2 *s = (const E2 *)(const void *)src;
      if (scatter) shoal_grid_reduce_scatter<E2, OP>(call, team, d, s, n / 2);
      else shoal_grid_reduce<E2, OP>(call, team, d, s, n / 2);
      return 0;
    }
  if (scatter) shoal_grid_reduce_scatter<E, OP>(call, team, shoal_gpu_f16_elems<E>(dest), shoal_gpu_f16_elems<E>(src), n);
  else shoal_grid_reduce<E, OP>(call, team, shoal_gpu_f16_elems<E>(dest), shoal_gpu_f16_elems<E>(src), n);
  return 0;
}
template <class E, class E2, class OP, bool PAIRS, class H>
static inline int shoal_gpu_reduce16_on_stream(const char *call, shmem_team_t team, H *dest, const H *src, size_t n,
                                               int scatter, shoal_gpu_stream_t stream)
{
  if constexpr (PAIRS)
    if (shoal_gpu_f16_paired(dest, src, n))
      return shoal_gpu_reduce_on_stream<E2, OP>(call, team, (E2 *)(void *)dest, (const E2 *)(const void *)src, n / 2,
                                                scatter, stream);
  return shoal_gpu_reduce_on_stream<E, OP>(call, team, shoal_gpu_f16_elems<E>(dest), shoal_gpu_f16_elems<E>(src), n,
                                           scatter, stream);
}

/* PAIRS: sum and prod (elementwise on a pair); min and max compare single
 * elements. */
#define SHOAL_GPU_REDUCE16_LANE(E, E2, N, OP, PAIRS, L, SFX) \
  template <class H> \
  __device__ inline int shmemx_##N##_##OP##_reduce##SFX(shmem_team_t team, H *dest, const H *source, size_t nreduce) \
  { \
    return shoal_gpu_reduce16_block<E, E2, shoal_gpu_op_##OP, PAIRS, L>("shmemx_" #N "_" #OP "_reduce" #SFX, NULL, \
                                                                       team, dest, source, nreduce, false); \
  } \
  template <class H> \
  __device__ inline int shmemx_##N##_##OP##_reduce_scatter##SFX(shmem_team_t team, H *dest, const H *source, \
                                                                size_t nreduce) \
  { \
    return shoal_gpu_reduce16_block<E, E2, shoal_gpu_op_##OP, PAIRS, L>( \
        "shmemx_" #N "_" #OP "_reduce_scatter" #SFX, \
        "shmemx_" #N "_" #OP "_reduce_scatter" #SFX " (source must be symmetric)", team, dest, source, nreduce, true); \
  }
#define SHOAL_GPU_REDUCE16_OP(E, E2, N, OP, PAIRS) \
  SHOAL_GPU_REDUCE16_LANE(E, E2, N, OP, PAIRS, shoal_gpu_block_scope, _block) \
  SHOAL_GPU_REDUCE16_LANE(E, E2, N, OP, PAIRS, shoal_gpu_warp_scope, _warp) \
  template <class H> \
  __device__ inline int shmemx_##N##_##OP##_reduce_grid(shmem_team_t team, H *dest, const H *source, size_t nreduce) \
  { \
    return shoal_gpu_reduce16_grid<E, E2, shoal_gpu_op_##OP, PAIRS>("shmemx_" #N "_" #OP "_reduce_grid", team, dest, \
                                                                   source, nreduce, false); \
  } \
  template <class H> \
  __device__ inline int shmemx_##N##_##OP##_reduce_scatter_grid(shmem_team_t team, H *dest, const H *source, \
                                                                size_t nreduce) \
  { \
    return shoal_gpu_reduce16_grid<E, E2, shoal_gpu_op_##OP, PAIRS>("shmemx_" #N "_" #OP "_reduce_scatter_grid", \
                                                                   team, dest, source, nreduce, true); \
  } \
  template <class H> \
  static inline int shmemx_##N##_##OP##_reduce_on_stream(shmem_team_t team, H *dest, const H *source, \
                                                         size_t nreduce, shoal_gpu_stream_t stream) \
  { \
    return shoal_gpu_reduce16_on_stream<E, E2, shoal_gpu_op_##OP, PAIRS>( \
        "shmemx_" #N "_" #OP "_reduce_on_stream", team, dest, source, nreduce, 0, stream); \
  } \
  template <class H> \
  static inline int shmemx_##N##_##OP##_reduce_scatter_on_stream(shmem_team_t team, H *dest, const H *source, \
                                                                 size_t nreduce, shoal_gpu_stream_t stream) \
  { \
    return shoal_gpu_reduce16_on_stream<E, E2, shoal_gpu_op_##OP, PAIRS>( \
        "shmemx_" #N "_" #OP "_reduce_scatter_on_stream", team, dest, source, nreduce, 1, stream); \
  }
#define SHOAL_GPU_REDUCE16(E, E2, N) \
  SHOAL_GPU_REDUCE16_OP(E, E2, N, sum, true) SHOAL_GPU_REDUCE16_OP(E, E2, N, prod, true) \
  SHOAL_GPU_REDUCE16_OP(E, E2, N, min, false) SHOAL_GPU_REDUCE16_OP(E, E2, N, max, false)
SHOAL_GPU_F16_TYPES(SHOAL_GPU_REDUCE16)

#endif
