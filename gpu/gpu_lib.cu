/* The library's own GPU translation unit, compiled by nvcc (CUDA builds) or
 * hipcc (HIP builds) into libshoal: the kernels behind host calls on GPU
 * memory.  Like any user unit it includes <shmem.h>, registers for the
 * device state, and runs the collectives through the same _on_stream code
 * (collectives/ and <shoal/gpu_x.h>) a user's unit would. */
#include <shmem.h>
#include <shmemx.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <type_traits>
#include "gpu_lib.h"
#include "gpu_lib_reduce.h"
#include "amo_mailbox.h"

/* ---- AMOs ------------------------------------------------------------------ */
template <class T> __device__ void amo_on(int op, T *r, uint64_t a, uint64_t b, uint64_t *out)
{
  T v, c, res = T();
  memcpy(&v, &a, sizeof v);
  memcpy(&c, &b, sizeof c);
  switch (op) {
  case SHOAL_AMO_FETCH: res = shoal_gpu_load(r, SHOAL_RLX); break;
  case SHOAL_AMO_SET: shoal_gpu_store(r, v, SHOAL_RLX); break;
  case SHOAL_AMO_SWAP: res = shoal_gpu_exchange(r, v); break;
  default:
    if constexpr (std::is_integral<T>::value) {
      switch (op) {
      case SHOAL_AMO_CSWAP: res = c; shoal_gpu_cas(r, &res, v); break;
      case SHOAL_AMO_FETCH_ADD: case SHOAL_AMO_ADD: res = shoal_gpu_fetch_add(r, v); break;
      case SHOAL_AMO_FETCH_AND: case SHOAL_AMO_AND: res = shoal_gpu_fetch_and(r, v); break;
      case SHOAL_AMO_FETCH_OR: case SHOAL_AMO_OR: res = shoal_gpu_fetch_or(r, v); break;
      case SHOAL_AMO_FETCH_XOR: case SHOAL_AMO_XOR: res = shoal_gpu_fetch_xor(r, v); break;
      default: break;
      }
    }
  }
  uint64_t o = 0;
  memcpy(&o, &res, sizeof res);
  *out = o;
}

/* One AMO of any dtype on r (this GPU's memory or a mapped peer's).  The
 * AMO itself is relaxed: what orders it is the caller's -- the host posts
 * it after its earlier copies to that memory completed, and the result
 * goes out after a system fence (its value depends on the AMO anyway). */
__device__ void amo_apply(int op, int dt, void *r, uint64_t a, uint64_t b, uint64_t *out)
{
  switch (dt) {
  case SHOAL_DT_I32: amo_on<int32_t>(op, (int32_t *)r, a, b, out); break;
  case SHOAL_DT_I64: amo_on<int64_t>(op, (int64_t *)r, a, b, out); break;
  case SHOAL_DT_U32: amo_on<uint32_t>(op, (uint32_t *)r, a, b, out); break;
  case SHOAL_DT_U64: amo_on<uint64_t>(op, (uint64_t *)r, a, b, out); break;
  case SHOAL_DT_F32: amo_on<float>(op, (float *)r, a, b, out); break;
  default: amo_on<double>(op, (double *)r, a, b, out); break;
  }
}

__global__ void shoal_lib_k_amo(int op, int dt, void *r, uint64_t a, uint64_t b, uint64_t *out)
{
  amo_apply(op, dt, r, a, b, out);
  shoal_fence_system();
}

/* A kernel launch per AMO costs ~5 us (launch and the host's wait), which
 * is most of a fetch-add through the host proxy.  Instead one single-thread
 * kernel serves a mailbox in pinned host memory (gpu/amo_mailbox.h) and
 * stays SHOAL_GPU_AMO_LINGER after its last request (a fetch-add loop, a
 * counter many PEs hit).  It leaves when idle, because while it runs it
 * holds a block slot and cudaDeviceSynchronize waits for it; a request
 * that finds it gone launches it again. */
__global__ void shoal_lib_k_amo_serve(shoal_amo_box *box, uint32_t next, unsigned long long linger_ns)
{
  unsigned long long idle = shoal_gpu_clock_ns();
  for (unsigned k = 1;; k++) {
    shoal_amo_req q;
    if (shoal_amo_box_take(box, next, &q)) {
      uint64_t r = 0;
      amo_apply((int)q.op, (int)q.dt, (void *)(uintptr_t)q.target, q.a, q.b, &r);
      shoal_fence_system();   /* the AMO is performed before anyone sees its answer */
      shoal_amo_box_reply(box, next, r);
      next++;
      idle = shoal_gpu_clock_ns();
      continue;
    }
    if ((k & 63) == 0 && (shoal_gpu_load(&box->quit, SHOAL_RLX) || shoal_gpu_clock_ns() - idle > linger_ns)) return;
  }
}

static pthread_mutex_t amo_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long amo_linger_ns = 100000;
#if defined(__CUDACC__)
#define LIB_HOST_ALLOC(p, n) cudaHostAlloc(p, n, 0)
#else
#define LIB_HOST_ALLOC(p, n) hipHostMalloc(p, n, 0)
#endif

void shoal_gpu_lib_amo_setup(double linger_s)
{
  amo_linger_ns = (unsigned long long)(linger_s * 1e9);
}

/* Its own stream: the host proxy applies peers' atomics here while this
 * unit's collective kernels (host-blocking collectives on GPU memory) may
 * be waiting for exactly those atomics on the unit's stream. */
static shoal_gpu_stream_t amo_st;
static shoal_amo_box *amo_box;   /* pinned; the kernel reads and writes it */
static uint32_t amo_seq;       /* the last request answered */
static bool amo_serving;

static void amo_serve_launch(const char *call)
{
  shoal_lib_k_amo_serve<<<1, 1, 0, amo_st>>>(amo_box, amo_seq + 1, amo_linger_ns);
  shoal_gpu_hcheck(call, SHOAL_GPURT(GetLastError)());
  amo_serving = true;
}

static uint64_t amo_now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Post one request to the serving kernel and wait for its answer. */
static uint64_t amo_served(const char *call, int op, int dt, void *target, uint64_t a, uint64_t b)
{
  uint32_t n = amo_seq + 1;
  shoal_amo_req q = {(uint32_t)op, (uint32_t)dt, (uint64_t)(uintptr_t)target, a, b};
  shoal_amo_box_post(amo_box, n, &q);
  if (!amo_serving) amo_serve_launch(call);
  uint64_t r, look = 0;
  for (unsigned k = 1; !shoal_amo_box_answered(amo_box, n, &r); k++) {
    if (k % 64) continue;
    /* Gone idle before it saw the request?  Then launch it again.  Asked
     * every 20 us, not every few polls: a stream query costs about as much
     * as the answer takes to come (more under MPS). */
    uint64_t now = amo_now_ns();
    if (!look) look = now;
    if (now - look < 20000) continue;
    look = now;
    SHOAL_GPURT(Error_t) e = SHOAL_GPURT(StreamQuery)(amo_st);
    if (e == SHOAL_GPURT(Success)) {
      if (shoal_amo_box_answered(amo_box, n, &r)) break;
      amo_serve_launch(call);
    } else if (e != SHOAL_GPURT(ErrorNotReady)) {
      shoal_gpu_hcheck(call, e);
    }
    sched_yield();
  }
  amo_seq = n;
  return r;
}

void shoal_gpu_lib_amo(int op, int dt, void *target, const void *operand, const void *compare, void *result)
{
  static uint64_t *out;   /* pinned: the kernel writes the result straight to the host */
  const char *call = "atomic on GPU memory (host)";
  size_t size = (dt == SHOAL_DT_I32 || dt == SHOAL_DT_U32 || dt == SHOAL_DT_F32) ? 4 : 8;
  uint64_t a = 0, b = 0, r;
  memcpy(&a, operand, size);
  if (compare) memcpy(&b, compare, size);
  pthread_mutex_lock(&amo_lock);
  if (!amo_st) shoal_gpu_hcheck(call, SHOAL_GPURT(StreamCreateWithFlags)(&amo_st, SHOAL_GPURT(StreamNonBlocking)));
  if (amo_linger_ns) {
    if (!amo_box) {
      shoal_gpu_hcheck(call, LIB_HOST_ALLOC((void **)&amo_box, sizeof *amo_box));
      shoal_amo_box_reset(amo_box, amo_seq);
    }
    r = amo_served(call, op, dt, target, a, b);
  } else {
    if (!out) shoal_gpu_hcheck(call, LIB_HOST_ALLOC((void **)&out, 8));
    shoal_lib_k_amo<<<1, 1, 0, amo_st>>>(op, dt, target, a, b, out);
    shoal_gpu_hcheck(call, SHOAL_GPURT(GetLastError)());
    shoal_gpu_hcheck(call, SHOAL_GPURT(StreamSynchronize)(amo_st));
    r = *(volatile uint64_t *)out;
  }
  pthread_mutex_unlock(&amo_lock);
  if (result) memcpy(result, &r, size);
}

/* shmem_finalize: the serving kernel leaves once idle, and is waited for. */
void shoal_gpu_lib_amo_stop(void)
{
  pthread_mutex_lock(&amo_lock);
  if (amo_box) __atomic_store_n(&amo_box->quit, 1, __ATOMIC_RELEASE);
  if (amo_st) shoal_gpu_hcheck("shmem_finalize", SHOAL_GPURT(StreamSynchronize)(amo_st));
  amo_serving = false;
  pthread_mutex_unlock(&amo_lock);
}

/* ---- collectives ----------------------------------------------------------- */
void shoal_gpu_lib_move(const char *call, int which, shmem_team_t team, void *dest, const void *src,
                        size_t nbytes, int root)
{
  shoal_gpu_stream_t st = shoal_gpu_hstream(call);
  shoal_gpu_move_on_stream(call, which, team, dest, src, nbytes, root, st);
  shoal_gpu_hcheck(call, SHOAL_GPURT(StreamSynchronize)(st));
}

/* The reductions' kernels live in eight units compiled side by side
 * (gpu_lib_reduce_*.cu: nvcc's time on one unit holding every typed
 * kernel was most of a GPU build). */
static int lib_reduce(const char *call, shmem_team_t team, void *dest, const void *src, size_t count,
                      int kind, int size, int op, int scatter, shoal_gpu_stream_t st)
{
  /* Two's complement: signed sums, products and bitwise operators have
   * the unsigned kernels' bits, so only min and max need signed kernels
   * (a fifth fewer kernels for nvcc/hipcc to build). */
  if (kind == 0 && op != SHOAL_LIB_OP_min && op != SHOAL_LIB_OP_max) kind = 1;
  if (kind == 0) return shoal_gpu_lib_reduce_signed(call, team, dest, src, count, size, op, scatter, st);
  if (kind == 2) return shoal_gpu_lib_reduce_float(call, team, dest, src, count, size, op, scatter, st);
  if (kind == 3 || kind == 4) return shoal_gpu_lib_reduce_f16(call, team, dest, src, count, kind, op, scatter, st);
  /* complex: sums are the sums of the parts; products their own kernels,
   * whose elements sit aligned to their size (the reducers' 16-byte
   * vectors hold whole ones; C aligns complex types to their parts) */
  if ((kind == 5 || kind == 6) && op == SHOAL_LIB_OP_prod && (((uintptr_t)dest | (uintptr_t)src) & (size - 1)))
    return -2;
  if ((kind == 5 || kind == 6) && op == SHOAL_LIB_OP_sum)
    return shoal_gpu_lib_reduce_float(call, team, dest, src, 2 * count, size / 2, op, scatter, st);
  if (kind == 5 || kind == 6) return shoal_gpu_lib_reduce_complex(call, team, dest, src, count, kind, op, scatter, st);
  if (kind != 1) return -1;
  switch (size) {
  case 1: return shoal_gpu_lib_reduce_uint8(call, team, dest, src, count, size, op, scatter, st);
  case 2: return shoal_gpu_lib_reduce_uint16(call, team, dest, src, count, size, op, scatter, st);
  case 4: return shoal_gpu_lib_reduce_uint32(call, team, dest, src, count, size, op, scatter, st);
  case 8: return shoal_gpu_lib_reduce_uint64(call, team, dest, src, count, size, op, scatter, st);
  default: return -1;
  }
}

int shoal_gpu_lib_reduce(const char *call, shmem_team_t team, void *dest, const void *src, size_t count,
                         int kind, int size, int op, int scatter)
{
  shoal_gpu_stream_t st = shoal_gpu_hstream(call);
  int rc = lib_reduce(call, team, dest, src, count, kind, size, op, scatter, st);
  if (rc == 0) shoal_gpu_hcheck(call, SHOAL_GPURT(StreamSynchronize)(st));
  return rc;
}

int shoal_gpu_lib_reduce_on_stream(const char *call, shmem_team_t team, void *dest, const void *src,
                                   size_t count, int kind, int size, int op, int scatter, void *stream)
{
  return lib_reduce(call, team, dest, src, count, kind, size, op, scatter, (shoal_gpu_stream_t)stream);
}
