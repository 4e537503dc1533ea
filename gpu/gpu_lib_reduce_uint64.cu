/* The library's uint64_t reduction kernels (see gpu_lib_reduce.h). */
#include "gpu_lib_reduce.h"

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_uint64)
{
  return size == 8 ? shoal_lib_reduce_as<uint64_t>(call, team, dest, src, count, op, scatter, st) : -1;
}
