/* Where the library's LL calls spend their time, on every block of every
 * PE: the _on_stream fcollect, alltoall, reduce-scatter and all-reduce
 * (float sum) as the library runs them -- one block, or LL's grid kernel
 * -- with thread 0 of each block stamping %globaltimer at each step that
 * collectives/ll.h and gpu_stream.h mark (SHOAL_LL_MARK, compiled to
 * nothing elsewhere): the kernel's entry, past the wait for the previous
 * kernel (start), open, its words sent, its words received, close.
 * Where the PEs share a GPU its %globaltimer is one clock, so a call's
 * stamps on every PE line up: bench/gpu/ll_trace.py reads them and prints
 * the start skew between PEs and between blocks, the steps, and the time
 * from one call's start to the next.
 * Sizes and the _on_stream calls as bench_grid's (bytes: a mover's whole
 * destination, the all-reduce's vector, the reduce-scatter's source);
 * sizes where the library does not take LL leave no stamps.  Each size:
 * one graph of `iters` calls replayed three times, stamps of the last
 * replay kept (by call number), the result of the last call checked.
 * Writes $TRACE_DIR/ll-trace-pe<N>.csv (default .): one row a block a
 * call, op,bytes,us_per_call,call,block,entry,start,open,sent,got,closed
 * (ns; 0: the step was not reached).
 *   bench_ll_trace [max bytes (default 256K)] [min (default 4K)] [iters (default 50)] */
#include <string.h>
#include <stdint.h>
#include <vector>

/* Before Shoal's headers: the marks' store, a call's stamps by call
 * number (the next kernel may start before this one ends, so each block
 * keeps its kernel's stamps in shared memory and copies them at close). */
#define TRACE_CALLS 256
#define TRACE_BLOCKS 128
#define TRACE_STEPS 6
__device__ unsigned long long trace_log[TRACE_CALLS][TRACE_BLOCKS][TRACE_STEPS];
__device__ inline void trace_mark(int step, unsigned call)
{
  __shared__ unsigned long long t[TRACE_STEPS];
  if (threadIdx.x != 0 || blockIdx.x >= TRACE_BLOCKS) return;
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  t[step] = now;
  if (step == TRACE_STEPS - 1)
    for (int k = 0; k < TRACE_STEPS; k++) trace_log[call % TRACE_CALLS][blockIdx.x][k] = t[k];
}
#define SHOAL_LL_MARK(step, flag) trace_mark((step), (flag))

#include "bench_gpu.h"
static_assert(SHOAL_LL_MARK_STEPS == TRACE_STEPS, "collectives/ll.h's steps");

enum { OP_SUM, OP_FCOLLECT, OP_ALLTOALL, OP_RSCATTER };
static const char *op_names[4] = {"allreduce", "fcollect", "alltoall", "rscatter"};

__global__ void k_fill(float *a, size_t n, int pe)
{
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    a[i] = (float)((i * 2654435761u) % 1024u) + 1024.0f * (float)pe;   /* exact in float */
}
static float src_word(size_t i, int pe) { return (float)((i * 2654435761u) % 1024u) + 1024.0f * (float)pe; }

static void enqueue(int op, float *dst, float *src, size_t n, size_t part, cudaStream_t st)
{
  if (op == OP_SUM) shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, dst, src, n, st);
  else if (op == OP_FCOLLECT) shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, dst, src, part * sizeof(float), st);
  else if (op == OP_ALLTOALL) shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, dst, src, part * sizeof(float), st);
  else shmemx_float_sum_reduce_scatter_on_stream(SHMEM_TEAM_WORLD, dst, src, part, st);
}

/* Wrong elements of the last call's result (every element). */
static size_t check(int op, const float *dst, size_t n, size_t part, int me, int np)
{
  size_t count = op == OP_SUM ? n : op == OP_RSCATTER ? part : part * np, bad = 0;
  std::vector<float> h(count);
  CK(cudaMemcpy(h.data(), dst, count * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < count; i++) {
    float want = 0;
    if (op == OP_SUM || op == OP_RSCATTER) {
      size_t at = op == OP_SUM ? i : (size_t)me * part + i;
      for (int p = 0; p < np; p++) want += src_word(at, p);
    } else {
      int p = (int)(i / part);
      want = src_word((op == OP_FCOLLECT ? 0 : (size_t)me * part) + i % part, p);
    }
    bad += h[i] != want;
  }
  return bad;
}

int main(int argc, char **argv)
{
  bench_init("/tmp/nvshmem_uid_trace.bin");
  int me = MY_PE(), np = N_PES();
  size_t max = argc > 1 ? strtoull(argv[1], 0, 0) : (256u << 10);
  size_t min = argc > 2 ? strtoull(argv[2], 0, 0) : 4096;
  int iters = argc > 3 ? atoi(argv[3]) : 50;
  if (min < 4096 || iters < 1 || iters > TRACE_CALLS / 2) {
    fprintf(stderr, "bench_ll_trace: min at least 4096, iters 1-%d\n", TRACE_CALLS / 2);
    return 1;
  }
  const char *dir = getenv("TRACE_DIR");
  char fn[512];
  snprintf(fn, sizeof fn, "%s/ll-trace-pe%d.csv", dir ? dir : ".", me);
  FILE *out = fopen(fn, "w");
  if (!out) { perror(fn); return 1; }
  fprintf(out, "op,bytes,us_per_call,call,block,entry,start,open,sent,got,closed\n");
  float *src = (float *)MALLOC(max), *dst = (float *)MALLOC(max);
  if (!src || !dst) { fprintf(stderr, "raise the symmetric heap size\n"); return 1; }
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<unsigned long long> log((size_t)TRACE_CALLS * TRACE_BLOCKS * TRACE_STEPS);
  void *log_dev;
  CK(cudaGetSymbolAddress(&log_dev, trace_log));
  int status = 0;
  for (int op = OP_SUM; op <= OP_RSCATTER; op++)
    for (size_t bytes = min; bytes <= max; bytes *= 2) {
      size_t n = bytes / sizeof(float), part = n / (size_t)np;
      if (part == 0) continue;
      k_fill<<<128, 256>>>(src, n, me);
      CK(cudaMemset(dst, 0xFF, bytes));
      CK(cudaDeviceSynchronize());
      cudaGraph_t g;
      cudaGraphExec_t exec;
      CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
      for (int i = 0; i < iters; i++) enqueue(op, dst, src, n, part, st);
      CK(cudaStreamEndCapture(st, &g));
      CK(cudaGraphInstantiate(&exec, g, 0));
      CK(cudaGraphDestroy(g));
      CK(cudaGraphUpload(exec, st));
      float ms = 0;
      for (int r = 0; r < 3; r++) {   /* the last replay's stamps are kept */
        CK(cudaStreamSynchronize(st));
        CK(cudaMemset(log_dev, 0, log.size() * sizeof(unsigned long long)));
        CK(cudaDeviceSynchronize());
        BARRIER();
        CK(cudaEventRecord(e0, st));
        CK(cudaGraphLaunch(exec, st));
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        CK(cudaEventElapsedTime(&ms, e0, e1));
      }
      CK(cudaGraphExecDestroy(exec));
      size_t bad = check(op, dst, n, part, me, np);
      if (bad) {
        fprintf(stderr, "PE %d: %s of %zu bytes: %zu elements wrong\n", me, op_names[op], bytes, bad);
        status = 1;
      }
      CK(cudaMemcpyFromSymbol(log.data(), trace_log, log.size() * sizeof(unsigned long long)));
      size_t rows = 0;
      for (unsigned c = 0; c < TRACE_CALLS; c++)
        for (int b = 0; b < TRACE_BLOCKS; b++) {
          const unsigned long long *s = &log[((size_t)c * TRACE_BLOCKS + b) * TRACE_STEPS];
          if (!s[TRACE_STEPS - 1]) continue;
          fprintf(out, "%s,%zu,%.3f,%u,%d", op_names[op], bytes, ms * 1e3 / iters, c, b);
          for (int k = 0; k < TRACE_STEPS; k++) fprintf(out, ",%llu", s[k]);
          fprintf(out, "\n");
          rows++;
        }
      if (me == 0) {
        printf("%-9s %8zu B %7.2f us per call, %zu blocks' stamps%s\n", op_names[op], bytes, ms * 1e3 / iters, rows,
               bad ? "  WRONG" : "");
        fflush(stdout);
      }
      BARRIER();
    }
  fclose(out);
  bench_finalize();
  return status;
}
