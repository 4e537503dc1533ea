/* Device-initiated operations through the host proxy.  Run with
 * SHOAL_PES_PER_NODE=1 (every peer on "another node": all through the
 * proxy) or 2 (mixed); with every PE on one node it checks the same
 * results over load/store.  Fresh random data, poisoned outputs, every
 * element checked. */
#include "gpu_test.h"

#define N 3001                  /* ints: odd, so chunks end mid-way */
#define BIG (3u << 20)          /* bytes: many proxy messages */
#define THREADS 64

__global__ void fill(void *a, size_t nbytes, uint64_t seed, int pe, unsigned salt)
{
  unsigned char *p = (unsigned char *)a;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < nbytes; i += (size_t)gridDim.x * blockDim.x)
    p[i] = (unsigned char)gt_val(seed, pe, i, salt);
}

/* Thread 0 puts (blocking, from a non-symmetric device buffer) and p's to
 * the next PE; threads put_nbi slices of a big buffer; quiet. */
__global__ void k_put(int *dst, const int *src, long *pv, char *big_dst, const char *big_src, uint64_t seed)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np;
  if (threadIdx.x == 0) {
    shmem_int_put(dst, src, N, next);
    shmem_long_p(pv, (long)gt_val(seed, me, 1, 9), next);
  }
  size_t slice = BIG / blockDim.x;
  shmem_putmem_nbi(big_dst + threadIdx.x * slice, big_src + threadIdx.x * slice, slice, next);
  shmem_quiet();
}

/* get and g back from the next PE into device memory. */
__global__ void k_get(int *back, const int *dst, long *gv, const long *pv, char *big_back, const char *big_dst)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np;
  if (threadIdx.x == 0) {
    shmem_int_get(back, dst, N, next);
    *gv = shmem_long_g(pv, next);
  }
  size_t slice = BIG / blockDim.x;
  shmem_getmem_nbi(big_back + threadIdx.x * slice, big_dst + threadIdx.x * slice, slice, next);
  shmem_quiet();
}

/* Cooperative forms: warp put, block get back. */
__global__ void k_coop(char *dst, const char *src, size_t n)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np;
  if (threadIdx.x < 32) shmemx_putmem_warp(dst, src, n, next);
  if (threadIdx.x == 0) shmem_quiet();
  __syncthreads();
}
__global__ void k_coop_get(char *back, const char *dst, size_t n)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np;
  shmemx_getmem_block(back, dst, n, next);
}

/* put_signal to the next PE, then wait for mine: rounds in one kernel. */
__global__ void k_signal(char *dst, const char *src, size_t n, uint64_t *sig, int rounds, int *ok)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np, prev = (me + np - 1) % np;
  if (threadIdx.x) return;
  for (int r = 1; r <= rounds; r++) {
    shmem_putmem_signal(dst + (size_t)(r & 1) * n, src, n, sig, 1, SHMEM_SIGNAL_ADD, next);
    shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)r);
    (void)prev;
  }
  *ok = shmem_signal_fetch(sig) == (uint64_t)rounds;
}

/* AMOs from every thread of every PE on PE (np - 1)'s words. */
__global__ void k_amo(uint64_t *ctr, int *cas, unsigned *bits, long *sw, uint64_t *fetched, double *dv)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), to = np - 1;
  unsigned t = threadIdx.x;
  fetched[t] = shmem_uint64_atomic_fetch_add(ctr, 1, to);
  shmem_uint64_atomic_add(ctr, 2, to);
  if (t == 0) {
    (void)shmem_int_atomic_compare_swap(cas, 0, me + 1, to);
    shmem_uint_atomic_fetch_or(bits, 1u << me, to);
    shmem_uint_atomic_xor(bits, 1u << (me + 8), to);
    shmem_uint_atomic_xor(bits, 1u << (me + 8), to);
    (void)shmem_long_atomic_swap(sw, me + 100, to);
    if (me == 0) shmem_double_atomic_set(dv, 2.5, to);
  }
  shmem_quiet();
}
__global__ void k_amo_fetch(const double *dv, double *out)
{
  *out = shmem_double_atomic_fetch(dv, shmem_n_pes() - 1);
}

__global__ void k_ptr(const int *sym, int *out)
{
  int np = shmem_n_pes();
  for (int i = 0; i < np; i++) out[i] = shmem_ptr(sym, i) != NULL;
}

int main(void)
{
  gt_init();
  int me = shmem_my_pe(), np = shmem_n_pes(), prev = (me + np - 1) % np, next = (me + 1) % np;

  /* ---- put / p / put_nbi (big) / get / g / get_nbi ---- */
  int *dst = (int *)shmem_malloc(N * sizeof(int));
  long *pv = (long *)shmem_malloc(sizeof(long));
  char *big_dst = (char *)shmem_malloc(BIG);
  int *src, *back;
  char *big_src, *big_back;
  long *gv;
  GT_CUDA(cudaMalloc((void **)&src, N * sizeof(int)));   /* not symmetric: any device memory */
  GT_CUDA(cudaMalloc((void **)&back, N * sizeof(int)));
  GT_CUDA(cudaMalloc((void **)&big_src, BIG));
  GT_CUDA(cudaMalloc((void **)&big_back, BIG));
  GT_CUDA(cudaMalloc((void **)&gv, sizeof(long)));
  fill<<<64, 256>>>(src, N * sizeof(int), gt_seed, me, 1);
  fill<<<64, 256>>>(big_src, BIG, gt_seed, me, 2);
  GT_CUDA(cudaMemset(dst, 0xA5, N * sizeof(int)));
  GT_CUDA(cudaMemset(big_dst, 0x5A, BIG));
  GT_CUDA(cudaMemset(back, 0x11, N * sizeof(int)));
  GT_CUDA(cudaMemset(big_back, 0x22, BIG));
  GT_LAUNCHED();
  shmem_barrier_all();
  k_put<<<1, THREADS>>>(dst, src, pv, big_dst, big_src, gt_seed);
  GT_LAUNCHED();
  shmem_barrier_all();
  {
    unsigned char *h = (unsigned char *)malloc(BIG);
    GT_CUDA(cudaMemcpy(h, dst, N * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (size_t i = 0; i < N * sizeof(int); i++) bad += h[i] != (unsigned char)gt_val(gt_seed, prev, i, 1);
    GT_CHECK(bad == 0, "put from PE %d: %d bytes wrong", prev, bad);
    long l;
    GT_CUDA(cudaMemcpy(&l, pv, sizeof l, cudaMemcpyDeviceToHost));
    GT_CHECK(l == (long)gt_val(gt_seed, prev, 1, 9), "p from PE %d: %ld", prev, l);
    GT_CUDA(cudaMemcpy(h, big_dst, BIG, cudaMemcpyDeviceToHost));
    bad = 0;
    for (size_t i = 0; i < BIG; i++) bad += h[i] != (unsigned char)gt_val(gt_seed, prev, i, 2);
    GT_CHECK(bad == 0, "put_nbi (%u bytes) from PE %d: %d bytes wrong", BIG, prev, bad);
    free(h);
  }
  k_get<<<1, THREADS>>>(back, dst, gv, pv, big_back, big_dst);
  GT_LAUNCHED();
  {
    unsigned char *h = (unsigned char *)malloc(BIG);
    GT_CUDA(cudaMemcpy(h, back, N * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (size_t i = 0; i < N * sizeof(int); i++) bad += h[i] != (unsigned char)gt_val(gt_seed, me, i, 1);
    GT_CHECK(bad == 0, "get from PE %d: %d bytes wrong", next, bad);
    long l;
    GT_CUDA(cudaMemcpy(&l, gv, sizeof l, cudaMemcpyDeviceToHost));
    GT_CHECK(l == (long)gt_val(gt_seed, me, 1, 9), "g from PE %d: %ld", next, l);
    GT_CUDA(cudaMemcpy(h, big_back, BIG, cudaMemcpyDeviceToHost));
    bad = 0;
    for (size_t i = 0; i < BIG; i++) bad += h[i] != (unsigned char)gt_val(gt_seed, me, i, 2);
    GT_CHECK(bad == 0, "get_nbi (%u bytes) from PE %d: %d bytes wrong", BIG, next, bad);
    free(h);
  }
  shmem_barrier_all();

  /* ---- cooperative warp put, block get ---- */
  size_t cn = 100003;
  fill<<<64, 256>>>(big_src, cn, gt_seed, me, 3);
  GT_CUDA(cudaMemset(big_dst, 0x77, cn));
  GT_CUDA(cudaMemset(big_back, 0x66, cn));
  GT_LAUNCHED();
  shmem_barrier_all();
  k_coop<<<1, 128>>>(big_dst, big_src, cn);
  GT_LAUNCHED();
  shmem_barrier_all();
  k_coop_get<<<1, 128>>>(big_back, big_dst, cn);
  GT_LAUNCHED();
  {
    unsigned char *h = (unsigned char *)malloc(cn);
    GT_CUDA(cudaMemcpy(h, big_dst, cn, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (size_t i = 0; i < cn; i++) bad += h[i] != (unsigned char)gt_val(gt_seed, prev, i, 3);
    GT_CHECK(bad == 0, "warp put from PE %d: %d bytes wrong", prev, bad);
    GT_CUDA(cudaMemcpy(h, big_back, cn, cudaMemcpyDeviceToHost));
    bad = 0;
    for (size_t i = 0; i < cn; i++) bad += h[i] != (unsigned char)gt_val(gt_seed, me, i, 3);
    GT_CHECK(bad == 0, "block get from PE %d: %d bytes wrong", next, bad);
    free(h);
  }
  shmem_barrier_all();

  /* ---- put_signal ping around the ring ---- */
  uint64_t *sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
  int *ok;
  GT_CUDA(cudaMalloc((void **)&ok, sizeof(int)));
  GT_CUDA(cudaMemset(ok, 0, sizeof(int)));
  size_t sn = 40000;
  fill<<<64, 256>>>(big_src, sn, gt_seed, me, 4);
  GT_LAUNCHED();
  shmem_barrier_all();
  const int rounds = 20;
  k_signal<<<1, 32>>>(big_dst, big_src, sn, sig, rounds, ok);
  GT_LAUNCHED();
  shmem_barrier_all();
  {
    int o = 0;
    GT_CUDA(cudaMemcpy(&o, ok, sizeof o, cudaMemcpyDeviceToHost));
    GT_CHECK(o == 1, "put_signal: signal_fetch after %d rounds", rounds);
    unsigned char *h = (unsigned char *)malloc(2 * sn);
    GT_CUDA(cudaMemcpy(h, big_dst, 2 * sn, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (size_t i = 0; i < 2 * sn; i++) bad += h[i] != (unsigned char)gt_val(gt_seed, prev, i % sn, 4);
    GT_CHECK(bad == 0, "put_signal data from PE %d: %d bytes wrong", prev, bad);
    free(h);
  }

  /* ---- AMOs on the last PE ---- */
  uint64_t *ctr = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
  int *cas = (int *)shmem_calloc(1, sizeof(int));
  unsigned *bits = (unsigned *)shmem_calloc(1, sizeof(unsigned));
  long *sw = (long *)shmem_calloc(1, sizeof(long));
  double *dv = (double *)shmem_calloc(1, sizeof(double));
  uint64_t *fetched;
  double *dout;
  GT_CUDA(cudaMalloc((void **)&fetched, THREADS * sizeof(uint64_t)));
  GT_CUDA(cudaMalloc((void **)&dout, sizeof(double)));
  GT_CUDA(cudaMemset(fetched, 0xFF, THREADS * sizeof(uint64_t)));
  shmem_barrier_all();
  k_amo<<<1, THREADS>>>(ctr, cas, bits, sw, fetched, dv);
  GT_LAUNCHED();
  shmem_barrier_all();
  k_amo_fetch<<<1, 1>>>(dv, dout);
  GT_LAUNCHED();
  {
    uint64_t f[THREADS];
    GT_CUDA(cudaMemcpy(f, fetched, sizeof f, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < THREADS; i++) bad += f[i] >= (uint64_t)np * THREADS * 3;
    GT_CHECK(bad == 0, "fetch_add results out of range: %d", bad);
    double d;
    GT_CUDA(cudaMemcpy(&d, dout, sizeof d, cudaMemcpyDeviceToHost));
    GT_CHECK(d == 2.5, "double set/fetch through the proxy: %g", d);
    if (me == np - 1) {
      uint64_t c;
      int cs;
      unsigned b;
      long s;
      GT_CUDA(cudaMemcpy(&c, ctr, sizeof c, cudaMemcpyDeviceToHost));
      GT_CUDA(cudaMemcpy(&cs, cas, sizeof cs, cudaMemcpyDeviceToHost));
      GT_CUDA(cudaMemcpy(&b, bits, sizeof b, cudaMemcpyDeviceToHost));
      GT_CUDA(cudaMemcpy(&s, sw, sizeof s, cudaMemcpyDeviceToHost));
      GT_CHECK(c == (uint64_t)np * THREADS * 3, "counter %llu, expected %llu", (unsigned long long)c,
               (unsigned long long)np * THREADS * 3);
      GT_CHECK(cs >= 1 && cs <= np, "compare_swap winner %d", cs);
      GT_CHECK(b == (np >= 8 ? 0xFFu : (1u << np) - 1), "bits %#x", b);
      GT_CHECK(s >= 100 && s < 100 + np, "swap %ld", s);
    }
  }
  shmem_barrier_all();

  /* ---- host API on the next PE's GPU memory ---- */
  {
    long hv[64], hb[64];
    for (int i = 0; i < 64; i++) hv[i] = (long)gt_val(gt_seed, me, (size_t)i, 5);
    shmem_long_put((long *)big_dst, hv, 64, next);
    shmem_quiet();
    shmem_barrier_all();
    for (int i = 0; i < 64; i++) hb[i] = -1;
    shmem_long_get(hb, (long *)big_dst, 64, prev);   /* what prev's predecessor put there */
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += hb[i] != (long)gt_val(gt_seed, (prev + np - 1) % np, (size_t)i, 5);
    GT_CHECK(bad == 0, "host put/get on remote GPU memory: %d wrong", bad);
    shmem_barrier_all();
    (void)shmem_uint64_atomic_fetch_add(ctr, 5, 0);
    shmem_barrier_all();
    if (me == 0) {
      uint64_t c = shmem_uint64_atomic_fetch(ctr, 0);
      uint64_t base = np == 1 ? (uint64_t)np * THREADS * 3 : 0;
      GT_CHECK(c == base + 5u * (uint64_t)np, "host atomics on GPU memory: %llu", (unsigned long long)c);
    }
  }
  shmem_barrier_all();

  /* ---- shmem_ptr: a pointer for mapped peers only ---- */
  {
    int *pout, po[64];
    GT_CUDA(cudaMalloc((void **)&pout, np * sizeof(int)));
    k_ptr<<<1, 1>>>(dst, pout);
    GT_LAUNCHED();
    GT_CUDA(cudaMemcpy(po, pout, np * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < np && i < 64; i++) {
      int mapped = shmem_team_translate_pe(SHMEM_TEAM_WORLD, i, SHMEM_TEAM_SHARED) >= 0;
      GT_CHECK(po[i] == mapped, "shmem_ptr for PE %d: %d, expected %d", i, po[i], mapped);
    }
    cudaFree(pout);
  }
  return gt_finish("test_proxy");
}
