/* Device-initiated point-to-point benchmarks, built twice from this one
 * source: against Shoal (default) and against NVSHMEM (-DUSE_NVSHMEM), so
 * both run the same kernels in the same job.
 *   put bandwidth by size at thread, warp and block scope (PE 0 -> PE 1)
 *   cudaMemcpyPeer-style copy engine bandwidth (Shoal build)
 *   put+signal ping-pong one-way latency (8 bytes)
 *   fetch_add latency and non-fetching atomic add rate
 * Prints a table; appends CSV rows (impl,test,scope,bytes,value,unit) to
 * the file named by BENCH_CSV. */
#include <string.h>
#include <stdint.h>
#include "bench_gpu.h"

#ifdef USE_NVSHMEM
#define D_PUT(d, s, n, pe) nvshmem_putmem_nbi(d, s, n, pe)
#define D_PUT_WARP(d, s, n, pe) nvshmemx_putmem_nbi_warp(d, s, n, pe)
#define D_PUT_BLOCK(d, s, n, pe) nvshmemx_putmem_nbi_block(d, s, n, pe)
#define D_QUIET() nvshmem_quiet()
#define D_PUT_SIGNAL(d, s, n, sig, v, pe) nvshmem_putmem_signal_nbi(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe)
#define D_SIGNAL_WAIT(sig, v) nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, v)
#define D_FADD(p, v, pe) nvshmem_uint64_atomic_fetch_add(p, v, pe)
#define D_ADD(p, v, pe) nvshmem_uint64_atomic_add(p, v, pe)
#else
#define D_PUT(d, s, n, pe) shmem_putmem_nbi(d, s, n, pe)
#define D_PUT_WARP(d, s, n, pe) shmemx_putmem_nbi_warp(d, s, n, pe)
#define D_PUT_BLOCK(d, s, n, pe) shmemx_putmem_nbi_block(d, s, n, pe)
#define D_QUIET() shmem_quiet()
#define D_PUT_SIGNAL(d, s, n, sig, v, pe) shmem_putmem_signal_nbi(d, s, n, sig, v, SHMEM_SIGNAL_SET, pe)
#define D_SIGNAL_WAIT(sig, v) shmem_signal_wait_until(sig, SHMEM_CMP_GE, v)
#define D_FADD(p, v, pe) shmem_uint64_atomic_fetch_add(p, v, pe)
#define D_ADD(p, v, pe) shmem_uint64_atomic_add(p, v, pe)
#endif

static FILE *csv;
static void row(const char *test, const char *scope, size_t bytes, double value, const char *unit)
{
  printf("%-8s %-14s %-6s %12zu %12.3f %s\n", IMPL, test, scope, bytes, value, unit);
  if (csv) fprintf(csv, "%s,%s,%s,%zu,%.4f,%s\n", IMPL, test, scope, bytes, value, unit);
}

/* scope 0 thread, 1 warp, 2 block: worker w of W copies its chunk. */
/* One kernel per scope (as users write them): each scope's code is
 * compiled and register-allocated on its own. */
template <int scope>
__global__ void __launch_bounds__(1024) k_put(char *dst, const char *src, size_t size, size_t chunk, int iters, int pe)
{
  size_t w;
  if (scope == 0) w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  else if (scope == 1) w = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  else w = blockIdx.x;
  size_t off = w * chunk;
  size_t n = off < size ? (size - off < chunk ? size - off : chunk) : 0;
  for (int it = 0; it < iters; it++) {
    if (scope == 0) { if (n) D_PUT(dst + off, src + off, n, pe); }
    else if (scope == 1) { if (n) D_PUT_WARP(dst + off, src + off, n, pe); }
    else { if (n) D_PUT_BLOCK(dst + off, src + off, n, pe); }
  }
  D_QUIET();
}
static void launch_put(int scope, int blocks, int threads, char *dst, const char *src, size_t size,
                       size_t chunk, int iters, int pe)
{
  if (scope == 0) k_put<0><<<blocks, threads>>>(dst, src, size, chunk, iters, pe);
  else if (scope == 1) k_put<1><<<blocks, threads>>>(dst, src, size, chunk, iters, pe);
  else k_put<2><<<blocks, threads>>>(dst, src, size, chunk, iters, pe);
}

__global__ void k_pingpong(char *data, const char *src, uint64_t *sig, int iters, int me)
{
  if (threadIdx.x) return;
  int peer = 1 - me;
  for (int i = 1; i <= iters; i++) {
    if (me == 0) {
      D_PUT_SIGNAL(data, src, 8, sig, (uint64_t)i, peer);
      D_SIGNAL_WAIT(sig, (uint64_t)i);
    } else {
      D_SIGNAL_WAIT(sig, (uint64_t)i);
      D_PUT_SIGNAL(data, src, 8, sig, (uint64_t)i, peer);
    }
  }
}

__global__ void k_fadd(uint64_t *ctr, int iters, uint64_t *out)
{
  uint64_t acc = 0;
  for (int i = 0; i < iters; i++) acc += D_FADD(ctr, 1, 1);
  *out = acc;
}
__global__ void k_add_rate(uint64_t *ctr, int iters)
{
  uint64_t *p = ctr + (threadIdx.x & 63);
  for (int i = 0; i < iters; i++) D_ADD(p, 1, 1);
  D_QUIET();
}

static float time_ms(cudaEvent_t a, cudaEvent_t b)
{
  float ms;
  CK(cudaEventSynchronize(b));
  CK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

int main(int argc, char **argv)
{
  bench_init("/tmp/nvshmem_uid.bin");
  int me = MY_PE(), np = N_PES();
  if (np != 2) { if (me == 0) fprintf(stderr, "run with 2 PEs\n"); return 1; }
  const char *cp = getenv("BENCH_CSV");
  if (me == 0 && cp) csv = fopen(cp, "a");
  size_t max = argc > 1 ? strtoull(argv[1], 0, 0) : (256u << 20);
  char *dst = (char *)MALLOC(max), *src = (char *)MALLOC(max);
  uint64_t *sig = (uint64_t *)MALLOC(4096);
  CK(cudaMemset(src, 0x3C, max));
  CK(cudaMemset(sig, 0, 4096));
  CK(cudaDeviceSynchronize());
  BARRIER();
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  int sms = 132;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (me == 0) printf("%-8s %-14s %-6s %12s %12s %s\n", "impl", "test", "scope", "bytes", "value", "unit");

  /* ---- put bandwidth ---- */
  const char *scopes[] = {"thread", "warp", "block"};
  for (int scope = 0; scope < 3; scope++)
    for (size_t size = 8; size <= max; size *= 4) {
      /* workers: enough to fill the GPU, each with at least a minimum chunk */
      size_t minchunk = scope == 0 ? 16 : scope == 1 ? 512 : 8192;
      size_t maxw = scope == 0 ? (size_t)sms * 1024 : scope == 1 ? (size_t)sms * 32 : (size_t)sms * 2;
      size_t w = (size + minchunk - 1) / minchunk;
      if (w > maxw) w = maxw;
      if (w < 1) w = 1;
      size_t chunk = (size + w - 1) / w;
      chunk = (chunk + 15) & ~(size_t)15;
      w = (size + chunk - 1) / chunk;
      int threads = scope == 2 ? 512 : 1024;
      size_t per_block = scope == 0 ? 1024 : scope == 1 ? 32 : 1;
      int blocks = (int)((w + per_block - 1) / per_block);
      if (scope == 0 && w < 1024) threads = (int)((w + 31) / 32 * 32);
      if (scope == 1 && w < 32) threads = (int)w * 32;
      int iters = (int)((1ull << 31) / size);
      if (iters > 2000) iters = 2000;
      if (iters < 5) iters = 5;
      BARRIER();
      if (me == 0) {
        launch_put(scope, blocks, threads, dst, src, size, chunk, 2, 1);   /* warm-up */
        CK(cudaGetLastError());
        CK(cudaEventRecord(e0));
        launch_put(scope, blocks, threads, dst, src, size, chunk, iters, 1);
        CK(cudaEventRecord(e1));
        float ms = time_ms(e0, e1);
        row("put_bw", scopes[scope], size, (double)size * iters / (ms * 1e6), "GB/s");
      }
      CK(cudaDeviceSynchronize());
      BARRIER();
    }

#ifndef USE_NVSHMEM
  /* ---- copy engine (cudaMemcpyPeer equivalent) ---- */
  for (size_t size = 4096; size <= max; size *= 4) {
    int iters = (int)((1ull << 31) / size);
    if (iters > 2000) iters = 2000;
    if (iters < 5) iters = 5;
    BARRIER();
    if (me == 0) {
      void *peer = shmem_ptr(dst, 1);   /* PE 1's buffer as this GPU addresses it */
      CK(cudaMemcpyAsync(peer, src, size, cudaMemcpyDefault, 0));
      CK(cudaEventRecord(e0));
      for (int i = 0; i < iters; i++) CK(cudaMemcpyAsync(peer, src, size, cudaMemcpyDefault, 0));
      CK(cudaEventRecord(e1));
      row("memcpy_peer", "host", size, (double)size * iters / (time_ms(e0, e1) * 1e6), "GB/s");
    }
    CK(cudaDeviceSynchronize());
    BARRIER();
  }
#endif

  /* ---- put+signal ping-pong ---- */
  /* Two PEs on one GPU take turns on it (time slices of milliseconds)
   * unless MPS runs their kernels side by side: without MPS a ping-pong
   * there measures the scheduler, so it is left out.  BENCH_PINGPONG=1
   * says MPS is on (the latency is then through one GPU's L2, not NVLink). */
  int gpus = 1;
  CK(cudaGetDeviceCount(&gpus));
  if (getenv("BENCH_PINGPONG") && atoi(getenv("BENCH_PINGPONG"))) gpus = 2;
  if (gpus < 2 && me == 0) printf("putsig_lat: skipped (the PEs share one GPU)\n");
  for (int rep = 0; rep < 3 && gpus >= 2; rep++) {
    const int iters = 20000;
    CK(cudaMemset(sig, 0, 8));
    CK(cudaDeviceSynchronize());
    BARRIER();
    CK(cudaEventRecord(e0));
    k_pingpong<<<1, 32>>>(dst, src, sig, iters, me);
    CK(cudaEventRecord(e1));
    float ms = time_ms(e0, e1);
    if (me == 0) row("putsig_lat", "thread", 8, ms * 1e3 / (2.0 * iters), "us(one-way)");
    BARRIER();
  }

  /* ---- atomics ---- */
  {
    const int iters = 20000;
    uint64_t *out;
    CK(cudaMalloc((void **)&out, 8));
    BARRIER();
    if (me == 0) {
      k_fadd<<<1, 1>>>(sig + 8, 100, out);
      CK(cudaEventRecord(e0));
      k_fadd<<<1, 1>>>(sig + 8, iters, out);
      CK(cudaEventRecord(e1));
      row("fadd_lat", "thread", 8, time_ms(e0, e1) * 1e3 / iters, "us");
      const int rate_iters = 1000, rb = sms, rt = 256;
      k_add_rate<<<rb, rt>>>(sig + 64, 10);
      CK(cudaEventRecord(e0));
      k_add_rate<<<rb, rt>>>(sig + 64, rate_iters);
      CK(cudaEventRecord(e1));
      row("add_rate", "grid", 8, (double)rb * rt * rate_iters / (time_ms(e0, e1) * 1e3), "Mops/s");
    }
    CK(cudaDeviceSynchronize());
    BARRIER();
  }
  if (csv) fclose(csv);
  bench_finalize();
  return 0;
}
