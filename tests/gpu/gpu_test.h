/* Helpers for the GPU tests: fresh per-run data every PE can predict,
 * checked CUDA/HIP calls, and a failure count that sets the exit status.
 * The sources use the CUDA runtime names; hipcc builds map them (below). */
#ifndef SHOAL_GPU_TEST_H
#define SHOAL_GPU_TEST_H

#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__HIPCC__)
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemcpy hipMemcpy
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemset hipMemset
#define cudaMemcpyDefault hipMemcpyDefault
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaGetLastError hipGetLastError
#define cudaGetErrorString hipGetErrorString
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaStream_t hipStream_t
#define cudaStreamCreate hipStreamCreate
#define cudaStreamDestroy hipStreamDestroy
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaGraph_t hipGraph_t
#define cudaGraphExec_t hipGraphExec_t
#define cudaStreamBeginCapture hipStreamBeginCapture
#define cudaStreamEndCapture hipStreamEndCapture
#define cudaStreamCaptureModeGlobal hipStreamCaptureModeGlobal
#define cudaGraphInstantiate(e, g, f) hipGraphInstantiate(e, g, NULL, NULL, 0)
#define cudaGraphLaunch hipGraphLaunch
#define cudaGraphExecDestroy hipGraphExecDestroy
#define cudaGraphDestroy hipGraphDestroy
#define cudaEvent_t hipEvent_t
#define cudaEventCreate hipEventCreate
#define cudaEventRecord hipEventRecord
#define cudaEventSynchronize hipEventSynchronize
#define cudaEventElapsedTime hipEventElapsedTime
#define cudaGetDevice hipGetDevice
#define cudaDeviceGetAttribute hipDeviceGetAttribute
#define cudaDevAttrWarpSize hipDeviceAttributeWarpSize
#define cudaDeviceGetPCIBusId hipDeviceGetPCIBusId
#endif

static int gt_failures;
static uint64_t gt_seed;

#define GT_CUDA(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "PE %d: %s:%d: %s: %s\n", shmem_my_pe(), __FILE__, __LINE__, #call, \
            cudaGetErrorString(e_)); exit(2); } } while (0)
#define GT_LAUNCHED() do { GT_CUDA(cudaGetLastError()); GT_CUDA(cudaDeviceSynchronize()); } while (0)
#define GT_CHECK(cond, ...) do { if (!(cond)) { gt_failures++; if (gt_failures < 20) { \
    fprintf(stderr, "PE %d: FAIL %s:%d: ", shmem_my_pe(), __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

__host__ __device__ static inline uint64_t gt_mix(uint64_t x)
{
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
/* Non-zero "random" value for (seed, pe, index, salt). */
__host__ __device__ static inline uint64_t gt_val(uint64_t seed, int pe, size_t i, unsigned salt)
{
  return gt_mix(seed ^ ((uint64_t)pe << 40) ^ ((uint64_t)salt << 56) ^ i) | 1;
}

/* shmem_init plus a per-run seed agreed by all PEs (PE 0's clock, read
 * by the others with a host-side get from PE 0's GPU heap). */
static inline void gt_init(void)
{
  shmem_init();
  uint64_t *s = (uint64_t *)shmem_malloc(sizeof(uint64_t));
  if (shmem_my_pe() == 0) {
    uint64_t v = ((uint64_t)time(NULL) << 20) ^ (uint64_t)clock();
    shmem_uint64_put(s, &v, 1, 0);
  }
  shmem_barrier_all();
  gt_seed = shmem_uint64_g(s, 0);
  shmem_barrier_all();
  shmem_free(s);
  if (shmem_my_pe() == 0) printf("seed %llu, %d PEs\n", (unsigned long long)gt_seed, shmem_n_pes());
}

static inline int gt_finish(const char *name)
{
  shmem_barrier_all();
  int me = shmem_my_pe();
  printf("PE %d: %s: %s (%d failures)\n", me, name, gt_failures ? "FAILED" : "ok", gt_failures);
  fflush(stdout);
  shmem_finalize();
  return gt_failures ? 1 : 0;
}

#endif
