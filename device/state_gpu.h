/* GPU half of device/state.h: where device code finds the job's state.
 *
 * No relocatable device code: every translation unit that includes
 * <shmem.h> under nvcc/hipcc gets its own __constant__ copy of the state,
 * and a load-time registrar (compiled into that unit, so it uses the unit's
 * own CUDA/HIP runtime, static or shared) hands the runtime a callback that
 * fills the copy.  The runtime calls every registered callback at
 * shmem_init, and at once for units loaded later (dlopen). */
#ifndef SHOAL_DEVICE_STATE_GPU_H
#define SHOAL_DEVICE_STATE_GPU_H

#include "gpu_image.h"
#include <shoal/constants.h>
#include <stdio.h>

static __constant__ shoal_gpu_dstate shoal_dgpu;
#define SHOAL_STATE (&shoal_dgpu.s)

/* The wait watchdog in kernels: past SHOAL_WAIT_TIMEOUT one thread of the
 * unit prints what it waited for, and every waiting thread traps; the host
 * finds the failed kernel at its next synchronization (shmem_finalize at
 * the latest) and ends the job with a message (runtime/gpu_runtime.c). */
static __device__ int shoal_gpu_watchdog_fired;
static __device__ __noinline__ unsigned long long shoal_gpu_wait_check(const void *addr, int cmp, int size,
                                                                       uint64_t value, unsigned long long t0)
{
  unsigned long long limit = shoal_dgpu.wait_timeout_ns;
  if (SHOAL_LIKELY(limit == 0)) return t0;
  unsigned long long now = shoal_gpu_clock_ns();
  if (t0 == 0) return now;
  if (now - t0 < limit) return t0;
  if (atomicCAS_system(&shoal_gpu_watchdog_fired, 0, 1) == 0) {   /* system scope: tests/gpu/isa */
    const shoal_dev_state *s = SHOAL_STATE;
    long long seen = 0;
    if (size == 8) seen = (long long)shoal_load_relaxed((const unsigned long long *)addr);
    else if (size == 4) seen = (long long)shoal_load_relaxed((const int *)addr);
    size_t off = (size_t)((uintptr_t)addr - (uintptr_t)s->heap_base);
    const char *cmp_names[] = {"==", "!=", ">", ">=", "<", "<="};
    int c = cmp >= SHMEM_CMP_EQ && cmp <= SHMEM_CMP_LE ? cmp - SHMEM_CMP_EQ : 0;
    printf("shoal: PE %d: error: wait watchdog in a kernel (block %d,%d,%d thread %d,%d,%d): "
           "waited %llu s (SHOAL_WAIT_TIMEOUT) for the word at %s %#llx to be %s %lld (last "
           "seen: %lld); the kernel stops\n", s->my_pe, (int)blockIdx.x, (int)blockIdx.y,
           (int)blockIdx.z, (int)threadIdx.x, (int)threadIdx.y, (int)threadIdx.z,
           (now - t0) / 1000000000ull, off < s->heap_size ? "heap offset" : "address",
           off < s->heap_size ? (unsigned long long)off : (unsigned long long)(uintptr_t)addr,
           cmp_names[c], size == 4 ? (long long)(int)value : (long long)value, seen);
  }
  shoal_gpu_trap();
  return t0;
}
#define SHOAL_PEER_HEAP(pe) \
  ((unsigned)(pe) < SHOAL_GPU_NEAR_PEERS ? shoal_dgpu.peer_heap_near[pe] : shoal_dgpu.s.peer_heap[pe])

#ifdef __cplusplus
extern "C" {
#endif
/* Exported by libshoal (GPU builds).  The callback copies *img into the
 * unit's constant state and returns NULL, or an error message. */
typedef const char *(*shoal_gpu_load_fn)(const shoal_gpu_dstate *img);
void shoalx_gpu_register_tu(shoal_gpu_load_fn fn);
void shoalx_gpu_unregister_tu(shoal_gpu_load_fn fn);
#ifdef __cplusplus
}
#endif

static const char *shoal_gpu_tu_load(const shoal_gpu_dstate *img)
{
#if defined(__CUDACC__)
  cudaError_t e = cudaSetDevice(img->device);
  if (e == cudaSuccess) e = cudaMemcpyToSymbol(shoal_dgpu, img, sizeof *img);
  return e == cudaSuccess ? (const char *)0 : cudaGetErrorString(e);
#else
  hipError_t e = hipSetDevice(img->device);
  if (e == hipSuccess) e = hipMemcpyToSymbol(HIP_SYMBOL(shoal_dgpu), img, sizeof *img);
  return e == hipSuccess ? (const char *)0 : hipGetErrorString(e);
#endif
}

/* A C++ static object rather than __attribute__((constructor)): its
 * initializer runs after the unit's own fatbinary registration, so a unit
 * dlopen'ed after shmem_init can be filled at once. */
namespace {
struct shoal_gpu_tu_registrar {
  shoal_gpu_tu_registrar() { shoalx_gpu_register_tu(shoal_gpu_tu_load); }
  ~shoal_gpu_tu_registrar() { shoalx_gpu_unregister_tu(shoal_gpu_tu_load); }
};
static shoal_gpu_tu_registrar shoal_gpu_tu_registrar_obj;
}

#endif
