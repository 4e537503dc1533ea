/* 16-bit float reductions on the GPU: half (IEEE binary16) and bfloat16,
 * OP sum, prod, min, max, as the host's shmemx_half_OP_reduce:
 *   shmemx_half_OP_reduce_block, shmemx_half_OP_reduce_scatter_block
 *   shmemx_half_OP_reduce_grid, shmemx_half_OP_reduce_scatter_grid
 *   shmemx_half_OP_reduce_on_stream, shmemx_half_OP_reduce_scatter_on_stream
 * and the same for bfloat16.  They are the typed forms' algorithms and
 * selection over the element types of <shoal/gpu_f16.h> (combined in
 * float, rounded after each step).  dest and source may point to any
 * 2-byte type that holds the bits -- __half, __nv_bfloat16, hip_bfloat16,
 * uint16_t, shmemx_bfloat16_t -- so a kernel passes its own tensors
 * without a cast.  Included by <shoal/gpu_x.h>;
 * `man shmemx_half_sum_reduce_block`. */
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

#define SHOAL_GPU_REDUCE16_OP(E, N, OP) \
  template <class H> \
  __device__ inline int shmemx_##N##_##OP##_reduce_block(shmem_team_t team, H *dest, const H *source, size_t nreduce) \
  { \
    return shoal_gpu_reduce_block_call<E, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_block", NULL, team, \
                                                             shoal_gpu_f16_elems<E>(dest), \
                                                             shoal_gpu_f16_elems<E>(source), nreduce, false); \
  } \
  template <class H> \
  __device__ inline int shmemx_##N##_##OP##_reduce_scatter_block(shmem_team_t team, H *dest, const H *source, \
                                                                 size_t nreduce) \
  { \
    return shoal_gpu_reduce_block_call<E, shoal_gpu_op_##OP>( \
        "shmemx_" #N "_" #OP "_reduce_scatter_block", \
        "shmemx_" #N "_" #OP "_reduce_scatter_block (source must be symmetric)", team, \
        shoal_gpu_f16_elems<E>(dest), shoal_gpu_f16_elems<E>(source), nreduce, true); \
  } \
  template <class H> \
  __device__ inline int shmemx_##N##_##OP##_reduce_grid(shmem_team_t team, H *dest, const H *source, size_t nreduce) \
  { \
    shoal_grid_reduce<E, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_grid", team, \
                                            shoal_gpu_f16_elems<E>(dest), shoal_gpu_f16_elems<E>(source), nreduce); \
    return 0; \
  } \
  template <class H> \
  __device__ inline int shmemx_##N##_##OP##_reduce_scatter_grid(shmem_team_t team, H *dest, const H *source, \
                                                                size_t nreduce) \
  { \
    shoal_grid_reduce_scatter<E, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_scatter_grid", team, \
                                                    shoal_gpu_f16_elems<E>(dest), shoal_gpu_f16_elems<E>(source), \
                                                    nreduce); \
    return 0; \
  } \
  template <class H> \
  static inline int shmemx_##N##_##OP##_reduce_on_stream(shmem_team_t team, H *dest, const H *source, \
                                                         size_t nreduce, shoal_gpu_stream_t stream) \
  { \
    return shoal_gpu_reduce_on_stream<E, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_on_stream", team, \
                                                            shoal_gpu_f16_elems<E>(dest), \
                                                            shoal_gpu_f16_elems<E>(source), nreduce, 0, stream); \
  } \
  template <class H> \
  static inline int shmemx_##N##_##OP##_reduce_scatter_on_stream(shmem_team_t team, H *dest, const H *source, \
                                                                 size_t nreduce, shoal_gpu_stream_t stream) \
  { \
    return shoal_gpu_reduce_on_stream<E, shoal_gpu_op_##OP>("shmemx_" #N "_" #OP "_reduce_scatter_on_stream", \
                                                            team, shoal_gpu_f16_elems<E>(dest), \
                                                            shoal_gpu_f16_elems<E>(source), nreduce, 1, stream); \
  }
#define SHOAL_GPU_REDUCE16(E, N) \
  SHOAL_GPU_REDUCE16_OP(E, N, sum) SHOAL_GPU_REDUCE16_OP(E, N, prod) \
  SHOAL_GPU_REDUCE16_OP(E, N, min) SHOAL_GPU_REDUCE16_OP(E, N, max)
SHOAL_GPU_F16_TYPES(SHOAL_GPU_REDUCE16)

#endif
