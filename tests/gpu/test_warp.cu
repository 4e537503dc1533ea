/* Warp-scope collectives inside kernels (shmemx_*_warp): one warp of a
 * block calls (warp w of a block of four warps, the others idle, or a
 * block of one warp), fills its data, calls, and checks every element
 * with other lanes than the ones that wrote it.  Fresh data every round,
 * outputs poisoned; the world and strided teams (sizes 1 and 2 at 2-4
 * PEs); in place; odd sizes and misaligned buffers; sizes that take LL and
 * the push or pull; a source outside the symmetric heap; a slow member; a
 * captured graph replayed 120 times with no host reset; the typed
 * reductions of 4- and 8-byte types, half and bfloat16; the prefix sums
 * (inscan, exscan); barrier_all_warp
 * completing the warp's puts.  `test_warp partial` must stop with a
 * message (run.sh checks): warp 1 of a block of 48 threads is not whole.
 * SHOAL_TEST_GRID_QUICK=1 (run.sh, every peer behind the proxy) leaves
 * out the sizes past 12289 elements and 8192 bytes. */
#include "coll_test.h"
#include <shoal/f16.h>

/* This thread's lane in the calling warp, or -1 where its warp is not w. */
__device__ inline int lane_of(int w)
{
  return threadIdx.x / warpSize == (unsigned)w ? (int)(threadIdx.x % warpSize) : -1;
}
__device__ inline void red(shmem_team_t t, float *d, const float *s, size_t n, op_sum) { shmemx_float_sum_reduce_warp(t, d, s, n); }
__device__ inline void red(shmem_team_t t, double *d, const double *s, size_t n, op_sum) { shmemx_double_sum_reduce_warp(t, d, s, n); }
__device__ inline void red(shmem_team_t t, long *d, const long *s, size_t n, op_max) { shmemx_long_max_reduce_warp(t, d, s, n); }
__device__ inline void red(shmem_team_t t, unsigned *d, const unsigned *s, size_t n, op_xor) { shmemx_uint_xor_reduce_warp(t, d, s, n); }

/* All-reduce rounds by warp w: fill src (poison dest), the slow PE's warp
 * falls behind now and then, call, check every element in reverse order
 * (mostly another lane than the writer), meet before src changes. */
template <class T, class OP>
__global__ void k_reduce(team_info ti, T *dst, T *src, size_t n, int rounds, uint64_t seed, unsigned salt, int w,
                         int slow_pe, unsigned *bad)
{
  int lane = lane_of(w);
  if (lane < 0) return;
  int me = shmem_my_pe();
  for (int r = 0; r < rounds; r++) {
    for (size_t i = lane; i < n; i += warpSize) {
      src[i] = tv<T>(seed, me, i, salt + r);
      if (dst != src) dst[i] = (T)0x5A5A5A5A;
    }
    if (me == slow_pe && r % 2 == 0 && lane == 0) fall_behind(200);
    red(ti.team, dst, src, n, OP());
    for (size_t k = lane; k < n; k += warpSize) {
      size_t i = n - 1 - k;
      T want = tv<T>(seed, ti.start, i, salt + r);
      for (int j = 1; j < ti.size; j++) want = OP::f(want, tv<T>(seed, ti.start + j * ti.stride, i, salt + r));
      if (dst[i] != want) atomicAdd(bad, 1u);
    }
    shmemx_team_sync_warp(ti.team);
  }
}

/* Reduce-scatter of ints: dest n (poisoned), source size x n. */
__global__ void k_rscatter(team_info ti, int *dst, int *src, size_t n, int rounds, uint64_t seed, unsigned salt,
                           int w, unsigned *bad)
{
  int lane = lane_of(w);
  if (lane < 0) return;
  int me = shmem_my_pe();
  for (int r = 0; r < rounds; r++) {
    for (size_t i = lane; i < n * ti.size; i += warpSize) src[i] = tv<int>(seed, me, i, salt + r);
    for (size_t i = lane; i < n; i += warpSize) dst[i] = 0x5A5A5A5A;
    shmemx_int_sum_reduce_scatter_warp(ti.team, dst, src, n);
    for (size_t k = lane; k < n; k += warpSize) {
      size_t i = n - 1 - k;
      int want = 0;
      for (int j = 0; j < ti.size; j++) want += tv<int>(seed, ti.start + j * ti.stride, (size_t)ti.me * n + i, salt + r);
      if (dst[i] != want) atomicAdd(bad, 1u);
    }
    shmemx_team_sync_warp(ti.team);
  }
}

/* Prefix sums of ints (inscan, exscan), in place too. */
__global__ void k_scan(team_info ti, int *dst, int *src, size_t n, int inclusive, uint64_t seed, unsigned salt,
                       int w, unsigned *bad)
{
  int lane = lane_of(w);
  if (lane < 0) return;
  int me = shmem_my_pe();
  for (size_t i = lane; i < n; i += warpSize) {
    src[i] = tv<int>(seed, me, i, salt);
    if (dst != src) dst[i] = 0x5A5A5A5A;
  }
  if (inclusive) shmemx_int_sum_inscan_warp(ti.team, dst, src, n);
  else shmemx_int_sum_exscan_warp(ti.team, dst, src, n);
  for (size_t k = lane; k < n; k += warpSize) {
    size_t i = n - 1 - k;
    int want = 0;
    for (int j = 0; j < ti.me + (inclusive ? 1 : 0); j++) want += tv<int>(seed, ti.start + j * ti.stride, i, salt);
    if (dst[i] != want) atomicAdd(bad, 1u);
  }
  shmemx_team_sync_warp(ti.team);
}

/* half sums and bfloat16 maxima of small integers (exact in both): pairs
 * where n is even and the buffers 4-byte aligned, single elements else. */
__global__ void k_reduce16(team_info ti, uint16_t *dst, uint16_t *src, size_t n, int bf, uint64_t seed,
                           unsigned salt, int w, unsigned *bad)
{
  int lane = lane_of(w);
  if (lane < 0) return;
  int me = shmem_my_pe();
  for (size_t i = lane; i < n; i += warpSize) {
    float x = (float)((int)(gt_val(seed, me, i, salt) % 201) - 100);
    src[i] = bf ? shoal_float_to_bf16(x) : shoal_float_to_half(x);
    dst[i] = 0x7E7E;
  }
  if (bf) shmemx_bfloat16_max_reduce_warp(ti.team, dst, src, n);
  else shmemx_half_sum_reduce_warp(ti.team, dst, src, n);
  for (size_t k = lane; k < n; k += warpSize) {
    size_t i = n - 1 - k;
    float want = bf ? -1000.0f : 0.0f;
    for (int j = 0; j < ti.size; j++) {
      float x = (float)((int)(gt_val(seed, ti.start + j * ti.stride, i, salt) % 201) - 100);
      want = bf ? (want < x ? x : want) : want + x;
    }
    float got = bf ? shoal_bf16_to_float(dst[i]) : shoal_half_to_float(dst[i]);
    if (got != want) atomicAdd(bad, 1u);
  }
  shmemx_team_sync_warp(ti.team);
}

__host__ __device__ inline unsigned char bv(uint64_t seed, int pe, size_t i, unsigned salt)
{
  return (unsigned char)gt_val(seed, pe, i, salt);
}
/* which: 0 broadcast from root, 1 fcollect, 2 alltoall; nb bytes a member. */
__global__ void k_move(team_info ti, int which, unsigned char *dst, unsigned char *src, size_t nb, int root,
                       int rounds, uint64_t seed, unsigned salt, int w, int slow_pe, unsigned *bad)
{
  int lane = lane_of(w);
  if (lane < 0) return;
  int me = shmem_my_pe();
  size_t ns = which == 2 ? nb * ti.size : nb, nd = which == 0 ? nb : nb * ti.size;
  for (int r = 0; r < rounds; r++) {
    for (size_t i = lane; i < ns; i += warpSize) src[i] = bv(seed, me, i, salt + r);
    for (size_t i = lane; i < nd; i += warpSize) dst[i] = 0xA5;
    if (me == slow_pe && lane == 0) fall_behind(200);
    if (which == 0) shmemx_broadcastmem_warp(ti.team, dst, src, nb, root);
    else if (which == 1) shmemx_fcollectmem_warp(ti.team, dst, src, nb);
    else shmemx_alltoallmem_warp(ti.team, dst, src, nb);
    for (size_t k = lane; k < nd; k += warpSize) {
      size_t i = nd - 1 - k, q = i / nb, e = i % nb;
      int pe = ti.start + (int)(which == 0 ? root : q) * ti.stride;
      unsigned char want = bv(seed, pe, which == 0 ? i : which == 1 ? e : (size_t)ti.me * nb + e, salt + r);
      if (dst[i] != want) atomicAdd(bad, 1u);
    }
    shmemx_team_sync_warp(ti.team);
  }
}

/* barrier_all_warp completes the warp's puts: each lane puts a word to
 * every PE's box, the warp meets, every lane checks its share of the
 * words from every PE, sync_all_warp before the next round's puts. */
__global__ void k_barrier(int *box, int rounds, uint64_t seed, int w, unsigned *bad)
{
  int lane = lane_of(w);
  if (lane < 0) return;
  int me = shmem_my_pe(), np = shmem_n_pes();
  for (int r = 0; r < rounds; r++) {
    for (int q = 0; q < np; q++) shmem_int_p(box + me * warpSize + lane, (int)gt_val(seed, me, lane, r), q);
    shmemx_barrier_all_warp();
    for (int k = lane; k < np * (int)warpSize; k += warpSize) {
      int pe = k / warpSize, l = k % warpSize;
      if (box[k] != (int)gt_val(seed, pe, l, r)) atomicAdd(bad, 1u);
    }
    shmemx_sync_all_warp();
  }
}

/* The graph: each replay reads the round from the device, fills, sums in
 * place and out of place, checks and advances the round; PE 1 lags every
 * 10th replay. */
__global__ void k_graph(team_info ti, float *a, float *b, size_t n, uint64_t seed, unsigned *round, int w,
                        unsigned *bad)
{
  int lane = lane_of(w);
  if (lane < 0) return;
  int me = shmem_my_pe();
  unsigned r = *round;
  for (size_t i = lane; i < n; i += warpSize) {
    a[i] = tv<float>(seed, me, i, 100 + r);
    b[i] = -1.0e30f;
  }
  if (me == 1 && r % 10 == 0 && lane == 0) fall_behind(300);
  shmemx_float_sum_reduce_warp(ti.team, b, a, n);
  shmemx_float_sum_reduce_warp(ti.team, a, a, n);
  for (size_t k = lane; k < n; k += warpSize) {
    size_t i = n - 1 - k;
    float want = 0;
    for (int j = 0; j < ti.size; j++) want += tv<float>(seed, ti.start + j * ti.stride, i, 100 + r);
    if (a[i] != want || b[i] != want) atomicAdd(bad, 1u);
  }
  shmemx_team_sync_warp(ti.team);
  if (lane == 0) *round = r + 1;
}

/* The second warp of a block of 48 threads has 16: the call must stop. */
__global__ void k_partial(int *d, const int *s)
{
  if (threadIdx.x >= 32) shmemx_int_sum_reduce_warp(SHMEM_TEAM_WORLD, d, s, 4);
}

static unsigned *bad_dev;
static int wsz = 32;   /* warpSize as the host sees it */
static unsigned take_bad(void)
{
  unsigned b = 0;
  GT_CUDA(cudaMemcpy(&b, bad_dev, sizeof b, cudaMemcpyDeviceToHost));
  GT_CUDA(cudaMemset(bad_dev, 0, sizeof b));
  return b;
}
/* The launch shapes: warp w of a block of 4 warps, or a block of 1. */
static const int shapes[][2] = {{4, 0}, {4, 3}, {1, 0}, {4, 1}};
#define NSHAPES 4

template <class T, class OP>
static void reduce_case(const team_info &ti, const char *tn, const char *what, T *dst, T *src, size_t n, int sh,
                        int slow, unsigned salt)
{
  k_reduce<T, OP><<<1, shapes[sh][0] * wsz>>>(ti, dst, src, n, 3, gt_seed, salt, shapes[sh][1], slow, bad_dev);
  GT_LAUNCHED();
  unsigned b = take_bad();
  GT_CHECK(b == 0, "%s reduce_warp %s%s n=%zu shape %d: %u wrong", what, tn, dst == src ? " in place" : "", n, sh, b);
}

int main(int argc, char **argv)
{
  gt_init();
  int me = shmem_my_pe(), np = shmem_n_pes();
  const char *mode = argc > 1 ? argv[1] : "";
  GT_CUDA(cudaMalloc((void **)&bad_dev, sizeof(unsigned)));
  GT_CUDA(cudaMemset(bad_dev, 0, sizeof(unsigned)));
  int dev = 0;
  GT_CUDA(cudaGetDevice(&dev));
  GT_CUDA(cudaDeviceGetAttribute(&wsz, cudaDevAttrWarpSize, dev));
  const size_t maxn = 40000 + 64;   /* elements of 8 bytes at most */
  char *A = (char *)shmem_malloc(maxn * 8 * 4 + 64), *B = (char *)shmem_malloc(maxn * 8 * 4 + 64);
  int *box = (int *)shmem_malloc((size_t)np * wsz * sizeof(int));
  char *priv;   /* device memory outside the symmetric heap */
  GT_CUDA(cudaMalloc((void **)&priv, maxn * 8));
  if (!A || !B || !box) {
    fprintf(stderr, "test_warp: PE %d: raise SHMEM_SYMMETRIC_SIZE\n", me);
    return 2;
  }
  if (!strcmp(mode, "partial")) {   /* must stop with a message */
    k_partial<<<1, 48>>>((int *)B, (const int *)A);
    GT_LAUNCHED();
    printf("PE %d: a partial warp was not caught\n", me);
    return 3;
  }

  shmem_team_t even, odd;
  team_info world, strided;
  gt_teams(&world, &strided, &even, &odd);
  const int slow = np > 1 ? 1 : -1;
  const bool quick = getenv("SHOAL_TEST_GRID_QUICK") != NULL;
  unsigned salt = 1;

  /* barrier_all_warp and sync_all_warp */
  for (int sh = 0; sh < NSHAPES; sh++) {
    k_barrier<<<1, shapes[sh][0] * wsz>>>(box, 20, gt_seed + sh, shapes[sh][1], bad_dev);
    GT_LAUNCHED();
    unsigned b = take_bad();
    GT_CHECK(b == 0, "barrier_all_warp shape %d: %u words not yet stored after the barrier", sh, b);
  }

  /* all-reduce: LL sizes, the pull, two-shot; in place; a misaligned
   * buffer; a private source (staged through the scratch) */
  const size_t ns[] = {1, 7, 300, 1027, 4099, 12289, 40000};
  for (int tm = 0; tm < 2; tm++) {
    const team_info &ti = tm ? strided : world;
    const char *tn = tm ? "strided" : "world";
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
      size_t n = ns[k];
      if (quick && n > 12289) continue;
      int sh = (int)(k % NSHAPES);
      reduce_case<float, op_sum>(ti, tn, "float sum", (float *)B, (float *)A, n, sh, slow, salt += 4);
      reduce_case<float, op_sum>(ti, tn, "float sum", (float *)A, (float *)A, n, (sh + 1) % NSHAPES, slow, salt += 4);
      reduce_case<double, op_sum>(ti, tn, "double sum", (double *)B, (double *)A, n, (sh + 2) % NSHAPES, -1, salt += 4);
      reduce_case<long, op_max>(ti, tn, "long max", (long *)B + 1, (long *)A + 1, n, (sh + 3) % NSHAPES, -1, salt += 4);
      reduce_case<unsigned, op_xor>(ti, tn, "uint xor", (unsigned *)B + 1, (unsigned *)A + 3, n, sh, -1, salt += 4);
      reduce_case<float, op_sum>(ti, tn, "float sum (private source)", (float *)B, (float *)priv, n, sh, -1, salt += 4);
    }
    /* reduce-scatter */
    for (size_t n : {(size_t)1, (size_t)5, (size_t)257, (size_t)3001, (size_t)9999}) {
      k_rscatter<<<1, 4 * wsz>>>(ti, (int *)B, (int *)A, n, 3, gt_seed, salt += 4, (int)(n % 4), bad_dev);
      GT_LAUNCHED();
      unsigned b = take_bad();
      GT_CHECK(b == 0, "int sum reduce_scatter_warp %s n=%zu: %u wrong", tn, n, b);
    }
    /* prefix sums, out of place and in place (through the scratch) */
    for (size_t n : {(size_t)1, (size_t)77, (size_t)3001}) {
      for (int inc = 0; inc < 2; inc++)
        for (int inpl = 0; inpl < 2; inpl++) {
          int *d = inpl ? (int *)A : (int *)B;
          k_scan<<<1, 4 * wsz>>>(ti, d, (int *)A, n, inc, gt_seed, salt += 4, 2, bad_dev);
          GT_LAUNCHED();
          unsigned b = take_bad();
          GT_CHECK(b == 0, "int sum %sscan_warp %s%s n=%zu: %u wrong", inc ? "in" : "ex", tn, inpl ? " in place" : "",
                   n, b);
        }
    }
    /* half sums and bfloat16 maxima: pairs and single elements */
    for (size_t n : {(size_t)1, (size_t)6, (size_t)501, (size_t)8192}) {
      for (int bf = 0; bf < 2; bf++) {
        k_reduce16<<<1, 2 * wsz>>>(ti, (uint16_t *)B, (uint16_t *)A, n, bf, gt_seed, salt += 4, 1, bad_dev);
        GT_LAUNCHED();
        unsigned b = take_bad();
        GT_CHECK(b == 0, "%s reduce_warp %s n=%zu: %u wrong", bf ? "bfloat16 max" : "half sum", tn, n, b);
      }
    }
    /* broadcast, fcollect, alltoall: LL sizes and the push, odd sizes,
     * misaligned buffers, a private source for fcollect */
    const size_t nbs[] = {1, 3, 8, 100, 1001, 8192, 40003};
    for (int which = 0; which < 3; which++)
      for (size_t k = 0; k < sizeof nbs / sizeof nbs[0]; k++) {
        size_t nb = nbs[k];
        if (quick && nb > 8192) continue;
        int sh = (int)((k + which) % NSHAPES), off = (int)(k % 3);
        int root = ti.size > 1 ? (int)(k % ti.size) : 0;
        unsigned char *src = (unsigned char *)A + off;
        if (which == 1 && k % 2) src = (unsigned char *)priv + off;
        k_move<<<1, shapes[sh][0] * wsz>>>(ti, which, (unsigned char *)B + (k % 2), src, nb, root, 3, gt_seed,
                                           salt += 4, shapes[sh][1], slow, bad_dev);
        GT_LAUNCHED();
        unsigned b = take_bad();
        static const char *names[] = {"broadcastmem_warp", "fcollectmem_warp", "alltoallmem_warp"};
        GT_CHECK(b == 0, "%s %s nb=%zu shape %d offset %d%s: %u wrong", names[which], tn, nb, sh, off,
                 which == 1 && k % 2 ? " private source" : "", b);
      }
  }

  /* a captured graph replayed 120 times: the warp's counters only grow */
  {
    unsigned *round;
    GT_CUDA(cudaMalloc((void **)&round, sizeof(unsigned)));
    GT_CUDA(cudaMemset(round, 0, sizeof(unsigned)));
    cudaStream_t st;
    GT_CUDA(cudaStreamCreate(&st));
    cudaGraph_t g;
    cudaGraphExec_t ge;
    const size_t gn = 3001;
    GT_CUDA(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    k_graph<<<1, 2 * wsz, 0, st>>>(world, (float *)A, (float *)B, gn, gt_seed, round, 1, bad_dev);
    GT_CUDA(cudaStreamEndCapture(st, &g));
    GT_CUDA(cudaGraphInstantiate(&ge, g, 0));
    for (int i = 0; i < 120; i++) GT_CUDA(cudaGraphLaunch(ge, st));
    GT_CUDA(cudaStreamSynchronize(st));
    unsigned b = take_bad(), r = 0;
    GT_CUDA(cudaMemcpy(&r, round, sizeof r, cudaMemcpyDeviceToHost));
    GT_CHECK(b == 0 && r == 120, "graph of warp all-reduces: %u wrong over %u replays (want 120)", b, r);
    GT_CUDA(cudaGraphExecDestroy(ge));
    GT_CUDA(cudaGraphDestroy(g));
    GT_CUDA(cudaStreamDestroy(st));
    GT_CUDA(cudaFree(round));
  }

  shmem_barrier_all();
  if (even != SHMEM_TEAM_INVALID) shmem_team_destroy(even);
  if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
  shmem_free(box);
  shmem_free(B);
  shmem_free(A);
  GT_CUDA(cudaFree(priv));
  return gt_finish("test_warp");
}
