/* Complex numbers as (re, im) pairs of float or double, for the GPU's
 * complex reductions (<shoal/gpu_complex.h>) and their type-erased path
 * (collectives/reduce_op.h): a product is (ac - bd) + (ad + bc)i with every
 * multiply rounded on its own, never contracted into a fused multiply-add,
 * so the bits are those of the CPU's float _Complex / double _Complex for
 * finite values (C's recovery of infinities from NaN results aside).
 * Plain C, also compiled as C++ and for GPUs. */
#ifndef SHOAL_CPAIR_H
#define SHOAL_CPAIR_H

#if defined(__CUDACC__) || defined(__HIPCC__)
#define SHOAL_CPAIR_FN static inline __host__ __device__
#else
#define SHOAL_CPAIR_FN static inline
#endif

/* a * b rounded, not fused with what uses it: nvcc's intrinsics, clang's
 * pragma (HIP contracts across statements by default). */
SHOAL_CPAIR_FN float shoal_fmul_rn(float a, float b)
{
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  return a * b;
#endif
}
SHOAL_CPAIR_FN double shoal_dmul_rn(double a, double b)
{
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  return a * b;
#endif
}

/* (re, im) = (ar, ai) * (br, bi). */
SHOAL_CPAIR_FN void shoal_cpairf_mul(float ar, float ai, float br, float bi, float *re, float *im)
{
  *re = shoal_fmul_rn(ar, br) - shoal_fmul_rn(ai, bi);
  *im = shoal_fmul_rn(ar, bi) + shoal_fmul_rn(ai, br);
}
SHOAL_CPAIR_FN void shoal_cpaird_mul(double ar, double ai, double br, double bi, double *re, double *im)
{
  *re = shoal_dmul_rn(ar, br) - shoal_dmul_rn(ai, bi);
  *im = shoal_dmul_rn(ar, bi) + shoal_dmul_rn(ai, br);
}

#endif
