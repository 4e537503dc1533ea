/* The target abstraction under device/, teams/ and collectives/.
 *
 * Those layers are written once in a portable C subset and compiled for three
 * targets: the host CPU (C11, one PE per process), NVIDIA (nvcc) and AMD
 * (hipcc).  Everything that differs between targets lives here: how a
 * function is declared, atomics on plain memory, fences, and how a waiter
 * backs off.  Atomics use the C11 memory model (GCC/Clang __atomic builtins on
 * plain objects, which is what <stdatomic.h> lowers to); never volatile. */
#ifndef SHOAL_DEVICE_ARCH_H
#define SHOAL_DEVICE_ARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define SHOAL_TARGET_GPU 1
#define SHOAL_FN static inline __device__
/* Host and device: the _on_stream launches ask the selection on the host
 * (and a host can make LL's plan, collectives/ll.h). */
#define SHOAL_SELECT_FN static inline __host__ __device__
/* Error reporters: out of line, so a printf's code (hundreds of
 * instructions on AMD, where it also slowed hipcc down by minutes per
 * kernel) stays out of every kernel that could report. */
#define SHOAL_COLD_FN static __device__ __noinline__
#else
#define SHOAL_TARGET_CPU 1
#define SHOAL_FN static inline
#define SHOAL_SELECT_FN static inline
#define SHOAL_COLD_FN static __attribute__((noinline, cold))
#endif

#define SHOAL_LIKELY(x) __builtin_expect(!!(x), 1)
#define SHOAL_UNLIKELY(x) __builtin_expect(!!(x), 0)

#if SHOAL_TARGET_CPU
/* ---- host CPU ---------------------------------------------------------- */
#include <sched.h>
#include <time.h>

#define shoal_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define shoal_load_relaxed(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define shoal_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define shoal_store_relaxed(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define shoal_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define shoal_fetch_and(p, v) __atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST)
#define shoal_fetch_or(p, v) __atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST)
#define shoal_fetch_xor(p, v) __atomic_fetch_xor((p), (v), __ATOMIC_SEQ_CST)
/* Raises *p to v if it is lower; returns the old value.  uint64_t only
 * (GCC has no __atomic_fetch_max). */
static inline uint64_t shoal_fetch_max(uint64_t *p, uint64_t v)
{
  uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (old < v && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {}
  return old;
}
/* Two adjacent 8-byte words (p 16-byte aligned), each relaxed and whole;
 * the pair is not one access (the GPU's is one 16-byte access). */
static inline void shoal_store_relaxed_pair(uint64_t *p, uint64_t a, uint64_t b)
{
  __atomic_store_n(p, a, __ATOMIC_RELAXED);
  __atomic_store_n(p + 1, b, __ATOMIC_RELAXED);
}
static inline void shoal_load_relaxed_pair(const uint64_t *p, uint64_t *a, uint64_t *b)
{
  *a = __atomic_load_n(p, __ATOMIC_RELAXED);
  *b = __atomic_load_n(p + 1, __ATOMIC_RELAXED);
}
/* Generic forms work for any 4- or 8-byte object, floats included. */
#define shoal_atomic_load_any(p, out) __atomic_load((p), (out), __ATOMIC_SEQ_CST)
#define shoal_atomic_store_any(p, in) __atomic_store((p), (in), __ATOMIC_SEQ_CST)
#define shoal_atomic_swap_any(p, in, out) __atomic_exchange((p), (in), (out), __ATOMIC_SEQ_CST)
/* Compare-and-swap returning the old value; *cmp is updated to it. */
#define shoal_cas(p, cmp, v) \
  __atomic_compare_exchange_n((p), (cmp), (v), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

/* Orders this PE's earlier stores to peers before its later ones (fence) and
 * makes them visible (quiet): a full system fence on a shared-memory node. */
static inline void shoal_fence_system(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

/* n == 0 copies nothing, whatever the pointers (a zero-length put may pass
 * NULL, which memmove must never see). */
static inline void shoal_copy(void *dst, const void *src, size_t n)
{
  if (SHOAL_LIKELY(dst != src && n != 0)) memmove(dst, src, n);
}

/* Spin-waits back off and yield: CI runs 4 PEs on 2 cores, and a spinning
 * waiter must not starve the PE it waits for. */
/* A waiter also carries what it waits for, so that the wait watchdog
 * (SHOAL_WAIT_TIMEOUT, runtime/watchdog.c) can say so when it fires. */
typedef struct shoal_backoff {
  unsigned spins;
  const void *addr;   /* the word watched, or NULL */
  int cmp, size;      /* SHMEM_CMP_*, and the word's size in bytes */
  uint64_t value;     /* compared against (as the word's type, widened) */
  double t0;          /* when the watchdog first looked (0: not yet) */
} shoal_backoff;
#define SHOAL_BACKOFF_INIT {0, NULL, 0, 0, 0, 0}
#define SHOAL_BACKOFF_WATCH(p, c, v) {0, (const void *)(p), (c), (int)sizeof *(p), (uint64_t)(v), 0}
/* The watchdog's look, every SHOAL_WATCH_SPINS waits of a spin: the clock,
 * peers that left, the launcher.  Out of line, so the fast path is one
 * masked compare. */
#define SHOAL_WATCH_SPINS 2048u
void shoal_wait_check(shoal_backoff *b) __attribute__((visibility("hidden")));
/* Pause-spins before yielding: 0 when this node runs more PEs than it has
 * cores (set at init), since then the PE we wait for needs our core. */
extern unsigned shoal_spin_limit __attribute__((visibility("hidden")));
/* The n-th pause of a spin: spin briefly, then yield, then sleep. */
static inline void shoal_backoff_pause(unsigned n)
{
  if (n < shoal_spin_limit) {   /* the peer runs on another core: spin briefly */
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
  } else if (n < 20000 + shoal_spin_limit) {
    /* Oversubscribed (more PEs than cores): let the PE we wait for run. */
    sched_yield();
  } else {
    /* A long wait: sleep, growing to 100 us, so an idle PE costs little. */
    n -= shoal_spin_limit;
    unsigned us = n < 22000 ? 1 + (n - 20000) / 20 : 100;
    struct timespec ts = {0, (long)us * 1000};
    nanosleep(&ts, NULL);
  }
}
static inline void shoal_backoff_wait(shoal_backoff *b)
{
  unsigned n = b->spins++;
  if (SHOAL_UNLIKELY((n & (SHOAL_WATCH_SPINS - 1)) == SHOAL_WATCH_SPINS - 1)) shoal_wait_check(b);
  shoal_backoff_pause(n);
}
/* The idle loop of a library thread with nothing to do (a progress
 * thread): the same pauses, but it waits for nothing, so the wait watchdog
 * never looks at it (it would end a job that merely sits idle). */
static inline void shoal_idle_wait(unsigned *spins) { shoal_backoff_pause((*spins)++); }
/* Lets a waiting PE drive transports that need manual progress. */
void shoal_progress_hook(void);
#define shoal_wait_progress() shoal_progress_hook()

#else
/* ---- GPU (CUDA / HIP) -------------------------------------------------- */
#include "arch_gpu.h"
#endif

#endif
