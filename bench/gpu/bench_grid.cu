/* Collectives over many blocks: Shoal's in-kernel grid-scope all-reduce,
 * fcollect and alltoall (shmemx_float_sum_reduce_grid,
 * shmemx_fcollectmem_grid, shmemx_alltoallmem_grid: every block of a
 * resident grid) beside their one-block forms, and the host-launched
 * _on_stream all-reduce, fcollect, alltoall and reduce-scatter, 4 KB to
 * 256 MB.  Built twice from this source, against Shoal (default) and
 * NVSHMEM (-DUSE_NVSHMEM: its _on_stream collectives, and its one-block
 * in-kernel all-reduce, fcollect and alltoall), so both run in the same
 * job; runs unchanged on 1 GPU (PEs under MPS) or 2-8.
 * bytes: the all-reduce vector; fcollect and alltoall: each PE's whole
 * destination (size x block); reduce-scatter: each PE's whole source.
 * Each row is the time per call of `iters` back-to-back calls (one kernel
 * for the in-kernel forms), the median of three such rounds after a
 * warm-up (one round of 100 small calls swung by 20% from run to run on a
 * GPU shared under MPS); the last all-reduce (in-kernel: also fcollect and
 * alltoall) of each size is checked on the host, every element.  Prints a
 * table; appends CSV rows (impl,test,scope,bytes,value,unit) to
 * $BENCH_CSV; GB/s = bytes / time.
 * Rows "floor" (bytes 0): an empty one-block kernel, the same launched
 * with programmatic dependent launch (it waits at entry, as Shoal's
 * _on_stream kernels do on sm_90), and barrier_all on the stream, launched
 * back to back like the collectives; their "_cpu" rows: the host's time to
 * enqueue one (BENCH_CPU=1: every host row's too, scope "cpu").
 * BENCH_GRAPH=1: the host rows time one replay of a CUDA graph that
 * captured the `iters` calls (scope "graph"), without the host's enqueue
 * between them.  BENCH_KERNEL=0 leaves the in-kernel rows out.
 * Under SHOAL_ALLREDUCE=ring (run.sh --bench runs it so too) Shoal's
 * all-reduces run the chunked ring: impl "shoal-ring"; a build with
 * -DSHOAL_GPU_DRIVER_LAUNCH=0 launches through the runtime, not the
 * driver (gpu_stream.h): impl "shoal-rtlaunch" (before session 45 the
 * driver's was the opt-in, "shoal-drvlaunch"); BENCH_IMPL names the impl
 * column outright (two builds of the same library against other headers,
 * one job).
 * BENCH_MIN (default 4096) and BENCH_STEP (default 4) set the sizes.
 *   bench_grid [max-bytes (default 256M)] */
#include <string.h>
#include <stdint.h>
#include <time.h>
#include "bench_gpu.h"

#ifdef USE_NVSHMEM
#define WORLD NVSHMEM_TEAM_WORLD
#define D_SUM_BLOCK(d, s, n) nvshmemx_float_sum_reduce_block(WORLD, d, s, n)
#define D_FCOLLECT_BLOCK(d, s, n) nvshmemx_float_fcollect_block(WORLD, d, s, n)
#define D_ALLTOALL_BLOCK(d, s, n) nvshmemx_float_alltoall_block(WORLD, d, s, n)
#define H_SUM(d, s, n, st) nvshmemx_float_sum_reduce_on_stream(WORLD, d, s, n, st)
#define H_FCOLLECT(d, s, n, st) nvshmemx_float_fcollect_on_stream(WORLD, d, s, n, st)
#define H_ALLTOALL(d, s, n, st) nvshmemx_float_alltoall_on_stream(WORLD, d, s, n, st)
#define H_RSCATTER(d, s, n, st) nvshmemx_float_sum_reducescatter_on_stream(WORLD, d, s, n, st)
#define H_SYNC(st) nvshmemx_barrier_all_on_stream(st)
#else
#define WORLD SHMEM_TEAM_WORLD
#define D_SUM_BLOCK(d, s, n) shmemx_float_sum_reduce_block(WORLD, d, s, n)
#define D_SUM_GRID(d, s, n) shmemx_float_sum_reduce_grid(WORLD, d, s, n)
#define D_FCOLLECT_BLOCK(d, s, n) shmemx_fcollectmem_block(WORLD, d, s, (n) * sizeof(float))
#define D_ALLTOALL_BLOCK(d, s, n) shmemx_alltoallmem_block(WORLD, d, s, (n) * sizeof(float))
#define D_FCOLLECT_GRID(d, s, n) shmemx_fcollectmem_grid(WORLD, d, s, (n) * sizeof(float))
#define D_ALLTOALL_GRID(d, s, n) shmemx_alltoallmem_grid(WORLD, d, s, (n) * sizeof(float))
#define H_SUM(d, s, n, st) shmemx_float_sum_reduce_on_stream(WORLD, d, s, n, st)
#define H_FCOLLECT(d, s, n, st) shmemx_fcollectmem_on_stream(WORLD, d, s, (n) * sizeof(float), st)
#define H_ALLTOALL(d, s, n, st) shmemx_alltoallmem_on_stream(WORLD, d, s, (n) * sizeof(float), st)
#define H_RSCATTER(d, s, n, st) shmemx_float_sum_reduce_scatter_on_stream(WORLD, d, s, n, st)
#define H_SYNC(st) shmemx_barrier_all_on_stream(st)
#endif

__global__ void __launch_bounds__(1024) k_empty(void) {}   /* the floor rows */
__global__ void __launch_bounds__(1024) k_empty_pdl(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
static void launch_empty_pdl(cudaStream_t st)
{
  cudaLaunchConfig_t c = {};
  c.gridDim = 1;
  c.blockDim = 1024;
  c.stream = st;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  c.attrs = at;
  c.numAttrs = 1;
  CK(cudaLaunchKernelEx(&c, k_empty_pdl));
}

__global__ void __launch_bounds__(1024) k_sum_block(float *dst, const float *src, size_t n, int iters)
{
  for (int i = 0; i < iters; i++) D_SUM_BLOCK(dst, src, n);
}
/* which: 1 fcollect, 2 alltoall; part: each member's block, in floats */
__global__ void __launch_bounds__(1024) k_move_block(int which, float *dst, const float *src, size_t part, int iters)
{
  for (int i = 0; i < iters; i++)
    if (which == 1) D_FCOLLECT_BLOCK(dst, src, part);
    else D_ALLTOALL_BLOCK(dst, src, part);
}
#ifndef USE_NVSHMEM
__global__ void __launch_bounds__(1024) k_sum_grid(float *dst, const float *src, size_t n, int iters)
{
  for (int i = 0; i < iters; i++) D_SUM_GRID(dst, src, n);
}
__global__ void __launch_bounds__(1024) k_move_grid(int which, float *dst, const float *src, size_t part, int iters)
{
  for (int i = 0; i < iters; i++)
    if (which == 1) D_FCOLLECT_GRID(dst, src, part);
    else D_ALLTOALL_GRID(dst, src, part);
}
#endif

__global__ void k_fill(float *a, size_t n, int pe, unsigned salt)
{
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    a[i] = (float)((i * 2654435761u + salt) % 1024u) + 1024.0f * (float)pe;   /* exact in float */
}

static int me, np, errors;
static const char *impl = IMPL;
static FILE *csv;
static float *host;
static cudaEvent_t e0, e1;

static void check_sum(const char *what, const float *dst, size_t n, unsigned salt)
{
  CK(cudaMemcpy(host, dst, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++) {
    float want = 0;
    for (int p = 0; p < np; p++) want += (float)((i * 2654435761u + salt) % 1024u) + 1024.0f * (float)p;
    if (host[i] != want && errors++ < 5)
      fprintf(stderr, "PE %d: %s %zu floats: element %zu is %g, want %g\n", me, what, n, i, host[i], want);
  }
}
/* fcollect (which 1): block p of dst is PE p's first part floats;
 * alltoall (2): block p is block `me` of PE p's source. */
static void check_move(int which, const float *dst, size_t part, unsigned salt)
{
  CK(cudaMemcpy(host, dst, part * np * sizeof(float), cudaMemcpyDeviceToHost));
  for (int p = 0; p < np; p++)
    for (size_t e = 0; e < part; e++) {
      size_t i = which == 1 ? e : (size_t)me * part + e;
      float want = (float)((i * 2654435761u + salt) % 1024u) + 1024.0f * (float)p;
      if (host[p * part + e] != want && errors++ < 5)
        fprintf(stderr, "PE %d: in-kernel %s of %zu floats a member: block %d element %zu is %g, want %g\n", me,
                which == 1 ? "fcollect" : "alltoall", part, p, e, host[p * part + e], want);
    }
}
static void row(const char *test, const char *scope, size_t bytes, double us)
{
  if (me) return;
  printf("%-8s %-16s %-6s %12zu %12.2f %9.1f\n", impl, test, scope, bytes, us, bytes / us * 1e-3);
  if (csv) fprintf(csv, "%s,%s,%s,%zu,%.3f,us\n", impl, test, scope, bytes, us);
  if (csv) fflush(csv);   /* a run cut short by a time limit keeps its rows */
  fflush(stdout);
}
static int iters_for(size_t bytes) { return bytes <= (1u << 20) ? 100 : bytes <= (16u << 20) ? 20 : 5; }
/* Timed rounds of each size (after one warm-up round of 2 calls); a row
 * reports their median. */
#define ROUNDS 3

/* The host-launched calls, and the floor's three. */
enum { OP_SUM, OP_FCOLLECT, OP_ALLTOALL, OP_RSCATTER, OP_EMPTY, OP_EMPTY_PDL, OP_SYNC };
static int use_graph;     /* BENCH_GRAPH=1 */
static double cpu_us;     /* the last timed round's host time per enqueued call */
static double now_us(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}
static void enqueue(cudaStream_t st, int op, float *dst, float *src, size_t n, size_t part)
{
  if (op == OP_SUM) H_SUM(dst, src, n, st);
  else if (op == OP_FCOLLECT) H_FCOLLECT(dst, src, part, st);
  else if (op == OP_ALLTOALL) H_ALLTOALL(dst, src, part, st);
  else if (op == OP_RSCATTER) H_RSCATTER(dst, src, part, st);
  else if (op == OP_EMPTY) k_empty<<<1, 1024, 0, st>>>();
  else if (op == OP_EMPTY_PDL) launch_empty_pdl(st);
  else H_SYNC(st);
}
/* Median ms of ROUNDS timed rounds of `iters` back-to-back calls of op on
 * st (n: the all-reduce's floats, part: each member's block); with
 * use_graph, of one replay of a graph holding them. */
static float time_on_stream(cudaStream_t st, int op, float *dst, float *src, size_t n, size_t part, int iters)
{
  float ms, round_ms[ROUNDS];
  for (int w = 0; w <= ROUNDS; w++) {
    int it = w ? iters : 2;
    cudaGraphExec_t exec = 0;
    if (use_graph) {
      cudaGraph_t g;
      CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
      for (int i = 0; i < it; i++) enqueue(st, op, dst, src, n, part);
      CK(cudaStreamEndCapture(st, &g));
      CK(cudaGraphInstantiate(&exec, g, 0));
      CK(cudaGraphDestroy(g));
      CK(cudaGraphUpload(exec, st));
      CK(cudaStreamSynchronize(st));
    }
    BARRIER();
    CK(cudaEventRecord(e0, st));
    double t0 = now_us();
    if (use_graph) CK(cudaGraphLaunch(exec, st));
    else
      for (int i = 0; i < it; i++) enqueue(st, op, dst, src, n, part);
    cpu_us = (now_us() - t0) / it;
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (exec) CK(cudaGraphExecDestroy(exec));
    if (w) round_ms[w - 1] = ms;
  }
  return median3(round_ms);
}

int main(int argc, char **argv)
{
  bench_init("/tmp/nvshmem_uid_grid.bin");
  me = MY_PE();
  np = N_PES();
  const char *cp = getenv("BENCH_CSV");
  if (me == 0 && cp) csv = fopen(cp, "a");
#ifndef USE_NVSHMEM
  const char *forced = getenv("SHOAL_ALLREDUCE");
  if (forced && !strcmp(forced, "ring")) impl = "shoal-ring";
#if !SHOAL_GPU_DRIVER_LAUNCH
  impl = "shoal-rtlaunch";   /* built with -DSHOAL_GPU_DRIVER_LAUNCH=0: the runtime's launch */
#endif
#endif
  if (getenv("BENCH_IMPL")) impl = getenv("BENCH_IMPL");   /* two builds of one library told apart */
  size_t max = argc > 1 ? strtoull(argv[1], 0, 0) : (256u << 20);
  const char *e = getenv("BENCH_MIN");
  size_t lo = e ? strtoull(e, 0, 0) : 4096;
  e = getenv("BENCH_STEP");
  size_t step = e ? strtoull(e, 0, 0) : 4;
  if (lo < 4096 || lo % 4096 || step < 2) { fprintf(stderr, "BENCH_MIN: a multiple of 4096; BENCH_STEP: 2 or more\n"); return 1; }
  e = getenv("BENCH_GRAPH");
  use_graph = e && atoi(e);
  e = getenv("BENCH_KERNEL");
  int kernel_rows = !e || atoi(e);
  e = getenv("BENCH_CPU");
  int cpu_rows = e && atoi(e);
  const char *hscope = use_graph ? "graph" : "host";
  float *src = (float *)MALLOC(max), *dst = (float *)MALLOC(max);
  if (!src || !dst) { fprintf(stderr, "raise the symmetric heap size\n"); return 1; }
  host = (float *)malloc(max);
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
#ifndef USE_NVSHMEM
  int grid = shmemx_grid_max_blocks(k_sum_grid, 1024, 0), mgrid = shmemx_grid_max_blocks(k_move_grid, 1024, 0);
#else
  int grid = 0, mgrid = 0;
#endif
  int dev = 0, sms = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  if (me == 0)
    printf("%-8s %-16s %-6s %12s %12s %9s  (%d PEs; %d SMs seen; grid: %d blocks of 1024 threads, movers' %d)\n",
           "impl", "op", "scope", "bytes", "us/call", "GB/s", np, sms, grid, mgrid);
  float ms, round_ms[ROUNDS];
  /* In-kernel collectives: the all-reduce (op 0), fcollect (1) and
   * alltoall (2), in one block and (Shoal) in the whole grid; bytes as the
   * host-launched rows' (the movers: each PE's whole destination). */
  const char *knames[3] = {"allreduce_kernel", "fcollect_kernel", "alltoall_kernel"};
  for (int op = 0; op < 3 && kernel_rows; op++)
    for (int scope = 0; scope < 2; scope++) {
#ifdef USE_NVSHMEM
      if (scope == 1) break;
#endif
      for (size_t bytes = lo; bytes <= max; bytes *= step) {
        if (scope == 0 && bytes > (16u << 20)) break;   /* one block: 40 GB/s at best */
        size_t n = bytes / sizeof(float), part = n / (size_t)np;
        if (op && part == 0) continue;
        int iters = iters_for(bytes);
        unsigned salt = 7 + (unsigned)op;
        k_fill<<<128, 256>>>(src, n, me, salt);
        CK(cudaMemset(dst, 0xFF, bytes));
        CK(cudaDeviceSynchronize());
        BARRIER();
        for (int w = 0; w <= ROUNDS; w++) {   /* warm-up, then timed */
          int it = w ? iters : 2;
          BARRIER();
          CK(cudaEventRecord(e0));
#ifndef USE_NVSHMEM
          if (scope == 1 && op == 0) k_sum_grid<<<grid, 1024>>>(dst, src, n, it);
          else if (scope == 1) k_move_grid<<<mgrid, 1024>>>(op, dst, src, part, it);
          else
#endif
          if (op == 0) k_sum_block<<<1, 1024>>>(dst, src, n, it);
          else k_move_block<<<1, 1024>>>(op, dst, src, part, it);
          CK(cudaEventRecord(e1));
          CK(cudaGetLastError());
          CK(cudaEventSynchronize(e1));
          CK(cudaEventElapsedTime(&ms, e0, e1));
          if (w) round_ms[w - 1] = ms;
        }
        if (op == 0) check_sum(scope ? "grid all-reduce" : "block all-reduce", dst, n, salt);
        else check_move(op, dst, part, salt);
        BARRIER();
        row(knames[op], scope ? "grid" : "block", bytes, median3(round_ms) * 1e3 / iters);
      }
    }
  /* The floor under the host-launched collectives: an empty kernel of one
   * block, the barrier (every member's kernel meets: what a collective
   * pays before it moves a byte, where the PEs share a GPU too). */
  const char *fnames[3] = {"empty", "empty_pdl", "sync"};
  for (int op = OP_EMPTY; op <= OP_SYNC; op++) {
    BARRIER();
    float m = time_on_stream(st, op, dst, src, 0, 0, 100);
    double c = cpu_us;
    BARRIER();
    char name[32];
    snprintf(name, sizeof name, "%s%s", fnames[op - OP_EMPTY], use_graph ? "_graph" : "");
    row("floor", name, 0, m * 1e3 / 100);
    snprintf(name, sizeof name, "%s%s_cpu", fnames[op - OP_EMPTY], use_graph ? "_graph" : "");
    row("floor", name, 0, c);
  }
  /* Host-launched collectives on a stream. */
  const char *names[4] = {"allreduce_stream", "fcollect_stream", "alltoall_stream", "rscatter_stream"};
  for (int op = OP_SUM; op <= OP_RSCATTER; op++)
    for (size_t bytes = lo; bytes <= max; bytes *= step) {
      size_t n = bytes / sizeof(float), part = n / (size_t)np;
      if (op != OP_SUM && part == 0) continue;
      int iters = iters_for(bytes);
      k_fill<<<128, 256>>>(src, n, me, 9);
      CK(cudaMemset(dst, 0xFF, bytes));
      CK(cudaDeviceSynchronize());
      BARRIER();
      float m = time_on_stream(st, op, dst, src, n, part, iters);
      double c = cpu_us;
      if (op == OP_SUM) check_sum("stream all-reduce", dst, n, 9);
      BARRIER();
      row(names[op], hscope, bytes, m * 1e3 / iters);
      if (cpu_rows) row(names[op], "cpu", bytes, c);
    }
  if (errors) fprintf(stderr, "PE %d: %d wrong all-reduce elements\n", me, errors);
  if (csv) fclose(csv);
  free(host);
  bench_finalize();
  return errors ? 1 : 0;
}
