/* The element types of the GPU's 16-bit float reductions
 * (<shoal/gpu_reduce16.h>, the Python package's tensors): half and
 * bfloat16 stored as their 16 bits, each step's result rounded to nearest
 * even, as the CPU computes them in float (collectives/reduce_op.h).  The reducers of collectives/ move them in 16-byte
 * vectors like any other element; only + * < are theirs (and pairs of
 * them, below).
 * tests/unit/test_gpu_reduce compiles this header for the CPU. */
#ifndef SHOAL_GPU_F16_H
#define SHOAL_GPU_F16_H

#include "f16.h"

/* A format's conversions and arithmetic on its bits: sum and prod in the
 * format's own instructions where the GPU has them (sm_53 for half, sm_90
 * for bfloat16: one instruction, no conversions), else in float.  Both
 * round the exact result once, and float's own rounding before it never
 * changes the 16-bit result (float holds the exact sum of two 16-bit
 * values but where the smaller is far below the larger's last bit, and
 * their exact product but for bfloat16 products deep among the
 * subnormals), so the bits are the same either way. */
/* A pair's halves, each by a format's add or mul (where the GPU has no
 * two-element instruction). */
template <uint16_t (*F)(uint16_t, uint16_t)> __device__ inline uint32_t shoal_gpu_f16_halves(uint32_t a, uint32_t b)
{
  return F((uint16_t)a, (uint16_t)b) | (uint32_t)F((uint16_t)(a >> 16), (uint16_t)(b >> 16)) << 16;
}

struct shoal_gpu_half_bits {
  __device__ static float to(uint16_t b)
  {
#if defined(__CUDA_ARCH__)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(b));
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
  __device__ static uint16_t add(uint16_t a, uint16_t b)
  {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
    uint16_t r;
    asm("add.rn.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    return r;
#else
    return from(to(a) + to(b));
#endif
  }
  __device__ static uint16_t mul(uint16_t a, uint16_t b)
  {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
    uint16_t r;
    asm("mul.rn.f16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    return r;
#else
    return from(to(a) * to(b));
#endif
  }
  /* two elements in one word (the pairs below), each as add and mul */
  __device__ static uint32_t add2(uint32_t a, uint32_t b)
  {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
    uint32_t r;
    asm("add.rn.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return shoal_gpu_f16_halves<add>(a, b);
#endif
  }
  __device__ static uint32_t mul2(uint32_t a, uint32_t b)
  {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
    uint32_t r;
    asm("mul.rn.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return shoal_gpu_f16_halves<mul>(a, b);
#endif
  }
};
struct shoal_gpu_bfloat16_bits {
  __device__ static float to(uint16_t b) { return shoal_bf16_to_float(b); }
  __device__ static uint16_t from(float x) { return shoal_float_to_bf16(x); }
  __device__ static uint16_t add(uint16_t a, uint16_t b)
  {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint16_t r;
    asm("add.rn.bf16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    return r;
#else
    return from(to(a) + to(b));
#endif
  }
  __device__ static uint16_t mul(uint16_t a, uint16_t b)
  {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint16_t r;
    asm("mul.rn.bf16 %0, %1, %2;" : "=h"(r) : "h"(a), "h"(b));
    return r;
#else
    return from(to(a) * to(b));
#endif
  }
  __device__ static uint32_t add2(uint32_t a, uint32_t b)
  {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t r;
    asm("add.rn.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return shoal_gpu_f16_halves<add>(a, b);
#endif
  }
  __device__ static uint32_t mul2(uint32_t a, uint32_t b)
  {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t r;
    asm("mul.rn.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return shoal_gpu_f16_halves<mul>(a, b);
#endif
  }
};

template <class C> struct shoal_gpu_f16 {
  uint16_t bits;
};
template <class C> __device__ inline shoal_gpu_f16<C> operator+(shoal_gpu_f16<C> a, shoal_gpu_f16<C> b)
{
  return {C::add(a.bits, b.bits)};
}
template <class C> __device__ inline shoal_gpu_f16<C> operator*(shoal_gpu_f16<C> a, shoal_gpu_f16<C> b)
{
  return {C::mul(a.bits, b.bits)};
}
template <class C> __device__ inline bool operator<(shoal_gpu_f16<C> a, shoal_gpu_f16<C> b)
{
  return C::to(a.bits) < C::to(b.bits);
}
typedef shoal_gpu_f16<shoal_gpu_half_bits> shoal_gpu_half;
typedef shoal_gpu_f16<shoal_gpu_bfloat16_bits> shoal_gpu_bfloat16;
static_assert(sizeof(shoal_gpu_half) == 2 && alignof(shoal_gpu_half) == 2, "a half is its 16 bits");
static_assert(sizeof(shoal_gpu_bfloat16) == 2 && alignof(shoal_gpu_bfloat16) == 2, "a bfloat16 is its 16 bits");

/* Two elements in one 32-bit word (element 2i in the low half, as they
 * lie in memory), for sums and products of an even count on 4-byte
 * aligned buffers (<shoal/gpu_reduce16.h>): a 4-byte element to the
 * algorithms, so small calls go LL, and one instruction adds or
 * multiplies both halves.  Element by element, so the same bits. */
template <class C> struct shoal_gpu_f16x2 {
  uint32_t bits;
};
template <class C> __device__ inline shoal_gpu_f16x2<C> operator+(shoal_gpu_f16x2<C> a, shoal_gpu_f16x2<C> b)
{
  return {C::add2(a.bits, b.bits)};
}
template <class C> __device__ inline shoal_gpu_f16x2<C> operator*(shoal_gpu_f16x2<C> a, shoal_gpu_f16x2<C> b)
{
  return {C::mul2(a.bits, b.bits)};
}
typedef shoal_gpu_f16x2<shoal_gpu_half_bits> shoal_gpu_half2;
typedef shoal_gpu_f16x2<shoal_gpu_bfloat16_bits> shoal_gpu_bfloat162;
static_assert(sizeof(shoal_gpu_half2) == 4 && alignof(shoal_gpu_half2) == 4, "a pair is one 32-bit word");

/* The 16-bit float families: element type, its pair, name. */
#define SHOAL_GPU_F16_TYPES(X) X(shoal_gpu_half, shoal_gpu_half2, half) X(shoal_gpu_bfloat16, shoal_gpu_bfloat162, bfloat16)

#endif
