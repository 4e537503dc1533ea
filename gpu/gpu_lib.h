/* The library's own GPU kernels (gpu_lib.cu, compiled by nvcc or hipcc):
 * what host calls on GPU memory cannot do with copies.  Shared by that
 * C++ unit and the C runtime. */
#ifndef SHOAL_GPU_LIB_H
#define SHOAL_GPU_LIB_H

#include <stddef.h>
#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif
#define SHOAL_GPU_LIB __attribute__((visibility("hidden")))

/* One AMO (shoal_amo_op, shoal_dtype of device/remote.h) on target, a
 * peer's mapping as this GPU addresses it; operands and result are host
 * memory of the dtype's size. */
SHOAL_GPU_LIB void shoal_gpu_lib_amo(int op, int dtype, void *target, const void *operand,
                                     const void *compare, void *result);
/* How long the AMO-serving kernel stays after its last request
 * (SHOAL_GPU_AMO_LINGER; 0: a kernel launch per AMO); shmem_init. */
SHOAL_GPU_LIB void shoal_gpu_lib_amo_setup(double linger_s);
/* shmem_finalize: the serving kernel leaves once idle, waited for. */
SHOAL_GPU_LIB void shoal_gpu_lib_amo_stop(void);

/* Blocking collectives on GPU memory: the block collectives kernels run
 * through the _on_stream code, on the library's stream, waited for.
 * which: 0 broadcast, 1 fcollect, 2 alltoall (nbytes per PE). */
SHOAL_GPU_LIB void shoal_gpu_lib_move(const char *call, int which, shmem_team_t team, void *dest,
                                      const void *src, size_t nbytes, int root);
/* kind: 0 signed integer, 1 unsigned integer, 2 floating point, of size
 * bytes; 3 half, 4 bfloat16 (size 2); 5 complexf, 6 complexd (size 8, 16;
 * sum and prod); op: the position in SHOAL_REDUCE_OPS.  Returns -1
 * (nothing done) for a type or operator kernels do not reduce, -2 for a
 * complex product whose dest or src is not aligned to the size. */
SHOAL_GPU_LIB int shoal_gpu_lib_reduce(const char *call, shmem_team_t team, void *dest, const void *src,
                                       size_t count, int kind, int size, int op, int scatter);
/* The same, only enqueued on the caller's stream (capturable).  Exported
 * for Shoal's Python extension (a separate shared object, which would
 * otherwise compile every kernel again); not API, no installed header. */
__attribute__((visibility("default"))) int
shoal_gpu_lib_reduce_on_stream(const char *call, shmem_team_t team, void *dest, const void *src, size_t count,
                               int kind, int size, int op, int scatter, void *stream);

#ifdef __cplusplus
}
#endif
#endif
