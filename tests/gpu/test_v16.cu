/* The OpenSHMEM 1.6 point-to-point additions on GPU PEs: shmem_signal_add,
 * shmem_signal_set, shmem_team_ptr and shmem_int_ibput/ibget inside
 * kernels, and the same calls from the host on GPU memory.  Outputs are
 * poisoned first and every element checked on the host. */
#include "gpu_test.h"

#define NB 5
#define BS 3
#define DSTB 4
#define SSTB 7
#define SPAN(st) ((size_t)((NB - 1) * (st) + BS))

/* Thread 0: add v to every PE's sig[0], set sig[1 + me] on every PE, ibput
 * src to the next PE's dst, then wait for every PE's add. */
__global__ void k_signal_ib(uint64_t *sig, int *dst, const int *src, uint64_t seed, uint64_t want,
                            void **tptr, const int *probe)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  if (threadIdx.x != 0) return;
  for (int k = 0; k < np; k++) {
    int p = (me + k) % np;
    shmem_signal_add(sig, gt_val(seed, me, 1, 11) >> 8, p);
    shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, sig + 1 + me, gt_val(seed, me, 2, 11), p);
  }
  shmem_int_ibput(dst, src, DSTB, SSTB, BS, NB, (me + 1) % np);
  shmem_quiet();
  shmem_uint64_wait_until(sig, SHMEM_CMP_EQ, want);
  for (int p = 0; p < np; p++) tptr[p] = shmem_team_ptr(SHMEM_TEAM_WORLD, probe, p);
  tptr[np] = shmem_team_ptr(SHMEM_TEAM_WORLD, probe, np);   /* out of range: NULL */
}

#define SN 1031
/* Block-scope scans: inscan out of place into out, exscan in place on io. */
__global__ void k_scan(long *out, const long *src, double *io)
{
  shmemx_long_sum_inscan_block(SHMEM_TEAM_WORLD, out, src, SN);
  shmemx_double_sum_exscan_block(SHMEM_TEAM_WORLD, io, io, SN);
}

static long scan_v(int pe, size_t i) { return (long)(gt_val(gt_seed, pe, i, 13) % 1000) + 1; }

/* Kernel scans, then the host shmem_TYPENAME_sum_inscan/exscan on GPU memory. */
static void test_scans(void)
{
  int me = shmem_my_pe();
  long *src = (long *)shmem_malloc(sizeof(long) * SN), *out = (long *)shmem_malloc(sizeof(long) * SN);
  double *io = (double *)shmem_malloc(sizeof(double) * SN);
  long *h = (long *)malloc(sizeof(long) * SN);
  double *hd = (double *)malloc(sizeof(double) * SN);
  for (int round = 0; round < 2; round++) {
    for (size_t i = 0; i < SN; i++) { h[i] = scan_v(me, i); hd[i] = (double)scan_v(me, i); }
    GT_CUDA(cudaMemcpy(src, h, sizeof(long) * SN, cudaMemcpyHostToDevice));
    GT_CUDA(cudaMemcpy(io, hd, sizeof(double) * SN, cudaMemcpyHostToDevice));
    GT_CUDA(cudaMemset(out, 0xA5, sizeof(long) * SN));
    GT_CUDA(cudaDeviceSynchronize());   /* memsets are asynchronous: finish before peers write */
    shmem_barrier_all();
    if (round == 0) {
      k_scan<<<1, 256>>>(out, src, io);
      GT_LAUNCHED();
    } else {
      GT_CHECK(shmem_long_sum_inscan(SHMEM_TEAM_WORLD, out, src, SN) == 0, "host inscan rc");
      GT_CHECK(shmem_double_sum_exscan(SHMEM_TEAM_WORLD, io, io, SN) == 0, "host exscan rc");
    }
    shmem_barrier_all();
    GT_CUDA(cudaMemcpy(h, out, sizeof(long) * SN, cudaMemcpyDeviceToHost));
    GT_CUDA(cudaMemcpy(hd, io, sizeof(double) * SN, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < SN; i++) {
      long e = 0;
      double x = 0;
      for (int q = 0; q <= me; q++) e += scan_v(q, i);
      for (int q = 0; q < me; q++) x += (double)scan_v(q, i);
      GT_CHECK(h[i] == e, "%s inscan: element %zu: %ld, want %ld", round ? "host" : "kernel", i, h[i], e);
      GT_CHECK(hd[i] == x, "%s exscan in place: element %zu wrong", round ? "host" : "kernel", i);
    }
  }
  free(hd); free(h);
  shmem_free(io); shmem_free(out); shmem_free(src);
}

int main(void)
{
  gt_init();
  int me = shmem_my_pe(), np = shmem_n_pes(), prev = (me + np - 1) % np;
  uint64_t *sig = (uint64_t *)shmem_malloc(sizeof(uint64_t) * (1 + (size_t)np));
  int *dst = (int *)shmem_malloc(sizeof(int) * SPAN(DSTB));
  int *src = (int *)shmem_malloc(sizeof(int) * SPAN(SSTB));
  int *probe = (int *)shmem_malloc(sizeof(int));
  void **tptr;
  GT_CUDA(cudaMalloc((void **)&tptr, sizeof(void *) * (size_t)(np + 1)));
  int hsrc[SPAN(SSTB)], hdst[SPAN(DSTB)];
  for (size_t j = 0; j < SPAN(SSTB); j++) hsrc[j] = (int)gt_val(gt_seed, me, j, 12);
  GT_CUDA(cudaMemcpy(src, hsrc, sizeof hsrc, cudaMemcpyHostToDevice));
  GT_CUDA(cudaMemset(dst, 0xA5, sizeof(int) * SPAN(DSTB)));
  GT_CUDA(cudaMemset(sig, 0, sizeof(uint64_t) * (1 + (size_t)np)));
  GT_CUDA(cudaDeviceSynchronize());
  shmem_barrier_all();
  uint64_t want = 0;
  for (int q = 0; q < np; q++) want += gt_val(gt_seed, q, 1, 11) >> 8;
  k_signal_ib<<<1, 32>>>(sig, dst, src, gt_seed, want, tptr, probe);
  GT_LAUNCHED();
  shmem_barrier_all();

  uint64_t hsig[65];
  GT_CUDA(cudaMemcpy(hsig, sig, sizeof(uint64_t) * (1 + (size_t)np), cudaMemcpyDeviceToHost));
  GT_CHECK(hsig[0] == want, "kernel signal_add: %llu, want %llu", (unsigned long long)hsig[0],
           (unsigned long long)want);
  for (int q = 0; q < np; q++)
    GT_CHECK(hsig[1 + q] == gt_val(gt_seed, q, 2, 11), "kernel signal_set from PE %d wrong", q);
  GT_CUDA(cudaMemcpy(hdst, dst, sizeof hdst, cudaMemcpyDeviceToHost));
  for (size_t b = 0; b < NB; b++)
    for (size_t e = 0; e < BS; e++)
      GT_CHECK(hdst[b * DSTB + e] == (int)gt_val(gt_seed, prev, b * SSTB + e, 12),
               "kernel ibput: block %zu element %zu wrong", b, e);
  void *hptr[65];
  GT_CUDA(cudaMemcpy(hptr, tptr, sizeof(void *) * (size_t)(np + 1), cudaMemcpyDeviceToHost));
  GT_CHECK(hptr[me] == (void *)probe, "kernel team_ptr(me) is not the local address");
  GT_CHECK(hptr[np] == NULL, "kernel team_ptr(n_pes) is not NULL");

  /* The host API on GPU memory. */
  shmem_barrier_all();
  GT_CUDA(cudaMemset(dst, 0xA5, sizeof(int) * SPAN(DSTB)));
  GT_CUDA(cudaMemset(sig, 0, sizeof(uint64_t)));
  GT_CUDA(cudaDeviceSynchronize());
  shmem_barrier_all();
  shmem_int_ibput(dst, src, DSTB, SSTB, BS, NB, (me + 1) % np);
  shmem_signal_add(sig, 3, (me + 1) % np);
  shmem_quiet();
  shmem_barrier_all();
  GT_CUDA(cudaMemcpy(hdst, dst, sizeof hdst, cudaMemcpyDeviceToHost));
  for (size_t b = 0; b < NB; b++)
    for (size_t e = 0; e < BS; e++)
      GT_CHECK(hdst[b * DSTB + e] == (int)gt_val(gt_seed, prev, b * SSTB + e, 12),
               "host ibput on GPU memory: block %zu element %zu wrong", b, e);
  GT_CHECK(shmem_signal_fetch(sig) == 3, "host signal_add on GPU memory");
  int *loc = (int *)malloc(sizeof(int) * SPAN(DSTB));
  memset(loc, 0xA5, sizeof(int) * SPAN(DSTB));
  shmem_int_ibget(loc, src, DSTB, SSTB, BS, NB, prev);
  for (size_t b = 0; b < NB; b++)
    for (size_t e = 0; e < BS; e++)
      GT_CHECK(loc[b * DSTB + e] == (int)gt_val(gt_seed, prev, b * SSTB + e, 12),
               "host ibget from GPU memory: block %zu element %zu wrong", b, e);
  GT_CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, probe, me) == shmem_ptr(probe, me), "host team_ptr");
  GT_CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, probe, 0) == NULL, "host team_ptr(INVALID)");
  free(loc);
  test_scans();
  GT_CUDA(cudaFree(tptr));
  shmem_free(probe); shmem_free(src); shmem_free(dst); shmem_free(sig);
  return gt_finish("test_v16");
}
