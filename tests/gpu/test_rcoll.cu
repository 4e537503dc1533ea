/* GPU collectives on teams with members behind the host proxy (issue 14
 * item 4): all-reduce (typed, several types and every operator class),
 * reduce-scatter, broadcast, fcollect, alltoall (and the block prefix
 * sums), at block and grid
 * scope, through _on_stream and through the host's blocking API on GPU
 * memory; odd sizes (one element up to past the grid thresholds), in
 * place, sources outside the symmetric heap, the world team and a strided
 * team.  Run with SHOAL_PES_PER_NODE=1 (every peer behind the proxy) or 2
 * at 4 PEs (mixed); on one node it checks the same results over
 * load/store.  Fresh random data, poisoned outputs, every element checked. */
#include "gpu_test.h"
#include <type_traits>

#define THREADS 256
#define GRID_MAX 8
#define POISON 0xA5

enum { OP_and, OP_or, OP_xor, OP_min, OP_max, OP_sum, OP_prod };
enum { SC_BLOCK, SC_GRID, SC_STREAM, SC_HOST, SC_COUNT };
static const char *scope_name[SC_COUNT] = {"block", "grid", "on_stream", "host"};
static cudaStream_t st;
/* GT_VERBOSE=1: PE 0 names each case before it runs (where a run stops). */
static bool verbose;
#define CASE(...) do { if (verbose && shmem_my_pe() == 0) { printf(__VA_ARGS__); printf("\n"); fflush(stdout); } } while (0)

/* Element i of PE pe's data: small values for prod (no overflow),
 * integral values in floating types (sums are exact in any order). */
template <class T> __host__ __device__ T rval(uint64_t seed, int pe, size_t i, unsigned salt, int op)
{
  uint64_t g = gt_val(seed, pe, i, salt);
  if (op == OP_prod) return (T)((g & 3) + 1);
  if (!std::is_integral<T>::value) return (T)((double)(g % 2001) - 1000.0);
  return (T)g;
}
template <class T> __global__ void k_fill(T *a, size_t n, uint64_t seed, int pe, unsigned salt, int op)
{
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    a[i] = rval<T>(seed, pe, i, salt, op);
}
template <class T> static void fill(T *a, size_t n, int pe, unsigned salt, int op)
{
  k_fill<T><<<64, 256>>>(a, n, gt_seed, pe, salt, op);
  GT_LAUNCHED();
}
static void poison(void *a, size_t bytes)
{
  GT_CUDA(cudaMemset(a, POISON, bytes));
  GT_CUDA(cudaDeviceSynchronize());
}

template <class T> static T hop(int op, T a, T b)
{
  if constexpr (std::is_integral<T>::value) {
    switch (op) {
    case OP_and: return (T)(a & b);
    case OP_or: return (T)(a | b);
    case OP_xor: return (T)(a ^ b);
    case OP_sum: return (T)((unsigned long long)a + (unsigned long long)b);
    case OP_prod: return (T)((unsigned long long)a * (unsigned long long)b);
    default: break;
    }
  } else {
    if (op == OP_sum) return a + b;
    if (op == OP_prod) return a * b;
  }
  return op == OP_min ? (b < a ? b : a) : (a < b ? b : a);
}

struct team_info {
  shmem_team_t team;
  int start, stride, size, me;
  const char *name;
};
template <class K> static int grid_blocks(K *k)
{
  int b = shmemx_grid_max_blocks(k, THREADS, 0);
  return b < GRID_MAX ? b : GRID_MAX;
}

/* ---- reductions ---------------------------------------------------------- */
#define RC_REDUCE(T, N, OP) \
  __global__ void kb_##N##_##OP(shmem_team_t tm, T *d, const T *s, size_t n, int sc) \
  { \
    if (sc) shmemx_##N##_##OP##_reduce_scatter_block(tm, d, s, n); \
    else shmemx_##N##_##OP##_reduce_block(tm, d, s, n); \
  } \
  __global__ void kg_##N##_##OP(shmem_team_t tm, T *d, const T *s, size_t n, int sc) \
  { \
    if (sc) shmemx_##N##_##OP##_reduce_scatter_grid(tm, d, s, n); \
    else shmemx_##N##_##OP##_reduce_grid(tm, d, s, n); \
  } \
  static void run_##N##_##OP(int scope, shmem_team_t tm, T *d, const T *s, size_t n, int sc) \
  { \
    switch (scope) { \
    case SC_BLOCK: kb_##N##_##OP<<<1, THREADS>>>(tm, d, s, n, sc); GT_LAUNCHED(); break; \
    case SC_GRID: kg_##N##_##OP<<<grid_blocks(kg_##N##_##OP), THREADS>>>(tm, d, s, n, sc); GT_LAUNCHED(); break; \
    case SC_STREAM: \
      if (sc) shmemx_##N##_##OP##_reduce_scatter_on_stream(tm, d, s, n, st); \
      else shmemx_##N##_##OP##_reduce_on_stream(tm, d, s, n, st); \
      GT_CUDA(cudaStreamSynchronize(st)); \
      break; \
    default: \
      if (sc) shmemx_##N##_##OP##_reduce_scatter(tm, d, s, n); \
      else shmem_##N##_##OP##_reduce(tm, d, s, n); \
      break; \
    } \
  }

RC_REDUCE(int, int, sum)
RC_REDUCE(double, double, sum)
RC_REDUCE(long long, longlong, prod)
RC_REDUCE(float, float, max)
RC_REDUCE(short, short, min)
RC_REDUCE(int8_t, int8, xor)
RC_REDUCE(uint16_t, uint16, and)
RC_REDUCE(uint64_t, uint64, or)

/* Every scope of one (type, op): the all-reduce out of place, in place
 * and from a private (cudaMalloc) source, and reduce-scatter (its source
 * is symmetric).  full: sizes 1, 7, 3001 (and 70001, past the grid
 * thresholds, with big); else sizes 1 and 3001, no private source. */
template <class T>
static void test_reduce(const char *name, int op, void (*run)(int, shmem_team_t, T *, const T *, size_t, int),
                        const team_info &ti, int full, char *sym_a, char *sym_b, char *priv)
{
  static const size_t all_sizes[] = {1, 7, 3001, 70001}, few_sizes[] = {1, 3001};
  const size_t *sizes = full ? all_sizes : few_sizes;
  int nsizes = full == 2 ? 4 : full ? 3 : 2;
  T *A = (T *)sym_a, *B = (T *)sym_b, *P = (T *)priv;
  int world_me = shmem_my_pe();
  for (int scope = 0; scope < SC_COUNT; scope++)
    for (int si = 0; si < nsizes; si++)
      for (int v = 0; v < 4; v++) {   /* 0 out of place, 1 in place, 2 private source, 3 reduce-scatter */
        if ((si == 3 && (v == 1 || v == 2)) || (!full && v == 2)) continue;   /* large: out of place, scatter */
        size_t n = sizes[si], nsrc = v == 3 ? n * (size_t)ti.size : n;
        unsigned salt = (unsigned)(scope * 16 + si * 4 + v);
        T *src = v == 2 ? P : A, *dest = v == 1 ? A : B;
        if (v != 1) poison(dest, n * sizeof(T));
        fill(src, nsrc, world_me, salt, op);
        shmem_team_sync(ti.team);   /* every member set up (non-members are not here) */
        CASE("%s on %s, %s, %zu elements, variant %d", name, ti.name, scope_name[scope], n, v);
        run(scope, ti.team, dest, src, n, v == 3);
        T *got = (T *)malloc(n * sizeof(T));
        GT_CUDA(cudaMemcpy(got, dest, n * sizeof(T), cudaMemcpyDeviceToHost));
        size_t off = v == 3 ? (size_t)ti.me * n : 0, bad = 0, first = 0;
        for (size_t i = 0; i < n; i++) {
          T want = rval<T>(gt_seed, ti.start, off + i, salt, op);
          for (int q = 1; q < ti.size; q++)
            want = hop<T>(op, want, rval<T>(gt_seed, ti.start + q * ti.stride, off + i, salt, op));
          if (memcmp(&want, &got[i], sizeof(T)) && !bad++) first = i;
        }
        GT_CHECK(!bad, "%s %s on team %s, %s, %zu elements, variant %d: %zu wrong (first at %zu)",
                 name, v == 3 ? "reduce_scatter" : "reduce", ti.name, scope_name[scope], n, v, bad, first);
        free(got);
      }
}
#define RC_TEST(T, N, OP, FULL) test_reduce<T>(#N "_" #OP, OP_##OP, run_##N##_##OP, ti, FULL, a, b, p)

/* ---- prefix sums (block scope; source symmetric) --------------------------- */
__global__ void k_scan(shmem_team_t tm, long *d, const long *s, size_t n, int inclusive)
{
  if (inclusive) shmemx_long_sum_inscan_block(tm, d, s, n);
  else shmemx_long_sum_exscan_block(tm, d, s, n);
}
static void test_scan(const team_info &ti, char *sym_a, char *sym_b)
{
  static const size_t sizes[] = {7, 3001};
  long *A = (long *)sym_a, *B = (long *)sym_b;
  for (int si = 0; si < 2; si++)
    for (int v = 0; v < 4; v++) {   /* bit 0: inclusive; bit 1: in place */
      size_t n = sizes[si];
      int inclusive = v & 1;
      unsigned salt = (unsigned)(200 + si * 4 + v);
      long *dest = (v & 2) ? A : B;
      if (!(v & 2)) poison(dest, n * sizeof(long));
      fill(A, n, shmem_my_pe(), salt, OP_sum);
      shmem_team_sync(ti.team);
      CASE("scan on %s, %zu elements, variant %d", ti.name, n, v);
      k_scan<<<1, THREADS>>>(ti.team, dest, A, n, inclusive);
      GT_LAUNCHED();
      long *got = (long *)malloc(n * sizeof(long));
      GT_CUDA(cudaMemcpy(got, dest, n * sizeof(long), cudaMemcpyDeviceToHost));
      size_t bad = 0, first = 0;
      int last = inclusive ? ti.me : ti.me - 1;
      for (size_t i = 0; i < n; i++) {
        long want = 0;
        for (int q = 0; q <= last; q++)
          want = hop<long>(OP_sum, want, rval<long>(gt_seed, ti.start + q * ti.stride, i, salt, OP_sum));
        if (want != got[i] && !bad++) first = i;
      }
      GT_CHECK(!bad, "%sscan on team %s, %zu elements%s: %zu wrong (first at %zu)", inclusive ? "in" : "ex",
               ti.name, n, (v & 2) ? ", in place" : "", bad, first);
      free(got);
    }
}

/* ---- broadcast, fcollect, alltoall --------------------------------------- */
__global__ void kb_move(int which, shmem_team_t tm, void *d, const void *s, size_t n, int root)
{
  if (which == 0) shmemx_broadcastmem_block(tm, d, s, n, root);
  else if (which == 1) shmemx_fcollectmem_block(tm, d, s, n);
  else shmemx_alltoallmem_block(tm, d, s, n);
}
/* Grid: the mem forms, and the typed forms where bytes are whole ints. */
__global__ void kg_move(int which, shmem_team_t tm, void *d, const void *s, size_t n, int root)
{
  if (n % 4 == 0 && n > 4) {
    if (which == 0) shmemx_int_broadcast_grid(tm, (int *)d, (const int *)s, n / 4, root);
    else if (which == 1) shmemx_int_fcollect_grid(tm, (int *)d, (const int *)s, n / 4);
    else shmemx_int_alltoall_grid(tm, (int *)d, (const int *)s, n / 4);
    return;
  }
  if (which == 0) shmemx_broadcastmem_grid(tm, d, s, n, root);
  else if (which == 1) shmemx_fcollectmem_grid(tm, d, s, n);
  else shmemx_alltoallmem_grid(tm, d, s, n);
}
static void run_move(int scope, int which, shmem_team_t tm, void *d, const void *s, size_t n, int root)
{
  switch (scope) {
  case SC_BLOCK: kb_move<<<1, THREADS>>>(which, tm, d, s, n, root); GT_LAUNCHED(); break;
  case SC_GRID: kg_move<<<grid_blocks(kg_move), THREADS>>>(which, tm, d, s, n, root); GT_LAUNCHED(); break;
  case SC_STREAM:
    if (which == 0) shmemx_broadcastmem_on_stream(tm, d, s, n, root, st);
    else if (which == 1) shmemx_fcollectmem_on_stream(tm, d, s, n, st);
    else shmemx_alltoallmem_on_stream(tm, d, s, n, st);
    GT_CUDA(cudaStreamSynchronize(st));
    break;
  default:
    if (which == 0) shmem_broadcastmem(tm, d, s, n, root);
    else if (which == 1) shmem_fcollectmem(tm, d, s, n);
    else shmem_alltoallmem(tm, d, s, n);
    break;
  }
}
static void test_move(const team_info &ti, char *sym_a, char *sym_b, char *priv)
{
  static const size_t sizes[] = {1, 13, 4096, 300001};
  static const char *what[3] = {"broadcast", "fcollect", "alltoall"};
  int world_me = shmem_my_pe(), np = ti.size;
  for (int which = 0; which < 3; which++)
    for (int scope = 0; scope < SC_COUNT; scope++)
      for (int si = 0; si < 4; si++)
        for (int v = 0; v < 2; v++) {   /* source: 0 symmetric, 1 private (cudaMalloc) */
          if ((si == 0 || si == 3) && v == 1) continue;   /* private sources: 13 and 4096 bytes */
          size_t n = sizes[si], total = which == 0 ? n : n * (size_t)np, nsrc = which == 2 ? total : n;
          int root = (si + v) % 2 ? np - 1 : 0;
          unsigned salt = (unsigned)(100 + which * 64 + scope * 16 + si * 2 + v);
          char *src = v ? priv : sym_a, *dest = sym_b;
          poison(dest, total);
          fill((unsigned char *)src, nsrc, world_me, salt, OP_xor);
          shmem_team_sync(ti.team);
          CASE("%s on %s, %s, %zu bytes, root %d, source %d", what[which], ti.name, scope_name[scope], n, root, v);
          run_move(scope, which, ti.team, dest, src, n, root);
          unsigned char *got = (unsigned char *)malloc(total);
          GT_CUDA(cudaMemcpy(got, dest, total, cudaMemcpyDeviceToHost));
          size_t bad = 0, first = 0;
          for (size_t i = 0; i < total; i++) {
            size_t blk = i / n, j = i % n;
            unsigned char want;
            if (which == 0) want = rval<unsigned char>(gt_seed, ti.start + root * ti.stride, i, salt, OP_xor);
            else if (which == 1) want = rval<unsigned char>(gt_seed, ti.start + (int)blk * ti.stride, j, salt, OP_xor);
            else want = rval<unsigned char>(gt_seed, ti.start + (int)blk * ti.stride, (size_t)ti.me * n + j, salt, OP_xor);
            if (got[i] != want && !bad++) first = i;
          }
          GT_CHECK(!bad, "%s on team %s, %s, %zu bytes, root %d, %s source: %zu bytes wrong (first at %zu)",
                   what[which], ti.name, scope_name[scope], n, root, v ? "private" : "symmetric", bad, first);
          free(got);
        }
}

static void test_team(const team_info &ti, char *a, char *b, char *p)
{
  RC_TEST(int, int, sum, 2);
  RC_TEST(double, double, sum, 1);
  RC_TEST(long long, longlong, prod, 0);
  RC_TEST(float, float, max, 0);
  RC_TEST(short, short, min, 0);
  RC_TEST(int8_t, int8, xor, 0);
  RC_TEST(uint16_t, uint16, and, 0);
  RC_TEST(uint64_t, uint64, or, 0);
  test_move(ti, a, b, p);
  test_scan(ti, a, b);
  shmem_team_sync(ti.team);
  if (ti.me == 0) printf("team %s (%d PEs): done\n", ti.name, ti.size);
}

int main(void)
{
  gt_init();
  int me = shmem_my_pe(), np = shmem_n_pes();
  verbose = getenv("GT_VERBOSE") && atoi(getenv("GT_VERBOSE")) > 0;
  GT_CUDA(cudaStreamCreate(&st));
  size_t cap = 4u << 20;   /* bytes: the largest case is 70001 x 8 x 4 PEs (reduce-scatter) */
  char *a = (char *)shmem_malloc(cap), *b = (char *)shmem_malloc(cap), *p = NULL;
  GT_CUDA(cudaMalloc((void **)&p, cap));
  int proxied = 0;
  for (int q = 0; q < np; q++) proxied += q != me && !shmem_ptr(a, q);
  if (me == 0) printf("PE 0: %d of %d peers behind the host proxy\n", proxied, np - 1);

  team_info world = {SHMEM_TEAM_WORLD, 0, 1, np, me, "world"};
  test_team(world, a, b, p);
  /* strided: 1, 3, ... (across "nodes" at SHOAL_PES_PER_NODE=2) */
  int start = np > 2 ? 1 : 0, stride = np > 2 ? 2 : 1, size = (np - start + stride - 1) / stride;
  shmem_team_t strided = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &strided);
  if (strided != SHMEM_TEAM_INVALID) {
    team_info ti = {strided, start, stride, size, shmem_team_my_pe(strided), "strided"};
    test_team(ti, a, b, p);
    shmem_team_destroy(strided);
  }
  shmem_barrier_all();
  GT_CUDA(cudaFree(p));
  shmem_free(b);
  shmem_free(a);
  GT_CUDA(cudaStreamDestroy(st));
  return gt_finish("test_rcoll");
}
