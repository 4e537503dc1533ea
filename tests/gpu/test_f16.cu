/* The half and bfloat16 reductions at every scope (<shoal/gpu_reduce16.h>):
 * one block (_block), every block of a grid (_grid: a grid of 3 and the
 * largest resident one), and on a stream (_on_stream: one block, LL, and
 * the grid kernels from 256 KB), all-reduce and reduce-scatter, on the
 * world team and a strided one, in place, odd counts (tails inside a
 * vector; element by element) and even ones (sums and products in pairs),
 * buffers off a 4-byte word (element by element).  Fresh random data each run; dest poisoned (0xffff, a NaN in
 * both types, which no result here is); every element compared bit for
 * bit with the host's reference.  Sums of small integers and products of
 * +-1, 2, 1/2 are exact in both types whatever the order, so the
 * reference does not depend on the algorithm; min and max take any
 * finite value.  The pointers are uint16_t (the entry points take any
 * 2-byte type), and one call passes CUDA's __half.
 * SHOAL_TEST_GRID_QUICK=1: sizes up to 12289, grids of 1 and 3
 * (tests/gpu/run.sh sets it where every peer is behind the host proxy). */
#include "gpu_test.h"
#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

enum { TY_HALF, TY_BF16 };
enum { OP_SUM, OP_PROD, OP_MIN, OP_MAX };
enum { AT_BLOCK, AT_BLOCK_SCATTER, AT_GRID, AT_GRID_SCATTER, AT_STREAM, AT_STREAM_SCATTER };
static const char *ty_name[] = {"half", "bfloat16"}, *op_name[] = {"sum", "prod", "min", "max"};
static const char *at_name[] = {"reduce_block", "reduce_scatter_block", "reduce_grid", "reduce_scatter_grid",
                                "reduce_on_stream", "reduce_scatter_on_stream"};

static uint16_t to16(int ty, float x) { return ty == TY_HALF ? shoal_float_to_half(x) : shoal_float_to_bf16(x); }
static float from16(int ty, uint16_t b) { return ty == TY_HALF ? shoal_half_to_float(b) : shoal_bf16_to_float(b); }

/* PE pe's element i: exact in both types for sum and prod */
static uint16_t value(int ty, int op, int pe, size_t i, unsigned salt)
{
  uint64_t r = gt_val(gt_seed, pe, i, salt);
  static const float factors[6] = {1.0f, -1.0f, 2.0f, -2.0f, 0.5f, -0.5f};
  if (op == OP_SUM) return to16(ty, (float)(int)(r % 61) - 30.0f);
  if (op == OP_PROD) return to16(ty, factors[r % 6]);
  return to16(ty, ((float)(r % 20001) - 10000.0f) / 64.0f);   /* rounded to the type: any finite value */
}

#define CALL_SCOPES(N, OP, d, s) \
  if constexpr (AT == AT_BLOCK) shmemx_##N##_##OP##_reduce_block(team, d, s, n); \
  else if constexpr (AT == AT_BLOCK_SCATTER) shmemx_##N##_##OP##_reduce_scatter_block(team, d, s, n); \
  else if constexpr (AT == AT_GRID) shmemx_##N##_##OP##_reduce_grid(team, d, s, n); \
  else shmemx_##N##_##OP##_reduce_scatter_grid(team, d, s, n);
#define CALL_OPS(N, d, s) \
  if constexpr (OP == OP_SUM) { CALL_SCOPES(N, sum, d, s) } \
  else if constexpr (OP == OP_PROD) { CALL_SCOPES(N, prod, d, s) } \
  else if constexpr (OP == OP_MIN) { CALL_SCOPES(N, min, d, s) } \
  else { CALL_SCOPES(N, max, d, s) }

template <int TY, int OP, int AT>
__global__ void __launch_bounds__(512) k_reduce16(shmem_team_t team, uint16_t *d, const uint16_t *s, size_t n)
{
  if constexpr (TY == TY_HALF) { CALL_OPS(half, d, s) }
  else { CALL_OPS(bfloat16, d, s) }
}
#if defined(__CUDACC__)
/* The same call with CUDA's own half type. */
__global__ void __launch_bounds__(512) k_sum_cuda_half(shmem_team_t team, __half *d, const __half *s, size_t n)
{
  shmemx_half_sum_reduce_block(team, d, s, n);
}
#endif

template <int TY, int OP>
static void launch(int at, int grid, shmem_team_t team, uint16_t *d, const uint16_t *s, size_t n, cudaStream_t st)
{
  switch (at) {
  /* the kernels main asks for, no more (each is the whole reduction inline) */
  case AT_BLOCK: k_reduce16<TY, OP, AT_BLOCK><<<1, 512>>>(team, d, s, n); break;
  case AT_BLOCK_SCATTER:
    if constexpr (OP == OP_SUM) k_reduce16<TY, OP, AT_BLOCK_SCATTER><<<1, 512>>>(team, d, s, n);
    break;
  case AT_GRID:
    if constexpr (OP == OP_SUM || OP == OP_MAX) k_reduce16<TY, OP, AT_GRID><<<grid, 512>>>(team, d, s, n);
    break;
  case AT_GRID_SCATTER:
    if constexpr (OP == OP_SUM) k_reduce16<TY, OP, AT_GRID_SCATTER><<<grid, 512>>>(team, d, s, n);
    break;
  default: {
    int rc;
    bool sc = at == AT_STREAM_SCATTER;
    if (TY == TY_HALF)
      rc = OP == OP_SUM    ? (sc ? shmemx_half_sum_reduce_scatter_on_stream(team, d, s, n, st)
                                 : shmemx_half_sum_reduce_on_stream(team, d, s, n, st))
           : OP == OP_PROD ? (sc ? shmemx_half_prod_reduce_scatter_on_stream(team, d, s, n, st)
                                 : shmemx_half_prod_reduce_on_stream(team, d, s, n, st))
           : OP == OP_MIN  ? (sc ? shmemx_half_min_reduce_scatter_on_stream(team, d, s, n, st)
                                 : shmemx_half_min_reduce_on_stream(team, d, s, n, st))
                           : (sc ? shmemx_half_max_reduce_scatter_on_stream(team, d, s, n, st)
                                 : shmemx_half_max_reduce_on_stream(team, d, s, n, st));
    else
      rc = OP == OP_SUM    ? (sc ? shmemx_bfloat16_sum_reduce_scatter_on_stream(team, d, s, n, st)
                                 : shmemx_bfloat16_sum_reduce_on_stream(team, d, s, n, st))
           : OP == OP_PROD ? (sc ? shmemx_bfloat16_prod_reduce_scatter_on_stream(team, d, s, n, st)
                                 : shmemx_bfloat16_prod_reduce_on_stream(team, d, s, n, st))
           : OP == OP_MIN  ? (sc ? shmemx_bfloat16_min_reduce_scatter_on_stream(team, d, s, n, st)
                                 : shmemx_bfloat16_min_reduce_on_stream(team, d, s, n, st))
                           : (sc ? shmemx_bfloat16_max_reduce_scatter_on_stream(team, d, s, n, st)
                                 : shmemx_bfloat16_max_reduce_on_stream(team, d, s, n, st));
    GT_CHECK(rc == 0, "%s_%s_%s returned %d", ty_name[TY], op_name[OP], at_name[at], rc);
    GT_CUDA(cudaStreamSynchronize(st));
    return;
  }
  }
  GT_LAUNCHED();
}
template <int TY>
static void launch_op(int op, int at, int grid, shmem_team_t team, uint16_t *d, const uint16_t *s, size_t n,
                      cudaStream_t st)
{
  if (op == OP_SUM) launch<TY, OP_SUM>(at, grid, team, d, s, n, st);
#ifndef TEST_F16_SUM_MAX   /* a quicker build: sum (pairs) and max (single elements) only */
  else if (op == OP_PROD) launch<TY, OP_PROD>(at, grid, team, d, s, n, st);
  else if (op == OP_MIN) launch<TY, OP_MIN>(at, grid, team, d, s, n, st);
#endif
  else launch<TY, OP_MAX>(at, grid, team, d, s, n, st);
}

/* One call, checked: n elements of dest (scatter: n x team size of source). */
static void check(int ty, int op, int at, int grid, shmem_team_t team, const char *tname, size_t n, bool in_place,
                  cudaStream_t st, unsigned *salt, size_t off = 0)
{
  int ts = shmem_team_n_pes(team);
  if (ts <= 0) return;
  bool scatter = at == AT_BLOCK_SCATTER || at == AT_GRID_SCATTER || at == AT_STREAM_SCATTER;
  size_t ns = scatter ? n * (size_t)ts : n;
  int me = shmem_team_my_pe(team);
  int start = shmem_team_translate_pe(team, 0, SHMEM_TEAM_WORLD);
  int stride = ts > 1 ? shmem_team_translate_pe(team, 1, SHMEM_TEAM_WORLD) - start : 1;
  unsigned sl = (*salt)++;
  /* off: both buffers that many elements past shmem_malloc's alignment
   * (1: not 4-byte aligned, so sums and products go element by element) */
  uint16_t *sbase = (uint16_t *)shmem_malloc((ns + off) * 2);
  uint16_t *dbase = in_place ? sbase : (uint16_t *)shmem_malloc((n + off) * 2);
  uint16_t *src = sbase + off, *dst = dbase + off;
  uint16_t *h = (uint16_t *)malloc(ns * 2);
  for (size_t i = 0; i < ns; i++) h[i] = value(ty, op, start + me * stride, i, sl);
  GT_CUDA(cudaMemcpy(src, h, ns * 2, cudaMemcpyHostToDevice));
  if (!in_place) GT_CUDA(cudaMemset(dst, 0xff, n * 2));
  GT_CUDA(cudaDeviceSynchronize());
  if (ty == TY_HALF) launch_op<TY_HALF>(op, at, grid, team, dst, src, n, st);
  else launch_op<TY_BF16>(op, at, grid, team, dst, src, n, st);
  GT_CUDA(cudaMemcpy(h, dst, n * 2, cudaMemcpyDeviceToHost));
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; i++) {
    size_t at_i = scatter ? (size_t)me * n + i : i;
    uint16_t want = value(ty, op, start, at_i, sl);
    float acc = from16(ty, want);
    for (int j = 1; j < ts; j++) {
      uint16_t b = value(ty, op, start + j * stride, at_i, sl);
      float x = from16(ty, b);
      if (op == OP_SUM) acc += x;
      else if (op == OP_PROD) acc *= x;
      else if (op == OP_MIN ? x < acc : x > acc) acc = x, want = b;
    }
    if (op == OP_SUM || op == OP_PROD) want = to16(ty, acc);
    if (h[i] != want && !bad++) first = i;
  }
  GT_CHECK(bad == 0, "%s shmemx_%s_%s_%s n=%zu%s%s grid=%d: %zu wrong, first element %zu", tname, ty_name[ty],
           op_name[op], at_name[at], n, in_place ? " in place" : "", off ? " off a word" : "", grid, bad, first);
  free(h);
  if (!in_place) shmem_free(dbase);
  shmem_free(sbase);
}

int main(void)
{
  gt_init();
  int me = shmem_my_pe(), np = shmem_n_pes();
  cudaStream_t st;
  GT_CUDA(cudaStreamCreate(&st));
  shmem_team_t strided = SHMEM_TEAM_INVALID, other = SHMEM_TEAM_INVALID;
  /* the even PEs, and the odd ones (strided teams; at 1 PE: world alone) */
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (np + 1) / 2, NULL, 0, &strided);
  if (np > 1) shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, np / 2, NULL, 0, &other);
  shmem_team_t mine = me % 2 ? other : strided;
  /* one grid for every grid kernel here (all alike; every PE finds the same) */
  int gmax = shmemx_grid_max_blocks(k_reduce16<TY_HALF, OP_SUM, AT_GRID_SCATTER>, 512, 0);
  unsigned salt = 1;

  /* SHOAL_TEST_GRID_QUICK (every peer behind the proxy, where each call is
   * block 0's transfers through it), as test_grid: up to 12289 elements,
   * grids of 1 and 3 (job C of session 39: 65539 on the largest grid ran
   * past the grid barrier's 20 s) */
  bool quick = getenv("SHOAL_TEST_GRID_QUICK") != NULL;
  /* odd counts go element by element; even ones (on aligned buffers) as
   * pairs, for sum and prod */
  const size_t mid = quick ? 12289 : 65539, big = quick ? 12289 : 300007, huge = quick ? 12289 : (1u << 21) + 3;
  const size_t nblock[] = {1, 7, 1031, mid, 2, 1030, mid + 1};
  const size_t ngrid[] = {7, 4099, big, 4098, big + 1};
  const size_t nstream[] = {1, 1031, mid, big, huge, 1030, mid + 1, big + 1, huge + 1};
  for (int ty = 0; ty < 2; ty++) {
    if (me == 0) printf("test_f16: %s\n", ty_name[ty]);
    for (int op = 0; op < 4; op++) {
#ifdef TEST_F16_SUM_MAX
      if (op == OP_PROD || op == OP_MIN) continue;
#endif
      for (size_t n : nblock) {
        check(ty, op, AT_BLOCK, 1, SHMEM_TEAM_WORLD, "world", n, false, st, &salt);
        if (op == OP_SUM) {
          check(ty, op, AT_BLOCK, 1, SHMEM_TEAM_WORLD, "world", n, true, st, &salt);
          check(ty, op, AT_BLOCK_SCATTER, 1, SHMEM_TEAM_WORLD, "world", n, false, st, &salt);
          check(ty, op, AT_BLOCK, 1, mine, "strided", n, false, st, &salt);
          check(ty, op, AT_BLOCK, 1, SHMEM_TEAM_WORLD, "world", n, false, st, &salt, 1);
        }
      }
      if (op == OP_SUM || op == OP_MAX)
        for (size_t n : ngrid)
          for (int g : {quick ? 1 : 3, quick ? 3 : gmax}) {
            check(ty, op, AT_GRID, g, SHMEM_TEAM_WORLD, "world", n, false, st, &salt);
            if (op == OP_SUM) {
              check(ty, op, AT_GRID, g, SHMEM_TEAM_WORLD, "world", n, false, st, &salt, 1);
              check(ty, op, AT_GRID, g, SHMEM_TEAM_WORLD, "world", n, true, st, &salt);
              check(ty, op, AT_GRID_SCATTER, g, SHMEM_TEAM_WORLD, "world", n, false, st, &salt);
              check(ty, op, AT_GRID, g, mine, "strided", n, false, st, &salt);
            }
          }
      for (size_t n : nstream) {
        check(ty, op, AT_STREAM, 0, SHMEM_TEAM_WORLD, "world", n, false, st, &salt);
        check(ty, op, AT_STREAM_SCATTER, 0, SHMEM_TEAM_WORLD, "world", n / 2 + 1, false, st, &salt);
        if (op == OP_SUM) {
          check(ty, op, AT_STREAM, 0, SHMEM_TEAM_WORLD, "world", n, true, st, &salt);
          check(ty, op, AT_STREAM, 0, mine, "strided", n, false, st, &salt);
          check(ty, op, AT_STREAM, 0, SHMEM_TEAM_WORLD, "world", n, false, st, &salt, 1);
        }
      }
    }
  }
#if defined(__CUDACC__)
  {
    /* CUDA's __half, as a kernel holds it */
    size_t n = 1031;
    __half *s = (__half *)shmem_malloc(n * 2), *d = (__half *)shmem_malloc(n * 2);
    uint16_t *h = (uint16_t *)malloc(n * 2);
    for (size_t i = 0; i < n; i++) h[i] = value(TY_HALF, OP_SUM, me, i, 999);
    GT_CUDA(cudaMemcpy(s, h, n * 2, cudaMemcpyHostToDevice));
    GT_CUDA(cudaMemset(d, 0xff, n * 2));
    GT_CUDA(cudaDeviceSynchronize());
    k_sum_cuda_half<<<1, 512>>>(SHMEM_TEAM_WORLD, d, s, n);
    GT_LAUNCHED();
    GT_CUDA(cudaMemcpy(h, d, n * 2, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
      float want = 0;
      for (int p = 0; p < np; p++) want += shoal_half_to_float(value(TY_HALF, OP_SUM, p, i, 999));
      bad += h[i] != shoal_float_to_half(want);
    }
    GT_CHECK(bad == 0, "shmemx_half_sum_reduce_block on __half: %zu wrong", bad);
    free(h);
    shmem_free(d);
    shmem_free(s);
  }
#endif
  GT_CUDA(cudaStreamDestroy(st));
  if (strided != SHMEM_TEAM_INVALID) shmem_team_destroy(strided);
  if (other != SHMEM_TEAM_INVALID) shmem_team_destroy(other);
  return gt_finish("test_f16");
}
