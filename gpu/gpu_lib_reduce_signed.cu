/* The library's signed reduction kernels (see gpu_lib_reduce.h). */
#include "gpu_lib_reduce.h"

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_signed)
{
  switch (size) {
  case 1: return shoal_lib_reduce_as<int8_t>(call, team, dest, src, count, op, scatter, st);
  case 2: return shoal_lib_reduce_as<int16_t>(call, team, dest, src, count, op, scatter, st);
  case 4: return shoal_lib_reduce_as<int32_t>(call, team, dest, src, count, op, scatter, st);
  case 8: return shoal_lib_reduce_as<int64_t>(call, team, dest, src, count, op, scatter, st);
  default: return -1;
  }
}
