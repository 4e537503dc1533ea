/* The library's uint32_t reduction kernels (see gpu_lib_reduce.h). */
#include "gpu_lib_reduce.h"

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_uint32)
{
  return size == 4 ? shoal_lib_reduce_as<uint32_t>(call, team, dest, src, count, op, scatter, st) : -1;
}
