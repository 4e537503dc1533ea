/* Grid-scope collectives inside kernels (shmemx_*_grid): every block
 * calls, the kernel computes its data, calls, and checks the result in
 * place (fused): elements written by one block are reduced or moved, and
 * checked by another.  Fresh data every round, outputs poisoned, every
 * element checked; world and strided teams (sizes 1 and 2 at 2-4 PEs),
 * in place, a source outside the symmetric heap (reduce-scatter: where LL
 * takes it, also _block; test_coll: _on_stream), odd sizes, misaligned buffers, grids of 1, 3 and the largest
 * safe size, a slow member, and a captured graph replayed 120 times with
 * no host reset; the reducer's range alone (k_range: nothing outside
 * [lo, hi) is written, also for an empty range inside a vector, where
 * lanes once wrote another lane's elements; tests/unit/test_gpu_reduce
 * checks the same on the CPU).  Where an all-reduce's check finds wrong
 * elements it prints the first ones (index, round, bits read and wanted).
 * run.sh runs it again with SHOAL_ALLREDUCE=ring: every
 * all-reduce with a symmetric dest then runs the ring (reduce_ring.h) at
 * grid scope.  `test_grid mismatch` and `test_grid toomany` must fail
 * with a message (run.sh checks). */
#include "coll_test.h"
#include <strings.h>

__device__ inline size_t g_tid(void) { return (size_t)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ inline size_t g_nt(void) { return (size_t)gridDim.x * blockDim.x; }

__device__ inline void red(shmem_team_t t, float *d, const float *s, size_t n, op_sum) { shmemx_float_sum_reduce_grid(t, d, s, n); }
__device__ inline void red(shmem_team_t t, double *d, const double *s, size_t n, op_sum) { shmemx_double_sum_reduce_grid(t, d, s, n); }
__device__ inline void red(shmem_team_t t, long *d, const long *s, size_t n, op_max) { shmemx_long_max_reduce_grid(t, d, s, n); }
__device__ inline void red(shmem_team_t t, unsigned *d, const unsigned *s, size_t n, op_xor) { shmemx_uint_xor_reduce_grid(t, d, s, n); }

/* The first wrong elements of an all-reduce (index, round, the bits read
 * and wanted), noted in bad_dev after its two counters (the wrong count,
 * then the number noted; the entries from word WRONG_AT, 8-byte aligned):
 * take_bad prints them. */
struct wrong_elem { unsigned long long i, round, got, want; };
#define WRONG_NOTED 8
#define WRONG_AT 4
template <class T> __device__ inline void note_wrong(unsigned *bad, size_t i, int r, T got, T want)
{
  atomicAdd(bad, 1u);
  unsigned k = atomicAdd(bad + 1, 1u);
  if (k < WRONG_NOTED) {
    wrong_elem w = {i, (unsigned long long)r, 0, 0};
    memcpy(&w.got, &got, sizeof got);
    memcpy(&w.want, &want, sizeof want);
    ((wrong_elem *)(bad + WRONG_AT))[k] = w;
  }
}

/* All-reduce rounds: the grid fills src (and poisons dest), one block of
 * slow_pe falls behind now and then, all call, the grid checks every
 * element (in reverse order: mostly another block than the writer). */
template <class T, class OP>
__global__ void k_reduce(team_info ti, T *dst, T *src, size_t n, int rounds, uint64_t seed, unsigned salt,
                         int slow_pe, unsigned *bad)
{
  int me = shmem_my_pe();
  for (int r = 0; r < rounds; r++) {
    for (size_t i = g_tid(); i < n; i += g_nt()) {
      src[i] = tv<T>(seed, me, i, salt + r);
      if (dst != src) dst[i] = (T)0x5A5A5A5A;
    }
    if (me == slow_pe && r % 2 == 0 && blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) fall_behind(300);
    red(ti.team, dst, src, n, OP());
    for (size_t k = g_tid(); k < n; k += g_nt()) {
      size_t i = n - 1 - k;
      T want = tv<T>(seed, ti.start, i, salt + r);
      for (int j = 1; j < ti.size; j++) want = OP::f(want, tv<T>(seed, ti.start + j * ti.stride, i, salt + r));
      T got = dst[i];
      if (got != want) note_wrong(bad, i, r, got, want);
    }
    shmemx_team_sync_grid(ti.team);   /* everyone checked before src changes */
  }
}

/* Reduce-scatter of ints: dest n (poisoned), source size x n. */
__device__ inline void rs_fill(const team_info &ti, int *dst, int *src, size_t n, uint64_t seed, unsigned salt)
{
  int me = shmem_my_pe();
  for (size_t i = g_tid(); i < n * ti.size; i += g_nt()) src[i] = tv<int>(seed, me, i, salt);
  for (size_t i = g_tid(); i < n; i += g_nt()) dst[i] = 0x5A5A5A5A;
}
__device__ inline void rs_check(const team_info &ti, const int *dst, size_t n, uint64_t seed, unsigned salt,
                                unsigned *bad)
{
  for (size_t k = g_tid(); k < n; k += g_nt()) {
    size_t i = n - 1 - k;
    int want = 0;
    for (int j = 0; j < ti.size; j++) want += tv<int>(seed, ti.start + j * ti.stride, (size_t)ti.me * n + i, salt);
    if (dst[i] != want) atomicAdd(bad, 1u);
  }
}
/* blk: the _block form (launch one block); else the _grid form. */
__global__ void k_rscatter(team_info ti, int *dst, int *src, size_t n, int rounds, uint64_t seed, unsigned salt,
                           unsigned *bad, int blk)
{
  for (int r = 0; r < rounds; r++) {
    rs_fill(ti, dst, src, n, seed, salt + r);
    if (blk) shmemx_int_sum_reduce_scatter_block(ti.team, dst, src, n);
    else shmemx_int_sum_reduce_scatter_grid(ti.team, dst, src, n);
    rs_check(ti, dst, n, seed, salt + r, bad);
    shmemx_team_sync_grid(ti.team);
  }
}
/* Whether the team is behind the host proxy (out[0]), and whether the
 * selection takes LL for a reduce-scatter of n ints from the private
 * source at block and at grid scope (out[1]). */
__global__ void k_ll_scatter(shmem_team_t team, const int *dst, const int *priv, size_t n, int *out)
{
  shoal_team *t = shoal_gpu_team_or_fail("k_ll_scatter", team);
  out[0] = shoal_gpu_team_proxied(t);
  out[1] = shoal_gpu_reduce_pick(t, SHOAL_AT_BLOCK, true, dst, priv, n, sizeof(int)) == SHOAL_REDUCE_LL &&
           shoal_gpu_reduce_pick(t, SHOAL_AT_GRID, true, dst, priv, n, sizeof(int)) == SHOAL_REDUCE_LL;
}

__host__ __device__ inline unsigned char bv(uint64_t seed, int pe, size_t i, unsigned salt)
{
  return (unsigned char)gt_val(seed, pe, i, salt);
}
/* which: 0 broadcast from root, 1 fcollect, 2 alltoall; nb bytes a member. */
__global__ void k_move(team_info ti, int which, unsigned char *dst, unsigned char *src, size_t nb, int root,
                       int rounds, uint64_t seed, unsigned salt, int slow_pe, unsigned *bad)
{
  int me = shmem_my_pe();
  size_t ns = which == 2 ? nb * ti.size : nb, nd = which == 0 ? nb : nb * ti.size;
  for (int r = 0; r < rounds; r++) {
    for (size_t i = g_tid(); i < ns; i += g_nt()) src[i] = bv(seed, me, i, salt + r);
    for (size_t i = g_tid(); i < nd; i += g_nt()) dst[i] = 0xA5;
    if (me == slow_pe && blockIdx.x == 0 && threadIdx.x == 0) fall_behind(200);
    if (which == 0) shmemx_broadcastmem_grid(ti.team, dst, src, nb, root);
    else if (which == 1) shmemx_fcollectmem_grid(ti.team, dst, src, nb);
    else shmemx_alltoallmem_grid(ti.team, dst, src, nb);
    for (size_t k = g_tid(); k < nd; k += g_nt()) {
      size_t i = nd - 1 - k, q = i / nb, e = i % nb;
      int pe = ti.start + (int)(which == 0 ? root : q) * ti.stride;
      unsigned char want = bv(seed, pe, which == 0 ? i : which == 1 ? e : (size_t)ti.me * nb + e, salt + r);
      if (dst[i] != want) atomicAdd(bad, 1u);
    }
    shmemx_team_sync_grid(ti.team);
  }
}

/* The graph: fill from a device-side round, all-reduce in place and out of
 * place, check; PE 1 lags every 10th replay. */
__global__ void k_graph(team_info ti, float *a, float *b, float *c, size_t n, uint64_t seed, unsigned *round,
                        unsigned *bad)
{
  unsigned r = *round;
  int me = shmem_my_pe();
  for (size_t i = g_tid(); i < n; i += g_nt()) { a[i] = tv<float>(seed, me, i, 500 + r); b[i] = tv<float>(seed, me, i, 900 + r); c[i] = -1.0f; }
  if (me == 1 % ti.size && r % 10 == 0 && blockIdx.x == 0 && threadIdx.x == 0) fall_behind(200);
  shmemx_float_sum_reduce_grid(ti.team, a, a, n);
  shmemx_float_sum_reduce_grid(ti.team, c, b, n);
  for (size_t k = g_tid(); k < n; k += g_nt()) {
    size_t i = n - 1 - k;
    float wa = 0, wb = 0;
    for (int j = 0; j < ti.size; j++) { wa += tv<float>(seed, j, i, 500 + r); wb += tv<float>(seed, j, i, 900 + r); }
    if (a[i] != wa || c[i] != wb) atomicAdd(bad, 1u);
  }
  shmemx_barrier_all_grid();
  if (blockIdx.x == 0 && threadIdx.x == 0) *round = r + 1;   /* nobody reads it after the barrier */
}

/* The grid algorithms, not the block-0 fallback, run where they should
 * (a test that passes on the fallback alone proves nothing about them). */
/* collectives/reduce_select.h at grid scope, for symmetric buffers. */
__device__ int grid_pick(const shoal_team *t, size_t n, size_t es, bool in_place, bool scatter)
{
  shoal_reduce_ask a;
  memset(&a, 0, sizeof a);
  shoal_reduce_ask_team(&a, t);
  a.where = SHOAL_AT_GRID;
  a.scatter = scatter;
  a.count = n;
  a.es = es;
  a.direct = shoal_grid_direct(t);
  a.in_place = in_place;
  a.src_sym = a.dest_sym = true;
  return shoal_reduce_select(&a);
}
__global__ void k_pick(shmem_team_t team, int ring, const char *a, char *b, int *out)
{
  shoal_team *t = shoal_gpu_team_or_fail("k_pick", team);
  if (shoal_gpu_team_proxied(t)) {   /* members behind the host proxy: block 0 runs the channel algorithms */
    for (int k = 0; k < 6; k++) out[k] = 1;
    return;
  }
  out[0] = grid_pick(t, 100003, 4, false, false) == SHOAL_REDUCE_TWOSHOT;
  out[1] = grid_pick(t, 100003, 8, true, false) == SHOAL_REDUCE_TWOSHOT &&
           grid_pick(t, 100003, 8, false, true) == SHOAL_REDUCE_PULL;
  int small = grid_pick(t, 8000, 4, false, false);
  out[2] = small == SHOAL_REDUCE_LL || small == SHOAL_REDUCE_PULL;
  out[3] = shoal_grid_pick_move(t, 1, 1u << 20, true) == SHOAL_GRID_PUSH &&   /* fcollect */
           shoal_grid_pick_move(t, 2, 1u << 20, true) == SHOAL_GRID_PUSH;     /* alltoall */
  /* SHOAL_ALLREDUCE=ring reaches the kernels (run.sh runs this test with
   * it too): the grid and the block take the ring, in place and not;
   * without it, they do not */
  bool g = shoal_gpu_reduce_pick(t, SHOAL_AT_GRID, false, b, a, 100003, 4) == SHOAL_REDUCE_RING;
  bool k = shoal_gpu_reduce_pick(t, SHOAL_AT_BLOCK, false, b, b, 7, 8) == SHOAL_REDUCE_RING;
  out[4] = g == (ring != 0) && k == (ring != 0);
  /* Every member on this GPU (PEs under MPS): the all-reduce in a user's
   * grid leaves LL where the LL words of all the members pass
   * SHOAL_GPU_LL_LOCAL_ALL (shoal_ll_local_span), at a size LL takes on a
   * team across GPUs (the same record, gpu_local cleared) */
  out[5] = 1;
  if (t->gpu_local && (t->size == 3 || t->size == 4)) {
    size_t n = t->size == 3 ? 55001 : 40961, span = shoal_ll_span_max(t->pushbox_depth);
    shoal_team apart = *t;
    apart.gpu_local = 0;
    if (shoal_gpu_reduce_pick(&apart, SHOAL_AT_GRID, false, b, a, n, 4, true, span) == SHOAL_REDUCE_LL)
      out[5] = shoal_gpu_reduce_pick(t, SHOAL_AT_GRID, false, b, a, n, 4, true, span) != SHOAL_REDUCE_LL;
  }
}
/* The reducer's range (gpu_reduce.h, shoal_gpu_reduce_range): elements [lo, hi)
 * of the sum over np inputs and nothing else, also an empty range inside
 * a vector (a staged chunk that ends before a lane's share begins: lo = hi
 * = the chunk's end; lanes once wrote another lane's elements there).  One
 * block; inputs and out m elements past a vector boundary (m 1: the
 * shifted path); out poisoned, every element checked. */
__global__ void k_range(float *in, float *out, size_t n, int np, int m, size_t lo, size_t hi, uint64_t seed,
                        unsigned salt, unsigned *bad)
{
  const float *ins[4];
  for (int q = 0; q < 4; q++) ins[q] = in + (size_t)q * (n + 4) + m;
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
    for (int q = 0; q < 4; q++) in[(size_t)q * (n + 4) + m + i] = tv<float>(seed, q, i, salt);
    out[m + i] = -5000.0f;
  }
  __syncthreads();
  float *o = out + m;
  shoal_gpu_reduce_range<float, shoal_gpu_op_sum, false>(&o, 0, ins, np, lo, hi, threadIdx.x, blockDim.x);
  __syncthreads();
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
    float want = -5000.0f;
    if (i >= lo && i < hi) {
      want = 0;
      for (int q = 0; q < np; q++) want += tv<float>(seed, q, i, salt);
    }
    if (out[m + i] != want) atomicAdd(bad, 1u);
  }
}
__global__ void k_mismatch(char *dst, const char *src, size_t nb) { shmemx_fcollectmem_grid(SHMEM_TEAM_WORLD, dst, src, nb); }
__global__ void k_barriers(int iters)
{
  for (int i = 0; i < iters; i++) shmemx_barrier_all_grid();
}

static unsigned *bad_dev;
/* The wrong count since the last call; where there were any, the first
 * wrong elements an all-reduce noted (note_wrong) are printed. */
static unsigned take_bad(void)
{
  unsigned h[2] = {0, 0};
  GT_CUDA(cudaMemcpy(h, bad_dev, sizeof h, cudaMemcpyDeviceToHost));
  if (h[0] && h[1]) {
    wrong_elem w[WRONG_NOTED];
    GT_CUDA(cudaMemcpy(w, bad_dev + WRONG_AT, sizeof w, cudaMemcpyDeviceToHost));
    for (unsigned k = 0; k < h[1] && k < WRONG_NOTED; k++)
      printf("PE %d: element %llu, round %llu: read %08llx, want %08llx\n", shmem_my_pe(), w[k].i, w[k].round,
             w[k].got, w[k].want);
  }
  GT_CUDA(cudaMemset(bad_dev, 0, sizeof h));
  return h[0];
}

/* The LL reduce-scatter (collectives/ll.h) from a source outside the
 * symmetric heap, which only LL allows: the _block form and the _grid form
 * (grid g), 3 rounds each, where the selection takes LL --
 * which it must on a team of 2+ members on this node up to 1 KB per
 * member's block. */
static void ll_scatter_private(const team_info &ti, const char *tn, int *dst, int *priv, size_t n, int g,
                               unsigned *salt)
{
  int *pk, hk[2];
  GT_CUDA(cudaMalloc((void **)&pk, sizeof hk));
  k_ll_scatter<<<1, 1>>>(ti.team, dst, priv, n, pk);
  GT_LAUNCHED();
  GT_CUDA(cudaMemcpy(hk, pk, sizeof hk, cudaMemcpyDeviceToHost));
  GT_CUDA(cudaFree(pk));
  if (!hk[0] && ti.size > 1 && n * sizeof(int) <= 1024)
    GT_CHECK(hk[1], "%s: the reduce-scatter of %zu ints from a private source does not take LL", tn, n);
  if (hk[0] || !hk[1]) return;
  k_rscatter<<<1, 256>>>(ti, dst, priv, n, 3, gt_seed, *salt += 8, bad_dev, 1);
  GT_LAUNCHED();
  GT_CHECK(take_bad() == 0, "%s int sum_reduce_scatter_block private source n=%zu", tn, n);
  k_rscatter<<<g, 256>>>(ti, dst, priv, n, 3, gt_seed, *salt += 8, bad_dev, 0);
  GT_LAUNCHED();
  GT_CHECK(take_bad() == 0, "%s int sum_reduce_scatter_grid private source n=%zu grid=%d", tn, n, g);
}

int main(int argc, char **argv)
{
  gt_init();
  int me = shmem_my_pe(), np = shmem_n_pes();
  const char *mode = argc > 1 ? argv[1] : "";
  const size_t bad_bytes = WRONG_AT * sizeof(unsigned) + WRONG_NOTED * sizeof(wrong_elem);
  GT_CUDA(cudaMalloc((void **)&bad_dev, bad_bytes));
  GT_CUDA(cudaMemset(bad_dev, 0, bad_bytes));
  const size_t maxn = (1u << 20) + 64;
  char *A = (char *)shmem_malloc(maxn * 8 * 4 + 64), *B = (char *)shmem_malloc(maxn * 8 * 4 + 64);
  float *priv;   /* device memory outside the symmetric heap */
  GT_CUDA(cudaMalloc((void **)&priv, maxn * sizeof(float)));
  if (!strcmp(mode, "mismatch")) {   /* must stop with a message */
    k_mismatch<<<me == 0 ? 2 : 4, 64>>>(B, A, 1u << 20);
    GT_LAUNCHED();
    printf("PE %d: a mismatched grid was not caught\n", me);
    return 3;
  }
  if (!strcmp(mode, "toomany")) {
    k_barriers<<<SHOAL_GRID_MAX_BLOCKS + 1, 32>>>(1);
    GT_LAUNCHED();
    printf("PE %d: a grid of too many blocks was not caught\n", me);
    return 3;
  }

  int gmax = shmemx_grid_max_blocks(k_reduce<float, op_sum>, 256, 0);
  if (gmax > 48) gmax = 48;
  if (me == 0) printf("largest safe grid of 256 threads: %d blocks (using up to 48)\n",
                      shmemx_grid_max_blocks(k_reduce<float, op_sum>, 256, 0));

  shmem_team_t even, odd;
  team_info world, strided;
  gt_teams(&world, &strided, &even, &odd);

  /* test_grid stress [launches] [n] [one]: by hand, not in run.sh.  The
   * in-place all-reduce of a private source (staged through the scratch)
   * of n floats (default 100003) on the strided and the world team, grids
   * of 3 and gmax, many launches: the case that failed once in session 12
   * (bench/RESULTS.md) with the grid barrier's trailing fence removed
   * (collectives/scope.h), and twice in about 30 runs at n=40961 in
   * session 36; "one" runs only the strided team at a grid of 3 (a team
   * of one member at 2 PEs).  It prints the first wrong elements. */
  if (!strcmp(mode, "stress")) {
    int launches = argc > 2 ? atoi(argv[2]) : 100, wrong = 0;
    size_t sn = argc > 3 ? strtoull(argv[3], 0, 0) : 100003;
    if (sn < 1 || sn > maxn) {
      if (me == 0) fprintf(stderr, "test_grid stress: n must be 1 to %zu\n", maxn);
      return 1;
    }
    /* "one": only the case that failed, the strided team at a grid of 3 */
    const bool one = argc > 4 && !strcmp(argv[4], "one");
    unsigned salt = 11;
    const int sg[2] = {3, gmax};
    for (int l = 0; l < launches; l++)
      for (int tm = one; tm < 2; tm++)
        for (int gi = 0; gi < 2 - one; gi++) {
          team_info ti = tm ? strided : world;
          k_reduce<float, op_sum><<<sg[gi], 256>>>(ti, priv, priv, sn, 3, gt_seed, salt += 8, 0, bad_dev);
          GT_LAUNCHED();
          unsigned bad = take_bad();
          wrong += bad != 0;
          GT_CHECK(bad == 0, "stress launch %d: %s float sum_reduce_grid private, in place n=%zu grid=%d: %u wrong",
                   l, tm ? "strided" : "world", sn, sg[gi], bad);
        }
    printf("PE %d: stress: %d of %d launches had wrong elements\n", me, wrong, launches * (one ? 1 : 4));
    GT_CUDA(cudaFree(priv));
    shmem_free(A);
    shmem_free(B);
    return gt_finish("test_grid stress");
  }

  {
    int *pk, hk[6];
    const char *forced = getenv("SHOAL_ALLREDUCE");
    int ring = forced && !strcasecmp(forced, "ring");
    if (me == 0 && ring) printf("SHOAL_ALLREDUCE=ring: the all-reduces run the ring (collectives/reduce_ring.h)\n");
    GT_CUDA(cudaMalloc((void **)&pk, sizeof hk));
    for (int tm = 0; tm < 2; tm++) {
      k_pick<<<1, 1>>>(tm ? strided.team : world.team, ring, A, B, pk);
      GT_LAUNCHED();
      GT_CUDA(cudaMemcpy(hk, pk, sizeof hk, cudaMemcpyDeviceToHost));
      for (int k = 0; k < 4; k++) GT_CHECK(hk[k], "%s team: algorithm choice %d is not the grid algorithm", tm ? "strided" : "world", k);
      GT_CHECK(hk[4], "%s team: SHOAL_ALLREDUCE=%s, yet the ring is%s taken", tm ? "strided" : "world",
               forced ? forced : "(unset)", ring ? " not" : "");
      GT_CHECK(hk[5], "%s team: every member on this GPU, yet the grid all-reduce takes LL past "
               "SHOAL_GPU_LL_LOCAL_ALL", tm ? "strided" : "world");
    }
    GT_CUDA(cudaFree(pk));
  }
  k_barriers<<<gmax, 128>>>(50);
  GT_LAUNCHED();
  GT_CHECK(true, "barriers");

  {   /* the reducer touches its range alone */
    const size_t rn = 64, ranges[][2] = {{33, 33}, {35, 35}, {64, 64}, {8, 8}, {0, 64}, {32, 35}, {36, 41}, {60, 64},
                                         {5, 29}, {2, 6}};
    unsigned rsalt = 900;
    for (int m = 0; m < 2; m++)
      for (int np1 = 1; np1 <= 4; np1++)
        for (const auto &r : ranges) {
          if (m == 0 && r[0] % 4 != 0 && r[0] != r[1]) continue;   /* aligned inputs: lo a whole vector */
          k_range<<<1, 32>>>((float *)A, (float *)B, rn, np1, m, r[0], r[1], gt_seed, rsalt++, bad_dev);
          GT_LAUNCHED();
          GT_CHECK(take_bad() == 0, "reducer range [%zu, %zu) of %zu over %d inputs, %d elements past a vector",
                   r[0], r[1], rn, np1, m);
        }
  }

  /* SHOAL_TEST_GRID_QUICK=1 (run.sh, members behind the host proxy: every
   * collective is block 0's device-initiated transfers through it): sizes
   * up to 12289 elements, grids of 1 and 3, fewer graph replays.  4099 and
   * 12289 elements take LL in several slots of the ring where the team's
   * box allows (collectives/ll.h) */
  const char *qv = getenv("SHOAL_TEST_GRID_QUICK");
  const bool quick = qv && *qv == '1';
  /* 40961 and 55001: past the grid all-reduce's LL bound at 4 and 3 PEs
   * on one GPU (shoal_ll_local_span), within it where PEs have GPUs of
   * their own */
  const size_t ns[] = {1, 7, 1000, 4099, 12289, 16387, 40961, 55001, 100003, (1u << 20) + 5};
  const size_t n_ns = quick ? 5 : sizeof ns / sizeof ns[0];
  const int grids[] = {1, 3, gmax};
  const int n_grids = quick ? 2 : 3;
  unsigned salt = 1;
  for (int tm = 0; tm < 2; tm++) {
    team_info ti = tm ? strided : world;
    const char *tn = tm ? "strided" : "world";
    for (int gi = 0; gi < n_grids; gi++) {
      int g = grids[gi];
      for (size_t ni = 0; ni < n_ns; ni++) {
        size_t n = ns[ni];
        int rounds = n > 200000 ? 2 : 3;
        /* float sum: out of place, in place, misaligned by one element */
        k_reduce<float, op_sum><<<g, 256>>>(ti, (float *)B, (float *)A, n, rounds, gt_seed, salt += 8, 1, bad_dev);
        GT_LAUNCHED();
        GT_CHECK(take_bad() == 0, "%s float sum_reduce_grid n=%zu grid=%d", tn, n, g);
        k_reduce<float, op_sum><<<g, 256>>>(ti, (float *)A, (float *)A, n, rounds, gt_seed, salt += 8, 1, bad_dev);
        GT_LAUNCHED();
        GT_CHECK(take_bad() == 0, "%s float sum_reduce_grid in place n=%zu grid=%d", tn, n, g);
        k_reduce<float, op_sum><<<g, 256>>>(ti, (float *)B + 1, (float *)A + 3, n, rounds, gt_seed, salt += 8, 0,
                                            bad_dev);
        GT_LAUNCHED();
        GT_CHECK(take_bad() == 0, "%s float sum_reduce_grid misaligned n=%zu grid=%d", tn, n, g);
        /* in place one element past a vector boundary (the pull's inputs at
         * one offset: gpu_reduce.h, shoal_gpu_reduce_range_shifted; two-shot's
         * element by element) */
        k_reduce<float, op_sum><<<g, 256>>>(ti, (float *)A + 1, (float *)A + 1, n, rounds, gt_seed, salt += 8, 1,
                                            bad_dev);
        GT_LAUNCHED();
        GT_CHECK(take_bad() == 0, "%s float sum_reduce_grid in place misaligned n=%zu grid=%d", tn, n, g);
        /* a source outside the symmetric heap: staged through the team's
         * scratch (many chunks from 100003 elements), each block its share */
        k_reduce<float, op_sum><<<g, 256>>>(ti, (float *)B, priv, n, rounds, gt_seed, salt += 8, 1, bad_dev);
        GT_LAUNCHED();
        GT_CHECK(take_bad() == 0, "%s float sum_reduce_grid private source n=%zu grid=%d", tn, n, g);
        k_reduce<float, op_sum><<<g, 256>>>(ti, priv, priv, n, rounds, gt_seed, salt += 8, 0, bad_dev);
        GT_LAUNCHED();
        GT_CHECK(take_bad() == 0, "%s float sum_reduce_grid private, in place n=%zu grid=%d", tn, n, g);
        k_reduce<double, op_sum><<<g, 256>>>(ti, (double *)A, (double *)A, n, rounds, gt_seed, salt += 8, 1, bad_dev);
        GT_LAUNCHED();
        GT_CHECK(take_bad() == 0, "%s double sum_reduce_grid in place n=%zu grid=%d", tn, n, g);
        k_reduce<long, op_max><<<g, 256>>>(ti, (long *)B, (long *)A, n, rounds, gt_seed, salt += 8, 1, bad_dev);
        GT_LAUNCHED();
        GT_CHECK(take_bad() == 0, "%s long max_reduce_grid n=%zu grid=%d", tn, n, g);
        k_reduce<unsigned, op_xor><<<g, 256>>>(ti, (unsigned *)B, (unsigned *)A, n, rounds, gt_seed, salt += 8, 0,
                                               bad_dev);
        GT_LAUNCHED();
        GT_CHECK(take_bad() == 0, "%s uint xor_reduce_grid n=%zu grid=%d", tn, n, g);
        k_rscatter<<<g, 256>>>(ti, (int *)B, (int *)A, n, rounds, gt_seed, salt += 8, bad_dev, 0);
        GT_LAUNCHED();
        GT_CHECK(take_bad() == 0, "%s int sum_reduce_scatter_grid n=%zu grid=%d", tn, n, g);
        ll_scatter_private(ti, tn, (int *)B, (int *)priv, n, g, &salt);
        /* bytes: an odd count, aligned and with both buffers misaligned;
         * then (mis 2) aligned buffers and an odd count of 4-byte words,
         * so that members' blocks sit 4, 8 or 12 bytes past a vector
         * boundary (the push's shifted paths, collectives/scope.h), and
         * (mis 3) an odd count of 8-byte words (8 bytes past one: alltoall's
         * 8-byte words) */
        for (int which = 0; which < 3; which++)
          for (int mis = 0; mis < 4; mis++) {
            size_t nb = n + (n & 1 ? 0 : 3);
            if (mis == 2) nb = ((nb >> 2) | 1) << 2;
            if (mis == 3) nb = ((nb >> 3) | 1) << 3;
            int root = ti.size > 1 ? (int)(n % (size_t)ti.size) : 0;
            k_move<<<g, 256>>>(ti, which, (unsigned char *)B + 5 * (mis == 1), (unsigned char *)A + 3 * (mis == 1),
                               nb, root, rounds, gt_seed, salt += 8, 1, bad_dev);
            GT_LAUNCHED();
            GT_CHECK(take_bad() == 0, "%s %s_grid nbytes=%zu misaligned=%d grid=%d", tn,
                     which == 0 ? "broadcastmem" : which == 1 ? "fcollectmem" : "alltoallmem", nb, mis == 1, g);
          }
      }
    }
    if (me == 0) printf("%s team: done\n", tn);
  }

  /* A captured graph, replayed with no host reset. */
  {
    cudaStream_t s;
    GT_CUDA(cudaStreamCreate(&s));
    unsigned *round;
    GT_CUDA(cudaMalloc((void **)&round, sizeof *round));
    GT_CUDA(cudaMemset(round, 0, sizeof *round));
    const size_t gn[] = {3001, 12289, 300001};
    for (int k = 0; k < 3; k++) {
      size_t n = gn[k];
      float *a = (float *)A, *b = (float *)B, *c = (float *)B + maxn;
      cudaGraph_t graph;
      cudaGraphExec_t exec;
      GT_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
      k_graph<<<gmax, 256, 0, s>>>(world, a, b, c, n, gt_seed, round, bad_dev);
      GT_CUDA(cudaStreamEndCapture(s, &graph));
      GT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
      const int replays = quick ? 20 : 120;
      for (int r = 0; r < replays; r++) GT_CUDA(cudaGraphLaunch(exec, s));
      GT_CUDA(cudaStreamSynchronize(s));
      unsigned rh = 0;
      GT_CUDA(cudaMemcpy(&rh, round, sizeof rh, cudaMemcpyDeviceToHost));
      GT_CHECK(take_bad() == 0 && rh == (unsigned)(replays * (k + 1)), "graph of all-reduce_grid n=%zu: %u rounds",
               n, rh);
      GT_CUDA(cudaGraphExecDestroy(exec));
      GT_CUDA(cudaGraphDestroy(graph));
    }
    GT_CUDA(cudaFree(round));
    GT_CUDA(cudaStreamDestroy(s));
  }
  GT_CUDA(cudaFree(priv));
  shmem_free(A);
  shmem_free(B);
  return gt_finish("test_grid");
}
