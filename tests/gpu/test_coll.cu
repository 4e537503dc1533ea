/* Collectives inside kernels (one block per PE) and their _on_stream forms:
 * barrier, reductions (direct, in place, from non-symmetric memory, longer
 * than the team scratch), reduce_scatter, fcollect, alltoall, broadcast,
 * on the world team and on split teams; _on_stream rounds back to back
 * with no barrier; then a captured CUDA graph of
 * fill -> all-reduce -> check replayed many times with no host reset. */
#include "coll_test.h"

/* Small integers keep float sums exact in any order. */
__host__ __device__ static inline float fval(uint64_t seed, int pe, size_t i, unsigned salt)
{
  return (float)(gt_val(seed, pe, i, salt) % 1000) - 500.0f;
}

__global__ void k_barriers(int iters)
{
  for (int i = 0; i < iters; i++) shmemx_barrier_all_block();
}

__global__ void k_fill_f(float *a, size_t n, uint64_t seed, int pe, unsigned salt)
{
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    a[i] = fval(seed, pe, i, salt);
}

__global__ void __launch_bounds__(1024) k_sum(shmem_team_t team, float *dst, const float *src, size_t n)
{
  shmemx_float_sum_reduce_block(team, dst, src, n);
}
/* Launched with 512 threads: the inlined block collectives of several
 * types can want more than the 128 registers per thread that leaves, so
 * the kernel says its block size (see shoal_gpu(3), "Registers"). */
__global__ void __launch_bounds__(512) k_misc(shmem_team_t team, long *lmax_d, const long *lmax_s, unsigned *x_d, const unsigned *x_s,
                       int *rs_d, const int *rs_s, size_t n)
{
  shmemx_long_max_reduce_block(team, lmax_d, lmax_s, n);
  shmemx_uint_xor_reduce_block(team, x_d, x_s, n);
  shmemx_int_sum_reduce_scatter_block(team, rs_d, rs_s, n);
}
__global__ void k_move(shmem_team_t team, char *fc_d, const char *fc_s, char *aa_d, const char *aa_s,
                       char *bc_d, const char *bc_s, size_t nb, int root)
{
  shmemx_fcollectmem_block(team, fc_d, fc_s, nb);
  shmemx_alltoallmem_block(team, aa_d, aa_s, nb);
  shmemx_broadcastmem_block(team, bc_d, bc_s, nb, root);
}

/* Many small all-reduces in one kernel, a fresh vector each round, checked
 * in the kernel: 64 rounds wrap the pushbox ring eight times.  PE 1 sleeps
 * now and then, so the others push the next round while their last one is
 * unread (a push into the wrong slot, or a signal or credit counted wrong,
 * shows as wrong sums or a hang).  Every thread checks right after the
 * call (no thread may return before the peers' stores into dest have
 * landed).  bad counts wrong elements. */
__device__ inline float round_val(int r, int pe, size_t i) { return (float)((i * 7 + (size_t)r * 31 + (size_t)pe * 5) % 61); }
__global__ void __launch_bounds__(1024) k_sum_rounds(float *dst, float *src, size_t n, int rounds, unsigned *bad,
                                                     bool in_place)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  if (in_place) dst = src;   /* two-shot in place beyond LL: the peers store into dest */
  for (int r = 0; r < rounds; r++) {
    if (me == 1 && r % 16 == 3 && threadIdx.x == 0) fall_behind(200);
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) src[i] = round_val(r, me, i);
    __syncthreads();
    shmemx_float_sum_reduce_block(SHMEM_TEAM_WORLD, dst, src, n);
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
      float want = 0;
      for (int p = 0; p < np; p++) want += round_val(r, p, i);
      if (dst[i] != want) atomicAdd(bad, 1u);
    }
    __syncthreads();
  }
}

/* Broadcasts from PE 0 in one kernel, fresh data each round, checked in
 * the kernel: a slow member makes the root run ahead until its ring of
 * slots on that member is full, and then wait for credits. */
__global__ void __launch_bounds__(1024) k_bcast_rounds(unsigned *dst, unsigned *src, size_t nw, int rounds,
                                                       unsigned *bad)
{
  int me = shmem_my_pe();
  for (int r = 0; r < rounds; r++) {
    if (me == 1 && r % 8 == 0 && threadIdx.x == 0) fall_behind(100);
    if (me == 0)
      for (size_t i = threadIdx.x; i < nw; i += blockDim.x) src[i] = (unsigned)(i * 2654435761u) ^ (unsigned)r;
    __syncthreads();
    shmemx_broadcastmem_block(SHMEM_TEAM_WORLD, dst, src, nw * sizeof(unsigned), 0);
    for (size_t i = threadIdx.x; i < nw; i += blockDim.x)
      if (dst[i] != ((unsigned)(i * 2654435761u) ^ (unsigned)r)) atomicAdd(bad, 1u);
    __syncthreads();
  }
}

/* Whether the world is behind the host proxy (out[0]), and whether a
 * block's reduce-scatter of n floats from the private source takes LL
 * (out[1]): what the _on_stream kernel below GRID_MIN runs. */
__global__ void k_ll_pick(const float *dst, const float *priv, size_t n, size_t span, int *out)
{
  shoal_team *t = shoal_gpu_team_or_fail("k_ll_pick", SHMEM_TEAM_WORLD);
  out[0] = shoal_gpu_team_proxied(t);
  out[1] = shoal_gpu_reduce_pick(t, SHOAL_AT_BLOCK, true, dst, priv, n, sizeof(float), true, span) == SHOAL_REDUCE_LL;
}

/* The graph's kernels: fill from a device-side round counter, check. */
__global__ void k_graph_fill(float *src, size_t n, uint64_t seed, int pe, unsigned *round)
{
  unsigned r = *round;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    src[i] = fval(seed, pe, i, 1000 + r);
}
__global__ void k_graph_check(const float *dst, size_t n, uint64_t seed, int np, unsigned *round,
                              unsigned *errors)
{
  unsigned r = *round;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float want = 0;
    for (int p = 0; p < np; p++) want += fval(seed, p, i, 1000 + r);
    if (dst[i] != want) atomicAdd(errors, 1u);
  }
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    __threadfence();
  }
}
__global__ void k_graph_next(unsigned *round) { *round += 1; }
/* The movers' graph: fcollect (which 2) or alltoall (3) of n floats a
 * member, filled by k_graph_fill with n x np floats. */
__global__ void k_graph_check_move(int which, const float *dst, size_t n, uint64_t seed, int me, int np,
                                   unsigned *round, unsigned *errors)
{
  unsigned r = *round;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n * (size_t)np; i += gridDim.x * blockDim.x) {
    size_t at = which == 2 ? i % n : (size_t)me * n + i % n;
    if (dst[i] != fval(seed, (int)(i / n), at, 1000 + r)) atomicAdd(errors, 1u);
  }
}

/* Checks of one round of the back-to-back _on_stream test (main): which 0
 * all-reduce of n, 1 reduce-scatter of n per member, 2 fcollect of n, 3
 * alltoall of n per member, 4 alltoall of n per member of the fcollect's
 * dest (every block: my own source); wrong elements counted in
 * errors[which]. */
__global__ void k_round_check(int which, const float *dst, size_t n, uint64_t seed, int me, int np, unsigned salt,
                              unsigned *errors)
{
  size_t total = which >= 2 ? n * (size_t)np : n;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += gridDim.x * blockDim.x) {
    float want = 0;
    if (which == 0) for (int p = 0; p < np; p++) want += fval(seed, p, i, salt);
    else if (which == 1) for (int p = 0; p < np; p++) want += fval(seed, p, (size_t)me * n + i, salt);
    else if (which == 2) want = fval(seed, (int)(i / n), i % n, salt);
    else if (which == 3) want = fval(seed, (int)(i / n), (size_t)me * n + i % n, salt);
    else want = fval(seed, me, i % n, salt);
    if (dst[i] != want) atomicAdd(&errors[which], 1u);
  }
}

static void check_sum(shmem_team_t team, const char *what, size_t n, int mode)
{
  /* mode 0: symmetric src; 1: in place; 2: src in private device memory */
  int np = shmem_n_pes();
  int tsize = shmem_team_n_pes(team);
  if (tsize <= 0) return;
  float *sym = (float *)shmem_malloc(sizeof(float) * n), *dst = (float *)shmem_malloc(sizeof(float) * n);
  float *priv;
  GT_CUDA(cudaMalloc((void **)&priv, sizeof(float) * n));
  unsigned salt = 50 + (unsigned)mode;
  int me = shmem_my_pe();
  float *src = mode == 2 ? priv : sym;
  k_fill_f<<<64, 256>>>(src, n, gt_seed, me, salt);
  GT_CUDA(cudaMemset(dst, 0xFF, sizeof(float) * n));
  GT_LAUNCHED();
  float *out = mode == 1 ? src : dst;
  k_sum<<<1, 1024>>>(team, out, src, n);
  GT_LAUNCHED();
  float *h = (float *)malloc(sizeof(float) * n);
  GT_CUDA(cudaMemcpy(h, out, sizeof(float) * n, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  int start = shmem_team_translate_pe(team, 0, SHMEM_TEAM_WORLD);
  int stride = tsize > 1 ? shmem_team_translate_pe(team, 1, SHMEM_TEAM_WORLD) - start : 1;
  for (size_t i = 0; i < n; i++) {
    float want = 0;
    for (int j = 0; j < tsize; j++) want += fval(gt_seed, start + j * stride, i, salt);
    if (h[i] != want) bad++;
  }
  GT_CHECK(bad == 0, "%s float sum (n=%zu, mode %d, team of %d): %zu wrong", what, n, mode, tsize, bad);
  (void)np;
  free(h);
  GT_CUDA(cudaFree(priv));
  shmem_free(dst);
  shmem_free(sym);
}

/* PE 0 names each part as it starts: a run that hangs (a time limit, or
 * SHOAL_WAIT_TIMEOUT) shows where. */
static void step(int me, const char *what)
{
  if (me == 0) { printf("test_coll: PE 0: %s\n", what); fflush(stdout); }
}

int main(void)
{
  gt_init();
  int me = shmem_my_pe(), np = shmem_n_pes();

  k_barriers<<<1, 128>>>(1000);
  GT_LAUNCHED();

  step(me, "PEs sharing a GPU");
  {
    /* the library's answer (LL's _on_stream bound rests on it) against
     * every PE's GPU, by its node (the world PE of its SHMEM_TEAM_SHARED's
     * first member: SHOAL_PES_PER_NODE makes PEs of one machine "nodes"
     * apart, whose GPUs the library counts as unshared) and PCI bus id,
     * gathered here */
    char bus[32] = {0}, *all = (char *)malloc(32 * (size_t)np);
    int dev, shared = 0, node = shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD);
    GT_CUDA(cudaGetDevice(&dev));
    GT_CUDA(cudaDeviceGetPCIBusId(bus, 24, dev));
    memcpy(bus + 24, &node, sizeof node);
    char *dsrc = (char *)shmem_malloc(32), *ddst = (char *)shmem_malloc(32 * (size_t)np);
    GT_CUDA(cudaMemcpy(dsrc, bus, sizeof bus, cudaMemcpyHostToDevice));
    shmem_fcollectmem(SHMEM_TEAM_WORLD, ddst, dsrc, sizeof bus);
    GT_CUDA(cudaMemcpy(all, ddst, 32 * (size_t)np, cudaMemcpyDeviceToHost));
    for (int i = 0; i < np; i++)
      for (int j = i + 1; j < np; j++) shared |= memcmp(all + 32 * i, all + 32 * j, 32) == 0;
    GT_CHECK(shoalx_gpu_shared() == shared, "shoalx_gpu_shared() is %d; the PEs' GPUs say %d", shoalx_gpu_shared(),
             shared);
    shmem_free(ddst);
    shmem_free(dsrc);
    free(all);
  }

  step(me, "all-reduce on world, 1-300007 floats, three modes");
  size_t ns[] = {1, 7, 1031, 65539, 300007};
  for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
    for (int mode = 0; mode < 3; mode++) check_sum(SHMEM_TEAM_WORLD, "world", ns[i], mode);

  step(me, "run-ahead all-reduces");
  /* Run-ahead: vectors that go through the pushbox (1 KB) and that do not
   * (12 KB at 2 PEs, whose slots are 8 KB). */
  {
    size_t rn[] = {257, 3001};
    float *rsrc = (float *)shmem_malloc(sizeof(float) * 3001), *rdst = (float *)shmem_malloc(sizeof(float) * 3001);
    unsigned *bad, hbad = 0;
    GT_CUDA(cudaMalloc((void **)&bad, sizeof *bad));
    for (size_t i = 0; i < 4; i++) {   /* each size out of place, then in place */
      GT_CUDA(cudaMemset(bad, 0, sizeof *bad));
      GT_CUDA(cudaMemset(rdst, 0xFF, sizeof(float) * 3001));
      GT_LAUNCHED();
      shmem_barrier_all();
      k_sum_rounds<<<1, 1024>>>(rdst, rsrc, rn[i / 2], 64, bad, i % 2 == 1);
      GT_LAUNCHED();
      GT_CUDA(cudaMemcpy(&hbad, bad, sizeof hbad, cudaMemcpyDeviceToHost));
      GT_CHECK(hbad == 0, "64 rounds of all-reduce (n=%zu%s), PE 1 slow: %u wrong elements", rn[i / 2],
               i % 2 ? ", in place" : "", hbad);
    }
    GT_CUDA(cudaFree(bad));
    shmem_free(rdst); shmem_free(rsrc);
  }

  step(me, "split teams");
  /* Split teams: a copy of world, the odd PEs, the even PEs (strided). */
  shmem_team_t dup = SHMEM_TEAM_INVALID, odd = SHMEM_TEAM_INVALID, even = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, np, NULL, 0, &dup);
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (np + 1) / 2, NULL, 0, &even);
  if (np > 1) shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, np / 2, NULL, 0, &odd);
  check_sum(dup, "dup", 1031, 0);
  check_sum(dup, "dup", 65539, 1);
  shmem_team_t mine = me % 2 ? odd : even;
  check_sum(mine, "strided", 4099, 0);
  check_sum(mine, "strided", 70001, 2);

  step(me, "max, xor, reduce-scatter");
  /* max, xor, reduce_scatter on world (max and xor of 100 go through the
   * pushbox) */
  for (size_t n : {(size_t)100, (size_t)3001}) {
    long *ls = (long *)shmem_malloc(sizeof(long) * n), *ld = (long *)shmem_malloc(sizeof(long) * n);
    unsigned *xs = (unsigned *)shmem_malloc(sizeof(unsigned) * n), *xd = (unsigned *)shmem_malloc(sizeof(unsigned) * n);
    int *rs = (int *)shmem_malloc(sizeof(int) * n * np), *rd = (int *)shmem_malloc(sizeof(int) * n);
    long *hl = (long *)malloc(sizeof(long) * n);
    unsigned *hx = (unsigned *)malloc(sizeof(unsigned) * n);
    int *hr = (int *)malloc(sizeof(int) * n * np);
    for (size_t i = 0; i < n; i++) { hl[i] = (long)gt_val(gt_seed, me, i, 60); hx[i] = (unsigned)gt_val(gt_seed, me, i, 61); }
    for (size_t i = 0; i < n * np; i++) hr[i] = (int)(gt_val(gt_seed, me, i, 62) % 100000);
    GT_CUDA(cudaMemcpy(ls, hl, sizeof(long) * n, cudaMemcpyHostToDevice));
    GT_CUDA(cudaMemcpy(xs, hx, sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    GT_CUDA(cudaMemcpy(rs, hr, sizeof(int) * n * np, cudaMemcpyHostToDevice));
    GT_CUDA(cudaMemset(ld, 0xEE, sizeof(long) * n));
    GT_CUDA(cudaMemset(xd, 0xEE, sizeof(unsigned) * n));
    GT_CUDA(cudaMemset(rd, 0xEE, sizeof(int) * n));
    shmem_barrier_all();
    k_misc<<<1, 512>>>(SHMEM_TEAM_WORLD, ld, ls, xd, xs, rd, rs, n);
    GT_LAUNCHED();
    GT_CUDA(cudaMemcpy(hl, ld, sizeof(long) * n, cudaMemcpyDeviceToHost));
    GT_CUDA(cudaMemcpy(hx, xd, sizeof(unsigned) * n, cudaMemcpyDeviceToHost));
    GT_CUDA(cudaMemcpy(hr, rd, sizeof(int) * n, cudaMemcpyDeviceToHost));
    size_t bad[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
      long wl = (long)gt_val(gt_seed, 0, i, 60);
      unsigned wx = 0;
      int wr = 0;
      for (int p = 0; p < np; p++) {
        long v = (long)gt_val(gt_seed, p, i, 60);
        if (v > wl) wl = v;
        wx ^= (unsigned)gt_val(gt_seed, p, i, 61);
        wr += (int)(gt_val(gt_seed, p, (size_t)me * n + i, 62) % 100000);
      }
      bad[0] += hl[i] != wl; bad[1] += hx[i] != wx; bad[2] += hr[i] != wr;
    }
    GT_CHECK(!bad[0] && !bad[1] && !bad[2], "max/xor/reduce_scatter wrong: %zu %zu %zu", bad[0], bad[1], bad[2]);
    free(hl); free(hx); free(hr);
    shmem_free(rd); shmem_free(rs); shmem_free(xd); shmem_free(xs); shmem_free(ld); shmem_free(ls);
  }

  step(me, "broadcast run-ahead");
  /* Broadcast run-ahead: 1 KB (LL through the pushbox) and 8 KB (not). */
  {
    size_t bn[] = {256, 2048};
    unsigned *bsrc = (unsigned *)shmem_malloc(sizeof(unsigned) * 2048);
    unsigned *bdst = (unsigned *)shmem_malloc(sizeof(unsigned) * 2048);
    unsigned *bad, hbad = 0;
    GT_CUDA(cudaMalloc((void **)&bad, sizeof *bad));
    for (size_t i = 0; i < 2; i++) {
      GT_CUDA(cudaMemset(bad, 0, sizeof *bad));
      GT_LAUNCHED();
      shmem_barrier_all();
      k_bcast_rounds<<<1, 1024>>>(bdst, bsrc, bn[i], 64, bad);
      GT_LAUNCHED();
      GT_CUDA(cudaMemcpy(&hbad, bad, sizeof hbad, cudaMemcpyDeviceToHost));
      GT_CHECK(hbad == 0, "64 broadcasts of %zu words, PE 1 slow: %u wrong words", bn[i], hbad);
    }
    GT_CUDA(cudaFree(bad));
    shmem_free(bdst); shmem_free(bsrc);
  }

  step(me, "fcollect, alltoall, broadcast");
  /* fcollect, alltoall, broadcast: whole words (LL through the pushbox),
   * also from and to buffers that are not 4-byte aligned; odd sizes (the
   * unaligned barrier paths); blocks too big for a slot, and alltoall's
   * push of blocks that are not whole vectors (6004 and 6008: each
   * member's source at its own offset past a vector boundary, in 4- and
   * 8-byte words) */
  struct { size_t nb, off; } moves[] = {{1000, 0}, {1000, 1}, {1001, 0}, {6000, 0}, {6004, 0}, {6008, 0}};   /* off: not 4-byte aligned */
  for (auto mv : moves) {
    size_t nb = mv.nb, off = mv.off;
    int root = 1 % np;
    char *fs0 = (char *)shmem_malloc(nb + 4), *fd0 = (char *)shmem_malloc(nb * np + 4);
    char *as0 = (char *)shmem_malloc(nb * np + 4), *ad0 = (char *)shmem_malloc(nb * np + 4);
    char *bs0 = (char *)shmem_malloc(nb + 4), *bd0 = (char *)shmem_malloc(nb + 4);
    char *fs = fs0 + off, *fd = fd0 + off, *as = as0 + off, *ad = ad0 + off, *bs = bs0 + off, *bd = bd0 + off;
    unsigned char *h = (unsigned char *)malloc(nb * np);
    for (size_t i = 0; i < nb; i++) h[i] = (unsigned char)gt_val(gt_seed, me, i, 70);
    GT_CUDA(cudaMemcpy(fs, h, nb, cudaMemcpyHostToDevice));
    for (size_t i = 0; i < nb; i++) h[i] = (unsigned char)gt_val(gt_seed, me, i, 72);
    GT_CUDA(cudaMemcpy(bs, h, nb, cudaMemcpyHostToDevice));
    for (size_t i = 0; i < nb * np; i++) h[i] = (unsigned char)gt_val(gt_seed, me, i, 71);
    GT_CUDA(cudaMemcpy(as, h, nb * np, cudaMemcpyHostToDevice));
    GT_CUDA(cudaMemset(fd, 0x11, nb * np));
    GT_CUDA(cudaMemset(ad, 0x11, nb * np));
    GT_CUDA(cudaMemset(bd, 0x11, nb));
    shmem_barrier_all();
    k_move<<<1, 256>>>(SHMEM_TEAM_WORLD, fd, fs, ad, as, bd, bs, nb, root);
    GT_LAUNCHED();
    size_t bad[3] = {0, 0, 0};
    GT_CUDA(cudaMemcpy(h, fd, nb * np, cudaMemcpyDeviceToHost));
    for (int p = 0; p < np; p++)
      for (size_t i = 0; i < nb; i++) bad[0] += h[p * nb + i] != (unsigned char)gt_val(gt_seed, p, i, 70);
    GT_CUDA(cudaMemcpy(h, ad, nb * np, cudaMemcpyDeviceToHost));
    for (int p = 0; p < np; p++)
      for (size_t i = 0; i < nb; i++)
        bad[1] += h[p * nb + i] != (unsigned char)gt_val(gt_seed, p, (size_t)me * nb + i, 71);
    GT_CUDA(cudaMemcpy(h, bd, nb, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < nb; i++) bad[2] += h[i] != (unsigned char)gt_val(gt_seed, root, i, 72);
    GT_CHECK(!bad[0] && !bad[1] && !bad[2], "fcollect/alltoall/broadcast of %zu B at offset %zu wrong: %zu %zu %zu", nb, off,
             bad[0], bad[1], bad[2]);
    free(h);
    shmem_free(bd0); shmem_free(bs0); shmem_free(ad0); shmem_free(as0); shmem_free(fd0); shmem_free(fs0);
  }

  step(me, "_on_stream forms at the grid thresholds");
  /* The host _on_stream forms at or above the grid thresholds
   * (collectives/reduce_select.h) take the whole-GPU path: all-reduce,
   * reduce_scatter, fcollect, alltoall and broadcast on 1-2 MB per PE;
   * then just under 512 KB per pair, which LL's kernel over several
   * blocks carries at 2 PEs where each PE has its own GPU (the grid
   * kernel where PEs share one). */
  for (int pass = 0; pass < 2; pass++) {
    size_t n = pass ? 131071 : 300007, nb = pass ? (512u << 10) - 4 : (size_t)1 << 20;
    int root = np - 1;
    float *src = (float *)shmem_malloc(sizeof(float) * n * np), *dst = (float *)shmem_malloc(sizeof(float) * n * np);
    char *bs = (char *)shmem_malloc(nb * np), *bd = (char *)shmem_malloc(nb * np);
    cudaStream_t s;
    GT_CUDA(cudaStreamCreate(&s));
    k_fill_f<<<64, 256>>>(src, n * np, gt_seed, me, 80);
    GT_CUDA(cudaMemset(dst, 0xFF, sizeof(float) * n * np));
    GT_LAUNCHED();
    shmem_barrier_all();
    shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, dst, src, n, s);
    GT_CUDA(cudaStreamSynchronize(s));
    float *h = (float *)malloc(sizeof(float) * n * np);
    GT_CUDA(cudaMemcpy(h, dst, sizeof(float) * n, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
      float want = 0;
      for (int p = 0; p < np; p++) want += fval(gt_seed, p, i, 80);
      bad += h[i] != want;
    }
    GT_CHECK(bad == 0, "grid all-reduce on stream (%zu floats): %zu wrong", n, bad);
    GT_CUDA(cudaMemset(dst, 0xFF, sizeof(float) * n));
    shmemx_float_sum_reduce_scatter_on_stream(SHMEM_TEAM_WORLD, dst, src, n, s);
    GT_CUDA(cudaStreamSynchronize(s));
    GT_CUDA(cudaMemcpy(h, dst, sizeof(float) * n, cudaMemcpyDeviceToHost));
    bad = 0;
    for (size_t i = 0; i < n; i++) {
      float want = 0;
      for (int p = 0; p < np; p++) want += fval(gt_seed, p, (size_t)me * n + i, 80);
      bad += h[i] != want;
    }
    GT_CHECK(bad == 0, "grid reduce_scatter on stream (%zu floats): %zu wrong", n, bad);
    unsigned char *hb = (unsigned char *)malloc(nb * np);
    for (size_t i = 0; i < nb * np; i++) hb[i] = (unsigned char)gt_val(gt_seed, me, i, 81);
    GT_CUDA(cudaMemcpy(bs, hb, nb * np, cudaMemcpyHostToDevice));
    size_t badm[3] = {0, 0, 0};
    GT_CUDA(cudaMemset(bd, 0x11, nb * np));
    shmem_barrier_all();
    shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, bd, bs, nb, s);
    GT_CUDA(cudaStreamSynchronize(s));
    GT_CUDA(cudaMemcpy(hb, bd, nb * np, cudaMemcpyDeviceToHost));
    for (int p = 0; p < np; p++)
      for (size_t i = 0; i < nb; i++) badm[0] += hb[p * nb + i] != (unsigned char)gt_val(gt_seed, p, i, 81);
    GT_CUDA(cudaMemset(bd, 0x11, nb * np));
    shmem_barrier_all();
    shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, bd, bs, nb, s);
    GT_CUDA(cudaStreamSynchronize(s));
    GT_CUDA(cudaMemcpy(hb, bd, nb * np, cudaMemcpyDeviceToHost));
    for (int p = 0; p < np; p++)
      for (size_t i = 0; i < nb; i++) badm[1] += hb[p * nb + i] != (unsigned char)gt_val(gt_seed, p, (size_t)me * nb + i, 81);
    GT_CUDA(cudaMemset(bd, 0x11, nb * np));
    shmem_barrier_all();
    shmemx_broadcastmem_on_stream(SHMEM_TEAM_WORLD, bd, bs, nb, root, s);
    GT_CUDA(cudaStreamSynchronize(s));
    GT_CUDA(cudaMemcpy(hb, bd, nb, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < nb; i++) badm[2] += hb[i] != (unsigned char)gt_val(gt_seed, root, i, 81);
    GT_CHECK(!badm[0] && !badm[1] && !badm[2], "grid fcollect/alltoall/broadcast on stream (%zu bytes): %zu %zu %zu",
             nb, badm[0], badm[1], badm[2]);
    free(hb); free(h);
    GT_CUDA(cudaStreamDestroy(s));
    shmem_free(bd); shmem_free(bs); shmem_free(dst); shmem_free(src);
  }

  step(me, "_on_stream reduce-scatter of whole vectors between LL's bound and the grid's");
  /* Members' blocks of whole 16-byte vectors on a symmetric source from
   * the grid kernel's smallest (256 KB): where PEs share a GPU they go
   * through the grid kernel's pull, elsewhere through LL's kernel up to
   * 512 KB of LL words a member (collectives/reduce_select.h:
   * shoal_reduce_ll_stream_max).  Five rounds back to back, each on its
   * own random data, the destination poisoned before the first. */
  for (size_t n = 16384; n <= 65536; n *= 2) {
    const int rounds = 5;
    float *src = (float *)shmem_malloc(sizeof(float) * n * np * rounds), *dst = (float *)shmem_malloc(sizeof(float) * n * rounds);
    cudaStream_t s;
    GT_CUDA(cudaStreamCreate(&s));
    for (int r = 0; r < rounds; r++) k_fill_f<<<64, 256>>>(src + (size_t)r * n * np, n * np, gt_seed, me, 90 + r);
    GT_CUDA(cudaMemset(dst, 0xFF, sizeof(float) * n * rounds));
    GT_LAUNCHED();
    shmem_barrier_all();
    for (int r = 0; r < rounds; r++)
      shmemx_float_sum_reduce_scatter_on_stream(SHMEM_TEAM_WORLD, dst + (size_t)r * n, src + (size_t)r * n * np, n, s);
    GT_CUDA(cudaStreamSynchronize(s));
    float *h = (float *)malloc(sizeof(float) * n * rounds);
    GT_CUDA(cudaMemcpy(h, dst, sizeof(float) * n * rounds, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int r = 0; r < rounds; r++)
      for (size_t i = 0; i < n; i++) {
        float want = 0;
        for (int p = 0; p < np; p++) want += fval(gt_seed, p, (size_t)me * n + i, 90 + r);
        bad += h[(size_t)r * n + i] != want;
      }
    GT_CHECK(bad == 0, "reduce_scatter on stream (%zu floats a member, %d rounds): %zu wrong", n, rounds, bad);
    free(h);
    GT_CUDA(cudaStreamDestroy(s));
    shmem_free(dst); shmem_free(src);   /* shmem_free's barrier: no peer reads my source any more */
  }

  step(me, "_on_stream reduce-scatter from a private source");
  /* The reduce-scatter _on_stream from a source outside the symmetric
   * heap, which only LL allows (collectives/ll.h): blocks of 1..256
   * floats, 3 rounds each with no barrier between them, where the
   * selection takes LL -- which it must on a world of 2+ PEs mapped into
   * the GPU up to 1 KB per block.  The kernels are the float ones above
   * (test_grid covers _block and _grid). */
  {
    /* 5000: past one block's LL, LL's kernel over several blocks (a
     * ring of several slots a call) */
    size_t rn[] = {1, 7, 64, 256, 5000}, span = shoalx_gpu_team_ll_span(SHMEM_TEAM_WORLD);
    float *priv, *dst = (float *)shmem_malloc(sizeof(float) * 5000), *h = (float *)malloc(sizeof(float) * 5000);
    int *pk, hk[2];
    GT_CUDA(cudaMalloc((void **)&priv, sizeof(float) * 5000 * np));
    GT_CUDA(cudaMalloc((void **)&pk, sizeof hk));
    cudaStream_t s;
    GT_CUDA(cudaStreamCreate(&s));
    for (size_t k = 0; k < sizeof rn / sizeof *rn; k++) {
      size_t n = rn[k];
      bool grid = n > 256;
      if (grid && span < 2) continue;   /* no ring of several slots (SHOAL_GPU_LL_BYTES) */
      k_ll_pick<<<1, 1>>>(dst, priv, n, grid ? span : 1, pk);
      GT_LAUNCHED();
      GT_CUDA(cudaMemcpy(hk, pk, sizeof hk, cudaMemcpyDeviceToHost));
      if (!hk[0] && np > 1)
        GT_CHECK(hk[1], "the reduce-scatter of %zu floats from a private source does not take LL%s", n,
                 grid ? " over several blocks" : "");
      if (hk[0] || !hk[1]) continue;
      for (int r = 0; r < 3; r++) {
        unsigned salt = 90 + (unsigned)(k * 3 + r);
        GT_CUDA(cudaMemset(dst, 0xFF, sizeof(float) * n));
        k_fill_f<<<4, 256, 0, s>>>(priv, n * np, gt_seed, me, salt);
        shmemx_float_sum_reduce_scatter_on_stream(SHMEM_TEAM_WORLD, dst, priv, n, s);
        GT_CUDA(cudaStreamSynchronize(s));
        GT_CUDA(cudaMemcpy(h, dst, sizeof(float) * n, cudaMemcpyDeviceToHost));
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
          float want = 0;
          for (int p = 0; p < np; p++) want += fval(gt_seed, p, (size_t)me * n + i, salt);
          bad += h[i] != want;
        }
        GT_CHECK(bad == 0, "float sum_reduce_scatter_on_stream private source n=%zu round %d: %zu wrong", n, r, bad);
      }
    }
    GT_CUDA(cudaStreamDestroy(s));
    GT_CUDA(cudaFree(pk));
    GT_CUDA(cudaFree(priv));
    shmem_barrier_all();
    shmem_free(dst);
    free(h);
  }

  step(me, "back-to-back _on_stream rounds");
  /* Back to back on one stream, no barrier anywhere: each round a kernel
   * refills the source, the four _on_stream collectives run, kernels check
   * them on the device, and the next round's fill follows at once.  Only
   * the collectives' own meetings order a member's fill and checks against
   * its peers' reads of its source and writes into its dest (the first
   * meeting of an _on_stream kernel has no fence: collectives/scope.h).
   * Sizes for LL, LL's kernel over several blocks (8192 at 2 and 4 PEs,
   * 65536 at 2 with the default SHOAL_GPU_LL_BYTES; alltoall's 1500, 6000
   * bytes a pair, just past its block LL; 1501 and 8193, odd word counts:
   * LL's pairs end on one word), the one-block push and the
   * grid kernels; 40000 (160000 bytes a member): past LL's bound where
   * the PEs share a GPU, within a staging slot at 2-4 PEs, so fcollect
   * and alltoall take the staged push there with SHOAL_GPU_STAGE=on
   * (run.sh), both halves in turn.  The second alltoall takes the
   * fcollect's dest for its source: the kernel before it wrote what it
   * reads (LL's kernels let the next one be scheduled before they end,
   * collectives/scope.h: shoal_scope_release_next). */
  {
    size_t rn[] = {512, 1500, 1501, 8192, 8193, 20000, 40000, 65536};
    const int rounds = 24;
    size_t nmax = 65536;
    float *src = (float *)shmem_malloc(sizeof(float) * nmax * np);
    float *dst[5];
    for (int w = 0; w < 5; w++) dst[w] = (float *)shmem_malloc(sizeof(float) * nmax * np);
    unsigned *errors, herr[5];
    GT_CUDA(cudaMalloc((void **)&errors, sizeof herr));
    GT_CUDA(cudaMemset(errors, 0, sizeof herr));
    for (int w = 0; w < 5; w++) GT_CUDA(cudaMemset(dst[w], 0xFF, sizeof(float) * nmax * np));
    cudaStream_t s;
    GT_CUDA(cudaStreamCreate(&s));
    GT_CUDA(cudaDeviceSynchronize());
    shmem_barrier_all();
    for (size_t k = 0; k < sizeof rn / sizeof *rn; k++) {
      size_t n = rn[k];
      for (int r = 0; r < rounds; r++) {
        unsigned salt = 3000 + (unsigned)(k * rounds + r);
        k_fill_f<<<64, 256, 0, s>>>(src, n * np, gt_seed, me, salt);
        shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, dst[0], src, n, s);
        shmemx_float_sum_reduce_scatter_on_stream(SHMEM_TEAM_WORLD, dst[1], src, n, s);
        shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, dst[2], src, n * sizeof(float), s);
        shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, dst[3], src, n * sizeof(float), s);
        shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, dst[4], dst[2], n * sizeof(float), s);
        for (int w = 0; w < 5; w++) k_round_check<<<64, 256, 0, s>>>(w, dst[w], n, gt_seed, me, np, salt, errors);
      }
      GT_CUDA(cudaStreamSynchronize(s));
      GT_CUDA(cudaMemcpy(herr, errors, sizeof herr, cudaMemcpyDeviceToHost));
      GT_CHECK(!herr[0] && !herr[1] && !herr[2] && !herr[3] && !herr[4],
               "%d back-to-back rounds on a stream, n=%zu: all-reduce %u, reduce-scatter %u, fcollect %u, "
               "alltoall %u, alltoall of the fcollect %u wrong elements", rounds, n, herr[0], herr[1], herr[2],
               herr[3], herr[4]);
      GT_CUDA(cudaMemset(errors, 0, sizeof herr));
    }
    GT_CUDA(cudaStreamDestroy(s));
    GT_CUDA(cudaFree(errors));
    shmem_barrier_all();
    for (int w = 0; w < 5; w++) shmem_free(dst[w]);
    shmem_free(src);
  }

  step(me, "_on_stream broadcast past one block's LL");
  /* 40000 bytes from the last PE, three rounds back to back (LL's kernel
   * over several blocks where the ring allows), each checked on the host */
  {
    size_t nb = 40000;
    int root = np - 1;
    unsigned *bs = (unsigned *)shmem_malloc(nb), *bd[3];
    for (int r = 0; r < 3; r++) bd[r] = (unsigned *)shmem_malloc(nb);
    cudaStream_t s;
    GT_CUDA(cudaStreamCreate(&s));
    unsigned *h = (unsigned *)malloc(nb);
    for (int r = 0; r < 3; r++) GT_CUDA(cudaMemset(bd[r], 0x11, nb));
    GT_CUDA(cudaDeviceSynchronize());
    shmem_barrier_all();
    for (int r = 0; r < 3; r++) {
      k_fill_f<<<16, 256, 0, s>>>((float *)bs, nb / 4, gt_seed, me, 4000 + r);
      shmemx_broadcastmem_on_stream(SHMEM_TEAM_WORLD, bd[r], bs, nb, root, s);
    }
    GT_CUDA(cudaStreamSynchronize(s));
    size_t bad = 0;
    for (int r = 0; r < 3; r++) {
      GT_CUDA(cudaMemcpy(h, bd[r], nb, cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < nb / 4; i++) {
        float f = fval(gt_seed, root, i, 4000 + r);
        unsigned w;
        memcpy(&w, &f, 4);
        bad += h[i] != w;
      }
    }
    GT_CHECK(bad == 0, "broadcastmem_on_stream of %zu B, 3 rounds: %zu wrong words", nb, bad);
    free(h);
    GT_CUDA(cudaStreamDestroy(s));
    shmem_barrier_all();
    for (int r = 0; r < 3; r++) shmem_free(bd[r]);
    shmem_free(bs);
  }

  step(me, "_on_stream movers on split teams at the grid push's sizes");
  /* The grid push's kernel takes the team's record and each member's grid
   * words and dest from the host (shoal_gpu_plan): on the copy of world
   * and on the strided teams (world PEs 2 j or 2 j + 1, words of their
   * own; at 3 PEs the odd team has one member), 1 MB + 16 a member; and
   * blocks that are not whole words, which take the grid push from 4 KB
   * (collectives/reduce_select.h), every member's block misaligned; and
   * 512 KB + 8, members' blocks 8 bytes past a vector (alltoall's 8-byte
   * words).  A broadcast writes one block: the others keep their poison. */
  {
    const size_t sizes[4] = {(1u << 20) + 16, 4097, 87381, (512u << 10) + 8}, maxb = sizes[0];
    char *bs = (char *)shmem_malloc(maxb * np), *bd = (char *)shmem_malloc(maxb * np);
    unsigned char *hb = (unsigned char *)malloc(maxb * np);
    cudaStream_t s;
    GT_CUDA(cudaStreamCreate(&s));
    const char *names[3] = {"fcollectmem", "alltoallmem", "broadcastmem"};
    for (int zk = 0; zk < 8; zk++) {   /* each size on both teams */
      const int z = zk / 2, k = zk % 2;
      const size_t nb = sizes[z];
      shmem_team_t team = k ? mine : dup;
      int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team), root = tn - 1;
      for (int which = 1; which <= 3; which++) {
        unsigned salt = 90 + 8 * (unsigned)z + 3 * (unsigned)k + (unsigned)which;
        for (size_t i = 0; i < nb * tn; i++) hb[i] = (unsigned char)gt_val(gt_seed, tme, i, salt);
        GT_CUDA(cudaMemcpy(bs, hb, nb * tn, cudaMemcpyHostToDevice));
        GT_CUDA(cudaMemset(bd, 0x11, nb * tn));
        GT_CUDA(cudaDeviceSynchronize());
        shmem_barrier_all();
        if (which == 1) shmemx_fcollectmem_on_stream(team, bd, bs, nb, s);
        else if (which == 2) shmemx_alltoallmem_on_stream(team, bd, bs, nb, s);
        else shmemx_broadcastmem_on_stream(team, bd, bs, nb, root, s);
        GT_CUDA(cudaStreamSynchronize(s));
        GT_CUDA(cudaMemcpy(hb, bd, nb * tn, cudaMemcpyDeviceToHost));
        size_t bad = 0;
        for (int p = 0; p < tn; p++)
          for (size_t i = 0; i < nb; i++) {
            unsigned char want = which == 1   ? (unsigned char)gt_val(gt_seed, p, i, salt)
                                 : which == 2 ? (unsigned char)gt_val(gt_seed, p, (size_t)tme * nb + i, salt)
                                 : p == 0     ? (unsigned char)gt_val(gt_seed, root, i, salt)
                                              : (unsigned char)0x11;
            bad += hb[(size_t)p * nb + i] != want;
          }
        GT_CHECK(bad == 0, "%s_on_stream on the %s team (%d members), %zu bytes a member: %zu wrong bytes",
                 names[which - 1], k ? "strided" : "copied world", tn, nb, bad);
      }
    }
    GT_CUDA(cudaStreamDestroy(s));
    free(hb);
    shmem_barrier_all();
    shmem_free(bd);
    shmem_free(bs);
  }

  step(me, "graph replays");
  /* A captured graph: fill (from a device-side round) -> barrier ->
   * all-reduce on the stream -> check -> next round; replayed with no
   * host-side reset of any flag. */
  {
    size_t n = 8191;
    const int replays = 200;
    float *src = (float *)shmem_malloc(sizeof(float) * n), *dst = (float *)shmem_malloc(sizeof(float) * n);
    unsigned *round, *errors;
    GT_CUDA(cudaMalloc((void **)&round, sizeof(unsigned)));
    GT_CUDA(cudaMalloc((void **)&errors, sizeof(unsigned)));
    GT_CUDA(cudaMemset(round, 0, sizeof(unsigned)));
    GT_CUDA(cudaMemset(errors, 0, sizeof(unsigned)));
    GT_CUDA(cudaDeviceSynchronize());
    cudaStream_t s;
    GT_CUDA(cudaStreamCreate(&s));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    shmem_barrier_all();
    GT_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    k_graph_fill<<<32, 256, 0, s>>>(src, n, gt_seed, me, round);
    shmemx_barrier_all_on_stream(s);
    shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, dst, src, n, s);
    k_graph_check<<<32, 256, 0, s>>>(dst, n, gt_seed, np, round, errors);
    k_graph_next<<<1, 1, 0, s>>>(round);
    GT_CUDA(cudaStreamEndCapture(s, &graph));
    GT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < replays; r++) GT_CUDA(cudaGraphLaunch(exec, s));
    GT_CUDA(cudaStreamSynchronize(s));
    unsigned hr, he;
    GT_CUDA(cudaMemcpy(&hr, round, sizeof hr, cudaMemcpyDeviceToHost));
    GT_CUDA(cudaMemcpy(&he, errors, sizeof he, cudaMemcpyDeviceToHost));
    GT_CHECK(hr == (unsigned)replays && he == 0, "graph replay: %u rounds, %u wrong elements", hr, he);
    if (me == 0) printf("graph replay: %u rounds of fill/barrier/all-reduce/check, %u errors\n", hr, he);
    GT_CUDA(cudaGraphExecDestroy(exec));
    GT_CUDA(cudaGraphDestroy(graph));
    GT_CUDA(cudaStreamDestroy(s));
    shmem_free(dst);
    shmem_free(src);
  }

  step(me, "graph replays of fcollect and alltoall");
  /* fill -> fcollect -> alltoall -> checks -> next round, replayed with no
   * barrier and no host reset: 160000 bytes a member, the staged push
   * where the PEs share a GPU and SHOAL_GPU_STAGE=on (test above), whose
   * half each call writes
   * must alternate on every replay (its count is in device memory) -- a
   * half baked into the graph would be overwritten while a slow member
   * still copies out of it.  The movers read only their own source, so
   * a round's fill needs no barrier. */
  {
    size_t n = 40000;
    const int replays = 150;
    float *src = (float *)shmem_malloc(sizeof(float) * n * np), *fd = (float *)shmem_malloc(sizeof(float) * n * np),
          *ad = (float *)shmem_malloc(sizeof(float) * n * np);
    unsigned *round, *errors;
    GT_CUDA(cudaMalloc((void **)&round, sizeof(unsigned)));
    GT_CUDA(cudaMalloc((void **)&errors, 2 * sizeof(unsigned)));
    GT_CUDA(cudaMemset(round, 0, sizeof(unsigned)));
    GT_CUDA(cudaMemset(errors, 0, 2 * sizeof(unsigned)));
    GT_CUDA(cudaMemset(fd, 0xFF, sizeof(float) * n * np));
    GT_CUDA(cudaMemset(ad, 0xFF, sizeof(float) * n * np));
    GT_CUDA(cudaDeviceSynchronize());
    cudaStream_t s;
    GT_CUDA(cudaStreamCreate(&s));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    shmem_barrier_all();
    GT_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    k_graph_fill<<<64, 256, 0, s>>>(src, n * np, gt_seed, me, round);
    shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, fd, src, n * sizeof(float), s);
    shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, ad, src, n * sizeof(float), s);
    k_graph_check_move<<<64, 256, 0, s>>>(2, fd, n, gt_seed, me, np, round, errors);
    k_graph_check_move<<<64, 256, 0, s>>>(3, ad, n, gt_seed, me, np, round, errors + 1);
    k_graph_next<<<1, 1, 0, s>>>(round);
    GT_CUDA(cudaStreamEndCapture(s, &graph));
    GT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < replays; r++) GT_CUDA(cudaGraphLaunch(exec, s));
    GT_CUDA(cudaStreamSynchronize(s));
    unsigned hr, he[2];
    GT_CUDA(cudaMemcpy(&hr, round, sizeof hr, cudaMemcpyDeviceToHost));
    GT_CUDA(cudaMemcpy(he, errors, sizeof he, cudaMemcpyDeviceToHost));
    GT_CHECK(hr == (unsigned)replays && he[0] == 0 && he[1] == 0,
             "graph replay of the movers: %u rounds, fcollect %u, alltoall %u wrong elements", hr, he[0], he[1]);
    if (me == 0) printf("graph replay: %u rounds of fill/fcollect/alltoall/check, %u + %u errors\n", hr, he[0], he[1]);
    GT_CUDA(cudaGraphExecDestroy(exec));
    GT_CUDA(cudaGraphDestroy(graph));
    GT_CUDA(cudaStreamDestroy(s));
    GT_CUDA(cudaFree(round));
    GT_CUDA(cudaFree(errors));
    shmem_barrier_all();
    shmem_free(ad);
    shmem_free(fd);
    shmem_free(src);
  }

  if (dup != SHMEM_TEAM_INVALID) shmem_team_destroy(dup);
  if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
  if (even != SHMEM_TEAM_INVALID) shmem_team_destroy(even);
  return gt_finish("test_coll");
}
