/* The library's uint16_t reduction kernels (see gpu_lib_reduce.h). */
#include "gpu_lib_reduce.h"

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_uint16)
{
  return size == 2 ? shoal_lib_reduce_as<uint16_t>(call, team, dest, src, count, op, scatter, st) : -1;
}
