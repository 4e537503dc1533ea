/* The library's half and bfloat16 reduction kernels (see gpu_lib_reduce.h):
 * <shoal/gpu_f16.h>'s element types, sum, prod, min, max. */
#include "gpu_lib_reduce.h"

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_f16)
{
  switch (size) {   /* the kind */
  case 3: return shoal_lib_reduce_as<shoal_gpu_half>(call, team, dest, src, count, op, scatter, st);
  case 4: return shoal_lib_reduce_as<shoal_gpu_bfloat16>(call, team, dest, src, count, op, scatter, st);
  default: return -1;
  }
}
