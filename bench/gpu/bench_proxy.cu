/* The host proxy against the host-initiated path, same provider, same job
 * (run with SHOAL_PES_PER_NODE=1 so PE 1 is "remote"; 2 PEs):
 *   put latency (put + quiet, one thread), put bandwidth (put_nbi stream,
 *   one quiet), put+signal ping-pong (half round trip), fetch-add latency.
 * "device" = issued by a kernel through the proxy; "host" = the same call
 * from the host on the same GPU memory (the proxy's active messages
 * without the queue); "host_gpu_busy" = the host path while a kernel of
 * this PE spins on the GPU, as the device path's does (the fair pair on
 * one shared GPU: bench/RESULTS.md, session 11).  Prints CSV:
 * path,op,bytes,usec,GBps.  "bench_proxy fadd" runs the fetch-add part
 * alone (five rounds instead of three). */
#include "bench_gpu.h"

#include <string.h>
#include <time.h>

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

__global__ void k_put_lat(char *dst, const char *src, size_t n, int iters, int pe)
{
  for (int i = 0; i < iters; i++) {
    shmem_putmem(dst, src, n, pe);
    shmem_quiet();
  }
}
__global__ void k_put_bw(char *dst, const char *src, size_t n, int iters, int pe)
{
  for (int i = 0; i < iters; i++) shmem_putmem_nbi(dst, src, n, pe);
  shmem_quiet();
}
__global__ void k_pingpong(char *dst, const char *src, size_t n, uint64_t *sig, int iters, int me)
{
  int peer = 1 - me;
  for (int i = 1; i <= iters; i++) {
    if (me == 0) {
      shmem_putmem_signal(dst, src, n, sig, 1, SHMEM_SIGNAL_ADD, peer);
      shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)i);
    } else {
      shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)i);
      shmem_putmem_signal(dst, src, n, sig, 1, SHMEM_SIGNAL_ADD, peer);
    }
  }
}
static int fadd_done;   /* symmetric: PE 0 tells PE 1 the fetch-adds are over */

static double median(const double *v, int n)   /* n <= 5 */
{
  double s[5];
  for (int i = 0; i < n; i++) {   /* insertion sort */
    int j = i;
    for (; j > 0 && s[j - 1] > v[i]; j--) s[j] = s[j - 1];
    s[j] = v[i];
  }
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Spins on a host word, as k_fadd's wait for its result does: the host
 * path measured beside it says what one kernel on the (shared) GPU costs
 * the target's AMO kernel, apart from the queue. */
__global__ void k_spin(const volatile int *stop)
{
  while (!*stop) {}
}
__global__ void k_fadd(uint64_t *ctr, int iters, int pe, uint64_t *out)
{
  uint64_t s = 0;
  for (int i = 0; i < iters; i++) s += shmem_uint64_atomic_fetch_add(ctr, 1, pe);
  *out = s;
}

int main(int argc, char **argv)
{
  bool fadd_only = argc > 1 && !strcmp(argv[1], "fadd");
  bench_init("bench_proxy.id");
  int me = MY_PE(), np = N_PES();
  if (np != 2) { if (me == 0) fprintf(stderr, "bench_proxy: run with 2 PEs\n"); shmem_finalize(); return 1; }
  const size_t maxn = 4u << 20;
  char *dst = (char *)shmem_malloc(maxn), *src;
  uint64_t *sig = (uint64_t *)shmem_calloc(2, sizeof(uint64_t)), *ctr = sig + 1, *dout;
  CK(cudaMalloc((void **)&src, maxn));
  CK(cudaMalloc((void **)&dout, sizeof(uint64_t)));
  CK(cudaMemset(src, 0x3C, maxn));
  char *hsrc;
  CK(cudaMallocHost((void **)&hsrc, maxn));
  memset(hsrc, 0x3C, maxn);
  CK(cudaDeviceSynchronize());
  if (me == 0) printf("path,op,bytes,usec,GBps\n");
  BARRIER();

  /* put latency and bandwidth: PE 0 to PE 1 */
  for (size_t n = 8; n <= maxn && !fadd_only; n *= 4) {
    int iters = n <= 65536 ? 200 : 20;
    if (me == 0) {
      k_put_lat<<<1, 1>>>(dst, src, n, 5, 1);   /* warm */
      CK(cudaDeviceSynchronize());
      double t0 = now_us();
      k_put_lat<<<1, 1>>>(dst, src, n, iters, 1);
      CK(cudaDeviceSynchronize());
      double dev_lat = (now_us() - t0) / iters;
      t0 = now_us();
      for (int i = 0; i < iters; i++) { shmem_putmem(dst, hsrc, n, 1); shmem_quiet(); }
      double host_lat = (now_us() - t0) / iters;
      t0 = now_us();
      k_put_bw<<<1, 1>>>(dst, src, n, iters, 1);
      CK(cudaDeviceSynchronize());
      double dev_bw = (double)n * iters / (now_us() - t0) / 1e3;
      t0 = now_us();
      for (int i = 0; i < iters; i++) shmem_putmem_nbi(dst, hsrc, n, 1);
      shmem_quiet();
      double host_bw = (double)n * iters / (now_us() - t0) / 1e3;
      printf("device,put_lat,%zu,%.2f,\nhost,put_lat,%zu,%.2f,\n", n, dev_lat, n, host_lat);
      printf("device,put_bw,%zu,,%.3f\nhost,put_bw,%zu,,%.3f\n", n, dev_bw, n, host_bw);
      fflush(stdout);
    }
    BARRIER();
  }

  /* put+signal ping-pong (device only: both sides in kernels) */
  for (size_t n = 8; n <= 65536 && !fadd_only; n *= 32) {
    int iters = 200;
    CK(cudaMemset(sig, 0, sizeof(uint64_t)));
    CK(cudaDeviceSynchronize());
    BARRIER();
    double t0 = now_us();
    k_pingpong<<<1, 1>>>(dst, src, n, sig, iters, me);
    CK(cudaDeviceSynchronize());
    double half = (now_us() - t0) / iters / 2;
    BARRIER();
    if (me == 0) printf("device,put_signal_pingpong_half_rtt,%zu,%.2f,\n", n, half);
  }

  /* fetch-add latency: PE 0 on PE 1's counter.  PE 1 sleeps meanwhile
   * (its proxy's service thread answers), the same for every path: in a
   * barrier its waiting threads would back off more the longer it waits,
   * and a path measured later would find a quieter target (session 11).
   * Three rounds of each path, interleaved, medians.  Beside the device path (a kernel
   * waiting on the GPU) the host path runs twice: alone, and with a
   * kernel of this PE spinning on the GPU (host_gpu_busy: on one shared
   * GPU, a running kernel slows the target's AMO kernel too). */
  if (me == 0) {
    const int iters = 500, rounds = fadd_only ? 5 : 3;
    double dev[5], host[5], busy[5];
    int *stop;
    CK(cudaHostAlloc((void **)&stop, sizeof *stop, cudaHostAllocMapped));
    k_fadd<<<1, 1>>>(ctr, 10, 1, dout);
    CK(cudaDeviceSynchronize());
    for (int r = 0; r < rounds; r++) {
      double t0 = now_us();
      k_fadd<<<1, 1>>>(ctr, iters, 1, dout);
      CK(cudaDeviceSynchronize());
      dev[r] = (now_us() - t0) / iters;
      t0 = now_us();
      for (int i = 0; i < iters; i++) (void)shmem_uint64_atomic_fetch_add(ctr, 1, 1);
      host[r] = (now_us() - t0) / iters;
      *(volatile int *)stop = 0;
      k_spin<<<1, 1>>>(stop);
      t0 = now_us();
      for (int i = 0; i < iters; i++) (void)shmem_uint64_atomic_fetch_add(ctr, 1, 1);
      busy[r] = (now_us() - t0) / iters;
      __atomic_store_n(stop, 1, __ATOMIC_RELEASE);
      CK(cudaDeviceSynchronize());
    }
    CK(cudaFreeHost(stop));
    printf("device,fetch_add_lat,8,%.2f,\nhost,fetch_add_lat,8,%.2f,\nhost_gpu_busy,fetch_add_lat,8,%.2f,\n",
           median(dev, rounds), median(host, rounds), median(busy, rounds));
    shmem_int_atomic_set(&fadd_done, 1, 1);
  } else {
    while (!shmem_int_atomic_fetch(&fadd_done, me)) usleep(1000);
  }
  BARRIER();
  shmem_finalize();
  return 0;
}
