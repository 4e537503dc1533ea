/* The small _on_stream collectives back to back on one stream: fcollect,
 * reduce-scatter, all-reduce (float sum) and alltoall of 4, 16 and 64 KB
 * (the whole vector; each member's block is bytes / n_pes), us per call from CUDA
 * events over 2000 calls after 100 of warm-up, three rounds.  For changes
 * whose effect is a fraction of a microsecond (bench/RESULTS.md, session
 * 10: the block-shared reduction pick).  The floor beside them (bytes 0):
 * an empty kernel of the same shape (one block of 1024 threads) and
 * shmemx_team_sync_on_stream, back to back the same way.
 *   bench_small_stream [label]   (prints label,op,bytes,us) */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

__global__ void __launch_bounds__(1024) empty_kernel(void) {}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "bench_small_stream: %s: %s\n", #x, cudaGetErrorString(e_)); shmem_global_exit(1); } } while (0)

int main(int argc, char **argv)
{
  const char *label = argc > 1 ? argv[1] : "shoal";
  shmem_init();
  int me = shmem_my_pe(), np = shmem_n_pes();
  size_t max = 65536;
  float *src = (float *)shmem_malloc(max), *dst = (float *)shmem_malloc(max);
  CK(cudaMemset(src, 1, max));
  cudaStream_t st;
  cudaEvent_t a, b;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  const char *names[6] = {"fcollect", "rscatter", "allreduce", "alltoall", "empty", "sync"};
  if (me == 0) printf("label,op,bytes,us\n");
  for (int round = 0; round < 3; round++)
    for (size_t bytes = 4096; bytes <= max; bytes *= 4)
      for (int op = 0; op < (bytes == 4096 ? 6 : 4); op++) {
        const int iters = 2000;
        for (int timed = 0; timed < 2; timed++) {
          shmem_barrier_all();
          CK(cudaEventRecord(a, st));
          for (int i = 0; i < (timed ? iters : 100); i++) {
            if (op == 0) shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, dst, src, bytes / np, st);
            else if (op == 1) shmemx_float_sum_reduce_scatter_on_stream(SHMEM_TEAM_WORLD, dst, src, bytes / 4 / np, st);
            else if (op == 2) shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, dst, src, bytes / 4, st);
            else if (op == 3) shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, dst, src, bytes / np, st);
            else if (op == 4) empty_kernel<<<1, 1024, 0, st>>>();
            else shmemx_team_sync_on_stream(SHMEM_TEAM_WORLD, st);
          }
          CK(cudaEventRecord(b, st));
          CK(cudaEventSynchronize(b));
        }
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (me == 0) printf("%s,%s,%zu,%.2f\n", label, names[op], op < 4 ? bytes : 0, ms * 1000 / iters);
      }
  shmem_free(src);
  shmem_free(dst);
  shmem_finalize();
  return 0;
}
