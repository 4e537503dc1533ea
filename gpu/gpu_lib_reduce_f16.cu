/* The library's half and bfloat16 reduction kernels (see gpu_lib_reduce.h):
 * sum, prod, min, max through <shoal/gpu_reduce16.h>'s choice (pairs
 * where the call allows, else single elements). */
#include "gpu_lib_reduce.h"

template <class E, class E2>
static int reduce16(const char *call, shmem_team_t team, void *dest, const void *src, size_t n, int op, int scatter,
                    shoal_gpu_stream_t st)
{
  uint16_t *d = (uint16_t *)dest;
  const uint16_t *s = (const uint16_t *)src;
  switch (op) {
  case SHOAL_LIB_OP_sum: return shoal_gpu_reduce16_on_stream<E, E2, shoal_gpu_op_sum, true>(call, team, d, s, n, scatter, st);
  case SHOAL_LIB_OP_prod: return shoal_gpu_reduce16_on_stream<E, E2, shoal_gpu_op_prod, true>(call, team, d, s, n, scatter, st);
  case SHOAL_LIB_OP_min: return shoal_gpu_reduce16_on_stream<E, E2, shoal_gpu_op_min, false>(call, team, d, s, n, scatter, st);
  case SHOAL_LIB_OP_max: return shoal_gpu_reduce16_on_stream<E, E2, shoal_gpu_op_max, false>(call, team, d, s, n, scatter, st);
  default: return -1;
  }
}

SHOAL_LIB_REDUCE_UNIT(shoal_gpu_lib_reduce_f16)
{
  switch (size) {   /* the kind */
  case 3: return reduce16<shoal_gpu_half, shoal_gpu_half2>(call, team, dest, src, count, op, scatter, st);
  case 4: return reduce16<shoal_gpu_bfloat16, shoal_gpu_bfloat162>(call, team, dest, src, count, op, scatter, st);
  default: return -1;
  }
}
