/* The library's float reduction kernels (see gpu_lib_reduce.h). */
#include "gpu_lib_reduce.h"

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_float)
{
  switch (size) {
  case 4: return shoal_lib_reduce_as<float>(call, team, dest, src, count, op, scatter, st);
  case 8: return shoal_lib_reduce_as<double>(call, team, dest, src, count, op, scatter, st);
  default: return -1;
  }
}
