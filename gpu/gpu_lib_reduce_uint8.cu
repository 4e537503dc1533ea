/* The library's uint8_t reduction kernels (see gpu_lib_reduce.h). */
#include "gpu_lib_reduce.h"

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_uint8)
{
  return size == 1 ? shoal_lib_reduce_as<uint8_t>(call, team, dest, src, count, op, scatter, st) : -1;
}
