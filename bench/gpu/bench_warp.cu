/* Collectives called by one warp per PE inside a kernel (the calls of a
 * kernel whose warps work apart: one warp per token or expert), beside the
 * same calls by one block: barrier_all, the float sum all-reduce and
 * fcollect.  Built twice from this source like bench_grid.cu: against
 * Shoal (shmemx_*_warp, shmemx_*_block) and NVSHMEM (-DUSE_NVSHMEM:
 * nvshmemx_*_warp, nvshmemx_*_block), so both run in the same job.
 * bytes: the vector (fcollect: a member's block).  Each row: the median of
 * three rounds of back-to-back calls in one kernel after a warm-up; each
 * size's last call is checked on the host, every element (small
 * integers: exact float sums in any order).  CSV rows
 * (impl,test,scope,bytes,value,unit) to $BENCH_CSV.
 *   bench_warp [max-bytes (default 256K)]; BENCH_MIN (8), BENCH_STEP (4) */
#include <string.h>
#include <stdint.h>
#include "bench_gpu.h"

#ifdef USE_NVSHMEM
#define WORLD NVSHMEM_TEAM_WORLD
#define D_BARRIER_WARP() nvshmemx_barrier_all_warp()
#define D_BARRIER_BLOCK() nvshmemx_barrier_all_block()
#define D_SUM_WARP(d, s, n) nvshmemx_float_sum_reduce_warp(WORLD, d, s, n)
#define D_SUM_BLOCK(d, s, n) nvshmemx_float_sum_reduce_block(WORLD, d, s, n)
#define D_FCOLLECT_WARP(d, s, n) nvshmemx_float_fcollect_warp(WORLD, d, s, n)
#define D_FCOLLECT_BLOCK(d, s, n) nvshmemx_float_fcollect_block(WORLD, d, s, n)
#else
#define WORLD SHMEM_TEAM_WORLD
#define D_BARRIER_WARP() shmemx_barrier_all_warp()
#define D_BARRIER_BLOCK() shmemx_barrier_all_block()
#define D_SUM_WARP(d, s, n) shmemx_float_sum_reduce_warp(WORLD, d, s, n)
#define D_SUM_BLOCK(d, s, n) shmemx_float_sum_reduce_block(WORLD, d, s, n)
#define D_FCOLLECT_WARP(d, s, n) shmemx_fcollectmem_warp(WORLD, d, s, (n) * sizeof(float))
#define D_FCOLLECT_BLOCK(d, s, n) shmemx_fcollectmem_block(WORLD, d, s, (n) * sizeof(float))
#endif

/* which: 0 barrier, 1 all-reduce, 2 fcollect; the first warp calls (warp)
 * or the whole block */
__global__ void k_warp(int which, float *dst, const float *src, size_t n, int iters)
{
  if (threadIdx.x >= warpSize) return;
  for (int i = 0; i < iters; i++) {
    if (which == 0) D_BARRIER_WARP();
    else if (which == 1) D_SUM_WARP(dst, src, n);
    else D_FCOLLECT_WARP(dst, src, n);
  }
}
__global__ void __launch_bounds__(1024) k_block(int which, float *dst, const float *src, size_t n, int iters)
{
  for (int i = 0; i < iters; i++) {
    if (which == 0) D_BARRIER_BLOCK();
    else if (which == 1) D_SUM_BLOCK(dst, src, n);
    else D_FCOLLECT_BLOCK(dst, src, n);
  }
}

/* PE pe's element i: 0-31 */
__host__ __device__ static inline unsigned val(size_t i, int pe, unsigned salt)
{
  return (unsigned)((i * 2654435761u + salt + (unsigned)pe * 7u) % 32u);
}
__global__ void k_fill(float *f, size_t n, int pe, unsigned salt)
{
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    f[i] = (float)val(i, pe, salt);
}

static int me, np, errors;
static float *host;
static FILE *csv;
static cudaEvent_t e0, e1;

static void check(const char *what, int which, const float *dst, size_t n, unsigned salt)
{
  size_t total = which == 2 ? n * np : n;
  CK(cudaMemcpy(host, dst, total * 4, cudaMemcpyDeviceToHost));
  for (size_t k = 0; k < total; k++) {
    unsigned want = 0;
    if (which == 2) want = val(k % n, (int)(k / n), salt);
    else
      for (int p = 0; p < np; p++) want += val(k, p, salt);
    if (host[k] != (float)want && errors++ < 5)
      fprintf(stderr, "PE %d: %s of %zu elements: element %zu is %g, want %u\n", me, what, n, k, host[k], want);
  }
}
static void row(const char *test, const char *scope, size_t bytes, double us)
{
  if (me) return;
  printf("%-8s %-10s %-6s %10zu %10.2f\n", IMPL, test, scope, bytes, us);
  if (csv) fprintf(csv, "%s,%s,%s,%zu,%.3f,us\n", IMPL, test, scope, bytes, us);
  if (csv) fflush(csv);
  fflush(stdout);
}
static float time_rounds(int which, int block, float *d, const float *s, size_t n, int iters)
{
  float ms, t[3];
  for (int w = 0; w <= 3; w++) {
    int it = w ? iters : 2;
    BARRIER();
    CK(cudaEventRecord(e0));
    if (block) k_block<<<1, 1024>>>(which, d, s, n, it);
    else k_warp<<<1, 32>>>(which, d, s, n, it);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (w) t[w - 1] = ms;
  }
  return median3(t);
}

int main(int argc, char **argv)
{
  bench_init("/tmp/nvshmem_uid_warp.bin");
  me = MY_PE();
  np = N_PES();
  const char *cp = getenv("BENCH_CSV");
  if (me == 0 && cp) csv = fopen(cp, "a");
  size_t max = argc > 1 ? strtoull(argv[1], 0, 0) : (256u << 10);
  const char *e = getenv("BENCH_MIN");
  size_t lo = e ? strtoull(e, 0, 0) : 8;
  e = getenv("BENCH_STEP");
  size_t step = e ? strtoull(e, 0, 0) : 4;
  if (lo < 4 || lo % 4 || step < 2) { fprintf(stderr, "BENCH_MIN: a multiple of 4; BENCH_STEP: 2 or more\n"); return 1; }
  float *s = (float *)MALLOC(max), *d = (float *)MALLOC(max * (size_t)np);
  if (!s || !d) { fprintf(stderr, "raise the symmetric heap size\n"); return 1; }
  host = (float *)malloc(max * (size_t)np);
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  if (me == 0) printf("%-8s %-10s %-6s %10s %10s  (%d PEs)\n", "impl", "op", "scope", "bytes", "us/call", np);
  for (int block = 0; block < 2; block++) {
    const char *scope = block ? "block" : "warp";
    float t = time_rounds(0, block, d, s, 0, 200);
    row("barrier", scope, 0, t * 1e3 / 200);
    for (int which = 1; which < 3; which++)
      for (size_t bytes = lo; bytes <= max; bytes *= step) {
        size_t n = bytes / 4;
        unsigned salt = 11 + (unsigned)which + 2u * (unsigned)block;
        int iters = bytes <= (16u << 10) ? 200 : 50;
        k_fill<<<64, 256>>>(s, n, me, salt);
        CK(cudaMemset(d, 0xff, bytes * (which == 2 ? (size_t)np : 1)));
        CK(cudaDeviceSynchronize());
        BARRIER();
        t = time_rounds(which, block, d, s, n, iters);
        check(which == 1 ? "all-reduce" : "fcollect", which, d, n, salt);
        BARRIER();
        row(which == 1 ? "allreduce" : "fcollect", scope, bytes, t * 1e3 / iters);
      }
  }
  if (errors) fprintf(stderr, "PE %d: %d wrong elements\n", me, errors);
  if (csv) fclose(csv);
  free(host);
  bench_finalize();
  return errors ? 1 : 0;
}
