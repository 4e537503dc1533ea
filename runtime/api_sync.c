/* Ordering (fence, quiet) and point-to-point synchronization (wait_until,
 * test and their _all/_any/_some/_vector forms), generated from the sync
 * type table over device/wait.h. */
#include "internal.h"
#include "../device/remote.h"
#include "../device/wait.h"

#include <stdlib.h>

void shmem_ctx_fence(shmem_ctx_t ctx)
{
  SHOAL_REQUIRE_INIT("shmem_ctx_fence");
  if (ctx == SHMEM_CTX_INVALID) return;   /* 1.5: no operation is performed */
  shoal_fence_system();
  shoal_remote_fence(ctx);
}

void shmem_ctx_quiet(shmem_ctx_t ctx)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_ctx_quiet");
  if (ctx == SHMEM_CTX_INVALID) return;   /* 1.5: no operation is performed */
  shoal_dev_quiet(ctx);
}

void shmem_fence(void) { shmem_ctx_fence(SHMEM_CTX_DEFAULT); }
void shmem_quiet(void) { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }

static inline void check_cmp(const char *call, int cmp)
{
  if (SHOAL_UNLIKELY(cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE))
    shoal_error(call, "argument 'cmp' = %d is not a SHMEM_CMP_* constant", cmp);
}

static inline void check_ivars(const char *call, const void *ivars, size_t n, size_t es)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  SHOAL_CHECK_COUNT(call, "nelems", n);
  if (n) SHOAL_CHECK_SYM(call, "ivars", ivars, n * es);
}

/* The single-variable forms call their argument ivar. */
static inline void check_ivar(const char *call, const void *ivar, size_t es)
{
  SHOAL_REQUIRE_INIT_WAIT(call);
  SHOAL_CHECK_SYM(call, "ivar", ivar, es);
}

/* Where the next _any call on ivars starts: one past the index the last
 * call returned, so that a loop over test_any services every satisfied
 * variable (1.5: a series of calls must eventually return each).  State
 * per thread and per ivars address, in a small table; a collision only
 * restarts that array's rotation at 0. */
#define ANY_SLOTS 64
static _Thread_local struct { const void *ivars; size_t next; } any_state[ANY_SLOTS];
static inline size_t *any_next(const void *ivars, size_t n)
{
  size_t h = (size_t)(((uint64_t)(uintptr_t)ivars >> 3) * 0x9E3779B97F4A7C15ull >> 58);
  if (any_state[h].ivars != ivars || any_state[h].next >= n) {
    any_state[h].ivars = ivars;
    any_state[h].next = 0;
  }
  return &any_state[h].next;
}
#ifdef SHOAL_HAVE_GPU
/* The host cannot load GPU memory: a wait or test on the GPU heap polls a
 * host copy of the variables and runs the same scan on it.  mode: 0 all
 * (returns 1/0), 1 any (first index), 2 some (count). */
#define SHOAL_GPU_POLL(T, N) \
  static size_t N##_gpu_poll(const char *call, const T *ivars, size_t n, const int *status, int cmp, \
                             const T *vals, T v, size_t *idx, int mode, bool block) { \
    T one, *copy = n == 1 ? &one : malloc(n * sizeof(T)); \
    if (!copy) shoal_error(call, "out of memory"); \
    shoal_backoff b = SHOAL_BACKOFF_INIT; \
    for (;;) { \
      shoal_gpu_copy(call, copy, ivars, n * sizeof(T)); \
      size_t first, active, hits; \
      if (mode == 1) {   /* rotating, as on host memory */ \
        size_t *next = any_next(ivars, n); \
        first = shoal_dev_##N##_scan_from(copy, n, status, cmp, vals, v, *next, &active); \
        hits = first != SIZE_MAX; \
        if (hits) *next = first + 1 < n ? first + 1 : 0; \
      } else \
        hits = shoal_dev_##N##_scan(copy, n, status, cmp, vals, v, idx, &first, &active); \
      size_t r = mode == 0 ? hits == active : mode == 1 ? first : hits; \
      bool done = mode == 0 ? hits == active : mode == 1 ? (first != SIZE_MAX || active == 0) \
                                                         : (hits > 0 || active == 0); \
      if (done || !block) { if (copy != &one) free(copy); return r; } \
      shoal_backoff_wait(&b); \
    } \
  }
SHOAL_SYNC_TYPES(SHOAL_GPU_POLL)
#define GPU_ROUTE(N, IV, CNT, ST, CMP, VALS, V, IDX, MODE, BLOCK) \
  if (shoal_gpu_owns(IV, (CNT) * sizeof *(IV))) \
    return N##_gpu_poll(__func__, IV, CNT, ST, CMP, VALS, V, IDX, MODE, BLOCK);
#define GPU_ROUTE_V(N, IV, CNT, ST, CMP, VALS, V, IDX, MODE, BLOCK) \
  if (shoal_gpu_owns(IV, (CNT) * sizeof *(IV))) { \
    (void)N##_gpu_poll(__func__, IV, CNT, ST, CMP, VALS, V, IDX, MODE, BLOCK); return; }
#else
#define GPU_ROUTE_V(N, IV, CNT, ST, CMP, VALS, V, IDX, MODE, BLOCK)
#define GPU_ROUTE(N, IV, CNT, ST, CMP, VALS, V, IDX, MODE, BLOCK)
#endif

#define SHOAL_SYNC_ANY(T, N) \
  static size_t N##_any(const T *ivars, size_t n, const int *status, int cmp, const T *vals, T v, \
                        bool block) { \
    size_t *next = any_next(ivars, n), active; \
    shoal_backoff b = SHOAL_BACKOFF_INIT; \
    for (;;) { \
      size_t i = shoal_dev_##N##_scan_from(ivars, n, status, cmp, vals, v, *next, &active); \
      if (i != SIZE_MAX) { *next = i + 1 < n ? i + 1 : 0; return i; } \
      if (!block || active == 0) return SIZE_MAX; \
      shoal_wait_progress(); \
      shoal_backoff_wait(&b); \
    } \
  }
SHOAL_SYNC_TYPES(SHOAL_SYNC_ANY)

#define SHOAL_SYNC_API(T, N) \
  void shmem_##N##_wait_until(T *ivar, int cmp, T v) { \
    check_ivar("shmem_" #N "_wait_until", ivar, sizeof(T)); \
    check_cmp("shmem_" #N "_wait_until", cmp); \
    GPU_ROUTE_V(N, ivar, 1, NULL, cmp, NULL, v, NULL, 0, true) \
    shoal_dev_##N##_wait_until(ivar, cmp, v); \
  } \
  void shmem_##N##_wait(T *ivar, T v) { \
    check_ivar("shmem_" #N "_wait", ivar, sizeof(T)); \
    GPU_ROUTE_V(N, ivar, 1, NULL, SHMEM_CMP_NE, NULL, v, NULL, 0, true) \
    shoal_dev_##N##_wait_until(ivar, SHMEM_CMP_NE, v); \
  } \
  int shmem_##N##_test(T *ivar, int cmp, T v) { \
    check_ivar("shmem_" #N "_test", ivar, sizeof(T)); \
    check_cmp("shmem_" #N "_test", cmp); \
    shoal_wait_progress(); \
    GPU_ROUTE(N, ivar, 1, NULL, cmp, NULL, v, NULL, 0, false) \
    return shoal_dev_##N##_test(ivar, cmp, v); \
  } \
  void shmem_##N##_wait_until_all(T *ivars, size_t n, const int *status, int cmp, T v) { \
    check_ivars("shmem_" #N "_wait_until_all", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_wait_until_all", cmp); \
    GPU_ROUTE_V(N, ivars, n, status, cmp, NULL, v, NULL, 0, true) \
    shoal_dev_##N##_wait_until_all(ivars, n, status, cmp, NULL, v); \
  } \
  size_t shmem_##N##_wait_until_any(T *ivars, size_t n, const int *status, int cmp, T v) { \
    check_ivars("shmem_" #N "_wait_until_any", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_wait_until_any", cmp); \
    GPU_ROUTE(N, ivars, n, status, cmp, NULL, v, NULL, 1, true) \
    return N##_any(ivars, n, status, cmp, NULL, v, true); \
  } \
  size_t shmem_##N##_wait_until_some(T *ivars, size_t n, size_t *idx, const int *status, int cmp, \
                                     T v) { \
    check_ivars("shmem_" #N "_wait_until_some", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_wait_until_some", cmp); \
    GPU_ROUTE(N, ivars, n, status, cmp, NULL, v, idx, 2, true) \
    return shoal_dev_##N##_wait_until_some(ivars, n, idx, status, cmp, NULL, v); \
  } \
  void shmem_##N##_wait_until_all_vector(T *ivars, size_t n, const int *status, int cmp, T *vals) { \
    check_ivars("shmem_" #N "_wait_until_all_vector", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_wait_until_all_vector", cmp); \
    GPU_ROUTE_V(N, ivars, n, status, cmp, vals, 0, NULL, 0, true) \
    shoal_dev_##N##_wait_until_all(ivars, n, status, cmp, vals, 0); \
  } \
  size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t n, const int *status, int cmp, \
                                           T *vals) { \
    check_ivars("shmem_" #N "_wait_until_any_vector", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_wait_until_any_vector", cmp); \
    GPU_ROUTE(N, ivars, n, status, cmp, vals, 0, NULL, 1, true) \
    return N##_any(ivars, n, status, cmp, vals, 0, true); \
  } \
  size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t n, size_t *idx, const int *status, \
                                            int cmp, T *vals) { \
    check_ivars("shmem_" #N "_wait_until_some_vector", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_wait_until_some_vector", cmp); \
    GPU_ROUTE(N, ivars, n, status, cmp, vals, 0, idx, 2, true) \
    return shoal_dev_##N##_wait_until_some(ivars, n, idx, status, cmp, vals, 0); \
  } \
  int shmem_##N##_test_all(T *ivars, size_t n, const int *status, int cmp, T v) { \
    check_ivars("shmem_" #N "_test_all", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_test_all", cmp); \
    shoal_wait_progress(); \
    GPU_ROUTE(N, ivars, n, status, cmp, NULL, v, NULL, 0, false) \
    return shoal_dev_##N##_test_all(ivars, n, status, cmp, NULL, v); \
  } \
  size_t shmem_##N##_test_any(T *ivars, size_t n, const int *status, int cmp, T v) { \
    check_ivars("shmem_" #N "_test_any", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_test_any", cmp); \
    shoal_wait_progress(); \
    GPU_ROUTE(N, ivars, n, status, cmp, NULL, v, NULL, 1, false) \
    return N##_any(ivars, n, status, cmp, NULL, v, false); \
  } \
  size_t shmem_##N##_test_some(T *ivars, size_t n, size_t *idx, const int *status, int cmp, T v) { \
    check_ivars("shmem_" #N "_test_some", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_test_some", cmp); \
    shoal_wait_progress(); \
    GPU_ROUTE(N, ivars, n, status, cmp, NULL, v, idx, 2, false) \
    return shoal_dev_##N##_test_some(ivars, n, idx, status, cmp, NULL, v); \
  } \
  int shmem_##N##_test_all_vector(T *ivars, size_t n, const int *status, int cmp, T *vals) { \
    check_ivars("shmem_" #N "_test_all_vector", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_test_all_vector", cmp); \
    shoal_wait_progress(); \
    GPU_ROUTE(N, ivars, n, status, cmp, vals, 0, NULL, 0, false) \
    return shoal_dev_##N##_test_all(ivars, n, status, cmp, vals, 0); \
  } \
  size_t shmem_##N##_test_any_vector(T *ivars, size_t n, const int *status, int cmp, T *vals) { \
    check_ivars("shmem_" #N "_test_any_vector", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_test_any_vector", cmp); \
    shoal_wait_progress(); \
    GPU_ROUTE(N, ivars, n, status, cmp, vals, 0, NULL, 1, false) \
    return N##_any(ivars, n, status, cmp, vals, 0, false); \
  } \
  size_t shmem_##N##_test_some_vector(T *ivars, size_t n, size_t *idx, const int *status, int cmp, \
                                      T *vals) { \
    check_ivars("shmem_" #N "_test_some_vector", ivars, n, sizeof(T)); \
    check_cmp("shmem_" #N "_test_some_vector", cmp); \
    shoal_wait_progress(); \
    GPU_ROUTE(N, ivars, n, status, cmp, vals, 0, idx, 2, false) \
    return shoal_dev_##N##_test_some(ivars, n, idx, status, cmp, vals, 0); \
  }
SHOAL_SYNC_TYPES(SHOAL_SYNC_API)

void shmem_wait(long *ivar, long v) { shmem_long_wait(ivar, v); }
/* Parenthesized: <shoal/generic.h> makes shmem_wait_until a macro. */
void (shmem_wait_until)(long *ivar, int cmp, long v) { shmem_long_wait_until(ivar, cmp, v); }

uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t v)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_signal_wait_until");
  SHOAL_CHECK_SYM("shmem_signal_wait_until", "sig_addr", sig_addr, sizeof *sig_addr);
  check_cmp("shmem_signal_wait_until", cmp);
#ifdef SHOAL_HAVE_GPU
  if (shoal_gpu_owns(sig_addr, sizeof *sig_addr)) {
    uint64_t now;
    (void)uint64_gpu_poll("shmem_signal_wait_until", sig_addr, 1, NULL, cmp, NULL, v, NULL, 0, true);
    shoal_gpu_copy("shmem_signal_wait_until", &now, sig_addr, sizeof now);
    return now;
  }
#endif
  shoal_dev_uint64_wait_until(sig_addr, cmp, v);
  return shoal_load_acquire(sig_addr);
}
