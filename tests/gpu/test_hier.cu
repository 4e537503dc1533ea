/* The hierarchical all-reduce and reduce-scatter on GPU teams that span
 * "nodes" (issue 14 item 4): run at 4 PEs with SHOAL_PES_PER_NODE=2 (nodes
 * of 2 + 2) or 3 (3 + 1), a team with members behind the host proxy takes
 * collectives/hier.h (load/store inside the node, only the node leaders
 * through the proxy).  Reduce-scatter: the same types, sizes per member
 * and teams, out of place from a symmetric source (the one form it has).  Block scope and the host's blocking call on GPU
 * memory; types of every class and every operator class; sizes 1, 7, 1000
 * and 100001 (many pushbox chunks); out of place, in place and from a
 * private (cudaMalloc) source; teams: world, PEs 1..3 (unequal nodes at
 * either k) and the even PEs (flat: one member per node at k = 2, one
 * node at k = 3).  Fresh random data, poisoned outputs, every element
 * checked.  tests/gpu/run.sh runs it under SHMEM_DEBUG and checks that the
 * library said "all-reduce hierarchical" and "reduce-scatter hierarchical"
 * for the world team. */
#include "gpu_test.h"
#include <type_traits>

#define THREADS 256
#define POISON 0xA5

enum { OP_and, OP_or, OP_xor, OP_min, OP_max, OP_sum, OP_prod };

/* Element i of PE pe's data: small values for prod, integral values in
 * floating types (sums are exact in any order). */
template <class T> __host__ __device__ T hval(uint64_t seed, int pe, size_t i, unsigned salt, int op)
{
  uint64_t g = gt_val(seed, pe, i, salt);
  if (op == OP_prod) return (T)((g & 3) + 1);
  if (!std::is_integral<T>::value) return (T)((double)(g % 2001) - 1000.0);
  return (T)g;
}
template <class T> __global__ void k_fill(T *a, size_t n, uint64_t seed, int pe, unsigned salt, int op)
{
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    a[i] = hval<T>(seed, pe, i, salt, op);
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

#define H_REDUCE(T, N, OP) \
  __global__ void kb_##N##_##OP(shmem_team_t tm, T *d, const T *s, size_t n) \
  { \
    shmemx_##N##_##OP##_reduce_block(tm, d, s, n); \
  } \
  static void run_##N##_##OP(int host, shmem_team_t tm, T *d, const T *s, size_t n) \
  { \
    if (host) shmem_##N##_##OP##_reduce(tm, d, s, n); \
    else { \
      kb_##N##_##OP<<<1, THREADS>>>(tm, d, s, n); \
      GT_LAUNCHED(); \
    } \
  }
/* Reduce-scatter: a kernel's block call, or the host's blocking call. */
#define H_RS(T, N, OP) \
  __global__ void krs_##N##_##OP(shmem_team_t tm, T *d, const T *s, size_t n) \
  { \
    shmemx_##N##_##OP##_reduce_scatter_block(tm, d, s, n); \
  } \
  static void rs_##N##_##OP(int host, shmem_team_t tm, T *d, const T *s, size_t n) \
  { \
    if (host) shmemx_##N##_##OP##_reduce_scatter(tm, d, s, n); \
    else { \
      krs_##N##_##OP<<<1, THREADS>>>(tm, d, s, n); \
      GT_LAUNCHED(); \
    } \
  }
#define H_BOTH(T, N, OP) H_REDUCE(T, N, OP) H_RS(T, N, OP)
H_BOTH(int, int, sum)
H_BOTH(double, double, sum)
H_BOTH(long long, longlong, prod)
H_BOTH(float, float, max)
H_BOTH(short, short, min)
H_BOTH(int8_t, int8, xor)
H_BOTH(uint64_t, uint64, or)
H_BOTH(uint16_t, uint16, and)

struct team_info {
  shmem_team_t team;
  int start, stride, size, me;
  const char *name;
};

template <class T>
static void test_reduce(const char *name, int op, void (*run)(int, shmem_team_t, T *, const T *, size_t),
                        const team_info &ti, int big, char *sym_a, char *sym_b, char *priv)
{
  static const size_t sizes[] = {1, 7, 1000, 100001};
  T *A = (T *)sym_a, *B = (T *)sym_b, *P = (T *)priv;
  for (int host = 0; host < 2; host++)
    for (int si = 0; si < (big ? 4 : 3); si++)
      for (int v = 0; v < 3; v++) {   /* 0 out of place, 1 in place, 2 private source (block scope) */
        if (host && v == 2) continue;   /* the host's call takes symmetric buffers */
        size_t n = sizes[si];
        unsigned salt = (unsigned)(host * 64 + si * 4 + v);
        T *src = v == 2 ? P : A, *dest = v == 1 ? A : B;
        if (v != 1) {
          GT_CUDA(cudaMemset(dest, POISON, (n + 1) * sizeof(T)));
          GT_CUDA(cudaDeviceSynchronize());
        }
        k_fill<T><<<64, 256>>>(src, n, gt_seed, shmem_my_pe(), salt, op);
        GT_LAUNCHED();
        shmem_team_sync(ti.team);
        run(host, ti.team, dest, src, n);
        T *got = (T *)malloc((n + 1) * sizeof(T));
        GT_CUDA(cudaMemcpy(got, dest, (n + 1) * sizeof(T), cudaMemcpyDeviceToHost));
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < n; i++) {
          T want = hval<T>(gt_seed, ti.start, i, salt, op);
          for (int q = 1; q < ti.size; q++)
            want = hop<T>(op, want, hval<T>(gt_seed, ti.start + q * ti.stride, i, salt, op));
          if (memcmp(&want, &got[i], sizeof(T)) && !bad++) first = i;
        }
        GT_CHECK(!bad, "%s reduce on team %s, %s, %zu elements, variant %d: %zu wrong (first at %zu)", name,
                 ti.name, host ? "host" : "block", n, v, bad, first);
        if (v != 1) {
          unsigned char past[sizeof(T)], poison[sizeof(T)];
          memcpy(past, &got[n], sizeof(T));
          memset(poison, POISON, sizeof(T));
          GT_CHECK(!memcmp(past, poison, sizeof(T)), "%s on team %s: wrote past the end (%zu elements)", name,
                   ti.name, n);
        }
        free(got);
      }
}
/* Reduce-scatter: member me gets block me (n elements) of the reduction of
 * every member's source of team-size blocks (symmetric: sym_rs). */
template <class T>
static void test_rs(const char *name, int op, void (*run)(int, shmem_team_t, T *, const T *, size_t),
                    const team_info &ti, int big, char *sym_rs, char *sym_b)
{
  static const size_t sizes[] = {1, 7, 1000, 100001};
  T *S = (T *)sym_rs, *D = (T *)sym_b;
  for (int host = 0; host < 2; host++)
    for (int si = 0; si < (big ? 4 : 3); si++) {
      size_t n = sizes[si], all = n * (size_t)ti.size;
      unsigned salt = (unsigned)(200 + host * 64 + si);
      GT_CUDA(cudaMemset(D, POISON, (n + 1) * sizeof(T)));
      GT_CUDA(cudaDeviceSynchronize());
      k_fill<T><<<64, 256>>>(S, all, gt_seed, shmem_my_pe(), salt, op);
      GT_LAUNCHED();
      shmem_team_sync(ti.team);
      run(host, ti.team, D, S, n);
      T *got = (T *)malloc((n + 1) * sizeof(T));
      GT_CUDA(cudaMemcpy(got, D, (n + 1) * sizeof(T), cudaMemcpyDeviceToHost));
      size_t bad = 0, first = 0;
      for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)ti.me * n + i;
        T want = hval<T>(gt_seed, ti.start, k, salt, op);
        for (int q = 1; q < ti.size; q++) want = hop<T>(op, want, hval<T>(gt_seed, ti.start + q * ti.stride, k, salt, op));
        if (memcmp(&want, &got[i], sizeof(T)) && !bad++) first = i;
      }
      GT_CHECK(!bad, "%s reduce_scatter on team %s, %s, %zu elements: %zu wrong (first at %zu)", name, ti.name,
               host ? "host" : "block", n, bad, first);
      unsigned char past[sizeof(T)], poison[sizeof(T)];
      memcpy(past, &got[n], sizeof(T));
      memset(poison, POISON, sizeof(T));
      GT_CHECK(!memcmp(past, poison, sizeof(T)), "%s reduce_scatter on team %s: wrote past the end (%zu elements)",
               name, ti.name, n);
      free(got);
      shmem_team_sync(ti.team);   /* nobody refills its source while its leader reads it */
    }
}
#define H_TEST(T, N, OP, BIG) \
  test_reduce<T>(#N "_" #OP, OP_##OP, run_##N##_##OP, ti, BIG, a, b, p); \
  test_rs<T>(#N "_" #OP, OP_##OP, rs_##N##_##OP, ti, BIG, rs, b)

static void test_team(const team_info &ti, char *a, char *b, char *p, char *rs)
{
  H_TEST(int, int, sum, 1);
  H_TEST(double, double, sum, 1);
  H_TEST(long long, longlong, prod, 0);
  H_TEST(float, float, max, 0);
  H_TEST(short, short, min, 0);
  H_TEST(int8_t, int8, xor, 0);
  H_TEST(uint64_t, uint64, or, 1);
  H_TEST(uint16_t, uint16, and, 0);
  shmem_team_sync(ti.team);
  if (ti.me == 0) printf("team %s (%d PEs): done\n", ti.name, ti.size);
}

int main(void)
{
  gt_init();
  int me = shmem_my_pe(), np = shmem_n_pes();
  size_t cap = 1u << 20;   /* bytes: 100001 x 8 + one */
  char *a = (char *)shmem_malloc(cap), *b = (char *)shmem_malloc(cap), *p = NULL;
  GT_CUDA(cudaMalloc((void **)&p, cap));
  char *rs = (char *)shmem_malloc(cap * (size_t)np);   /* reduce-scatter sources: np blocks */
  team_info world = {SHMEM_TEAM_WORLD, 0, 1, np, me, "world"};
  test_team(world, a, b, p, rs);
  shmem_team_t tail = SHMEM_TEAM_INVALID, even = SHMEM_TEAM_INVALID;
  if (np > 2) shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, np - 1, NULL, 0, &tail);
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (np + 1) / 2, NULL, 0, &even);
  if (tail != SHMEM_TEAM_INVALID) {
    team_info ti = {tail, 1, 1, np - 1, shmem_team_my_pe(tail), "PEs 1.."};
    test_team(ti, a, b, p, rs);
    shmem_team_destroy(tail);
  }
  if (even != SHMEM_TEAM_INVALID) {
    team_info ti = {even, 0, 2, (np + 1) / 2, shmem_team_my_pe(even), "even PEs"};
    test_team(ti, a, b, p, rs);
    shmem_team_destroy(even);
  }
  shmem_barrier_all();
  GT_CUDA(cudaFree(p));
  shmem_free(rs);
  shmem_free(b);
  shmem_free(a);
  return gt_finish("test_hier");
}
