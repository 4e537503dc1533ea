/* See gpu_stream.h.  dtype codes and ReduceOp as in _shoal.c's tables:
 * every dtype of the package reduces on the GPU (integers: every op;
 * floats: sum, prod, min, max; complex: sum, prod). */
#include <shmem.h>
#include <shmemx.h>

#include "gpu_stream.h"
#include "../../gpu/gpu_lib.h"

/* Element types for the kernels of <shoal/gpu_stream.h>, which reduce through
 * + * < on T and move T by its bytes: complex numbers as (re, im) pairs,
 * as torch's complex64/complex128 (the 16-bit floats are the library's,
 * <shoal/gpu_f16.h>). */
template <class R> struct alignas(2 * sizeof(R)) shoal_py_complex {
  R re, im;
};
template <class R> __device__ inline shoal_py_complex<R> operator+(shoal_py_complex<R> a, shoal_py_complex<R> b)
{
  return {a.re + b.re, a.im + b.im};
}
template <class R> __device__ inline shoal_py_complex<R> operator*(shoal_py_complex<R> a, shoal_py_complex<R> b)
{
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
typedef shoal_py_complex<float> shoal_py_complexf;
typedef shoal_py_complex<double> shoal_py_complexd;
static_assert(sizeof(shoal_py_complexf) == 8 && sizeof(shoal_py_complexd) == 16, "complex is (re, im)");

/* dest = OP over the team of src (scatter: of src's block for this PE) */
template <class T, class OP>
static int reduce_as(shmem_team_t team, void *dest, const void *src, size_t count, int scatter,
                     shoal_gpu_stream_t st)
{
  return shoal_gpu_reduce_on_stream<T, OP>(scatter ? "shoal.reduce_scatter_tensor" : "shoal.all_reduce", team,
                                           (T *)dest, (const T *)src, count, scatter, st);
}

/* types with no public _on_stream names: the template underneath them */
#define AS(T, OP) reduce_as<T, shoal_gpu_op_##OP>(team, dest, src, count, scatter, st)
#define COMPLEX_CASE(code, T) \
  case code: \
    switch (op) { \
    case 0: return AS(T, sum); case 1: return AS(T, prod); \
    default: return -1; \
    }

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
  shoal_gpu_stream_t st = (shoal_gpu_stream_t)stream;
  const char *call = scatter ? "shoal.reduce_scatter_tensor" : "shoal.all_reduce";
  /* integers, float/double, half and bfloat16: the library's own kernels
   * (gpu/gpu_lib.cu) */
  static const signed char kind[12] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4},
                           size[12] = {1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 2, 2};
  if (dtype >= 0 && dtype < 12)
    return lib_op(op) < 0 ? -1
                          : shoal_gpu_lib_reduce_on_stream(call, team, dest, src, count, kind[dtype], size[dtype],
                                                           lib_op(op), scatter, stream);
  switch (dtype) {
    COMPLEX_CASE(12, shoal_py_complexf)
    COMPLEX_CASE(13, shoal_py_complexd)
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
