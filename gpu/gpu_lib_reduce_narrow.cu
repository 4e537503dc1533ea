/* The library's narrow reduction kernels (see gpu_lib_reduce.h). */
#include "gpu_lib_reduce.h"

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_narrow)
{
  switch (size) {
  case 1: return shoal_lib_reduce_as<uint8_t>(call, team, dest, src, count, op, scatter, st);
  case 2: return shoal_lib_reduce_as<uint16_t>(call, team, dest, src, count, op, scatter, st);
  default: return -1;
  }
}
