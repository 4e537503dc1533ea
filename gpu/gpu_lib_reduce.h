/* The library's reduction kernels, split by type over eight units
 * (gpu_lib_reduce_{signed,uint8,uint16,uint32,uint64,float,f16,complex}.cu) that
 * nvcc/hipcc compile side by side; gpu_lib.cu picks the unit.  Private to
 * the GPU library. */
#ifndef SHOAL_GPU_LIB_REDUCE_H
#define SHOAL_GPU_LIB_REDUCE_H

#include <shmem.h>
#include <shmemx.h>
#include <type_traits>
#include <shoal/gpu_complex.h>

/* An operator's position in SHOAL_REDUCE_OPS (gpu_lib.h's op). */
enum {
#define SHOAL_LIB_OP(OP, CLASS) SHOAL_LIB_OP_##OP,
  SHOAL_REDUCE_OPS(SHOAL_LIB_OP)
#undef SHOAL_LIB_OP
};

/* Each returns 0 once the reduction is enqueued on st, -1 for a type or
 * operator it has no kernel for.  size: the element's bytes. */
#define SHOAL_LIB_REDUCE_UNIT(NAME)                                                                       \
  __attribute__((visibility("hidden"))) int NAME(const char *call, shmem_team_t team, void *dest,       \
                                                 const void *src, size_t count, int size, int op,        \
                                                 int scatter, shoal_gpu_stream_t st)
SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_signed);   /* int8..int64: min, max */
SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_uint8);
SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_uint16);
SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_uint32);
SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_uint64);
SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_float);    /* float, double */
SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_f16);      /* "size": kind 3 half, 4 bfloat16 (gpu_lib.h) */
SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_complex);  /* "size": kind 5 complexf, 6 complexd: prod */

/* The _on_stream reduction of T with the operator op (included by the
 * units only: each instantiates it for its types). */
template <class T>
static int shoal_lib_reduce_as(const char *call, shmem_team_t team, void *dest, const void *src, size_t n,
                               int op, int scatter, shoal_gpu_stream_t st)
{
  T *d = (T *)dest;
  const T *s = (const T *)src;
#define LIB_REDUCE(OP) shoal_gpu_reduce_on_stream<T, shoal_gpu_op_##OP>(call, team, d, s, n, scatter, st)
  switch (op) {
  case SHOAL_LIB_OP_min: return LIB_REDUCE(min);
  case SHOAL_LIB_OP_max: return LIB_REDUCE(max);
  default: break;
  }
  /* signed integers: min and max only (gpu_lib.cu sends the rest to the
   * unsigned kernels) */
  if constexpr (!(std::is_integral<T>::value && std::is_signed<T>::value)) {
    switch (op) {
    case SHOAL_LIB_OP_sum: return LIB_REDUCE(sum);
    case SHOAL_LIB_OP_prod: return LIB_REDUCE(prod);
    default: break;
    }
    if constexpr (std::is_integral<T>::value) {
      switch (op) {
      case SHOAL_LIB_OP_and: return LIB_REDUCE(and);
      case SHOAL_LIB_OP_or: return LIB_REDUCE(or);
      case SHOAL_LIB_OP_xor: return LIB_REDUCE(xor);
      default: break;
      }
    }
  }
#undef LIB_REDUCE
  return -1;
}

#endif
