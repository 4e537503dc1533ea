/* The bfloat16 sum all-reduce, the type of tensor-parallel layers:
 * _on_stream (beside float's, the same bytes, in the same run), inside a
 * kernel on one block, and (Shoal) over every block of a resident grid.
 * Built twice from this source like bench_grid.cu: against Shoal
 * (shmemx_bfloat16_sum_reduce_*) and NVSHMEM (-DUSE_NVSHMEM:
 * nvshmemx_bfloat16_sum_reduce_on_stream and _block), so both run in the
 * same job.  bytes: the vector.  Each row: the median of three rounds of
 * back-to-back calls after a warm-up; each size's last call is checked
 * on the host, every element (small integers: exact in bfloat16 in any
 * order).  CSV rows (impl,test,scope,bytes,value,unit) to $BENCH_CSV.
 *   bench_f16 [max-bytes (default 64M)]; BENCH_MIN (4096), BENCH_STEP (4) */
#include <string.h>
#include <stdint.h>
#include <cuda_bf16.h>
#include "bench_gpu.h"

typedef __nv_bfloat16 bf16;
#ifdef USE_NVSHMEM
#define WORLD NVSHMEM_TEAM_WORLD
#define D_BF16_BLOCK(d, s, n) nvshmemx_bfloat16_sum_reduce_block(WORLD, d, s, n)
#define H_BF16(d, s, n, st) nvshmemx_bfloat16_sum_reduce_on_stream(WORLD, d, s, n, st)
#define H_FLOAT(d, s, n, st) nvshmemx_float_sum_reduce_on_stream(WORLD, d, s, n, st)
#else
#define WORLD SHMEM_TEAM_WORLD
#define D_BF16_BLOCK(d, s, n) shmemx_bfloat16_sum_reduce_block(WORLD, d, s, n)
#define D_BF16_GRID(d, s, n) shmemx_bfloat16_sum_reduce_grid(WORLD, d, s, n)
#define H_BF16(d, s, n, st) shmemx_bfloat16_sum_reduce_on_stream(WORLD, d, s, n, st)
#define H_FLOAT(d, s, n, st) shmemx_float_sum_reduce_on_stream(WORLD, d, s, n, st)
#endif

__global__ void __launch_bounds__(1024) k_block(bf16 *dst, const bf16 *src, size_t n, int iters)
{
  for (int i = 0; i < iters; i++) D_BF16_BLOCK(dst, src, n);
}
#ifndef USE_NVSHMEM
__global__ void __launch_bounds__(512) k_grid(bf16 *dst, const bf16 *src, size_t n, int iters)
{
  for (int i = 0; i < iters; i++) D_BF16_GRID(dst, src, n);
}
#endif

/* PE pe's element i: 0-31 (sums of up to 8 PEs exact in bfloat16) */
__host__ __device__ static inline unsigned val(size_t i, int pe, unsigned salt)
{
  return (unsigned)((i * 2654435761u + salt + (unsigned)pe * 7u) % 32u);
}
/* b or f: the vector of the call timed next */
__global__ void k_fill(bf16 *b, float *f, size_t n, int pe, unsigned salt)
{
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    if (b) b[i] = __float2bfloat16_rn((float)val(i, pe, salt));
    else f[i] = (float)val(i, pe, salt);
  }
}

static int me, np, errors;
static uint16_t *host;
static float *hostf;
static FILE *csv;
static cudaEvent_t e0, e1;

static void check(const char *what, const void *dst, bool is_float, size_t n, unsigned salt)
{
  if (is_float) CK(cudaMemcpy(hostf, dst, n * 4, cudaMemcpyDeviceToHost));
  else CK(cudaMemcpy(host, dst, n * 2, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++) {
    unsigned want = 0;
    for (int p = 0; p < np; p++) want += val(i, p, salt);
    float got;
    if (is_float) got = hostf[i];
    else {
      uint32_t u = (uint32_t)host[i] << 16;
      memcpy(&got, &u, 4);
    }
    if (got != (float)want && errors++ < 5)
      fprintf(stderr, "PE %d: %s of %zu elements: element %zu is %g, want %u\n", me, what, n, i, got, want);
  }
}
static void row(const char *test, const char *scope, size_t bytes, double us)
{
  if (me) return;
  printf("%-8s %-18s %-6s %12zu %12.2f %9.1f\n", IMPL, test, scope, bytes, us, bytes / us * 1e-3);
  if (csv) fprintf(csv, "%s,%s,%s,%zu,%.3f,us\n", IMPL, test, scope, bytes, us);
  if (csv) fflush(csv);
  fflush(stdout);
}
static int iters_for(size_t bytes) { return bytes <= (1u << 20) ? 100 : bytes <= (16u << 20) ? 20 : 5; }

/* which: 0 bfloat16 on stream, 1 float on stream, 2 block, 3 grid */
static float time_rounds(int which, cudaStream_t st, bf16 *db, bf16 *sb, float *df, float *sf, size_t n, int iters,
                         int grid)
{
  float ms, t[3];
  for (int w = 0; w <= 3; w++) {
    int it = w ? iters : 2;
    BARRIER();
    CK(cudaEventRecord(e0, st));
    if (which == 0)
      for (int i = 0; i < it; i++) H_BF16(db, sb, n, st);
    else if (which == 1)
      for (int i = 0; i < it; i++) H_FLOAT(df, sf, n, st);
    else if (which == 2)
      k_block<<<1, 1024, 0, st>>>(db, sb, n, it);
#ifndef USE_NVSHMEM
    else
      k_grid<<<grid, 512, 0, st>>>(db, sb, n, it);
#endif
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (w) t[w - 1] = ms;
  }
  (void)grid;
  return median3(t);
}

int main(int argc, char **argv)
{
  bench_init("/tmp/nvshmem_uid_f16.bin");
  me = MY_PE();
  np = N_PES();
  const char *cp = getenv("BENCH_CSV");
  if (me == 0 && cp) csv = fopen(cp, "a");
  size_t max = argc > 1 ? strtoull(argv[1], 0, 0) : (64u << 20);
  const char *e = getenv("BENCH_MIN");
  size_t lo = e ? strtoull(e, 0, 0) : 4096;
  e = getenv("BENCH_STEP");
  size_t step = e ? strtoull(e, 0, 0) : 4;
  if (lo < 4096 || lo % 4096 || step < 2) { fprintf(stderr, "BENCH_MIN: a multiple of 4096; BENCH_STEP: 2 or more\n"); return 1; }
  bf16 *sb = (bf16 *)MALLOC(max), *db = (bf16 *)MALLOC(max);
  float *sf = (float *)MALLOC(max), *df = (float *)MALLOC(max);
  if (!sb || !db || !sf || !df) { fprintf(stderr, "raise the symmetric heap size\n"); return 1; }
  host = (uint16_t *)malloc(max);
  hostf = (float *)malloc(max);
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
#ifndef USE_NVSHMEM
  int grid = shmemx_grid_max_blocks(k_grid, 512, 0);
#else
  int grid = 0;
#endif
  if (me == 0)
    printf("%-8s %-18s %-6s %12s %12s %9s  (%d PEs; grid: %d blocks of 512 threads)\n", "impl", "op", "scope",
           "bytes", "us/call", "GB/s", np, grid);
  const char *names[4] = {"bf16_sum_stream", "float_sum_stream", "bf16_sum_kernel", "bf16_sum_kernel"};
  const char *scopes[4] = {"host", "host", "block", "grid"};
  for (int which = 0; which < 4; which++) {
#ifdef USE_NVSHMEM
    if (which == 3) break;
#endif
    for (size_t bytes = lo; bytes <= max; bytes *= step) {
      if (which == 2 && bytes > (16u << 20)) break;   /* one block */
      size_t n = which == 1 ? bytes / 4 : bytes / 2;
      unsigned salt = 11 + (unsigned)which;
      k_fill<<<128, 256>>>(which == 1 ? NULL : sb, sf, n, me, salt);
      CK(cudaMemset(db, 0xff, bytes));
      CK(cudaMemset(df, 0xff, bytes));
      CK(cudaDeviceSynchronize());
      BARRIER();
      float ms = time_rounds(which, st, db, sb, df, sf, n, iters_for(bytes), grid);
      check(names[which], which == 1 ? (const void *)df : (const void *)db, which == 1, n, salt);
      BARRIER();
      row(names[which], scopes[which], bytes, ms * 1e3 / iters_for(bytes));
    }
  }
  if (errors) fprintf(stderr, "PE %d: %d wrong elements\n", me, errors);
  if (csv) fclose(csv);
  free(host);
  free(hostf);
  bench_finalize();
  return errors ? 1 : 0;
}
