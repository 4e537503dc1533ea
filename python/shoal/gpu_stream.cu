/* See gpu_stream.h.  dtype codes and ReduceOp as in _shoal.c's tables:
 * every dtype of the package reduces on the GPU (integers: every op;
 * floats: sum, prod, min, max; complex: sum, prod). */
#include <shmem.h>
#include <shmemx.h>

#include "gpu_stream.h"
#include "../../gpu/gpu_lib.h"

/* The package's op codes (sum, prod, min, max, and, or, xor) as positions
 * in SHOAL_REDUCE_OPS, which the library's entry takes. */
static int lib_op(int op)
{
  static const int pos[7] = {5, 6, 3, 4, 0, 1, 2};
  return op >= 0 && op < 7 ? pos[op] : -1;
}

extern "C" int shoal_py_gpu_reduce(shmem_team_t team, int dtype, int op, void *dest, const void *src,
                                   size_t count, int scatter, void *stream)
{
  const char *call = scatter ? "shoal.reduce_scatter_tensor" : "shoal.all_reduce";
  /* every dtype: the library's own kernels (gpu/gpu_lib.cu; -2: a
   * misaligned complex product) */
  static const signed char kind[14] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4, 5, 6},
                           size[14] = {1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 2, 2, 8, 16};
  if (dtype < 0 || dtype >= 14 || lib_op(op) < 0) return -1;
  return shoal_gpu_lib_reduce_on_stream(call, team, dest, src, count, kind[dtype], size[dtype], lib_op(op), scatter,
                                        stream);
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
