/* The element types of the GPU's complex reductions (the host's
 * shmem_complexf/complexd sum and prod reductions on GPU memory, the
 * Python package's complex64/complex128 tensors): (re, im) pairs with the
 * layout of C's float _Complex / double _Complex and of std::complex,
 * aligned to their size so that the reducers' 16-byte vectors hold whole
 * elements.  Products as the CPU's (<shoal/cpair.h>); sums part by part.
 * The reducers of collectives/ move them like any other element; only
 * + and * are theirs. */
#ifndef SHOAL_GPU_COMPLEX_H
#define SHOAL_GPU_COMPLEX_H

#include "cpair.h"

template <class R> struct alignas(2 * sizeof(R)) shoal_gpu_complex {
  R re, im;
};
template <class R> __device__ inline shoal_gpu_complex<R> operator+(shoal_gpu_complex<R> a, shoal_gpu_complex<R> b)
{
  return {a.re + b.re, a.im + b.im};
}
__device__ inline shoal_gpu_complex<float> operator*(shoal_gpu_complex<float> a, shoal_gpu_complex<float> b)
{
  shoal_gpu_complex<float> r;
  shoal_cpairf_mul(a.re, a.im, b.re, b.im, &r.re, &r.im);
  return r;
}
__device__ inline shoal_gpu_complex<double> operator*(shoal_gpu_complex<double> a, shoal_gpu_complex<double> b)
{
  shoal_gpu_complex<double> r;
  shoal_cpaird_mul(a.re, a.im, b.re, b.im, &r.re, &r.im);
  return r;
}
typedef shoal_gpu_complex<float> shoal_gpu_complexf;
typedef shoal_gpu_complex<double> shoal_gpu_complexd;
static_assert(sizeof(shoal_gpu_complexf) == 8 && sizeof(shoal_gpu_complexd) == 16, "complex is (re, im)");

#endif
