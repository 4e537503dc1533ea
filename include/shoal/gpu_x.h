/* GPU extensions (shmemx_*): cooperative transfers where all threads of a
 * warp or block share one put/get, collectives run by one block or one
 * warp per PE, or by the whole grid,
 * and host entry points that only enqueue work on a stream (capturable in
 * a CUDA/HIP graph).  Included by <shoal/gpu.h>; `man shmemx_putmem_block`,
 * `man shmemx_barrier_all_block`, `man shmemx_putmem_on_stream`. */
#ifndef SHOAL_GPU_X_H
#define SHOAL_GPU_X_H

#include "gpu_coop.h"     /* cooperative copies, the warp and block scopes, put/get _warp and _block */
#include "gpu_block.h"    /* the collectives of one block or one warp per PE (_block, _warp) */
#include "gpu_grid.h"     /* the collectives of a whole grid (_grid) */
#include "gpu_stream.h"   /* host entry points on a stream (_on_stream) */
#include "gpu_reduce16.h" /* half and bfloat16 reductions at every scope */

#endif
