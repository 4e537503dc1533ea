/* Collectives called inside a kernel, by one block per PE: what a fused
 * compute + communication kernel pays per call, with no launch in the
 * loop.  Built twice from this one source, against Shoal (default) and
 * against NVSHMEM (-DUSE_NVSHMEM), so both run the same kernels in the same
 * job:
 *   barrier_all, float sum all-reduce, fcollect, alltoall, broadcast
 * by size (bytes per PE's contribution; all-reduce and broadcast: the
 * whole vector); then the host-launched all-reduce (the _on_stream form)
 * up to 256 KB, launched call after call on a stream and replayed from a
 * CUDA graph of 100 calls.  Each kernel makes `iters` calls back to back; the table
 * gives the time per call.  After the timed kernel the last all-reduce's
 * result is checked on the host (every element), so a library that skips
 * work cannot look fast.  Prints a table; appends CSV rows
 * (impl,test,scope,bytes,value,unit) to the file named by BENCH_CSV. */
#include <string.h>
#include <stdint.h>
#include "bench_gpu.h"

#ifdef USE_NVSHMEM
#define WORLD NVSHMEM_TEAM_WORLD
#define D_BARRIER() nvshmemx_barrier_all_block()
#define D_SUM(d, s, n) nvshmemx_float_sum_reduce_block(WORLD, d, s, n)
#define D_FCOLLECT(d, s, n) nvshmemx_float_fcollect_block(WORLD, d, s, n)
#define D_ALLTOALL(d, s, n) nvshmemx_float_alltoall_block(WORLD, d, s, n)
#define D_BROADCAST(d, s, n) nvshmemx_float_broadcast_block(WORLD, d, s, n, 0)
#define H_SUM(d, s, n, st) nvshmemx_float_sum_reduce_on_stream(WORLD, d, s, n, st)
#else
#define WORLD SHMEM_TEAM_WORLD
#define D_BARRIER() shmemx_barrier_all_block()
#define D_SUM(d, s, n) shmemx_float_sum_reduce_block(WORLD, d, s, n)
#define D_FCOLLECT(d, s, n) shmemx_fcollectmem_block(WORLD, d, s, (n) * sizeof(float))
#define D_ALLTOALL(d, s, n) shmemx_alltoallmem_block(WORLD, d, s, (n) * sizeof(float))
#define D_BROADCAST(d, s, n) shmemx_broadcastmem_block(WORLD, d, s, (n) * sizeof(float), 0)
#define H_SUM(d, s, n, st) shmemx_float_sum_reduce_on_stream(WORLD, d, s, n, st)
#endif

enum { OP_BARRIER, OP_SUM, OP_FCOLLECT, OP_ALLTOALL, OP_BROADCAST, NOPS };
static const char *names[NOPS] = {"barrier_all", "allreduce_sum", "fcollect", "alltoall", "broadcast"};

/* n: floats per PE's contribution (all-reduce, broadcast: the vector). */
template <int op>
__global__ void __launch_bounds__(1024) k_coll(float *dst, const float *src, size_t n, int iters)
{
  for (int i = 0; i < iters; i++) {
    if (op == OP_BARRIER) D_BARRIER();
    else if (op == OP_SUM) D_SUM(dst, src, n);
    else if (op == OP_FCOLLECT) D_FCOLLECT(dst, src, n);
    else if (op == OP_ALLTOALL) D_ALLTOALL(dst, src, n);
    else D_BROADCAST(dst, src, n);
  }
}
static void launch(int op, float *dst, const float *src, size_t n, int iters)
{
  switch (op) {
  case OP_BARRIER: k_coll<OP_BARRIER><<<1, 1024>>>(dst, src, n, iters); break;
  case OP_SUM: k_coll<OP_SUM><<<1, 1024>>>(dst, src, n, iters); break;
  case OP_FCOLLECT: k_coll<OP_FCOLLECT><<<1, 1024>>>(dst, src, n, iters); break;
  case OP_ALLTOALL: k_coll<OP_ALLTOALL><<<1, 1024>>>(dst, src, n, iters); break;
  default: k_coll<OP_BROADCAST><<<1, 1024>>>(dst, src, n, iters); break;
  }
}

__global__ void k_fill(float *a, size_t n, int pe, unsigned salt)
{
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    a[i] = (float)((i * 2654435761u + salt) % 1024u) + 1024.0f * (float)pe;   /* exact in float */
}

int main(int argc, char **argv)
{
  bench_init("/tmp/nvshmem_uid_dcoll.bin");
  int me = MY_PE(), np = N_PES();
  FILE *csv = NULL;
  const char *cp = getenv("BENCH_CSV");
  if (me == 0 && cp) csv = fopen(cp, "a");
  size_t max = argc > 1 ? strtoull(argv[1], 0, 0) : (4u << 20);   /* bytes per contribution */
  float *src = (float *)MALLOC(max * np), *dst = (float *)MALLOC(max * np);
  if (!src || !dst) { fprintf(stderr, "raise the symmetric heap size\n"); return 1; }
  float *host = (float *)malloc(max);
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  if (me == 0) printf("%-8s %-14s %12s %12s  (%d PEs, one block of 1024 threads each)\n", "impl", "op", "bytes", "us/call", np);
  int errors = 0;
  for (int op = 0; op < NOPS; op++) {
    /* The barrier moves no data: one row, at 0 bytes. */
    size_t first = op == OP_BARRIER ? 0 : 4096, last = op == OP_BARRIER ? 0 : max;
    for (size_t bytes = first; bytes <= last; bytes = bytes ? bytes * 4 : last + 1) {
      size_t n = bytes / sizeof(float);
      int iters = bytes <= (64u << 10) ? 200 : bytes <= (1u << 20) ? 50 : 10;
      k_fill<<<64, 256>>>(src, n * np, me, 7);
      CK(cudaMemset(dst, 0xFF, bytes * np));   /* poison: NaN */
      CK(cudaDeviceSynchronize());
      BARRIER();
      launch(op, dst, src, n, 3);   /* warm-up */
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      BARRIER();
      CK(cudaEventRecord(e0));
      launch(op, dst, src, n, iters);
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      double us = ms * 1e3 / iters;
      if (op == OP_SUM) {   /* every element of the last call's result */
        CK(cudaMemcpy(host, dst, bytes, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < n; i++) {
          float want = 0;
          for (int p = 0; p < np; p++) want += (float)((i * 2654435761u + 7) % 1024u) + 1024.0f * (float)p;
          if (host[i] != want) {
            if (errors++ < 5) fprintf(stderr, "PE %d: allreduce %zu B: element %zu is %g, want %g\n", me, bytes, i, host[i], want);
          }
        }
      }
      BARRIER();
      if (me == 0) {
        printf("%-8s %-14s %12zu %12.2f\n", IMPL, names[op], bytes, us);
        if (csv) fprintf(csv, "%s,%s,block,%zu,%.3f,us\n", IMPL, names[op], bytes, us);
        fflush(stdout);
      }
    }
  }
  /* Host-launched all-reduce: per call, on a stream and from a graph. */
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  for (size_t bytes = 4096; bytes <= (256u << 10) && bytes <= max; bytes *= 4) {
    size_t n = bytes / sizeof(float);
    k_fill<<<64, 256>>>(src, n, me, 9);
    CK(cudaMemset(dst, 0xFF, bytes));
    CK(cudaDeviceSynchronize());
    BARRIER();
    for (int i = 0; i < 3; i++) H_SUM(dst, src, n, st);
    CK(cudaStreamSynchronize(st));
    BARRIER();
    const int iters = 200;
    CK(cudaEventRecord(e0, st));
    for (int i = 0; i < iters; i++) H_SUM(dst, src, n, st);
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    double us_stream = ms * 1e3 / iters, us_graph = -1;
    BARRIER();
    /* A graph of 100 calls, replayed once after a warm-up replay. */
    cudaGraph_t g;
    cudaGraphExec_t ge;
    const int giters = 100;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < giters; i++) H_SUM(dst, src, n, st);
    if (cudaStreamEndCapture(st, &g) == cudaSuccess && cudaGraphInstantiate(&ge, g, 0) == cudaSuccess) {
      CK(cudaGraphLaunch(ge, st));
      CK(cudaStreamSynchronize(st));
      BARRIER();
      CK(cudaEventRecord(e0, st));
      CK(cudaGraphLaunch(ge, st));
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      CK(cudaEventElapsedTime(&ms, e0, e1));
      us_graph = ms * 1e3 / giters;
      CK(cudaGraphExecDestroy(ge));
      CK(cudaGraphDestroy(g));
    } else {
      (void)cudaGetLastError();
    }
    CK(cudaMemcpy(host, dst, bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++) {
      float want = 0;
      for (int p = 0; p < np; p++) want += (float)((i * 2654435761u + 9) % 1024u) + 1024.0f * (float)p;
      if (host[i] != want && errors++ < 5)
        fprintf(stderr, "PE %d: host allreduce %zu B: element %zu is %g, want %g\n", me, bytes, i, host[i], want);
    }
    BARRIER();
    if (me == 0) {
      printf("%-8s %-14s %12zu %12.2f\n", IMPL, "allred_stream", bytes, us_stream);
      if (us_graph > 0) printf("%-8s %-14s %12zu %12.2f\n", IMPL, "allred_graph", bytes, us_graph);
      else printf("%-8s %-14s %12zu %12s\n", IMPL, "allred_graph", bytes, "n/a");
      if (csv) {
        fprintf(csv, "%s,allreduce_stream,host,%zu,%.3f,us\n", IMPL, bytes, us_stream);
        if (us_graph > 0) fprintf(csv, "%s,allreduce_graph,host,%zu,%.3f,us\n", IMPL, bytes, us_graph);
      }
      fflush(stdout);
    }
  }
  if (errors) fprintf(stderr, "PE %d: %d wrong all-reduce elements\n", me, errors);
  if (csv) fclose(csv);
  free(host);
  bench_finalize();
  return errors ? 1 : 0;
}
