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

static __constant__ shoal_gpu_dstate shoal_dgpu;
#define SHOAL_STATE (&shoal_dgpu.s)
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
