/* Device-initiated point-to-point API on GPU PEs: put/get/p/g at thread,
 * warp and block scope (aligned and misaligned), put_signal, every AMO
 * class under contention from all PEs, wait/test, team queries in kernels,
 * and the host API on GPU memory.  Every output is poisoned first and
 * every element checked on the host. */
#include "gpu_test.h"

#define N 1031   /* a prime: no power-of-two luck */

__global__ void fill(void *a, size_t nbytes, uint64_t seed, int pe, unsigned salt)
{
  unsigned char *p = (unsigned char *)a;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < nbytes; i += gridDim.x * blockDim.x)
    p[i] = (unsigned char)(gt_val(seed, pe, i / 8, salt) >> (8 * (i % 8)));
}
static void fill_host_expect(unsigned char *p, size_t nbytes, int pe, unsigned salt)
{
  for (size_t i = 0; i < nbytes; i++) p[i] = (unsigned char)(gt_val(gt_seed, pe, i / 8, salt) >> (8 * (i % 8)));
}

/* Thread scope: one thread puts N ints to every PE (staggered), then the
 * block barrier; one long to every PE by thread t (p, or put of 1). */
__global__ void k_put_thread(int *dst, const int *src, long *pv, uint64_t seed)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  if (threadIdx.x == 0)
    for (int i = 0; i < np; i++) shmem_int_put(dst + (size_t)me * N, src, N, (me + i) % np);
  if ((int)threadIdx.x < np) {
    long v = (long)gt_val(seed, me, 7, 3);
    if (threadIdx.x & 1) shmem_long_put(pv + me, &v, 1, threadIdx.x);   /* one 8-byte element */
    else shmem_long_p(pv + me, v, threadIdx.x);
  }
  shmemx_barrier_all_block();
}

/* g and get back from the next PE. */
__global__ void k_get_thread(int *back, const int *dst, long *gv, const long *pv)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  if (threadIdx.x == 0) shmem_int_get(back, dst + (size_t)me * N, N, (me + 1) % np);
  if ((int)threadIdx.x < np) gv[threadIdx.x] = shmem_long_g(pv + threadIdx.x, (me + 1) % np);
}

/* Warp (mode bit 0) or block scope putmem, blocking or _nbi (bit 1), at
 * byte offset off (misaligned when off is not a multiple of 16), size n,
 * to the next PE; getmem back at block scope. */
__global__ void k_coop(char *dst, const char *src, size_t n, size_t off, int mode, char *back)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np;
  bool warp = mode & 1, nbi = mode & 2;
  if (warp) {
    if (threadIdx.x < 32) {
      if (nbi) shmemx_putmem_nbi_warp(dst + off, src, n, next);
      else shmemx_putmem_warp(dst + off, src, n, next);
    }
  } else if (nbi) {
    shmemx_putmem_nbi_block(dst + off, src, n, next);
  } else {
    shmemx_putmem_block(dst + off, src, n, next);
  }
  if (nbi) shmem_quiet();
  shmemx_barrier_all_block();
  if (nbi) {
    shmemx_getmem_nbi_block(back, dst + off, n, next);   /* what I put there */
    shmem_quiet();
    __syncthreads();
  } else {
    shmemx_getmem_block(back, dst + off, n, next);
  }
}

/* put_signal at each scope to the next PE, then wait for mine. */
__global__ void k_signal(char *dst, const char *src, size_t n, uint64_t *sig, int scope, uint64_t round)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np;
  if (scope == 0) {
    if (threadIdx.x == 0) shmem_putmem_signal(dst, src, n, sig, 1, SHMEM_SIGNAL_ADD, next);
  } else if (scope == 1) {
    if (threadIdx.x < 32) shmemx_putmem_signal_warp(dst, src, n, sig, 1, SHMEM_SIGNAL_ADD, next);
  } else {
    shmemx_putmem_signal_block(dst, src, n, sig, 1, SHMEM_SIGNAL_ADD, next);
  }
  if (threadIdx.x == 0) shmem_signal_wait_until(sig, SHMEM_CMP_GE, round);
  __syncthreads();
}

/* AMOs from every thread of every PE on PE 0's words. */
__global__ void k_amo(uint64_t *ctr, int *cas, unsigned *bits, long *sw, uint64_t *fetched)
{
  int me = shmem_my_pe();
  unsigned t = threadIdx.x;
  fetched[t] = shmem_uint64_atomic_fetch_add(ctr, 1, 0);
  shmem_uint64_atomic_inc(ctr, 0);
  shmem_uint64_atomic_add(ctr, 2, 0);
  if (t == 0) {
    int old = shmem_int_atomic_compare_swap(cas, 0, me + 1, 0);
    (void)old;
    shmem_uint_atomic_fetch_or(bits, 1u << me, 0);
    shmem_uint_atomic_xor(bits, 1u << (me + 8), 0);
    shmem_uint_atomic_xor(bits, 1u << (me + 8), 0);   /* xor twice: no change */
    shmem_uint_atomic_and(bits + 1, ~(1u << me), 0);
    (void)shmem_long_atomic_swap(sw, me + 100, 0);
  }
  shmemx_barrier_all_block();
}

/* Team queries and translation inside a kernel; shmem_ptr. */
__global__ void k_team(shmem_team_t team, int *out, const int *sym)
{
  if (threadIdx.x) return;
  int np = shmem_n_pes();
  out[0] = shmem_team_my_pe(SHMEM_TEAM_WORLD);
  out[1] = shmem_team_n_pes(SHMEM_TEAM_WORLD);
  out[2] = team == SHMEM_TEAM_INVALID ? -2 : shmem_team_my_pe(team);
  out[3] = team == SHMEM_TEAM_INVALID ? -2 : shmem_team_n_pes(team);
  out[4] = team == SHMEM_TEAM_INVALID ? -2 : shmem_team_translate_pe(team, 0, SHMEM_TEAM_WORLD);
  out[5] = shmem_ptr(sym, np - 1) != NULL;
  out[6] = shmem_ptr((const void *)out, 0) == NULL;   /* not symmetric */
}

/* Waits in kernels: wait_until_any over one flag per PE, set by a host put. */
__global__ void k_wait(uint64_t *flags, size_t n, size_t *which, int *tested)
{
  if (threadIdx.x) return;
  *which = shmem_uint64_wait_until_any(flags, n, NULL, SHMEM_CMP_NE, 0);
  shmem_uint64_wait_until_all(flags, n, NULL, SHMEM_CMP_NE, 0);
  *tested = shmem_uint64_test(flags, SHMEM_CMP_EQ, 0);
}

/* Barriers order what came before them: each round every PE stores a
 * value of the round into its slot on every PE, meets, checks every slot,
 * and meets again before the next round's stores.  PE (round % np) is
 * slow to arrive.  In one kernel (barrier_all_block, then team_sync_block
 * / sync_all_block), or on a stream: the stores and the checks in kernels
 * of their own with barrier_all_on_stream and team_sync_on_stream between
 * them. */
__device__ void slow_if(int r)
{
  if (shmem_my_pe() == r % shmem_n_pes() && threadIdx.x == 0) {
    long long t0 = clock64();
    while (clock64() - t0 < 40000) {}
  }
  __syncthreads();
}
__device__ void store_round(int *slots, int r)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  for (int p = threadIdx.x; p < np; p += blockDim.x) shmem_int_p(slots + me, r * 64 + me, (me + p) % np);
}
__device__ void check_round(const int *slots, int r, unsigned *bad)
{
  for (int p = threadIdx.x; p < shmem_n_pes(); p += blockDim.x)
    if (((volatile const int *)slots)[p] != r * 64 + p) atomicAdd(bad, 1u);
}
__global__ void k_barrier_rounds(int *slots, int rounds, unsigned *bad)
{
  for (int r = 1; r <= rounds; r++) {
    slow_if(r);
    store_round(slots, r);
    shmemx_barrier_all_block();
    check_round(slots, r, bad);
    if (r & 1) shmemx_team_sync_block(SHMEM_TEAM_WORLD);
    else shmemx_sync_all_block();
  }
}
/* The same with the grid's barrier: every block stores to its share of the
 * PEs, and a block other than block 0 (which runs the barrier's meeting)
 * checks. */
__global__ void k_barrier_rounds_grid(int *slots, int r0, int r1, unsigned *bad)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  for (int r = r0; r <= r1; r++) {
    slow_if(r);
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < np; p += gridDim.x * blockDim.x)
      shmem_int_p(slots + me, r * 64 + me, (me + p) % np);
    shmemx_barrier_all_grid();
    if (blockIdx.x == gridDim.x - 1) check_round(slots, r, bad);
    shmemx_sync_all_grid();
  }
}
__global__ void k_store_round(int *slots, int r)
{
  slow_if(r);
  store_round(slots, r);
}
__global__ void k_check_round(const int *slots, int r, unsigned *bad) { check_round(slots, r, bad); }

int main(void)
{
  gt_init();
  int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np, prev = (me + np - 1) % np;

  /* ---- thread scope put/get/p/g ---- */
  int *dst = (int *)shmem_malloc(sizeof(int) * N * np);
  long *pv = (long *)shmem_malloc(sizeof(long) * np);
  int *src, *back;
  long *gv;
  GT_CUDA(cudaMalloc((void **)&src, sizeof(int) * N));
  GT_CUDA(cudaMalloc((void **)&back, sizeof(int) * N));
  GT_CUDA(cudaMalloc((void **)&gv, sizeof(long) * np));
  fill<<<8, 256>>>(src, sizeof(int) * N, gt_seed, me, 1);
  GT_CUDA(cudaMemset(dst, 0xA5, sizeof(int) * N * np));
  GT_CUDA(cudaMemset(back, 0xA5, sizeof(int) * N));
  GT_LAUNCHED();
  shmem_barrier_all();
  k_put_thread<<<1, 64>>>(dst, src, pv, gt_seed);
  GT_LAUNCHED();
  k_get_thread<<<1, 64>>>(back, dst, gv, pv);
  GT_LAUNCHED();
  {
    size_t bytes = sizeof(int) * N;
    unsigned char *h = (unsigned char *)malloc(bytes * np), *e = (unsigned char *)malloc(bytes);
    GT_CUDA(cudaMemcpy(h, dst, bytes * np, cudaMemcpyDeviceToHost));
    for (int p = 0; p < np; p++) {
      fill_host_expect(e, bytes, p, 1);
      GT_CHECK(!memcmp(h + p * bytes, e, bytes), "thread put: block from PE %d wrong", p);
    }
    GT_CUDA(cudaMemcpy(h, back, bytes, cudaMemcpyDeviceToHost));
    fill_host_expect(e, bytes, me, 1);
    GT_CHECK(!memcmp(h, e, bytes), "thread get from PE %d wrong", next);
    long hv[64];
    GT_CUDA(cudaMemcpy(hv, gv, sizeof(long) * np, cudaMemcpyDeviceToHost));
    for (int p = 0; p < np; p++) GT_CHECK(hv[p] == (long)gt_val(gt_seed, p, 7, 3), "p/g of PE %d's value wrong", p);
    free(h); free(e);
  }

  /* ---- warp and block scope, aligned and misaligned, several sizes ---- */
  /* Single 32- and 64-bit elements, tails of every width, and each side
   * of the sizes up to which a warp (512 B) and a 512-thread block (8 KB)
   * copy at most one 16-byte word per thread. */
  size_t sizes[] = {1, 4, 8, 12, 15, 16, 17, 512, 527, 528, 1000, 4096, 8200, 8208, 65537, 1 << 20};
  size_t offs[] = {0, 3, 8};
  size_t maxn = (1 << 20) + 64;
  char *cdst = (char *)shmem_malloc(maxn), *csrc, *cback;
  GT_CUDA(cudaMalloc((void **)&csrc, maxn));
  GT_CUDA(cudaMalloc((void **)&cback, maxn));
  unsigned char *h = (unsigned char *)malloc(maxn), *e = (unsigned char *)malloc(maxn);
  /* bit 0: warp scope, bit 1: _nbi; 4: a block of 3 threads (fewer than
   * the tail's four pieces) */
  for (int warp = 0; warp < 5; warp++)
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
      for (size_t oi = 0; oi < sizeof offs / sizeof *offs; oi++) {
        size_t n = sizes[si], off = offs[oi];
        unsigned salt = 10 + (unsigned)(si * 4 + oi) + 100 * warp;
        fill<<<64, 256>>>(csrc, n, gt_seed, me, salt);
        GT_CUDA(cudaMemset(cdst, 0x5A, maxn));
        GT_CUDA(cudaMemset(cback, 0x5A, maxn));
        GT_LAUNCHED();
        shmem_barrier_all();
        k_coop<<<1, (warp & 1) ? 32 : warp == 4 ? 3 : 512>>>(cdst, csrc, n, off, warp, cback);
        GT_LAUNCHED();
        shmem_barrier_all();
        GT_CUDA(cudaMemcpy(h, cdst, maxn, cudaMemcpyDeviceToHost));
        fill_host_expect(e, n, prev, salt);
        GT_CHECK(!memcmp(h + off, e, n), "%s%s put of %zu bytes at offset %zu from PE %d wrong",
                 (warp & 1) ? "warp" : "block", (warp & 2) ? " nbi" : "", n, off, prev);
        int untouched = 1;
        for (size_t i = 0; i < off; i++) untouched &= h[i] == 0x5A;
        for (size_t i = off + n; i < maxn; i++) untouched &= h[i] == 0x5A;
        GT_CHECK(untouched, "%s%s put of %zu bytes at offset %zu wrote outside its range",
                 (warp & 1) ? "warp" : "block", (warp & 2) ? " nbi" : "", n, off);
        GT_CUDA(cudaMemcpy(h, cback, n, cudaMemcpyDeviceToHost));
        fill_host_expect(e, n, me, salt);
        GT_CHECK(!memcmp(h, e, n), "block get of %zu bytes at offset %zu wrong", n, off);
      }

  /* ---- put_signal at thread, warp, block scope ---- */
  uint64_t *sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
  for (int scope = 0; scope < 3; scope++) {
    size_t n = 100003;
    unsigned salt = 200 + scope;
    fill<<<64, 256>>>(csrc, n, gt_seed, me, salt);
    GT_CUDA(cudaMemset(cdst, 0x5A, maxn));
    GT_LAUNCHED();
    shmem_barrier_all();
    k_signal<<<1, 256>>>(cdst, csrc, n, sig, scope, (uint64_t)scope + 1);
    GT_LAUNCHED();
    GT_CUDA(cudaMemcpy(h, cdst, n, cudaMemcpyDeviceToHost));
    fill_host_expect(e, n, prev, salt);
    GT_CHECK(!memcmp(h, e, n), "put_signal (scope %d) data from PE %d wrong", scope, prev);
    uint64_t s = shmem_signal_fetch(sig);   /* host on GPU memory */
    GT_CHECK(s == (uint64_t)scope + 1, "signal after scope %d is %llu", scope, (unsigned long long)s);
    shmem_barrier_all();
  }

  /* ---- AMOs under contention ---- */
  uint64_t *ctr = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
  int *cas = (int *)shmem_calloc(1, sizeof(int));
  unsigned *bits = (unsigned *)shmem_calloc(2, sizeof(unsigned));
  long *sw = (long *)shmem_calloc(1, sizeof(long));
  if (me == 0) { unsigned ones = ~0u; shmem_uint_put(bits + 1, &ones, 1, 0); }
  shmem_barrier_all();
  const int T = 256;
  uint64_t *fetched;
  GT_CUDA(cudaMalloc((void **)&fetched, sizeof(uint64_t) * T));
  k_amo<<<1, T>>>(ctr, cas, bits, sw, fetched);
  GT_LAUNCHED();
  shmem_barrier_all();
  {
    uint64_t c = shmem_uint64_atomic_fetch(ctr, 0);   /* host AMO on GPU memory */
    GT_CHECK(c == (uint64_t)np * T * 4, "counter %llu, expected %llu", (unsigned long long)c,
             (unsigned long long)np * T * 4);
    int cv = shmem_int_g(cas, 0);
    GT_CHECK(cv >= 1 && cv <= np, "compare_swap winner %d", cv);
    unsigned b0 = shmem_uint_g(bits, 0), b1 = shmem_uint_g(bits + 1, 0);
    GT_CHECK(b0 == (np >= 32 ? ~0u : (1u << np) - 1), "fetch_or/xor result %#x", b0);
    GT_CHECK(b1 == ~((np >= 32 ? ~0u : (1u << np) - 1)), "and result %#x", b1);
    long s = shmem_long_g(sw, 0);
    GT_CHECK(s >= 100 && s < 100 + np, "swap result %ld", s);
    uint64_t hf[T];
    GT_CUDA(cudaMemcpy(hf, fetched, sizeof hf, cudaMemcpyDeviceToHost));
    for (int t = 0; t < T; t++) GT_CHECK(hf[t] < (uint64_t)np * T * 4, "fetched %llu out of range", (unsigned long long)hf[t]);
    /* host-side AMOs on GPU memory */
    shmem_barrier_all();
    uint64_t before = shmem_uint64_atomic_fetch_add(ctr, 5, 0);
    (void)before;
    shmem_barrier_all();
    c = shmem_uint64_atomic_fetch(ctr, 0);
    GT_CHECK(c == (uint64_t)np * T * 4 + 5 * (uint64_t)np, "host fetch_add total %llu", (unsigned long long)c);
  }

  /* ---- team queries in kernels ---- */
  shmem_team_t evens = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (np + 1) / 2, NULL, 0, &evens);
  int *tout;
  GT_CUDA(cudaMalloc((void **)&tout, 8 * sizeof(int)));
  k_team<<<1, 32>>>(evens, tout, dst);
  GT_LAUNCHED();
  {
    int t[8];
    GT_CUDA(cudaMemcpy(t, tout, sizeof(int) * 7, cudaMemcpyDeviceToHost));
    GT_CHECK(t[0] == me && t[1] == np, "world team in kernel: %d of %d", t[0], t[1]);
    if (me % 2 == 0) {
      GT_CHECK(t[2] == me / 2 && t[3] == (np + 1) / 2 && t[4] == 0, "even team in kernel: %d %d %d", t[2], t[3], t[4]);
    } else {
      GT_CHECK(t[2] == -2, "odd PE got a team handle");
    }
    /* A peer on another node (SHOAL_PES_PER_NODE) goes through the proxy: no pointer. */
    int mapped = shmem_team_translate_pe(SHMEM_TEAM_WORLD, np - 1, SHMEM_TEAM_SHARED) >= 0;
    GT_CHECK(t[5] == mapped && t[6] == 1, "shmem_ptr in kernel: %d (expected %d) %d", t[5], mapped, t[6]);
  }
  if (evens != SHMEM_TEAM_INVALID) shmem_team_destroy(evens);

  /* ---- waits in kernels released by host puts into GPU memory ---- */
  uint64_t *flags = (uint64_t *)shmem_calloc((size_t)np, sizeof(uint64_t));
  size_t *which;
  int *tested;
  GT_CUDA(cudaMalloc((void **)&which, sizeof(size_t)));
  GT_CUDA(cudaMalloc((void **)&tested, sizeof(int)));
  shmem_barrier_all();
  k_wait<<<1, 32>>>(flags, (size_t)np, which, tested);
  uint64_t one = (uint64_t)me + 1;
  for (int p = 0; p < np; p++) shmem_uint64_put(flags + me, &one, 1, p);   /* host put to GPU heaps */
  GT_LAUNCHED();
  {
    size_t w; int tv;
    GT_CUDA(cudaMemcpy(&w, which, sizeof w, cudaMemcpyDeviceToHost));
    GT_CUDA(cudaMemcpy(&tv, tested, sizeof tv, cudaMemcpyDeviceToHost));
    GT_CHECK(w < (size_t)np && tv == 0, "wait_until_any gave %zu, test %d", w, tv);
    shmem_uint64_wait_until(flags + prev, SHMEM_CMP_EQ, (uint64_t)prev + 1);   /* host wait on GPU memory */
  }

  /* ---- barriers: in a kernel, and on a stream ---- */
  {
    int *slots = (int *)shmem_malloc(sizeof(int) * np);
    unsigned *bad;
    GT_CUDA(cudaMalloc((void **)&bad, 3 * sizeof(unsigned)));
    GT_CUDA(cudaMemset(bad, 0, 3 * sizeof(unsigned)));
    GT_CUDA(cudaMemset(slots, 0xA5, sizeof(int) * np));
    GT_CUDA(cudaDeviceSynchronize());
    shmem_barrier_all();
    const int rounds = 200;
    k_barrier_rounds<<<1, 64>>>(slots, rounds, bad);
    GT_LAUNCHED();
    shmem_barrier_all();
    cudaStream_t bs;
    GT_CUDA(cudaStreamCreate(&bs));
    for (int r = rounds + 1; r <= 2 * rounds; r++) {
      k_store_round<<<1, 32, 0, bs>>>(slots, r);
      shmemx_barrier_all_on_stream(bs);
      k_check_round<<<1, 32, 0, bs>>>(slots, r, bad + 1);
      shmemx_team_sync_on_stream(SHMEM_TEAM_WORLD, bs);
    }
    GT_CUDA(cudaStreamSynchronize(bs));
    GT_CUDA(cudaStreamDestroy(bs));
    shmem_barrier_all();
    k_barrier_rounds_grid<<<3, 64>>>(slots, 2 * rounds + 1, 3 * rounds, bad + 2);
    GT_LAUNCHED();
    unsigned hb[3];
    GT_CUDA(cudaMemcpy(hb, bad, sizeof hb, cudaMemcpyDeviceToHost));
    GT_CHECK(hb[0] == 0, "barrier_all_block: %u slots not yet stored after the barrier (of %d)", hb[0], rounds * np);
    GT_CHECK(hb[1] == 0, "barrier_all_on_stream: %u slots not yet stored after the barrier (of %d)", hb[1],
             rounds * np);
    GT_CHECK(hb[2] == 0, "barrier_all_grid: %u slots not yet stored after the barrier (of %d)", hb[2], rounds * np);
    shmem_barrier_all();
    GT_CUDA(cudaFree(bad));
    shmem_free(slots);
  }

  free(h); free(e);
  shmem_free(flags); shmem_free(sw); shmem_free(bits); shmem_free(cas); shmem_free(ctr); shmem_free(sig);
  shmem_free(cdst); shmem_free(pv); shmem_free(dst);
  return gt_finish("test_device");
}
