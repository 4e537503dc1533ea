/* 16-bit floats <-> float in integer code, for the CPU's bfloat16
 * reductions (collectives/reduce_op.h) and the GPU's 16-bit element types
 * (<shoal/gpu_f16.h>): bfloat16 is the top half of an IEEE single, half
 * IEEE binary16; float to either rounds to nearest even, NaN stays a
 * (quiet) NaN.  Plain C, also compiled as C++ and for GPUs. */
#ifndef SHOAL_F16_H
#define SHOAL_F16_H

#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define SHOAL_F16_FN static inline __host__ __device__
#else
#define SHOAL_F16_FN static inline
#endif

/* bfloat16 <-> float: the top half of an IEEE single, rounded to nearest even. */
SHOAL_F16_FN float shoal_bf16_to_float(uint16_t h)
{
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
SHOAL_F16_FN uint16_t shoal_float_to_bf16(float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);   /* quiet NaN */
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

/* IEEE half <-> float, rounded to nearest even: what the GPU's half runs
 * where it has no conversion instruction at hand (<shoal/gpu_f16.h>; the
 * CPU's half is the compiler's _Float16, and tests/unit/test_f16 checks
 * these against it). */
SHOAL_F16_FN float shoal_half_to_float(uint16_t h)
{
  uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, u;
  if (e == 0x1f) u = s | 0x7f800000u | (m << 13);   /* inf, NaN */
  else if (e) u = s | ((e + 112) << 23) | (m << 13);
  else if (!m) u = s;
  else {   /* subnormal: m x 2^-24, normalized */
    uint32_t k = 0;
    while (!(m & 0x400u)) m <<= 1, k++;
    u = s | ((113 - k) << 23) | ((m & 0x3ffu) << 13);
  }
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
SHOAL_F16_FN uint16_t shoal_float_to_half(float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  uint16_t s = (uint16_t)((u >> 16) & 0x8000u);
  u &= 0x7fffffffu;
  if (u > 0x7f800000u) return (uint16_t)(s | 0x7e00u | ((u >> 13) & 0x3ffu));   /* quiet NaN */
  if (u >= 0x477ff000u) return (uint16_t)(s | 0x7c00u);   /* 65520 and up round to inf */
  if (u >= 0x38800000u) {   /* normal: rebias the exponent, round the 13 dropped bits */
    u -= 0x38000000u;
    return (uint16_t)(s | ((u + 0xfffu + ((u >> 13) & 1u)) >> 13));
  }
  if (u < 0x33000000u) return s;   /* below 2^-25 (its tie rounds to even: 0) */
  uint32_t m = (u & 0x7fffffu) | 0x800000u, shift = 126 - (u >> 23);   /* 14..24 */
  uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  return (uint16_t)(s | (q + (rem > half || (rem == half && (q & 1u)))));
}

#endif
