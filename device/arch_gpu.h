/* GPU half of device/arch.h: the same primitives for nvcc and hipcc.
 *
 * Symmetric memory on a GPU is read and written by other GPUs over
 * NVLink/xGMI and by host threads, so every atomic here is system scope.
 * nvcc does not accept the GCC __atomic builtins in device code: CUDA uses
 * cuda::atomic_ref<T, thread_scope_system>; HIP uses clang's
 * __hip_atomic_* builtins with the system scope.  The macros keep the names
 * device/ code uses on every target. */
#ifndef SHOAL_DEVICE_ARCH_GPU_H
#define SHOAL_DEVICE_ARCH_GPU_H

#if defined(__CUDACC__)
#include <cuda/atomic>
#else
#include <hip/hip_runtime.h>
#endif

/* True in the device compilation pass (CUDA: __CUDA_ARCH__, HIP:
 * __HIP_DEVICE_COMPILE__). */
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define SHOAL_IN_DEVICE_PASS 1
#else
#define SHOAL_IN_DEVICE_PASS 0
#endif

#if defined(__CUDACC__)
template <class T> using shoal_aref = cuda::atomic_ref<T, cuda::thread_scope_system>;
#define SHOAL_MO(o) cuda::memory_order_##o
template <class T> __device__ inline shoal_aref<T> shoal_gpu_ref(const T *p)
{
  return shoal_aref<T>(*const_cast<T *>(p));
}
template <class T> __device__ inline T shoal_gpu_load(const T *p, cuda::memory_order o)
{
  return shoal_gpu_ref(p).load(o);
}
template <class T, class U> __device__ inline void shoal_gpu_store(T *p, U v, cuda::memory_order o)
{
  shoal_gpu_ref(p).store((T)v, o);
}
#define SHOAL_GPU_RMW(NAME, METHOD) \
  template <class T, class U> __device__ inline T NAME(T *p, U v) \
  { return shoal_gpu_ref(p).METHOD((T)v, cuda::memory_order_relaxed); }
SHOAL_GPU_RMW(shoal_gpu_fetch_add, fetch_add)
SHOAL_GPU_RMW(shoal_gpu_fetch_and, fetch_and)
SHOAL_GPU_RMW(shoal_gpu_fetch_or, fetch_or)
SHOAL_GPU_RMW(shoal_gpu_fetch_xor, fetch_xor)
SHOAL_GPU_RMW(shoal_gpu_exchange, exchange)
SHOAL_GPU_RMW(shoal_gpu_fetch_max, fetch_max)
#undef SHOAL_GPU_RMW
template <class T, class U> __device__ inline bool shoal_gpu_cas(T *p, T *cmp, U v)
{
  return shoal_gpu_ref(p).compare_exchange_strong(*cmp, (T)v, cuda::memory_order_relaxed);
}
#else /* HIP */
#define SHOAL_MO(o) __ATOMIC_##o
#define SHOAL_HIP_SYS __HIP_MEMORY_SCOPE_SYSTEM
template <class T> __device__ inline T shoal_gpu_load(const T *p, int o)
{
  return __hip_atomic_load(const_cast<T *>(p), o, SHOAL_HIP_SYS);
}
template <class T, class U> __device__ inline void shoal_gpu_store(T *p, U v, int o)
{
  __hip_atomic_store(p, (T)v, o, SHOAL_HIP_SYS);
}
#define SHOAL_GPU_RMW(NAME, BUILTIN) \
  template <class T, class U> __device__ inline T NAME(T *p, U v) \
  { return BUILTIN(p, (T)v, __ATOMIC_RELAXED, SHOAL_HIP_SYS); }
SHOAL_GPU_RMW(shoal_gpu_fetch_add, __hip_atomic_fetch_add)
SHOAL_GPU_RMW(shoal_gpu_fetch_and, __hip_atomic_fetch_and)
SHOAL_GPU_RMW(shoal_gpu_fetch_or, __hip_atomic_fetch_or)
SHOAL_GPU_RMW(shoal_gpu_fetch_xor, __hip_atomic_fetch_xor)
SHOAL_GPU_RMW(shoal_gpu_exchange, __hip_atomic_exchange)
SHOAL_GPU_RMW(shoal_gpu_fetch_max, __hip_atomic_fetch_max)
#undef SHOAL_GPU_RMW
template <class T, class U> __device__ inline bool shoal_gpu_cas(T *p, T *cmp, U v)
{
  return __hip_atomic_compare_exchange_strong(p, cmp, (T)v, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                              SHOAL_HIP_SYS);
}
#endif

/* acquire/release: cuda memory_order_acquire / __ATOMIC_ACQUIRE */
#if defined(__CUDACC__)
#define SHOAL_ACQ cuda::memory_order_acquire
#define SHOAL_REL cuda::memory_order_release
#define SHOAL_RLX cuda::memory_order_relaxed
#define SHOAL_SC cuda::memory_order_seq_cst
#else
#define SHOAL_ACQ __ATOMIC_ACQUIRE
#define SHOAL_REL __ATOMIC_RELEASE
#define SHOAL_RLX __ATOMIC_RELAXED
#define SHOAL_SC __ATOMIC_SEQ_CST
#endif

#define shoal_load_acquire(p) shoal_gpu_load((p), SHOAL_ACQ)
#define shoal_load_relaxed(p) shoal_gpu_load((p), SHOAL_RLX)
#define shoal_store_release(p, v) shoal_gpu_store((p), (v), SHOAL_REL)
#define shoal_store_relaxed(p, v) shoal_gpu_store((p), (v), SHOAL_RLX)
#define shoal_fetch_add(p, v) shoal_gpu_fetch_add((p), (v))
#define shoal_fetch_and(p, v) shoal_gpu_fetch_and((p), (v))
#define shoal_fetch_or(p, v) shoal_gpu_fetch_or((p), (v))
#define shoal_fetch_xor(p, v) shoal_gpu_fetch_xor((p), (v))
#define shoal_fetch_max(p, v) shoal_gpu_fetch_max((p), (v))
#define shoal_atomic_load_any(p, out) (*(out) = shoal_gpu_load((p), SHOAL_RLX))
#define shoal_atomic_store_any(p, in) shoal_gpu_store((p), *(in), SHOAL_RLX)
#define shoal_atomic_swap_any(p, in, out) (*(out) = shoal_gpu_exchange((p), *(in)))
#define shoal_cas(p, cmp, v) shoal_gpu_cas((p), (cmp), (v))

/* Two adjacent 8-byte words (p 16-byte aligned) in one 16-byte access:
 * each word is read or written whole (PTX: a vector access is one access
 * per element, each single-copy atomic; volatile is relaxed at system
 * scope), the pair in one instruction and one memory transaction, as
 * NCCL's LL lines. */
#if defined(__CUDACC__)
SHOAL_FN void shoal_store_relaxed_pair(uint64_t *p, uint64_t a, uint64_t b)
{
  asm volatile("st.volatile.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
}
SHOAL_FN void shoal_load_relaxed_pair(const uint64_t *p, uint64_t *a, uint64_t *b)
{
  uint64_t x, y;
  asm volatile("ld.volatile.v2.u64 {%0, %1}, [%2];" : "=l"(x), "=l"(y) : "l"(p) : "memory");
  *a = x;
  *b = y;
}
#else
SHOAL_FN void shoal_store_relaxed_pair(uint64_t *p, uint64_t a, uint64_t b)
{
  shoal_gpu_store(p, a, SHOAL_RLX);
  shoal_gpu_store(p + 1, b, SHOAL_RLX);
}
SHOAL_FN void shoal_load_relaxed_pair(const uint64_t *p, uint64_t *a, uint64_t *b)
{
  *a = shoal_gpu_load(p, SHOAL_RLX);
  *b = shoal_gpu_load(p + 1, SHOAL_RLX);
}
#endif

/* AMOs are relaxed: OpenSHMEM orders them only through fence, quiet and
 * barriers, which device/ code issues explicitly (shoal_fence_system before
 * a signal or a barrier arrival).  An acquire-release fence at system scope
 * orders every earlier load and store of this thread, to any GPU or the
 * host, before every later one: what fence, quiet and put_signal need. */
#if defined(__CUDACC__)
SHOAL_FN void shoal_fence_system(void) { cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_system); }
#else
SHOAL_FN void shoal_fence_system(void) { __atomic_thread_fence(__ATOMIC_ACQ_REL); }
#endif

/* One thread's copy.  Peers are reached over NVLink/xGMI, where 16-byte
 * accesses are what reaches full bandwidth; fall back to 8, 4, then bytes.
 * The common case (16-byte aligned, a multiple of 16 bytes) is tested
 * first and alone: a small put's cost is this path's instruction count. */
SHOAL_FN void shoal_copy(void *dst, const void *src, size_t n)
{
  if (dst == src) return;
  char *d = (char *)dst;
  const char *s = (const char *)src;
  uintptr_t mis = ((uintptr_t)d | (uintptr_t)s);
  size_t i = 0;
  if (((mis | n) & 15) == 0) {
    /* Loads before stores: src and dest never overlap in a put or get, but
     * the compiler cannot know, and would wait out each load in turn. */
    for (; i + 64 <= n; i += 64) {
      uint4 a = *(const uint4 *)(s + i), b = *(const uint4 *)(s + i + 16);
      uint4 c = *(const uint4 *)(s + i + 32), e = *(const uint4 *)(s + i + 48);
      *(uint4 *)(d + i) = a; *(uint4 *)(d + i + 16) = b;
      *(uint4 *)(d + i + 32) = c; *(uint4 *)(d + i + 48) = e;
    }
    for (; i < n; i += 16) *(uint4 *)(d + i) = *(const uint4 *)(s + i);
    return;
  }
  /* One 64-bit element (shmem_long_put of 1, a put of a double). */
  if (n == 8 && (mis & 7) == 0) {
    *(uint64_t *)d = *(const uint64_t *)s;
    return;
  }
  /* Each width also takes the tail the wider one left (a 24-byte put of
   * 16-aligned buffers is two accesses, not twenty-four). */
  if ((mis & 15) == 0)
    for (; i + 16 <= n; i += 16) *(uint4 *)(d + i) = *(const uint4 *)(s + i);
  if ((mis & 7) == 0)
    for (; i + 8 <= n; i += 8) *(uint64_t *)(d + i) = *(const uint64_t *)(s + i);
  if ((mis & 3) == 0)
    for (; i + 4 <= n; i += 4) *(uint32_t *)(d + i) = *(const uint32_t *)(s + i);
  for (; i < n; i++) d[i] = s[i];
}

/* Stop the kernel: the host sees the launch fail and ends the job. */
SHOAL_FN void shoal_gpu_trap(void)
{
#if defined(__CUDACC__)
  __trap();
#else
  abort();
#endif
}

/* Stop the kernel after an argument check whose message one thread
 * prints (say): the others wait up to about 0.1 s first.  A trap ends
 * every thread of the kernel at once, and another thread's trap lost the
 * message of the one still printing (tests/gpu/test_badarg). */
SHOAL_FN void shoal_gpu_trap_after(bool say)
{
  if (!say) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    for (int i = 0; i < 100; i++) __nanosleep(1000000);
#elif defined(__HIP_DEVICE_COMPILE__)
    for (int i = 0; i < 25000; i++) __builtin_amdgcn_s_sleep(127);
#endif
  }
  shoal_gpu_trap();
}

/* What a waiter waits for, as on the CPU (device/arch.h). */
typedef struct shoal_backoff {
  unsigned spins;
  const void *addr;
  int cmp, size;
  uint64_t value;
  uint64_t t0;
} shoal_backoff;
#define SHOAL_BACKOFF_INIT {0, NULL, 0, 0, 0, 0}
#define SHOAL_BACKOFF_WATCH(p, c, v) {0, (const void *)(p), (c), (int)sizeof *(p), (uint64_t)(v), 0}
/* The wait watchdog in kernels (SHOAL_WAIT_TIMEOUT): defined in
 * state_gpu.h, where the job's state is; looked at every 4096 spins.  Out
 * of line and given the fields by value, so its printf costs the waiting
 * kernel no registers and the wait's state stays in registers; returns
 * the new start time. */
static __device__ __noinline__ unsigned long long shoal_gpu_wait_check(const void *addr, int cmp, int size,
                                                                       uint64_t value, unsigned long long t0);
/* A clock in nanoseconds (HIP: the 100 MHz constant-rate counter). */
SHOAL_FN unsigned long long shoal_gpu_clock_ns(void)
{
#if defined(__CUDACC__)
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#elif defined(__HIP_DEVICE_COMPILE__)
  return (unsigned long long)wall_clock64() * 10ull;
#else
  return 0;   /* HIP's host pass also sees __device__ bodies */
#endif
}

/* A waiting GPU thread never yields to the PE it waits for (that PE is
 * another GPU): spin first (latency), then sleep briefly to save memory
 * traffic on long waits. */
SHOAL_FN void shoal_backoff_wait(shoal_backoff *b)
{
  unsigned n = b->spins++;
#ifndef SHOAL_NO_WAIT_WATCHDOG   /* defined only by benchmarks measuring what the check costs */
  if (SHOAL_UNLIKELY((n & 4095u) == 4095u)) b->t0 = shoal_gpu_wait_check(b->addr, b->cmp, b->size, b->value, b->t0);
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  if (n > 4096) __nanosleep(32);
#endif
}
#define shoal_wait_progress() ((void)0)
#endif
