// C++ programs use the standard API (issue 11, item 8): the complex
// reductions take std::complex, which has the layout of C's _Complex, and
// shmem_sync(team) is an overload.  No Check here: exit status 1 on any
// wrong element.
#include <shmem.h>
#include <complex>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <ctime>

static uint64_t seed;

static uint64_t mix(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// Small fresh values (1..16 and -8..7) keep sums and products exact.
static double re(int pe, int i) { return (double)(mix(seed ^ ((uint64_t)pe << 32) ^ (uint64_t)i) % 16 + 1); }
static double im(int pe, int i) { return (double)(mix(seed ^ ((uint64_t)pe << 32) ^ (uint64_t)i ^ 0xabcull) % 16) - 8; }

static int failures;
#define CHECK(cond, ...) \
  do { if (!(cond)) { std::printf(__VA_ARGS__); std::printf("\n"); failures++; } } while (0)

template <typename T> static void check_reduce(int me, int np, const char *what)
{
  const int n = 5;
  T *src = static_cast<T *>(shmem_malloc(n * sizeof(T)));
  T *dst = static_cast<T *>(shmem_malloc(n * sizeof(T)));
  for (int i = 0; i < n; i++) src[i] = T(re(me, i), im(me, i));
  for (int op = 0; op < 2; op++) {
    for (int i = 0; i < n; i++) dst[i] = T(-1234.5, 999.0);   // poison
    shmem_barrier_all();
    int rc;
    if constexpr (sizeof(T) == sizeof(std::complex<double>))
      rc = op ? shmem_complexd_prod_reduce(SHMEM_TEAM_WORLD, dst, src, n)
              : shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, dst, src, n);
    else
      rc = op ? shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, dst, src, n)
              : shmem_complexf_sum_reduce(SHMEM_TEAM_WORLD, dst, src, n);
    CHECK(rc == 0, "%s %s: rc %d", what, op ? "prod" : "sum", rc);
    for (int i = 0; i < n; i++) {
      T want = T(re(0, i), im(0, i));
      for (int p = 1; p < np; p++) want = op ? want * T(re(p, i), im(p, i)) : want + T(re(p, i), im(p, i));
      CHECK(dst[i] == want, "%s %s: element %d is (%g, %g), want (%g, %g)", what, op ? "prod" : "sum", i,
            (double)dst[i].real(), (double)dst[i].imag(), (double)want.real(), (double)want.imag());
    }
  }
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
}

int main()
{
  shmem_init();
  static uint64_t s;
  if (shmem_my_pe() == 0) s = (uint64_t)std::time(nullptr) * 2654435761u;
  shmem_barrier_all();
  seed = shmem_uint64_g(&s, 0);
  int me = shmem_my_pe(), np = shmem_n_pes();
  check_reduce<std::complex<double>>(me, np, "complexd");
  check_reduce<std::complex<float>>(me, np, "complexf");
  CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0, "shmem_sync(team)");
  static long psync[SHMEM_BARRIER_SYNC_SIZE];
  shmem_sync(0, 0, np, psync);
  static int total;
  shmem_int_atomic_add(&total, failures, 0);
  shmem_barrier_all();
  int all = shmem_int_g(&total, 0);
  if (me == 0) std::printf("test_cxx: %s (seed %#llx)\n", all ? "FAILED" : "ok", (unsigned long long)seed);
  shmem_finalize();
  return all ? 1 : 0;
}
