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
#undef shmem_calloc
#undef shmem_team_my_pe
#undef shmem_team_n_pes
#undef shmem_team_translate_pe
#undef shmem_team_split_strided
#undef shmem_team_split_2d
#undef shmem_team_destroy

/* ---- library entry points for GPU memory (libshoal, GPU builds) ---------- */
extern "C" {
/* Host put (is_put) or get of bytes between local memory and PE pe's GPU
 * heap; returns 0 without doing anything when the remote address is not in
 * the GPU heap (the caller then takes the CPU path). */
int shoalx_gpu_hrma(const char *call, int is_put, void *dest, const void *src, size_t bytes, int pe);
/* Is addr inside this PE's symmetric GPU heap? */
int shoalx_gpu_heap_has(const void *addr);
/* addr on PE pe as this PE's GPU can address it, or NULL. */
void *shoalx_gpu_peer_ptr(const void *addr, int pe);
/* Teams made or destroyed in this unit: update the kernels' team table. */
void shoalx_gpu_team_created(shmem_team_t team);
void shoalx_gpu_team_destroying(shmem_team_t team);
/* shmem_calloc on the GPU heap (zeroes with the GPU runtime). */
void *shoalx_gpu_calloc(size_t count, size_t size);
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
  if (SHOAL_UNLIKELY(!r)) shoal_gpu_fail("p", dest, pe);
  else *r = v;
}
template <class T> __device__ inline T shoal_gpu_g(const T *src, int pe)
{
  const T *r = (const T *)shoal_dev_ptr(src, pe);
  if (SHOAL_UNLIKELY(!r)) { shoal_gpu_fail("g", src, pe); return shoal_gpu_zero<T>(); }
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
__device__ inline shoal_team *shoal_gpu_team_or_fail(const char *call, shmem_team_t team)
{
  shoal_team *t = shoal_gpu_team(team);
  if (SHOAL_UNLIKELY(!t || t->my_pe < 0)) {
    printf("shoal: PE %d: error: %s: the team %p is invalid in kernels, or this PE is not a "
           "member (teams made with shmem_team_split_* are known to kernels after the split "
           "returns)\n", SHOAL_STATE->my_pe, call, (const void *)team);
#if defined(__CUDACC__)
    __trap();
#else
    abort();
#endif
  }
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
    fprintf(stderr, "shoal: PE %d: error: %s: %s\n", shoalh_my_pe(), call,
            SHOAL_GPURT(GetErrorString)(e));
    fflush(stderr);
    abort();
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

/* AMOs from the host on GPU memory: one thread does it on the GPU.  The
 * kernel is not a template: the host-side callers exist only in the host
 * compilation pass, and a template instantiated there alone would have no
 * device code. */
template <class T> __device__ inline void shoal_gpu_amo_do(int op, T *dest, T v, T cmp, int pe, T *out)
{
  T *r = (T *)shoal_dev_ptr(dest, pe);
  if (!r) shoal_gpu_fail("atomic (host)", dest, pe);
  T res = T();
  switch (op) {
  case SHOAL_AMO_FETCH: res = shoal_gpu_load(r, SHOAL_SC); break;
  case SHOAL_AMO_SET: shoal_gpu_store(r, v, SHOAL_SC); break;
  case SHOAL_AMO_SWAP: res = shoal_gpu_exchange(r, v); break;
  default:
    if constexpr (std::is_integral<T>::value) {
      switch (op) {
      case SHOAL_AMO_CSWAP: res = cmp; shoal_gpu_cas(r, &res, v); break;
      case SHOAL_AMO_FETCH_ADD: res = shoal_gpu_fetch_add(r, v); break;
      case SHOAL_AMO_FETCH_AND: res = shoal_gpu_fetch_and(r, v); break;
      case SHOAL_AMO_FETCH_OR: res = shoal_gpu_fetch_or(r, v); break;
      case SHOAL_AMO_FETCH_XOR: res = shoal_gpu_fetch_xor(r, v); break;
      default: break;
      }
    }
  }
  *out = res;
}
/* kind: 0 signed, 1 unsigned, 2 floating; operands travel as 8 bytes. */
static __global__ void shoal_gpu_amo_kernel(int op, int kind, int size, void *dest, uint64_t v, uint64_t cmp,
                                            int pe, void *out)
{
  if (kind == 2) {
    if (size == 4) { float a, b; memcpy(&a, &v, 4); memcpy(&b, &cmp, 4); shoal_gpu_amo_do<float>(op, (float *)dest, a, b, pe, (float *)out); }
    else { double a, b; memcpy(&a, &v, 8); memcpy(&b, &cmp, 8); shoal_gpu_amo_do<double>(op, (double *)dest, a, b, pe, (double *)out); }
  } else if (size == 4) {
    if (kind) shoal_gpu_amo_do<uint32_t>(op, (uint32_t *)dest, (uint32_t)v, (uint32_t)cmp, pe, (uint32_t *)out);
    else shoal_gpu_amo_do<int32_t>(op, (int32_t *)dest, (int32_t)v, (int32_t)cmp, pe, (int32_t *)out);
  } else {
    if (kind) shoal_gpu_amo_do<unsigned long long>(op, (unsigned long long *)dest, v, cmp, pe, (unsigned long long *)out);
    else shoal_gpu_amo_do<long long>(op, (long long *)dest, (long long)v, (long long)cmp, pe, (long long *)out);
  }
}
template <class T> static inline T shoal_gpu_hamo(const char *call, int op, T *dest, T v, T cmp, int pe)
{
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "AMO types are 4 or 8 bytes");
  static void *out;   /* one result slot per unit */
  if (!out) shoal_gpu_hcheck(call, SHOAL_GPURT(Malloc)(&out, 8));
  uint64_t a = 0, b = 0;
  memcpy(&a, &v, sizeof(T));
  memcpy(&b, &cmp, sizeof(T));
  if (std::is_signed<T>::value && !std::is_floating_point<T>::value && sizeof(T) == 4) {
    a = (uint64_t)(int64_t)(int32_t)a; b = (uint64_t)(int64_t)(int32_t)b;
  }
  int kind = std::is_floating_point<T>::value ? 2 : std::is_signed<T>::value ? 0 : 1;
  shoal_gpu_stream_t st = shoal_gpu_hstream(call);
  shoal_gpu_amo_kernel<<<1, 1, 0, st>>>(op, kind, (int)sizeof(T), dest, a, b, pe, out);
  shoal_gpu_hcheck(call, SHOAL_GPURT(GetLastError)());
  T res;
  shoal_gpu_hcheck(call, SHOAL_GPURT(MemcpyAsync)(&res, out, sizeof(T), SHOAL_GPURT(MemcpyDeviceToHost), st));
  shoal_gpu_hcheck(call, SHOAL_GPURT(StreamSynchronize)(st));
  return res;
}
/* The host waits on its own GPU memory by polling copies of it. */
template <class T> static inline T shoal_gpu_hload(const char *call, const T *p)
{
  T v;
  shoal_gpu_stream_t st = shoal_gpu_hstream(call);
  shoal_gpu_hcheck(call, SHOAL_GPURT(MemcpyAsync)(&v, p, sizeof(T), SHOAL_GPURT(MemcpyDeviceToHost), st));
  shoal_gpu_hcheck(call, SHOAL_GPURT(StreamSynchronize)(st));
  return v;
}
template <class T> static inline int shoal_gpu_hcmp(T a, int cmp, T b)
{
  switch (cmp) {
  case SHMEM_CMP_EQ: return a == b;
  case SHMEM_CMP_NE: return a != b;
  case SHMEM_CMP_GT: return a > b;
  case SHMEM_CMP_GE: return a >= b;
  case SHMEM_CMP_LT: return a < b;
  default: return a <= b;
  }
}
template <class T> static inline void shoal_gpu_hwait(const char *call, const T *ivar, int cmp, T v)
{
  if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE) {
    fprintf(stderr, "shoal: PE %d: error: %s: argument 'cmp' = %d is not a SHMEM_CMP_* constant\n",
            shoalh_my_pe(), call, cmp);
    abort();
  }
  while (!shoal_gpu_hcmp(shoal_gpu_hload(call, ivar), cmp, v)) {
  }
}
template <class T> static inline T shoal_gpu_hg(const char *call, const T *src, int pe, T (*cpu)(const T *, int))
{
  T v;
  if (shoalx_gpu_hrma(call, 0, &v, src, sizeof(T), pe)) return v;
  return cpu(src, pe);
}

#define SHOAL_HPUT(CALL, D, S, B, PE) shoalx_gpu_hrma(CALL, 1, (void *)(D), S, B, PE)
#define SHOAL_HGET(CALL, D, S, B, PE) shoalx_gpu_hrma(CALL, 0, D, S, B, PE)

/* ---- setup and query ----------------------------------------------------- */
static inline __host__ __device__ int shmem_my_pe(void)
{ return SHOAL_GPU_PICK(SHOAL_STATE->my_pe, shoalh_my_pe()); }
static inline __host__ __device__ int shmem_n_pes(void)
{ return SHOAL_GPU_PICK(SHOAL_STATE->n_pes, shoalh_n_pes()); }
/* On the host, a GPU heap address gives the peer's device address (for
 * copies and kernels), not a host-dereferenceable one. */
static inline __host__ __device__ void *shmem_ptr(const void *dest, int pe)
{
  return SHOAL_GPU_PICK(((unsigned)pe < (unsigned)SHOAL_STATE->n_pes ? shoal_dev_ptr(dest, pe) : (void *)0),
                        (shoalx_gpu_heap_has(dest) ? shoalx_gpu_peer_ptr(dest, pe) : shoalh_ptr(dest, pe)));
}
static inline void *shmem_calloc(size_t count, size_t size) { return shoalx_gpu_calloc(count, size); }

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
/* Team creation is host-only; the new team is entered in the kernels'
 * team table before the call returns. */
static inline int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size,
                                           const shmem_team_config_t *config, long mask,
                                           shmem_team_t *new_team)
{
  int rc = shoalh_team_split_strided(parent, start, stride, size, config, mask, new_team);
  if (rc == 0 && new_team) shoalx_gpu_team_created(*new_team);
  return rc;
}
static inline int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xc,
                                      long xm, shmem_team_t *xt, const shmem_team_config_t *yc,
                                      long ym, shmem_team_t *yt)
{
  int rc = shoalh_team_split_2d(parent, xrange, xc, xm, xt, yc, ym, yt);
  if (rc == 0) {
    if (xt) shoalx_gpu_team_created(*xt);
    if (yt) shoalx_gpu_team_created(*yt);
  }
  return rc;
}
static inline void shmem_team_destroy(shmem_team_t team)
{
  shoalx_gpu_team_destroying(team);
  shoalh_team_destroy(team);
}

/* ---- RMA ----------------------------------------------------------------- */
/* NAME and ctx_NAME of one transfer family; ES is the element size. */
#define SHOAL_GPU_XFER(T, NAME, ES, DEVFN, HOSTCHK) \
  SHOAL_GPU_DEF(void, NAME, (T *d, const T *s, size_t n, int pe), \
    (DEVFN(SHOAL_DEV_CTX, d, s, n * (ES), pe)), \
    (HOSTCHK("shmem_" #NAME, d, s, n * (ES), pe) ? (void)0 : shoalh_##NAME(d, s, n, pe))) \
  SHOAL_GPU_DEF(void, ctx_##NAME, (shmem_ctx_t c, T *d, const T *s, size_t n, int pe), \
    (DEVFN(SHOAL_DEV_CTX, d, s, n * (ES), pe)), \
    (HOSTCHK("shmem_ctx_" #NAME, d, s, n * (ES), pe) ? (void)0 : shoalh_ctx_##NAME(c, d, s, n, pe)))

#define SHOAL_GPU_STRIDED(T, NAME, ES, DEVFN) \
  SHOAL_GPU_DEF(void, NAME, (T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe), \
    (DEVFN(SHOAL_DEV_CTX, d, s, dst, sst, n, ES, pe)), (shoalh_##NAME(d, s, dst, sst, n, pe))) \
  SHOAL_GPU_DEF(void, ctx_##NAME, \
    (shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe), \
    (DEVFN(SHOAL_DEV_CTX, d, s, dst, sst, n, ES, pe)), (shoalh_ctx_##NAME(c, d, s, dst, sst, n, pe)))

/* Host put-with-signal on GPU memory: the copy completes, then a
 * one-thread kernel updates the signal. */
template <class shoal_unused = void>
static inline int shoal_gpu_hput_signal(const char *call, void *d, const void *s, size_t bytes,
                                        uint64_t *sig, uint64_t v, int op, int pe)
{
  if (!shoalx_gpu_heap_has(sig)) return 0;
  if (bytes && !SHOAL_HPUT(call, d, s, bytes, pe)) return 0;
  if (op == SHMEM_SIGNAL_ADD) (void)shoal_gpu_hamo<uint64_t>(call, SHOAL_AMO_FETCH_ADD, sig, v, 0, pe);
  else (void)shoal_gpu_hamo<uint64_t>(call, SHOAL_AMO_SET, sig, v, 0, pe);
  return 1;
}

#define SHOAL_GPU_SIGNAL(T, NAME, ES) \
  SHOAL_GPU_DEF(void, NAME, (T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe), \
    (shoal_dev_put_signal(SHOAL_DEV_CTX, d, s, n * (ES), sig, v, op, pe)), \
    (shoal_gpu_hput_signal("shmem_" #NAME, d, s, n * (ES), sig, v, op, pe) ? (void)0 \
       : shoalh_##NAME(d, s, n, sig, v, op, pe))) \
  SHOAL_GPU_DEF(void, ctx_##NAME, \
    (shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe), \
    (shoal_dev_put_signal(SHOAL_DEV_CTX, d, s, n * (ES), sig, v, op, pe)), \
    (shoal_gpu_hput_signal("shmem_ctx_" #NAME, d, s, n * (ES), sig, v, op, pe) ? (void)0 \
       : shoalh_ctx_##NAME(c, d, s, n, sig, v, op, pe)))

#define SHOAL_GPU_RMA_TYPED(T, N) \
  SHOAL_GPU_XFER(T, N##_put, sizeof(T), shoal_dev_putmem, SHOAL_HPUT) \
  SHOAL_GPU_XFER(T, N##_get, sizeof(T), shoal_dev_getmem, SHOAL_HGET) \
  SHOAL_GPU_XFER(T, N##_put_nbi, sizeof(T), shoal_dev_putmem, SHOAL_HPUT) \
  SHOAL_GPU_XFER(T, N##_get_nbi, sizeof(T), shoal_dev_getmem, SHOAL_HGET) \
  SHOAL_GPU_STRIDED(T, N##_iput, sizeof(T), shoal_dev_iput) \
  SHOAL_GPU_STRIDED(T, N##_iget, sizeof(T), shoal_dev_iget) \
  SHOAL_GPU_SIGNAL(T, N##_put_signal, sizeof(T)) \
  SHOAL_GPU_SIGNAL(T, N##_put_signal_nbi, sizeof(T)) \
  SHOAL_GPU_DEF(void, N##_p, (T *d, T v, int pe), (shoal_gpu_p(d, v, pe)), \
    (SHOAL_HPUT("shmem_" #N "_p", d, &v, sizeof(T), pe) ? (void)0 : shoalh_##N##_p(d, v, pe))) \
  SHOAL_GPU_DEF(void, ctx_##N##_p, (shmem_ctx_t c, T *d, T v, int pe), (shoal_gpu_p(d, v, pe)), \
    (SHOAL_HPUT("shmem_ctx_" #N "_p", d, &v, sizeof(T), pe) ? (void)0 : shoalh_ctx_##N##_p(c, d, v, pe))) \
  SHOAL_GPU_DEF(T, N##_g, (const T *s, int pe), (shoal_gpu_g(s, pe)), \
    (shoal_gpu_hg<T>("shmem_" #N "_g", s, pe, shoalh_##N##_g))) \
  SHOAL_GPU_DEF(T, ctx_##N##_g, (shmem_ctx_t c, const T *s, int pe), (shoal_gpu_g(s, pe)), \
    (shoal_gpu_hg<T>("shmem_ctx_" #N "_g", s, pe, shoalh_##N##_g)))
/* long double is double in device code (a different size than on the
 * host), so its typed RMA stays host-only in GPU units. */
#define SHOAL_GPU_RMA_TYPES(X) \
  X(float, float) X(double, double) \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long) \
  X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort) \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) \
  X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) \
  X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) \
  X(size_t, size) X(ptrdiff_t, ptrdiff)
SHOAL_GPU_RMA_TYPES(SHOAL_GPU_RMA_TYPED)
#define SHOAL_GPU_HOST_RMA(T, N) \
  void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe); \
  void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe); \
  void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe); \
  void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe); \
  void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void shmem_##N##_p(T *dest, T value, int pe); \
  void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe); \
  T shmem_##N##_g(const T *source, int pe); \
  T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe); \
  void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t nelems, int pe); \
  void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t nelems, int pe); \
  void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                              uint64_t signal, int sig_op, int pe); \
  void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                                  uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
  void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                  uint64_t signal, int sig_op, int pe); \
  void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
extern "C" { SHOAL_GPU_HOST_RMA(long double, longdouble) }

#define SHOAL_GPU_RMA_SIZED(BITS, BYTES) \
  SHOAL_GPU_XFER(void, put##BITS, BYTES, shoal_dev_putmem, SHOAL_HPUT) \
  SHOAL_GPU_XFER(void, get##BITS, BYTES, shoal_dev_getmem, SHOAL_HGET) \
  SHOAL_GPU_XFER(void, put##BITS##_nbi, BYTES, shoal_dev_putmem, SHOAL_HPUT) \
  SHOAL_GPU_XFER(void, get##BITS##_nbi, BYTES, shoal_dev_getmem, SHOAL_HGET) \
  SHOAL_GPU_STRIDED(void, iput##BITS, BYTES, shoal_dev_iput) \
  SHOAL_GPU_STRIDED(void, iget##BITS, BYTES, shoal_dev_iget) \
  SHOAL_GPU_SIGNAL(void, put_signal##BITS, BYTES) \
  SHOAL_GPU_SIGNAL(void, put_signal##BITS##_nbi, BYTES)
SHOAL_SIZED_RMA(SHOAL_GPU_RMA_SIZED)

SHOAL_GPU_XFER(void, putmem, 1, shoal_dev_putmem, SHOAL_HPUT)
SHOAL_GPU_XFER(void, getmem, 1, shoal_dev_getmem, SHOAL_HGET)
SHOAL_GPU_XFER(void, putmem_nbi, 1, shoal_dev_putmem, SHOAL_HPUT)
SHOAL_GPU_XFER(void, getmem_nbi, 1, shoal_dev_getmem, SHOAL_HGET)
SHOAL_GPU_SIGNAL(void, putmem_signal, 1)
SHOAL_GPU_SIGNAL(void, putmem_signal_nbi, 1)

SHOAL_GPU_DEF(uint64_t, signal_fetch, (const uint64_t *sig), (shoal_load_acquire(sig)),
  (shoalx_gpu_heap_has(sig) ? shoal_gpu_hload("shmem_signal_fetch", sig) : shoalh_signal_fetch(sig)))
#if SHOAL_IN_DEVICE_PASS
__device__ inline uint64_t shoal_gpu_signal_wait(uint64_t *sig, int cmp, uint64_t v)
{
  shoal_dev_uint64_wait_until(sig, cmp, v);
  return shoal_load_acquire(sig);
}
#endif
static inline uint64_t shoal_gpu_hsignal_wait(uint64_t *sig, int cmp, uint64_t v)
{
  shoal_gpu_hwait("shmem_signal_wait_until", sig, cmp, v);
  return shoal_gpu_hload("shmem_signal_wait_until", sig);
}
SHOAL_GPU_DEF(uint64_t, signal_wait_until, (uint64_t *sig, int cmp, uint64_t v),
  (shoal_gpu_signal_wait(sig, cmp, v)),
  (shoalx_gpu_heap_has(sig) ? shoal_gpu_hsignal_wait(sig, cmp, v) : shoalh_signal_wait_until(sig, cmp, v)))

/* ---- AMOs ---------------------------------------------------------------- */
/* On the host: GPU memory through a one-thread kernel, else the library. */
#define SHOAL_GPU_HAMO(T, CALL, OP, D, V, C, PE, CPU) \
  (shoalx_gpu_heap_has(D) ? shoal_gpu_hamo<T>(CALL, OP, (T *)(D), V, C, PE) : CPU)
#define SHOAL_GPU_HAMO_V(T, CALL, OP, D, V, C, PE, CPU) \
  (shoalx_gpu_heap_has(D) ? (void)shoal_gpu_hamo<T>(CALL, OP, (T *)(D), V, C, PE) : CPU)

/* NAME and ctx_NAME of one AMO: (PARAMS, ARGS) without the ctx. */
#define SHOAL_GPU_AMO2(RET, NAME, PARAMS, CPARAMS, DEV, HOST, CHOST) \
  SHOAL_GPU_DEF(RET, NAME, PARAMS, DEV, HOST) \
  SHOAL_GPU_DEF(RET, ctx_##NAME, CPARAMS, DEV, CHOST)

#define SHOAL_GPU_AMO_EXT(T, N) \
  SHOAL_GPU_AMO2(T, N##_atomic_fetch, (const T *s, int pe), (shmem_ctx_t c, const T *s, int pe), \
    (shoal_dev_##N##_fetch(SHOAL_DEV_CTX, s, pe)), \
    (SHOAL_GPU_HAMO(T, "shmem_" #N "_atomic_fetch", SHOAL_AMO_FETCH, s, shoal_gpu_zero<T>(), shoal_gpu_zero<T>(), pe, shoalh_##N##_atomic_fetch(s, pe))), \
    (SHOAL_GPU_HAMO(T, "shmem_ctx_" #N "_atomic_fetch", SHOAL_AMO_FETCH, s, shoal_gpu_zero<T>(), shoal_gpu_zero<T>(), pe, shoalh_ctx_##N##_atomic_fetch(c, s, pe)))) \
  SHOAL_GPU_AMO2(void, N##_atomic_set, (T *d, T v, int pe), (shmem_ctx_t c, T *d, T v, int pe), \
    (shoal_dev_##N##_set(SHOAL_DEV_CTX, d, v, pe)), \
    (SHOAL_GPU_HAMO_V(T, "shmem_" #N "_atomic_set", SHOAL_AMO_SET, d, v, shoal_gpu_zero<T>(), pe, shoalh_##N##_atomic_set(d, v, pe))), \
    (SHOAL_GPU_HAMO_V(T, "shmem_ctx_" #N "_atomic_set", SHOAL_AMO_SET, d, v, shoal_gpu_zero<T>(), pe, shoalh_ctx_##N##_atomic_set(c, d, v, pe)))) \
  SHOAL_GPU_AMO2(T, N##_atomic_swap, (T *d, T v, int pe), (shmem_ctx_t c, T *d, T v, int pe), \
    (shoal_dev_##N##_swap(SHOAL_DEV_CTX, d, v, pe)), \
    (SHOAL_GPU_HAMO(T, "shmem_" #N "_atomic_swap", SHOAL_AMO_SWAP, d, v, shoal_gpu_zero<T>(), pe, shoalh_##N##_atomic_swap(d, v, pe))), \
    (SHOAL_GPU_HAMO(T, "shmem_ctx_" #N "_atomic_swap", SHOAL_AMO_SWAP, d, v, shoal_gpu_zero<T>(), pe, shoalh_ctx_##N##_atomic_swap(c, d, v, pe)))) \
  SHOAL_GPU_AMO2(void, N##_atomic_fetch_nbi, (T *f, const T *s, int pe), (shmem_ctx_t c, T *f, const T *s, int pe), \
    ((void)(*f = shoal_dev_##N##_fetch(SHOAL_DEV_CTX, s, pe))), \
    (shoalx_gpu_heap_has(s) ? (void)(*f = shoal_gpu_hamo<T>("shmem_" #N "_atomic_fetch_nbi", SHOAL_AMO_FETCH, (T *)s, shoal_gpu_zero<T>(), shoal_gpu_zero<T>(), pe)) \
                            : shoalh_##N##_atomic_fetch_nbi(f, s, pe)), \
    (shoalx_gpu_heap_has(s) ? (void)(*f = shoal_gpu_hamo<T>("shmem_ctx_" #N "_atomic_fetch_nbi", SHOAL_AMO_FETCH, (T *)s, shoal_gpu_zero<T>(), shoal_gpu_zero<T>(), pe)) \
                            : shoalh_ctx_##N##_atomic_fetch_nbi(c, f, s, pe))) \
  SHOAL_GPU_AMO2(void, N##_atomic_swap_nbi, (T *f, T *d, T v, int pe), (shmem_ctx_t c, T *f, T *d, T v, int pe), \
    ((void)(*f = shoal_dev_##N##_swap(SHOAL_DEV_CTX, d, v, pe))), \
    (shoalx_gpu_heap_has(d) ? (void)(*f = shoal_gpu_hamo<T>("shmem_" #N "_atomic_swap_nbi", SHOAL_AMO_SWAP, d, v, shoal_gpu_zero<T>(), pe)) \
                            : shoalh_##N##_atomic_swap_nbi(f, d, v, pe)), \
    (shoalx_gpu_heap_has(d) ? (void)(*f = shoal_gpu_hamo<T>("shmem_ctx_" #N "_atomic_swap_nbi", SHOAL_AMO_SWAP, d, v, shoal_gpu_zero<T>(), pe)) \
                            : shoalh_ctx_##N##_atomic_swap_nbi(c, f, d, v, pe)))

/* fetch-and-OP family over one device function: NAME(d, v) and the _nbi and
 * non-fetching forms. */
#define SHOAL_GPU_AMO_RMW(T, N, OPN, DEVOP, HOP) \
  SHOAL_GPU_AMO2(T, N##_atomic_fetch_##OPN, (T *d, T v, int pe), (shmem_ctx_t c, T *d, T v, int pe), \
    (shoal_dev_##N##_##DEVOP(SHOAL_DEV_CTX, d, v, pe)), \
    (SHOAL_GPU_HAMO(T, "shmem_" #N "_atomic_fetch_" #OPN, HOP, d, v, shoal_gpu_zero<T>(), pe, shoalh_##N##_atomic_fetch_##OPN(d, v, pe))), \
    (SHOAL_GPU_HAMO(T, "shmem_ctx_" #N "_atomic_fetch_" #OPN, HOP, d, v, shoal_gpu_zero<T>(), pe, shoalh_ctx_##N##_atomic_fetch_##OPN(c, d, v, pe)))) \
  SHOAL_GPU_AMO2(void, N##_atomic_##OPN, (T *d, T v, int pe), (shmem_ctx_t c, T *d, T v, int pe), \
    ((void)shoal_dev_##N##_##DEVOP(SHOAL_DEV_CTX, d, v, pe)), \
    (SHOAL_GPU_HAMO_V(T, "shmem_" #N "_atomic_" #OPN, HOP, d, v, shoal_gpu_zero<T>(), pe, shoalh_##N##_atomic_##OPN(d, v, pe))), \
    (SHOAL_GPU_HAMO_V(T, "shmem_ctx_" #N "_atomic_" #OPN, HOP, d, v, shoal_gpu_zero<T>(), pe, shoalh_ctx_##N##_atomic_##OPN(c, d, v, pe)))) \
  SHOAL_GPU_AMO2(void, N##_atomic_fetch_##OPN##_nbi, (T *f, T *d, T v, int pe), (shmem_ctx_t c, T *f, T *d, T v, int pe), \
    ((void)(*f = shoal_dev_##N##_##DEVOP(SHOAL_DEV_CTX, d, v, pe))), \
    (shoalx_gpu_heap_has(d) ? (void)(*f = shoal_gpu_hamo<T>("shmem_" #N "_atomic_fetch_" #OPN "_nbi", HOP, d, v, shoal_gpu_zero<T>(), pe)) \
                            : shoalh_##N##_atomic_fetch_##OPN##_nbi(f, d, v, pe)), \
    (shoalx_gpu_heap_has(d) ? (void)(*f = shoal_gpu_hamo<T>("shmem_ctx_" #N "_atomic_fetch_" #OPN "_nbi", HOP, d, v, shoal_gpu_zero<T>(), pe)) \
                            : shoalh_ctx_##N##_atomic_fetch_##OPN##_nbi(c, f, d, v, pe)))

#define SHOAL_GPU_AMO_STD(T, N) \
  SHOAL_GPU_AMO_RMW(T, N, add, fetch_add, SHOAL_AMO_FETCH_ADD) \
  SHOAL_GPU_AMO2(T, N##_atomic_compare_swap, (T *d, T cond, T v, int pe), (shmem_ctx_t c, T *d, T cond, T v, int pe), \
    (shoal_dev_##N##_compare_swap(SHOAL_DEV_CTX, d, cond, v, pe)), \
    (SHOAL_GPU_HAMO(T, "shmem_" #N "_atomic_compare_swap", SHOAL_AMO_CSWAP, d, v, cond, pe, shoalh_##N##_atomic_compare_swap(d, cond, v, pe))), \
    (SHOAL_GPU_HAMO(T, "shmem_ctx_" #N "_atomic_compare_swap", SHOAL_AMO_CSWAP, d, v, cond, pe, shoalh_ctx_##N##_atomic_compare_swap(c, d, cond, v, pe)))) \
  SHOAL_GPU_AMO2(void, N##_atomic_compare_swap_nbi, (T *f, T *d, T cond, T v, int pe), (shmem_ctx_t c, T *f, T *d, T cond, T v, int pe), \
    ((void)(*f = shoal_dev_##N##_compare_swap(SHOAL_DEV_CTX, d, cond, v, pe))), \
    (shoalx_gpu_heap_has(d) ? (void)(*f = shoal_gpu_hamo<T>("shmem_" #N "_atomic_compare_swap_nbi", SHOAL_AMO_CSWAP, d, v, cond, pe)) \
                            : shoalh_##N##_atomic_compare_swap_nbi(f, d, cond, v, pe)), \
    (shoalx_gpu_heap_has(d) ? (void)(*f = shoal_gpu_hamo<T>("shmem_ctx_" #N "_atomic_compare_swap_nbi", SHOAL_AMO_CSWAP, d, v, cond, pe)) \
                            : shoalh_ctx_##N##_atomic_compare_swap_nbi(c, f, d, cond, v, pe))) \
  SHOAL_GPU_AMO2(T, N##_atomic_fetch_inc, (T *d, int pe), (shmem_ctx_t c, T *d, int pe), \
    (shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, (T)1, pe)), \
    (SHOAL_GPU_HAMO(T, "shmem_" #N "_atomic_fetch_inc", SHOAL_AMO_FETCH_ADD, d, (T)1, shoal_gpu_zero<T>(), pe, shoalh_##N##_atomic_fetch_inc(d, pe))), \
    (SHOAL_GPU_HAMO(T, "shmem_ctx_" #N "_atomic_fetch_inc", SHOAL_AMO_FETCH_ADD, d, (T)1, shoal_gpu_zero<T>(), pe, shoalh_ctx_##N##_atomic_fetch_inc(c, d, pe)))) \
  SHOAL_GPU_AMO2(void, N##_atomic_inc, (T *d, int pe), (shmem_ctx_t c, T *d, int pe), \
    ((void)shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, (T)1, pe)), \
    (SHOAL_GPU_HAMO_V(T, "shmem_" #N "_atomic_inc", SHOAL_AMO_FETCH_ADD, d, (T)1, shoal_gpu_zero<T>(), pe, shoalh_##N##_atomic_inc(d, pe))), \
    (SHOAL_GPU_HAMO_V(T, "shmem_ctx_" #N "_atomic_inc", SHOAL_AMO_FETCH_ADD, d, (T)1, shoal_gpu_zero<T>(), pe, shoalh_ctx_##N##_atomic_inc(c, d, pe)))) \
  SHOAL_GPU_AMO2(void, N##_atomic_fetch_inc_nbi, (T *f, T *d, int pe), (shmem_ctx_t c, T *f, T *d, int pe), \
    ((void)(*f = shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, (T)1, pe))), \
    (shoalx_gpu_heap_has(d) ? (void)(*f = shoal_gpu_hamo<T>("shmem_" #N "_atomic_fetch_inc_nbi", SHOAL_AMO_FETCH_ADD, d, (T)1, shoal_gpu_zero<T>(), pe)) \
                            : shoalh_##N##_atomic_fetch_inc_nbi(f, d, pe)), \
    (shoalx_gpu_heap_has(d) ? (void)(*f = shoal_gpu_hamo<T>("shmem_ctx_" #N "_atomic_fetch_inc_nbi", SHOAL_AMO_FETCH_ADD, d, (T)1, shoal_gpu_zero<T>(), pe)) \
                            : shoalh_ctx_##N##_atomic_fetch_inc_nbi(c, f, d, pe)))

#define SHOAL_GPU_AMO_BIT(T, N) \
  SHOAL_GPU_AMO_RMW(T, N, and, fetch_and, SHOAL_AMO_FETCH_AND) \
  SHOAL_GPU_AMO_RMW(T, N, or, fetch_or, SHOAL_AMO_FETCH_OR) \
  SHOAL_GPU_AMO_RMW(T, N, xor, fetch_xor, SHOAL_AMO_FETCH_XOR)

SHOAL_AMO_EXT_TYPES(SHOAL_GPU_AMO_EXT)
SHOAL_AMO_STD_TYPES(SHOAL_GPU_AMO_STD)
SHOAL_AMO_BIT_TYPES(SHOAL_GPU_AMO_BIT)

/* Deprecated 1.4 AMO names. */
#define SHOAL_GPU_AMO_DEPR(T, N) \
  SHOAL_GPU_DEF(T, N##_swap, (T *d, T v, int pe), (shoal_dev_##N##_swap(SHOAL_DEV_CTX, d, v, pe)), \
    (SHOAL_GPU_HAMO(T, "shmem_" #N "_swap", SHOAL_AMO_SWAP, d, v, shoal_gpu_zero<T>(), pe, shoalh_##N##_swap(d, v, pe)))) \
  SHOAL_GPU_DEF(T, N##_cswap, (T *d, T cond, T v, int pe), (shoal_dev_##N##_compare_swap(SHOAL_DEV_CTX, d, cond, v, pe)), \
    (SHOAL_GPU_HAMO(T, "shmem_" #N "_cswap", SHOAL_AMO_CSWAP, d, v, cond, pe, shoalh_##N##_cswap(d, cond, v, pe)))) \
  SHOAL_GPU_DEF(T, N##_finc, (T *d, int pe), (shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, (T)1, pe)), \
    (SHOAL_GPU_HAMO(T, "shmem_" #N "_finc", SHOAL_AMO_FETCH_ADD, d, (T)1, shoal_gpu_zero<T>(), pe, shoalh_##N##_finc(d, pe)))) \
  SHOAL_GPU_DEF(void, N##_inc, (T *d, int pe), ((void)shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, (T)1, pe)), \
    (SHOAL_GPU_HAMO_V(T, "shmem_" #N "_inc", SHOAL_AMO_FETCH_ADD, d, (T)1, shoal_gpu_zero<T>(), pe, shoalh_##N##_inc(d, pe)))) \
  SHOAL_GPU_DEF(T, N##_fadd, (T *d, T v, int pe), (shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, v, pe)), \
    (SHOAL_GPU_HAMO(T, "shmem_" #N "_fadd", SHOAL_AMO_FETCH_ADD, d, v, shoal_gpu_zero<T>(), pe, shoalh_##N##_fadd(d, v, pe)))) \
  SHOAL_GPU_DEF(void, N##_add, (T *d, T v, int pe), ((void)shoal_dev_##N##_fetch_add(SHOAL_DEV_CTX, d, v, pe)), \
    (SHOAL_GPU_HAMO_V(T, "shmem_" #N "_add", SHOAL_AMO_FETCH_ADD, d, v, shoal_gpu_zero<T>(), pe, shoalh_##N##_add(d, v, pe)))) \
  SHOAL_GPU_DEPR_EXT(T, N)
#define SHOAL_GPU_DEPR_EXT(T, N) \
  SHOAL_GPU_DEF(T, N##_fetch, (const T *s, int pe), (shoal_dev_##N##_fetch(SHOAL_DEV_CTX, s, pe)), \
    (SHOAL_GPU_HAMO(T, "shmem_" #N "_fetch", SHOAL_AMO_FETCH, s, shoal_gpu_zero<T>(), shoal_gpu_zero<T>(), pe, shoalh_##N##_fetch(s, pe)))) \
  SHOAL_GPU_DEF(void, N##_set, (T *d, T v, int pe), (shoal_dev_##N##_set(SHOAL_DEV_CTX, d, v, pe)), \
    (SHOAL_GPU_HAMO_V(T, "shmem_" #N "_set", SHOAL_AMO_SET, d, v, shoal_gpu_zero<T>(), pe, shoalh_##N##_set(d, v, pe))))
SHOAL_GPU_AMO_DEPR(int, int)
SHOAL_GPU_AMO_DEPR(long, long)
SHOAL_GPU_AMO_DEPR(long long, longlong)
SHOAL_GPU_DEPR_EXT(float, float)
SHOAL_GPU_DEPR_EXT(double, double)
SHOAL_GPU_DEF(float, float_swap, (float *d, float v, int pe), (shoal_dev_float_swap(SHOAL_DEV_CTX, d, v, pe)),
  (SHOAL_GPU_HAMO(float, "shmem_float_swap", SHOAL_AMO_SWAP, d, v, 0.f, pe, shoalh_float_swap(d, v, pe))))
SHOAL_GPU_DEF(double, double_swap, (double *d, double v, int pe), (shoal_dev_double_swap(SHOAL_DEV_CTX, d, v, pe)),
  (SHOAL_GPU_HAMO(double, "shmem_double_swap", SHOAL_AMO_SWAP, d, v, 0., pe, shoalh_double_swap(d, v, pe))))
SHOAL_GPU_DEF(long, swap, (long *d, long v, int pe), (shoal_dev_long_swap(SHOAL_DEV_CTX, d, v, pe)),
  (SHOAL_GPU_HAMO(long, "shmem_swap", SHOAL_AMO_SWAP, d, v, 0L, pe, shoalh_swap(d, v, pe))))

/* ---- ordering ------------------------------------------------------------ */
/* In kernels fence and quiet are both a system-scope fence: stores to a
 * mapped peer are complete once visible at system scope. */
SHOAL_GPU_DEF(void, fence, (void), (shoal_fence_system()), (shoalh_fence()))
SHOAL_GPU_DEF(void, quiet, (void), (shoal_fence_system()), (shoalh_quiet()))
SHOAL_GPU_DEF(void, ctx_fence, (shmem_ctx_t c), (shoal_fence_system()), (shoalh_ctx_fence(c)))
SHOAL_GPU_DEF(void, ctx_quiet, (shmem_ctx_t c), (shoal_fence_system()), (shoalh_ctx_quiet(c)))

/* ---- point-to-point synchronization -------------------------------------- */
/* On the host, wait_until and test on GPU memory poll copies of it; the
 * _all/_any/_some forms from the host take CPU memory only. */
#define SHOAL_GPU_SYNC(T, N) \
  SHOAL_GPU_DEF(void, N##_wait_until, (T *ivar, int cmp, T v), (shoal_dev_##N##_wait_until(ivar, cmp, v)), \
    (shoalx_gpu_heap_has(ivar) ? shoal_gpu_hwait("shmem_" #N "_wait_until", ivar, cmp, v) \
                               : shoalh_##N##_wait_until(ivar, cmp, v))) \
  SHOAL_GPU_DEF(void, N##_wait, (T *ivar, T v), (shoal_dev_##N##_wait_until(ivar, SHMEM_CMP_NE, v)), \
    (shoalx_gpu_heap_has(ivar) ? shoal_gpu_hwait("shmem_" #N "_wait", ivar, SHMEM_CMP_NE, v) \
                               : shoalh_##N##_wait(ivar, v))) \
  SHOAL_GPU_DEF(int, N##_test, (T *ivar, int cmp, T v), (shoal_dev_##N##_test(ivar, cmp, v)), \
    (shoalx_gpu_heap_has(ivar) ? shoal_gpu_hcmp(shoal_gpu_hload("shmem_" #N "_test", ivar), cmp, v) \
                               : shoalh_##N##_test(ivar, cmp, v))) \
  SHOAL_GPU_DEF(void, N##_wait_until_all, (T *iv, size_t n, const int *st, int cmp, T v), \
    (shoal_dev_##N##_wait_until_all(iv, n, st, cmp, (const T *)0, v)), \
    (shoalh_##N##_wait_until_all(iv, n, st, cmp, v))) \
  SHOAL_GPU_DEF(size_t, N##_wait_until_any, (T *iv, size_t n, const int *st, int cmp, T v), \
    (shoal_dev_##N##_wait_until_any(iv, n, st, cmp, (const T *)0, v)), \
    (shoalh_##N##_wait_until_any(iv, n, st, cmp, v))) \
  SHOAL_GPU_DEF(size_t, N##_wait_until_some, (T *iv, size_t n, size_t *idx, const int *st, int cmp, T v), \
    (shoal_dev_##N##_wait_until_some(iv, n, idx, st, cmp, (const T *)0, v)), \
    (shoalh_##N##_wait_until_some(iv, n, idx, st, cmp, v))) \
  SHOAL_GPU_DEF(void, N##_wait_until_all_vector, (T *iv, size_t n, const int *st, int cmp, T *vals), \
    (shoal_dev_##N##_wait_until_all(iv, n, st, cmp, vals, shoal_gpu_zero<T>())), \
    (shoalh_##N##_wait_until_all_vector(iv, n, st, cmp, vals))) \
  SHOAL_GPU_DEF(size_t, N##_wait_until_any_vector, (T *iv, size_t n, const int *st, int cmp, T *vals), \
    (shoal_dev_##N##_wait_until_any(iv, n, st, cmp, vals, shoal_gpu_zero<T>())), \
    (shoalh_##N##_wait_until_any_vector(iv, n, st, cmp, vals))) \
  SHOAL_GPU_DEF(size_t, N##_wait_until_some_vector, (T *iv, size_t n, size_t *idx, const int *st, int cmp, T *vals), \
    (shoal_dev_##N##_wait_until_some(iv, n, idx, st, cmp, vals, shoal_gpu_zero<T>())), \
    (shoalh_##N##_wait_until_some_vector(iv, n, idx, st, cmp, vals))) \
  SHOAL_GPU_DEF(int, N##_test_all, (T *iv, size_t n, const int *st, int cmp, T v), \
    (shoal_dev_##N##_test_all(iv, n, st, cmp, (const T *)0, v)), (shoalh_##N##_test_all(iv, n, st, cmp, v))) \
  SHOAL_GPU_DEF(size_t, N##_test_any, (T *iv, size_t n, const int *st, int cmp, T v), \
    (shoal_dev_##N##_test_any(iv, n, st, cmp, (const T *)0, v)), (shoalh_##N##_test_any(iv, n, st, cmp, v))) \
  SHOAL_GPU_DEF(size_t, N##_test_some, (T *iv, size_t n, size_t *idx, const int *st, int cmp, T v), \
    (shoal_dev_##N##_test_some(iv, n, idx, st, cmp, (const T *)0, v)), \
    (shoalh_##N##_test_some(iv, n, idx, st, cmp, v))) \
  SHOAL_GPU_DEF(int, N##_test_all_vector, (T *iv, size_t n, const int *st, int cmp, T *vals), \
    (shoal_dev_##N##_test_all(iv, n, st, cmp, vals, shoal_gpu_zero<T>())), (shoalh_##N##_test_all_vector(iv, n, st, cmp, vals))) \
  SHOAL_GPU_DEF(size_t, N##_test_any_vector, (T *iv, size_t n, const int *st, int cmp, T *vals), \
    (shoal_dev_##N##_test_any(iv, n, st, cmp, vals, shoal_gpu_zero<T>())), (shoalh_##N##_test_any_vector(iv, n, st, cmp, vals))) \
  SHOAL_GPU_DEF(size_t, N##_test_some_vector, (T *iv, size_t n, size_t *idx, const int *st, int cmp, T *vals), \
    (shoal_dev_##N##_test_some(iv, n, idx, st, cmp, vals, shoal_gpu_zero<T>())), \
    (shoalh_##N##_test_some_vector(iv, n, idx, st, cmp, vals)))
SHOAL_SYNC_TYPES(SHOAL_GPU_SYNC)
SHOAL_GPU_DEF(void, wait, (long *ivar, long v), (shoal_dev_long_wait_until(ivar, SHMEM_CMP_NE, v)),
  (shoalx_gpu_heap_has(ivar) ? shoal_gpu_hwait("shmem_wait", ivar, SHMEM_CMP_NE, v) : shoalh_wait(ivar, v)))
SHOAL_GPU_DEF(void, wait_until, (long *ivar, int cmp, long v), (shoal_dev_long_wait_until(ivar, cmp, v)),
  (shoalx_gpu_heap_has(ivar) ? shoal_gpu_hwait("shmem_wait_until", ivar, cmp, v) : shoalh_wait_until(ivar, cmp, v)))

#include "gpu_x.h"
#endif
