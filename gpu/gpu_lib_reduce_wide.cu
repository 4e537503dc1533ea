/* The library's wide reduction kernels (see gpu_lib_reduce.h). */
#include "gpu_lib_reduce.h"

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_wide)
{
  switch (size) {
  case 4: return shoal_lib_reduce_as<uint32_t>(call, team, dest, src, count, op, scatter, st);
  case 8: return shoal_lib_reduce_as<uint64_t>(call, team, dest, src, count, op, scatter, st);
  default: return -1;
  }
}
