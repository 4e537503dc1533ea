/* GPU half of device/arch.h: the same primitives for nvcc and hipcc. */
#ifndef SHOAL_DEVICE_ARCH_GPU_H
#define SHOAL_DEVICE_ARCH_GPU_H

#define shoal_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define shoal_load_relaxed(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define shoal_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define shoal_store_relaxed(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define shoal_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define shoal_fetch_and(p, v) __atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST)
#define shoal_fetch_or(p, v) __atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST)
#define shoal_fetch_xor(p, v) __atomic_fetch_xor((p), (v), __ATOMIC_SEQ_CST)
#define shoal_atomic_load_any(p, out) __atomic_load((p), (out), __ATOMIC_SEQ_CST)
#define shoal_atomic_store_any(p, in) __atomic_store((p), (in), __ATOMIC_SEQ_CST)
#define shoal_atomic_swap_any(p, in, out) __atomic_exchange((p), (in), (out), __ATOMIC_SEQ_CST)
#define shoal_cas(p, cmp, v) \
  __atomic_compare_exchange_n((p), (cmp), (v), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

SHOAL_FN void shoal_fence_system(void) { __threadfence_system(); }
SHOAL_FN void shoal_copy(void *dst, const void *src, size_t n)
{
  if (dst != src) memcpy(dst, src, n);
}
typedef struct shoal_backoff { unsigned spins; } shoal_backoff;
#define SHOAL_BACKOFF_INIT {0}
SHOAL_FN void shoal_backoff_wait(shoal_backoff *b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  if (b->spins++ > 16) __nanosleep(32);
#else
  b->spins++;
#endif
}
#define shoal_wait_progress() ((void)0)
#endif
