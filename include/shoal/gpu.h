/* The OpenSHMEM API in GPU translation units (nvcc .cu, hipcc .hip/.cpp),
 * included at the end of <shmem.h>.
 *
 * Every point-to-point name (put, get, p, g, iput, iget, put_signal, every
 * AMO, fence, quiet, wait_until, test, ...) is a static inline
 * __host__ __device__ function: in kernels it runs the device/ code on the
 * GPU heap of any mapped peer; on the host it calls the library (symmetric
 * GPU memory is reached there with the GPU runtime: copies for put/get, a
 * one-thread kernel for AMOs).  The cooperative and collective extensions
 * (shmemx_*_warp, *_block, *_on_stream) are in <shoal/gpu_x.h>.
 * `man shoal_gpu` explains the model. */
#ifndef SHOAL_GPU_H
#define SHOAL_GPU_H

#include <type_traits>
/* Installed as <shoal/device/...>; a build tree provides the same layout
 * (tests/gpu/run.sh makes it under its output directory). */
#include <shoal/device/signal.h>
#include <shoal/device/wait.h>
#include <shoal/collectives/barrier.h>

#undef shmem_my_pe
#undef shmem_n_pes
#undef shmem_ptr
#undef shmem_team_my_pe
#undef shmem_team_n_pes
#undef shmem_team_translate_pe

/* ---- library entry points for GPU translation units ---------------------- */
extern "C" {
/* Is addr inside this PE's symmetric GPU heap? */
int shoalx_gpu_heap_has(const void *addr);
/* addr on PE pe as this PE's GPU can address it, or NULL. */
void *shoalx_gpu_peer_ptr(const void *addr, int pe);
/* Bytes per pushbox slot that the kernels' LL collectives have on team (0:
 * none: no pushbox, or a member behind the host proxy). */
size_t shoalx_gpu_team_ll_slot(shmem_team_t team);
/* The most slots of its ring one LL call may take (0: no LL). */
size_t shoalx_gpu_team_ll_span(shmem_team_t team);
/* 1 where some GPU of the job runs two or more PEs (MPS), else 0: the
 * _on_stream LL bound differs (collectives/reduce_select.h). */
int shoalx_gpu_shared(void);
/* Copies team's record as the kernels hold it to *rec and returns 1; 0
 * for a team the kernels do not know (or of which this PE is no member). */
int shoalx_gpu_team_record(shmem_team_t team, shoal_team *rec);
/* Fills *plan for an _on_stream grid push on team into dest and returns 1;
 * 0 where the kernel must look them up itself (an unknown team, more than
 * SHOAL_GPU_PLAN_PEERS members, a member not mapped, dest not in the GPU
 * heap). */
int shoalx_gpu_team_plan(shmem_team_t team, void *dest, shoal_gpu_plan *plan);
}

#if SHOAL_IN_DEVICE_PASS
#define SHOAL_GPU_PICK(DEV, HOST) DEV
#else
#define SHOAL_GPU_PICK(DEV, HOST) HOST
#endif

/* RET shmem_NAME PARAMS: DEV in kernels, HOST on the CPU (both expressions).
 * shoalh_NAME is the library's shmem_NAME under another C name.  Each is a
 * template (called without <>) so that a unit compiles only the functions
 * and helper kernels it uses. */
#define SHOAL_GPU_DEF(RET, NAME, PARAMS, DEV, HOST) \
  extern "C" RET shoalh_##NAME PARAMS __asm__("shmem_" #NAME); \
  template <class shoal_unused = void> \
  static inline __host__ __device__ RET shmem_##NAME PARAMS { return SHOAL_GPU_PICK(DEV, HOST); }

/* ---- device helpers ------------------------------------------------------ */
template <class T> __host__ __device__ inline T shoal_gpu_zero(void) { return T(); }
/* Loads and stores of one element that are never served from a stale L1
 * line (another GPU may have written the peer's memory). */
template <class T> __device__ inline T shoal_gpu_vload(const T *p)
{
  T v;
  if (sizeof(T) == 8) { uint64_t x = *(const volatile uint64_t *)p; memcpy(&v, &x, 8); }
  else if (sizeof(T) == 4) { uint32_t x = *(const volatile uint32_t *)p; memcpy(&v, &x, 4); }
  else if (sizeof(T) == 2) { uint16_t x = *(const volatile uint16_t *)p; memcpy(&v, &x, 2); }
  else if (sizeof(T) == 1) { uint8_t x = *(const volatile uint8_t *)p; memcpy(&v, &x, 1); }
  else { for (size_t i = 0; i < sizeof(T); i++) ((char *)&v)[i] = ((const volatile char *)p)[i]; }
  return v;
}
template <class T> __device__ inline void shoal_gpu_p(T *dest, T v, int pe)
{
  T *r = (T *)shoal_dev_ptr(dest, pe);
  if (SHOAL_UNLIKELY(!r)) shoal_remote_put(SHOAL_DEV_CTX, dest, &v, sizeof v, pe);   /* host proxy */
  else *r = v;
}
template <class T> __device__ inline T shoal_gpu_g(const T *src, int pe)
{
  const T *r = (const T *)shoal_dev_ptr(src, pe);
  if (SHOAL_UNLIKELY(!r)) {   /* host proxy */
    T v = shoal_gpu_zero<T>();
    shoal_remote_get(SHOAL_DEV_CTX, &v, src, sizeof v, pe);
    return v;
  }
  return shoal_gpu_vload(r);
}

/* The device copy of a team, from its host handle (NULL: unknown team). */
__device__ inline shoal_team *shoal_gpu_team(shmem_team_t team)
{
  int n = shoal_dgpu.n_slots;
  for (int i = 0; i < n; i++)
    if (shoal_dgpu.team_key[i] == (const void *)team) return &shoal_dgpu.team_dev[i];
  return (shoal_team *)0;
}
SHOAL_COLD_FN void shoal_gpu_team_fail(const char *call, shmem_team_t team)
{
  printf("shoal: PE %d: error: %s: argument 'team' = %p is not a live team in kernels "
         "(destroyed, never created, or SHMEM_TEAM_INVALID), or this PE is not a member "
         "(teams made with shmem_team_split_* are known to kernels after the split returns)\n",
         SHOAL_STATE->my_pe, call, (const void *)team);
  shoal_gpu_trap();
}
__device__ inline shoal_team *shoal_gpu_team_or_fail(const char *call, shmem_team_t team)
{
  shoal_team *t = shoal_gpu_team(team);
  if (SHOAL_UNLIKELY(!t || t->my_pe < 0)) shoal_gpu_team_fail(call, team);
  return t;
}

/* ---- host helpers -------------------------------------------------------- */
#if defined(__CUDACC__)
#define SHOAL_GPURT(x) cuda##x
typedef cudaStream_t shoal_gpu_stream_t;
#else
#define SHOAL_GPURT(x) hip##x
typedef hipStream_t shoal_gpu_stream_t;
#endif

static inline void shoal_gpu_hcheck(const char *call, SHOAL_GPURT(Error_t) e)
{
  if (e != SHOAL_GPURT(Success)) {
    /* A trapped kernel (the wait watchdog, a device-side check) printed
     * why; end the job cleanly, with a failure status. */
    bool trapped = e == SHOAL_GPURT(ErrorLaunchFailure) || e == SHOAL_GPURT(ErrorAssert);
#if defined(__CUDACC__)
    trapped = trapped || e == cudaErrorIllegalInstruction;
#endif
    fprintf(stderr, "shoal: PE %d: error: %s: %s%s\n", shoalh_my_pe(), call,
            SHOAL_GPURT(GetErrorString)(e),
            trapped ? ": a kernel of this PE stopped; its message is above (wait watchdog: "
                      "SHOAL_WAIT_TIMEOUT; or a device-side argument check)" : "");
    fflush(stderr);
    shmem_global_exit(1);
  }
}

/* Host-side work on GPU memory runs on this unit's own non-blocking
 * stream, so it never queues behind a kernel that may be waiting for it. */
static inline shoal_gpu_stream_t shoal_gpu_hstream(const char *call)
{
  static shoal_gpu_stream_t s;
  if (!s) shoal_gpu_hcheck(call, SHOAL_GPURT(StreamCreateWithFlags)(&s, SHOAL_GPURT(StreamNonBlocking)));
  return s;
}

/* ---- setup and query ----------------------------------------------------- */
static inline __host__ __device__ int shmem_my_pe(void)
{ return SHOAL_GPU_PICK(SHOAL_STATE->my_pe, shoalh_my_pe()); }
static inline __host__ __device__ int shmem_n_pes(void)
{ return SHOAL_GPU_PICK(SHOAL_STATE->n_pes, shoalh_n_pes()); }
/* On the host (the library), a GPU heap address gives the peer's device
 * address (for copies and kernels), not a host-dereferenceable one. */
static inline __host__ __device__ void *shmem_ptr(const void *dest, int pe)
{
  return SHOAL_GPU_PICK(((unsigned)pe < (unsigned)SHOAL_STATE->n_pes ? shoal_dev_ptr(dest, pe) : (void *)0),
                        shoalh_ptr(dest, pe));
}

/* Predefined teams and the default context: host handles, which kernels
 * look up in their team table. */
static inline __host__ __device__ shmem_team_t shoal_gpu_team_world(void)
{ return SHOAL_GPU_PICK((shmem_team_t)shoal_dgpu.team_key[0], shoalh_team_world); }
static inline __host__ __device__ shmem_team_t shoal_gpu_team_shared(void)
{ return SHOAL_GPU_PICK((shmem_team_t)shoal_dgpu.team_key[1], shoalh_team_shared); }
static inline __host__ __device__ shmem_ctx_t shoal_gpu_ctx_default(void)
{ return SHOAL_GPU_PICK((shmem_ctx_t)0, shoalh_ctx_default); }
#define SHMEM_TEAM_WORLD (shoal_gpu_team_world())
#define SHMEM_TEAM_SHARED (shoal_gpu_team_shared())
#define SHMEM_CTX_DEFAULT (shoal_gpu_ctx_default())

static inline __host__ __device__ int shmem_team_my_pe(shmem_team_t team)
{
  return SHOAL_GPU_PICK((shoal_gpu_team(team) ? shoal_gpu_team(team)->my_pe : -1),
                        shoalh_team_my_pe(team));
}
static inline __host__ __device__ int shmem_team_n_pes(shmem_team_t team)
{
  return SHOAL_GPU_PICK((shoal_gpu_team(team) ? shoal_gpu_team(team)->size : -1),
                        shoalh_team_n_pes(team));
}
#if SHOAL_IN_DEVICE_PASS
__device__ inline int shoal_gpu_translate(shmem_team_t src, int src_pe, shmem_team_t dst)
{
  shoal_team *s = shoal_gpu_team(src), *d = shoal_gpu_team(dst);
  if (!s || !d || src_pe < 0 || src_pe >= s->size) return -1;
  return shoal_team_index_of(d, shoal_team_world_pe(s, src_pe));
}
#endif
static inline __host__ __device__ int shmem_team_translate_pe(shmem_team_t src_team, int src_pe,
                                                              shmem_team_t dest_team)
{
  return SHOAL_GPU_PICK(shoal_gpu_translate(src_team, src_pe, dest_team),
                        shoalh_team_translate_pe(src_team, src_pe, dest_team));
}
/* Team creation (shmem_team_split_*, shmem_team_destroy) is host-only: the
 * library enters a new team in the kernels' team table before the split
 * returns. */

/* ---- RMA ----------------------------------------------------------------- */
/* RET shmem_NAME PARAMS: DEV in kernels, the library's shmem_NAME ARGS on
 * the host, plus its ctx_ form. */
#define SHOAL_GPU_FN(RET, NAME, PARAMS, ARGS, DEV) SHOAL_GPU_DEF(RET, NAME, PARAMS, DEV, (shoalh_##NAME ARGS))
#define SHOAL_GPU_FN2(RET, NAME, PARAMS, ARGS, DEV) \
  SHOAL_GPU_FN(RET, NAME, PARAMS, ARGS, DEV) \
  SHOAL_GPU_FN(RET, ctx_##NAME, (shmem_ctx_t c, SHOAL_GPU_UNPAREN PARAMS), (c, SHOAL_GPU_UNPAREN ARGS), DEV)
#define SHOAL_GPU_UNPAREN(...) __VA_ARGS__

/* ES is the element size. */
#define SHOAL_GPU_XFER(T, NAME, ES, DEVFN) \
  SHOAL_GPU_FN2(void, NAME, (T *d, const T *s, size_t n, int pe), (d, s, n, pe), \
                (DEVFN(SHOAL_DEV_CTX, d, s, n * (ES), pe)))
#define SHOAL_GPU_STRIDED(T, NAME, ES, DEVFN) \
  SHOAL_GPU_FN2(void, NAME, (T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe), \
                (d, s, dst, sst, n, pe), (DEVFN(SHOAL_DEV_CTX, d, s, dst, sst, n, ES, pe)))
#define SHOAL_GPU_SIGNAL(T, NAME, ES) \
  SHOAL_GPU_FN2(void, NAME, (T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe), \
                (d, s, n, sig, v, op, pe), (shoal_dev_put_signal(SHOAL_DEV_CTX, d, s, n * (ES), sig, v, op, pe)))

#define SHOAL_GPU_RMA_TYPED(T, N) \
  SHOAL_GPU_XFER(T, N##_put, sizeof(T), shoal_dev_putmem) \
  SHOAL_GPU_XFER(T, N##_get, sizeof(T), shoal_dev_getmem) \
  SHOAL_GPU_XFER(T, N##_put_nbi, sizeof(T), shoal_dev_putmem) \
  SHOAL_GPU_XFER(T, N##_get_nbi, sizeof(T), shoal_dev_getmem) \
  SHOAL_GPU_STRIDED(T, N##_iput, sizeof(T), shoal_dev_iput) \
  SHOAL_GPU_STRIDED(T, N##_iget, sizeof(T), shoal_dev_iget) \
  SHOAL_GPU_SIGNAL(T, N##_put_signal, sizeof(T)) \
  SHOAL_GPU_SIGNAL(T, N##_put_signal_nbi, sizeof(T)) \
  SHOAL_GPU_FN2(void, N##_p, (T *d, T v, int pe), (d, v, pe), (shoal_gpu_p(d, v, pe))) \
  SHOAL_GPU_FN2(T, N##_g, (const T *s, int pe), (s, pe), (shoal_gpu_g(s, pe)))
/* long double's typed RMA stays host-only in GPU units (<shmem.h>). */
SHOAL_RMA_DEVICE_TYPES(SHOAL_GPU_RMA_TYPED)

#define SHOAL_GPU_RMA_SIZED(BITS, BYTES) \
  SHOAL_GPU_XFER(void, put##BITS, BYTES, shoal_dev_putmem) \
  SHOAL_GPU_XFER(void, get##BITS, BYTES, shoal_dev_getmem) \
  SHOAL_GPU_XFER(void, put##BITS##_nbi, BYTES, shoal_dev_putmem) \
  SHOAL_GPU_XFER(void, get##BITS##_nbi, BYTES, shoal_dev_getmem) \
  SHOAL_GPU_STRIDED(void, iput##BITS, BYTES, shoal_dev_iput) \
  SHOAL_GPU_STRIDED(void, iget##BITS, BYTES, shoal_dev_iget) \
  SHOAL_GPU_SIGNAL(void, put_signal##BITS, BYTES) \
  SHOAL_GPU_SIGNAL(void, put_signal##BITS##_nbi, BYTES)
SHOAL_SIZED_RMA(SHOAL_GPU_RMA_SIZED)

SHOAL_GPU_XFER(void, putmem, 1, shoal_dev_putmem)
SHOAL_GPU_XFER(void, getmem, 1, shoal_dev_getmem)
SHOAL_GPU_XFER(void, putmem_nbi, 1, shoal_dev_putmem)
SHOAL_GPU_XFER(void, getmem_nbi, 1, shoal_dev_getmem)
SHOAL_GPU_SIGNAL(void, putmem_signal, 1)
SHOAL_GPU_SIGNAL(void, putmem_signal_nbi, 1)

SHOAL_GPU_FN(uint64_t, signal_fetch, (const uint64_t *sig), (sig), (shoal_load_acquire(sig)))
#if SHOAL_IN_DEVICE_PASS
__device__ inline uint64_t shoal_gpu_signal_wait(uint64_t *sig, int cmp, uint64_t v)
{
  shoal_dev_uint64_wait_until(sig, cmp, v);
  return shoal_load_acquire(sig);
}
#endif
SHOAL_GPU_FN(uint64_t, signal_wait_until, (uint64_t *sig, int cmp, uint64_t v), (sig, cmp, v),
             (shoal_gpu_signal_wait(sig, cmp, v)))

/* ---- AMOs ---------------------------------------------------------------- */
/* Blocking, ctx and fetching _nbi forms of one operation. */
#define SHOAL_GPU_AMO_FETCHING(T, N, OP, PARAMS, ARGS, DEV) \
  SHOAL_GPU_FN2(T, N##_atomic_##OP, PARAMS, ARGS, DEV) \
  SHOAL_GPU_FN2(void, N##_atomic_##OP##_nbi, (T *f, SHOAL_GPU_UNPAREN PARAMS), (f, SHOAL_GPU_UNPAREN ARGS), \
                ((void)(*f = DEV)))
#define SHOAL_GPU_AMO_EXT(T, N) \
  SHOAL_GPU_AMO_FETCHING(T, N, fetch, (const T *s, int pe), (s, pe), (shoal_dev_##N##_fetch(SHOAL_DEV_CTX, s, pe))) \
  SHOAL_GPU_AMO_FETCHING(T, N, swap, (T *d, T v, int pe), (d, v, pe), \
                         (shoal_dev_##N##_swap(SHOAL_DEV_CTX, d, v, pe))) \
  SHOAL_GPU_FN2(void, N##_atomic_set, (T *d, T v, int pe), (d, v, pe), (shoal_dev_##N##_set(SHOAL_DEV_CTX, d, v, pe)))
/* fetch-OP with its _nbi form, and the non-fetching OP. */
#define SHOAL_GPU_AMO_RMW(T, N, OPN, DEVOP) \
  SHOAL_GPU_AMO_FETCHING(T, N, fetch_##OPN, (T *d, T v, int pe), (d, v, pe), \
                         (shoal_dev_##N##_##DEVOP(SHOAL_DEV_CTX, d, v, pe))) \
  SHOAL_GPU_FN2(void, N##_atomic_##OPN, (T *d, T v, int pe), (d, v, pe), \
                ((void)shoal_dev_##N##_##DEVOP(SHOAL_DEV_CTX, d, v, pe)))
#define SHOAL_GPU_AMO_STD(T, N) \
  SHOAL_GPU_AMO_RMW(T, N, add, fetch_add) \
  SHOAL_GPU_AMO_FETCHING(T, N, compare_swap, (T *d, T cond, T v, int pe), (d, cond, v, pe), \
                         (shoal_dev_##N##_compare_swap(SHOAL_DEV_CTX, d, cond, v, pe))) \
  SHOAL_GPU_AMO_FETCHING(T, N, fetch_inc, (T *d, int pe), (d, pe), \
                         (shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, (T)1, pe))) \
  SHOAL_GPU_FN2(void, N##_atomic_inc, (T *d, int pe), (d, pe), \
                ((void)shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, (T)1, pe)))
#define SHOAL_GPU_AMO_BIT(T, N) \
  SHOAL_GPU_AMO_RMW(T, N, and, fetch_and) \
  SHOAL_GPU_AMO_RMW(T, N, or, fetch_or) \
  SHOAL_GPU_AMO_RMW(T, N, xor, fetch_xor)

SHOAL_AMO_EXT_TYPES(SHOAL_GPU_AMO_EXT)
SHOAL_AMO_STD_TYPES(SHOAL_GPU_AMO_STD)
SHOAL_AMO_BIT_TYPES(SHOAL_GPU_AMO_BIT)

/* Deprecated 1.4 AMO names. */
#define SHOAL_GPU_DEPR_EXT(T, N) \
  SHOAL_GPU_FN(T, N##_fetch, (const T *s, int pe), (s, pe), (shoal_dev_##N##_fetch(SHOAL_DEV_CTX, s, pe))) \
  SHOAL_GPU_FN(void, N##_set, (T *d, T v, int pe), (d, v, pe), (shoal_dev_##N##_set(SHOAL_DEV_CTX, d, v, pe)))
#define SHOAL_GPU_AMO_DEPR(T, N) \
  SHOAL_GPU_FN(T, N##_swap, (T *d, T v, int pe), (d, v, pe), (shoal_dev_##N##_swap(SHOAL_DEV_CTX, d, v, pe))) \
  SHOAL_GPU_FN(T, N##_cswap, (T *d, T cond, T v, int pe), (d, cond, v, pe), \
               (shoal_dev_##N##_compare_swap(SHOAL_DEV_CTX, d, cond, v, pe))) \
  SHOAL_GPU_FN(T, N##_finc, (T *d, int pe), (d, pe), (shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, (T)1, pe))) \
  SHOAL_GPU_FN(void, N##_inc, (T *d, int pe), (d, pe), ((void)shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, (T)1, pe))) \
  SHOAL_GPU_FN(T, N##_fadd, (T *d, T v, int pe), (d, v, pe), (shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, v, pe))) \
  SHOAL_GPU_FN(void, N##_add, (T *d, T v, int pe), (d, v, pe), ((void)shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, v, pe))) \
  SHOAL_GPU_DEPR_EXT(T, N)
SHOAL_GPU_AMO_DEPR(int, int)
SHOAL_GPU_AMO_DEPR(long, long)
SHOAL_GPU_AMO_DEPR(long long, longlong)
SHOAL_GPU_DEPR_EXT(float, float)
SHOAL_GPU_DEPR_EXT(double, double)
SHOAL_GPU_FN(float, float_swap, (float *d, float v, int pe), (d, v, pe), (shoal_dev_float_swap(SHOAL_DEV_CTX, d, v, pe)))
SHOAL_GPU_FN(double, double_swap, (double *d, double v, int pe), (d, v, pe), (shoal_dev_double_swap(SHOAL_DEV_CTX, d, v, pe)))
SHOAL_GPU_FN(long, swap, (long *d, long v, int pe), (d, v, pe), (shoal_dev_long_swap(SHOAL_DEV_CTX, d, v, pe)))

/* ---- ordering ------------------------------------------------------------ */
/* In kernels fence and quiet are both a system-scope fence: stores to a
 * mapped peer are complete once visible at system scope. */
SHOAL_GPU_FN(void, fence, (void), (), (shoal_fence_system()))
SHOAL_GPU_FN(void, quiet, (void), (), (shoal_fence_system()))
SHOAL_GPU_FN(void, ctx_fence, (shmem_ctx_t c), (c), (shoal_fence_system()))
SHOAL_GPU_FN(void, ctx_quiet, (shmem_ctx_t c), (c), (shoal_fence_system()))

/* ---- point-to-point synchronization -------------------------------------- */
#define SHOAL_GPU_SYNC(T, N) \
  SHOAL_GPU_FN(void, N##_wait_until, (T *ivar, int cmp, T v), (ivar, cmp, v), (shoal_dev_##N##_wait_until(ivar, cmp, v))) \
  SHOAL_GPU_FN(void, N##_wait, (T *ivar, T v), (ivar, v), (shoal_dev_##N##_wait_until(ivar, SHMEM_CMP_NE, v))) \
  SHOAL_GPU_FN(int, N##_test, (T *ivar, int cmp, T v), (ivar, cmp, v), (shoal_dev_##N##_test(ivar, cmp, v))) \
  SHOAL_GPU_FN(void, N##_wait_until_all, (T *iv, size_t n, const int *st, int cmp, T v), (iv, n, st, cmp, v), \
    (shoal_dev_##N##_wait_until_all(iv, n, st, cmp, (const T *)0, v))) \
  SHOAL_GPU_FN(size_t, N##_wait_until_any, (T *iv, size_t n, const int *st, int cmp, T v), (iv, n, st, cmp, v), \
    (shoal_dev_##N##_wait_until_any(iv, n, st, cmp, (const T *)0, v))) \
  SHOAL_GPU_FN(size_t, N##_wait_until_some, (T *iv, size_t n, size_t *idx, const int *st, int cmp, T v), \
    (iv, n, idx, st, cmp, v), (shoal_dev_##N##_wait_until_some(iv, n, idx, st, cmp, (const T *)0, v))) \
  SHOAL_GPU_FN(void, N##_wait_until_all_vector, (T *iv, size_t n, const int *st, int cmp, T *vals), \
    (iv, n, st, cmp, vals), (shoal_dev_##N##_wait_until_all(iv, n, st, cmp, vals, shoal_gpu_zero<T>()))) \
  SHOAL_GPU_FN(size_t, N##_wait_until_any_vector, (T *iv, size_t n, const int *st, int cmp, T *vals), \
    (iv, n, st, cmp, vals), (shoal_dev_##N##_wait_until_any(iv, n, st, cmp, vals, shoal_gpu_zero<T>()))) \
  SHOAL_GPU_FN(size_t, N##_wait_until_some_vector, (T *iv, size_t n, size_t *idx, const int *st, int cmp, T *vals), \
    (iv, n, idx, st, cmp, vals), (shoal_dev_##N##_wait_until_some(iv, n, idx, st, cmp, vals, shoal_gpu_zero<T>()))) \
  SHOAL_GPU_FN(int, N##_test_all, (T *iv, size_t n, const int *st, int cmp, T v), (iv, n, st, cmp, v), \
    (shoal_dev_##N##_test_all(iv, n, st, cmp, (const T *)0, v))) \
  SHOAL_GPU_FN(size_t, N##_test_any, (T *iv, size_t n, const int *st, int cmp, T v), (iv, n, st, cmp, v), \
    (shoal_dev_##N##_test_any(iv, n, st, cmp, (const T *)0, v))) \
  SHOAL_GPU_FN(size_t, N##_test_some, (T *iv, size_t n, size_t *idx, const int *st, int cmp, T v), \
    (iv, n, idx, st, cmp, v), (shoal_dev_##N##_test_some(iv, n, idx, st, cmp, (const T *)0, v))) \
  SHOAL_GPU_FN(int, N##_test_all_vector, (T *iv, size_t n, const int *st, int cmp, T *vals), (iv, n, st, cmp, vals), \
    (shoal_dev_##N##_test_all(iv, n, st, cmp, vals, shoal_gpu_zero<T>()))) \
  SHOAL_GPU_FN(size_t, N##_test_any_vector, (T *iv, size_t n, const int *st, int cmp, T *vals), (iv, n, st, cmp, vals), \
    (shoal_dev_##N##_test_any(iv, n, st, cmp, vals, shoal_gpu_zero<T>()))) \
  SHOAL_GPU_FN(size_t, N##_test_some_vector, (T *iv, size_t n, size_t *idx, const int *st, int cmp, T *vals), \
    (iv, n, idx, st, cmp, vals), (shoal_dev_##N##_test_some(iv, n, idx, st, cmp, vals, shoal_gpu_zero<T>())))
SHOAL_SYNC_TYPES(SHOAL_GPU_SYNC)
SHOAL_GPU_FN(void, wait, (long *ivar, long v), (ivar, v), (shoal_dev_long_wait_until(ivar, SHMEM_CMP_NE, v)))
SHOAL_GPU_FN(void, wait_until, (long *ivar, int cmp, long v), (ivar, cmp, v), (shoal_dev_long_wait_until(ivar, cmp, v)))

#include "gpu_x.h"
#include "gpu16.h"
#endif
