/* See gpu_stream.h.  dtype codes and ReduceOp as in _shoal.c's tables;
 * the GPU kernels reduce the integer types, float and double. */
#include <shmem.h>
#include <shmemx.h>

#include "gpu_stream.h"

#define ONE(T, N, OP) \
  (scatter ? shmemx_##N##_##OP##_reduce_scatter_on_stream(team, (T *)dest, (const T *)src, count, st) \
           : shmemx_##N##_##OP##_reduce_on_stream(team, (T *)dest, (const T *)src, count, st))
#define INT_CASE(code, T, N) \
  case code: \
    switch (op) { \
    case 0: return ONE(T, N, sum); case 1: return ONE(T, N, prod); \
    case 2: return ONE(T, N, min); case 3: return ONE(T, N, max); \
    case 4: return ONE(T, N, and); case 5: return ONE(T, N, or); \
    case 6: return ONE(T, N, xor); default: return -1; \
    }
#define FLOAT_CASE(code, T, N) \
  case code: \
    switch (op) { \
    case 0: return ONE(T, N, sum); case 1: return ONE(T, N, prod); \
    case 2: return ONE(T, N, min); case 3: return ONE(T, N, max); \
    default: return -1; \
    }

extern "C" int shoal_py_gpu_reduce(shmem_team_t team, int dtype, int op, void *dest, const void *src,
                                   size_t count, int scatter, void *stream)
{
  shoal_gpu_stream_t st = (shoal_gpu_stream_t)stream;
  switch (dtype) {
    INT_CASE(0, int8_t, int8)
    INT_CASE(1, int16_t, int16)
    INT_CASE(2, int32_t, int32)
    INT_CASE(3, int64_t, int64)
    INT_CASE(4, uint8_t, uint8)
    INT_CASE(5, uint16_t, uint16)
    INT_CASE(6, uint32_t, uint32)
    INT_CASE(7, uint64_t, uint64)
    FLOAT_CASE(8, float, float)
    FLOAT_CASE(9, double, double)
  default: return -1;
  }
}

extern "C" int shoal_py_gpu_move(int which, shmem_team_t team, void *dest, const void *src,
                                 size_t nbytes, int root, void *stream)
{
  shoal_gpu_stream_t st = (shoal_gpu_stream_t)stream;
  if (which == 0) return shmemx_broadcastmem_on_stream(team, dest, src, nbytes, root, st);
  if (which == 1) return shmemx_fcollectmem_on_stream(team, dest, src, nbytes, st);
  return shmemx_alltoallmem_on_stream(team, dest, src, nbytes, st);
}

extern "C" int shoal_py_gpu_memcpy(void *dest, const void *src, size_t nbytes, void *stream)
{
  return cudaMemcpyAsync(dest, src, nbytes, cudaMemcpyDefault, (cudaStream_t)stream) == cudaSuccess ? 0 : -1;
}

extern "C" int shoal_py_gpu_device(void)
{
  int d = -1;
  return cudaGetDevice(&d) == cudaSuccess ? d : -1;
}
