// Bad arguments to the _on_stream collectives: each must stop the job with
// a message naming the call and the argument, on every kernel the host may
// launch for its size.  LL's kernels take the team's record from the host,
// which makes their checks and sends bad input to the one-block kernels
// (<shoal/gpu_block.h>); the grid kernels check for themselves.
//   test_badarg root BYTES     broadcastmem from PE_root = npes
//   test_badarg overlap BYTES  a float sum all-reduce whose dest starts one
//                              element into its source
//   test_badarg scatter BYTES  a float sum reduce-scatter whose dest lies in
//                              its source
// tests/gpu/run.sh runs each at 2 PEs at sizes that LL's one-block kernel,
// LL's grid kernel and the grid algorithms carry, and checks the status
// and the message.
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_test.h"   // the CUDA names on HIP

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  size_t bytes = argc > 2 ? strtoull(argv[2], 0, 0) : 4096;
  if ((strcmp(mode, "root") && strcmp(mode, "overlap") && strcmp(mode, "scatter")) || bytes < 8 || bytes % 4) {
    fprintf(stderr, "usage: test_badarg root|overlap|scatter BYTES (a multiple of 4)\n");
    return 2;
  }
  shmem_init();
  int me = shmem_my_pe(), np = shmem_n_pes();
  char *a = (char *)shmem_malloc(bytes * (size_t)np + 64), *b = (char *)shmem_malloc(bytes + 64);
  if (!a || !b) {
    fprintf(stderr, "test_badarg: PE %d: raise SHMEM_SYMMETRIC_SIZE\n", me);
    return 2;
  }
  cudaStream_t st;
  if (cudaStreamCreate(&st) != cudaSuccess) return 2;
  float *f = (float *)a;
  if (!strcmp(mode, "root")) shmemx_broadcastmem_on_stream(SHMEM_TEAM_WORLD, b, a, bytes, np, st);
  else if (!strcmp(mode, "overlap")) shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, f + 1, f, bytes / 4, st);
  else shmemx_float_sum_reduce_scatter_on_stream(SHMEM_TEAM_WORLD, f + 1, f, bytes / 4, st);
  cudaError_t e = cudaDeviceSynchronize();   // (a stream's synchronize did not print the kernel's message)
  printf("test_badarg %s %zu: PE %d: the kernel ended: %s\n", mode, bytes, me, cudaGetErrorString(e));
  fflush(stdout);
  shmem_finalize();   // ends the job: the kernel failed
  printf("test_badarg %s %zu: PE %d: shmem_finalize returned after a failed kernel (wrong)\n", mode, bytes, me);
  return 0;
}
