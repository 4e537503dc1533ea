/* Collectives on GPU PEs, Shoal against NCCL in the same job: all-reduce
 * (float sum), all-gather (fcollect), reduce-scatter, all-to-all, time and
 * bus bandwidth from 4 KB to the size given (default 1 GB) per operation.
 * Shoal's host entry points are the _on_stream forms (LL, one block or the
 * grid, as the library picks); then small all-reduces from CUDA graphs and
 * inside a kernel at block and grid scope.
 * NCCL's communicator is bootstrapped by passing its unique id through
 * the Shoal heap.  CSV rows go to BENCH_CSV. */
#include <shmem.h>
#include <shmemx.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(2); } } while (0)
#define NK(x) do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, ncclGetErrorString(r_)); exit(2); } } while (0)

static FILE *csv;

enum { AR, AG, RS, A2A };
static const char *names[] = {"allreduce", "allgather", "reduce_scatter", "alltoall"};

/* bytes: the per-PE buffer size the operation is named by (NCCL tests'
 * convention: total size of the result buffer). */
static void run_shoal(int op, float *dst, float *src, size_t bytes, int np, cudaStream_t s)
{
  size_t n = bytes / sizeof(float);
  switch (op) {
  case AR: shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, dst, src, n, s); break;
  case AG: shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, dst, src, bytes / np, s); break;
  case RS: shmemx_float_sum_reduce_scatter_on_stream(SHMEM_TEAM_WORLD, dst, src, n / np, s); break;
  case A2A: shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, dst, src, bytes / np, s); break;
  }
}
__global__ void k_empty(void) {}

/* What any small collective costs at least, back to back on one stream: an
 * empty kernel (one block of 32 or 1024 threads), and a team barrier. */
static void floors(cudaStream_t s, int me)
{
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const char *what[] = {"empty kernel <<<1,32>>>", "empty kernel <<<1,1024>>>", "team_sync_on_stream"};
  for (int k = 0; k < 3; k++) {
    const int iters = 500;
    for (int rep = -1; rep < iters; rep++) {
      if (rep == 0) CK(cudaEventRecord(e0, s));
      if (k == 0) k_empty<<<1, 32, 0, s>>>();
      else if (k == 1) k_empty<<<1, 1024, 0, s>>>();
      else shmemx_team_sync_on_stream(SHMEM_TEAM_WORLD, s);
    }
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (me == 0) printf("floor: %-28s %8.2f us per call\n", what[k], ms * 1e3 / iters);
    shmem_barrier_all();
  }
}

/* All-reduce called back to back inside one kernel (one block per PE):
 * what a fused kernel pays per call, with no launch. */
__global__ void __launch_bounds__(1024) k_allreduce_loop(float *dst, const float *src, size_t n, int iters)
{
  for (int i = 0; i < iters; i++) shmemx_float_sum_reduce_block(SHMEM_TEAM_WORLD, dst, src, n);
}
/* The same at grid scope: every block of a grid that shmemx_grid_max_blocks
 * sized takes part (a fused kernel's all-reduce over all SMs). */
__global__ void __launch_bounds__(1024) k_allreduce_grid_loop(float *dst, const float *src, size_t n, int iters)
{
  for (int i = 0; i < iters; i++) shmemx_float_sum_reduce_grid(SHMEM_TEAM_WORLD, dst, src, n);
}

static void run_nccl(int op, float *dst, float *src, size_t bytes, int np, ncclComm_t c, cudaStream_t s)
{
  size_t n = bytes / sizeof(float);
  switch (op) {
  case AR: NK(ncclAllReduce(src, dst, n, ncclFloat, ncclSum, c, s)); break;
  case AG: NK(ncclAllGather(src, dst, n / np, ncclFloat, c, s)); break;
  case RS: NK(ncclReduceScatter(src, dst, n / np, ncclFloat, ncclSum, c, s)); break;
  case A2A: NK(ncclAlltoAll(src, dst, n / np, ncclFloat, c, s)); break;
  }
}

int main(int argc, char **argv)
{
  shmem_init();
  int me = shmem_my_pe(), np = shmem_n_pes();
  size_t max = argc > 1 ? strtoull(argv[1], 0, 0) : (1ull << 30);
  const char *cp = getenv("BENCH_CSV");
  if (me == 0 && cp) csv = fopen(cp, "a");

  ncclUniqueId id;
  ncclUniqueId *sid = (ncclUniqueId *)shmem_malloc(sizeof id);
  if (me == 0) { NK(ncclGetUniqueId(&id)); shmem_putmem(sid, &id, sizeof id, 0); }
  shmem_barrier_all();
  shmem_getmem(&id, sid, sizeof id, 0);
  ncclComm_t comm;
  NK(ncclCommInitRank(&comm, np, id, me));

  float *src = (float *)shmem_malloc(max), *dst = (float *)shmem_malloc(max);
  float *nsrc, *ndst;
  CK(cudaMalloc((void **)&nsrc, max));
  CK(cudaMalloc((void **)&ndst, max));
  if (!src || !dst) { fprintf(stderr, "raise SHMEM_SYMMETRIC_SIZE\n"); return 1; }
  CK(cudaMemset(src, 0, max)); CK(cudaMemset(nsrc, 0, max));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  floors(s, me);
  if (me == 0) printf("%-15s %12s %12s %12s %12s %12s %8s\n", "op", "bytes", "shoal_us", "nccl_us", "shoal_busbw", "nccl_busbw", "ratio");
  for (int op = 0; op < 4; op++)
    for (size_t bytes = 4096; bytes <= max; bytes *= 4) {
      double t[2];
      for (int impl = 0; impl < 2; impl++) {
        int iters = bytes <= (1 << 20) ? 200 : bytes <= (64 << 20) ? 40 : 8;
        for (int w = 0; w < 3; w++)
          impl ? run_nccl(op, ndst, nsrc, bytes, np, comm, s) : run_shoal(op, dst, src, bytes, np, s);
        CK(cudaStreamSynchronize(s));
        shmem_barrier_all();
        CK(cudaEventRecord(e0, s));
        for (int i = 0; i < iters; i++)
          impl ? run_nccl(op, ndst, nsrc, bytes, np, comm, s) : run_shoal(op, dst, src, bytes, np, s);
        CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t[impl] = ms * 1e3 / iters;
        shmem_barrier_all();
      }
      double f = op == AR ? 2.0 * (np - 1) / np : (double)(np - 1) / np;
      double bw[2] = {bytes / (t[0] * 1e3) * f, bytes / (t[1] * 1e3) * f};
      if (me == 0) {
        printf("%-15s %12zu %12.2f %12.2f %12.2f %12.2f %8.2f\n", names[op], bytes, t[0], t[1], bw[0], bw[1], t[0] / t[1]);
        if (csv) {
          fprintf(csv, "shoal,%s,block,%zu,%.3f,us\n", names[op], bytes, t[0]);
          fprintf(csv, "nccl,%s,-,%zu,%.3f,us\n", names[op], bytes, t[1]);
        }
        fflush(stdout);
      }
    }
  /* Small all-reduces without the per-call launch: Shoal and NCCL each
   * replayed from a CUDA graph of `iters` calls, and Shoal inside one
   * kernel at block and at grid scope.  Per-call time. */
  size_t small_max = max < (1u << 20) ? max : (1u << 20);
  int grid = shmemx_grid_max_blocks(k_allreduce_grid_loop, 1024, 0);
  if (me == 0) printf("%-15s %12s %12s %12s %12s %12s %8s %8s\n", "allreduce", "bytes", "shoal_graph", "nccl_graph",
                      "shoal_block", "shoal_grid", "ratio_b", "ratio_g");
  for (size_t bytes = 4096; bytes <= small_max; bytes *= 4) {
    const int iters = 100;
    double t[4];
    for (int impl = 0; impl < 4; impl++) {
      cudaGraphExec_t ge = NULL;
      if (impl < 2) {
        cudaGraph_t g;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        for (int i = 0; i < iters; i++)
          impl ? run_nccl(AR, ndst, nsrc, bytes, np, comm, s) : run_shoal(AR, dst, src, bytes, np, s);
        CK(cudaStreamEndCapture(s, &g));
        CK(cudaGraphInstantiate(&ge, g, 0));
        CK(cudaGraphDestroy(g));
        CK(cudaGraphLaunch(ge, s));   /* warm-up */
      } else if (impl == 2) {
        k_allreduce_loop<<<1, 1024, 0, s>>>(dst, src, bytes / sizeof(float), 3);
      } else {
        k_allreduce_grid_loop<<<grid, 1024, 0, s>>>(dst, src, bytes / sizeof(float), 3);
      }
      CK(cudaStreamSynchronize(s));
      shmem_barrier_all();
      CK(cudaEventRecord(e0, s));
      if (impl < 2) CK(cudaGraphLaunch(ge, s));
      else if (impl == 2) k_allreduce_loop<<<1, 1024, 0, s>>>(dst, src, bytes / sizeof(float), iters);
      else k_allreduce_grid_loop<<<grid, 1024, 0, s>>>(dst, src, bytes / sizeof(float), iters);
      CK(cudaGetLastError());
      CK(cudaEventRecord(e1, s));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      t[impl] = ms * 1e3 / iters;
      if (ge) CK(cudaGraphExecDestroy(ge));
      shmem_barrier_all();
    }
    if (me == 0) {
      printf("%-15s %12zu %12.2f %12.2f %12.2f %12.2f %8.2f %8.2f\n", "allreduce", bytes, t[0], t[1], t[2], t[3],
             t[2] / t[1], t[3] / t[1]);
      if (csv) {
        fprintf(csv, "shoal,allreduce_graph,block,%zu,%.3f,us\n", bytes, t[0]);
        fprintf(csv, "nccl,allreduce_graph,-,%zu,%.3f,us\n", bytes, t[1]);
        fprintf(csv, "shoal,allreduce_inkernel,block,%zu,%.3f,us\n", bytes, t[2]);
        fprintf(csv, "shoal,allreduce_inkernel,grid,%zu,%.3f,us\n", bytes, t[3]);
      }
      fflush(stdout);
    }
  }
  if (csv) fclose(csv);
  ncclCommDestroy(comm);
  shmem_finalize();
  return 0;
}
