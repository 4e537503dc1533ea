/* The GPU side of the Python extension (gpu_stream.cu, compiled by nvcc in
 * CUDA builds): Shoal's _on_stream host forms, which only enqueue on the
 * caller's stream (torch.cuda.current_stream()), so they can be captured in
 * a CUDA graph.  Each returns 0, or -1 for a dtype/op with no kernel
 * (launch errors stop the program with a message, as the library does). */
#ifndef SHOAL_PY_GPU_STREAM_H
#define SHOAL_PY_GPU_STREAM_H
#include <stddef.h>
#include <shmem.h>
#ifdef __cplusplus
extern "C" {
#endif
int shoal_py_gpu_reduce(shmem_team_t team, int dtype, int op, void *dest, const void *src,
                        size_t count, int scatter, void *stream);
/* which: 0 broadcast, 1 fcollect, 2 alltoall (nbytes per PE) */
int shoal_py_gpu_move(int which, shmem_team_t team, void *dest, const void *src, size_t nbytes,
                      int root, void *stream);
int shoal_py_gpu_memcpy(void *dest, const void *src, size_t nbytes, void *stream);
int shoal_py_gpu_device(void);
#ifdef __cplusplus
}
#endif
#endif
