/* The library's complex products (see gpu_lib_reduce.h): complexf and
 * complexd prod over <shoal/gpu_complex.h>'s pairs ("size": kind 5
 * complexf, 6 complexd, gpu_lib.h).  Their sums are the float and double
 * sums of twice as many parts (gpu_lib.cu). */
#include "gpu_lib_reduce.h"

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_complex)
{
  if (op != SHOAL_LIB_OP_prod) return -1;
  switch (size) {   /* the kind */
  case 5:
    return shoal_gpu_reduce_on_stream<shoal_gpu_complexf, shoal_gpu_op_prod>(
        call, team, (shoal_gpu_complexf *)dest, (const shoal_gpu_complexf *)src, count, scatter, st);
  case 6:
    return shoal_gpu_reduce_on_stream<shoal_gpu_complexd, shoal_gpu_op_prod>(
        call, team, (shoal_gpu_complexd *)dest, (const shoal_gpu_complexd *)src, count, scatter, st);
  default: return -1;
  }
}
