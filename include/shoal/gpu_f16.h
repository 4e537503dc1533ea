/* The element types of the GPU's 16-bit float reductions
 * (<shoal/gpu_reduce16.h>, the Python package's tensors): half and
 * bfloat16 stored as their 16 bits and combined in float, rounded to
 * nearest even after each step, as the CPU computes them
 * (collectives/reduce_op.h).  The reducers of collectives/ move them in 16-byte
 * vectors like any other element; only + * < are theirs.
 * tests/unit/test_gpu_reduce compiles this header for the CPU. */
#ifndef SHOAL_GPU_F16_H
#define SHOAL_GPU_F16_H

#include "f16.h"

struct shoal_gpu_half_bits {
  __device__ static float to(uint16_t b)
  {
#if defined(__CUDA_ARCH__)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(b));   /* one instruction */
    return f;
#else
    return shoal_half_to_float(b);
#endif
  }
  __device__ static uint16_t from(float x)
  {
#if defined(__CUDA_ARCH__)
    uint16_t b;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(b) : "f"(x));
    return b;
#else
    return shoal_float_to_half(x);
#endif
  }
};
struct shoal_gpu_bfloat16_bits {
  __device__ static float to(uint16_t b) { return shoal_bf16_to_float(b); }
  __device__ static uint16_t from(float x) { return shoal_float_to_bf16(x); }
};

template <class C> struct shoal_gpu_f16 {
  uint16_t bits;
};
template <class C> __device__ inline shoal_gpu_f16<C> operator+(shoal_gpu_f16<C> a, shoal_gpu_f16<C> b)
{
  return {C::from(C::to(a.bits) + C::to(b.bits))};
}
template <class C> __device__ inline shoal_gpu_f16<C> operator*(shoal_gpu_f16<C> a, shoal_gpu_f16<C> b)
{
  return {C::from(C::to(a.bits) * C::to(b.bits))};
}
template <class C> __device__ inline bool operator<(shoal_gpu_f16<C> a, shoal_gpu_f16<C> b)
{
  return C::to(a.bits) < C::to(b.bits);
}
typedef shoal_gpu_f16<shoal_gpu_half_bits> shoal_gpu_half;
typedef shoal_gpu_f16<shoal_gpu_bfloat16_bits> shoal_gpu_bfloat16;
static_assert(sizeof(shoal_gpu_half) == 2 && alignof(shoal_gpu_half) == 2, "a half is its 16 bits");
static_assert(sizeof(shoal_gpu_bfloat16) == 2 && alignof(shoal_gpu_bfloat16) == 2, "a bfloat16 is its 16 bits");

/* The 16-bit float families: element type, name. */
#define SHOAL_GPU_F16_TYPES(X) X(shoal_gpu_half, half) X(shoal_gpu_bfloat16, bfloat16)

#endif
