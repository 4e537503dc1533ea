/* The GPU interface of gpu/gpu.h over the CUDA runtime API. */
#include "../runtime/internal.h"
#include "gpu.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) return cudaGetErrorString(e_); } while (0)

_Static_assert(sizeof(cudaIpcMemHandle_t) <= sizeof(shoal_gpu_ipc), "IPC handle size");

const char *shoal_gpu_v_name(void) { return "CUDA"; }
const char *shoal_gpu_v_count(int *n) { CK(cudaGetDeviceCount(n)); return NULL; }
/* Host-initiated copies run on their own non-blocking stream: they must
 * not queue behind a user kernel that may be waiting for them. */
static cudaStream_t copy_stream;

void shoal_gpu_v_relax_capture(void)
{
  enum cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
  (void)cudaThreadExchangeStreamCaptureMode(&m);
}

const char *shoal_gpu_v_set_device(int dev)
{
  CK(cudaSetDevice(dev));
  CK(cudaFree(0));
  if (!copy_stream) CK(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking));
  return NULL;
}
const char *shoal_gpu_v_malloc(void **p, size_t n) { CK(cudaMalloc(p, n)); return NULL; }
void shoal_gpu_v_free(void *p) { (void)cudaFree(p); }
const char *shoal_gpu_v_memset(void *p, int v, size_t n)
{
  CK(cudaMemsetAsync(p, v, n, copy_stream));
  CK(cudaStreamSynchronize(copy_stream));
  return NULL;
}
const char *shoal_gpu_v_sync(void)
{
  CK(cudaDeviceSynchronize());
  return NULL;
}
const char *shoal_gpu_v_memcpy(void *d, const void *s, size_t n)
{
  CK(cudaMemcpyAsync(d, s, n, cudaMemcpyDefault, copy_stream));
  CK(cudaStreamSynchronize(copy_stream));
  return NULL;
}
const char *shoal_gpu_v_ipc_get(void *p, shoal_gpu_ipc *h)
{
  cudaIpcMemHandle_t ch;
  CK(cudaIpcGetMemHandle(&ch, p));
  memset(h, 0, sizeof *h);
  memcpy(h->bytes, &ch, sizeof ch);
  return NULL;
}
const char *shoal_gpu_v_ipc_open(const shoal_gpu_ipc *h, void **p)
{
  cudaIpcMemHandle_t ch;
  memcpy(&ch, h->bytes, sizeof ch);
  CK(cudaIpcOpenMemHandle(p, ch, cudaIpcMemLazyEnablePeerAccess));
  return NULL;
}
void shoal_gpu_v_ipc_close(void *p) { (void)cudaIpcCloseMemHandle(p); }
void shoal_gpu_v_bus_id(int dev, char *buf, int len)
{
  if (cudaDeviceGetPCIBusId(buf, len, dev) != cudaSuccess) snprintf(buf, (size_t)len, "device %d", dev);
}
int shoal_gpu_v_is_device(const void *p)
{
  struct cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}
const char *shoal_gpu_v_host_alloc_mapped(void **h, void **d, size_t n)
{
  CK(cudaHostAlloc(h, n, cudaHostAllocMapped | cudaHostAllocPortable));
  CK(cudaHostGetDevicePointer(d, *h, 0));
  return NULL;
}
void shoal_gpu_v_host_free(void *h) { (void)cudaFreeHost(h); }
const char *shoal_gpu_v_host_register(void *p, size_t n)
{
  CK(cudaHostRegister(p, n, cudaHostRegisterPortable));
  return NULL;
}
void shoal_gpu_v_host_unregister(void *p) { (void)cudaHostUnregister(p); }

void shoal_gpu_v_prefer_eager_loading(void) { setenv("CUDA_MODULE_LOADING", "EAGER", 0); }

int shoal_gpu_v_lazy_loading(void)
{
  typedef int (*get_mode_fn)(int *);
  void *f = NULL;
  enum cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuModuleGetLoadingMode", &f, 11070, cudaEnableDefault, &q) ||
      q != cudaDriverEntryPointSuccess || !f) {
    (void)cudaGetLastError();
    return -1;
  }
  int mode = 0;
  if (((get_mode_fn)f)(&mode) != 0) return -1;
  return mode == 2;   /* CU_MODULE_LAZY_LOADING (CU_MODULE_EAGER_LOADING is 1) */
}

/* A 4- or 8-byte store into GPU memory by the stream's front end
 * (cuStreamWriteValue32/64, behind a memory barrier, ordered after the
 * copies before it on the stream): how the proxy applies a peer's signal or
 * flag without launching a kernel.  *done = 0 where the driver lacks it. */
typedef int (*shoal_cu_write32_fn)(cudaStream_t, unsigned long long, unsigned int, unsigned int);
typedef int (*shoal_cu_write64_fn)(cudaStream_t, unsigned long long, unsigned long long, unsigned int);
const char *shoal_gpu_v_write_value(void *p, uint64_t v, size_t size, int *done)
{
  static int looked;
  static shoal_cu_write32_fn w32;
  static shoal_cu_write64_fn w64;
  if (!looked) {   /* the proxy thread is the only caller */
    void *f32 = NULL, *f64 = NULL;
    enum cudaDriverEntryPointQueryResult q32, q64;
    if (cudaGetDriverEntryPointByVersion("cuStreamWriteValue32", &f32, 12000, cudaEnableDefault, &q32) ||
        q32 != cudaDriverEntryPointSuccess)
      f32 = NULL;
    if (cudaGetDriverEntryPointByVersion("cuStreamWriteValue64", &f64, 12000, cudaEnableDefault, &q64) ||
        q64 != cudaDriverEntryPointSuccess)
      f64 = NULL;
    (void)cudaGetLastError();
    w32 = (shoal_cu_write32_fn)f32;
    w64 = (shoal_cu_write64_fn)f64;
    looked = 1;
  }
  *done = 0;
  unsigned long long a = (unsigned long long)(uintptr_t)p;
  int rc = size == 8 ? (w64 ? w64(copy_stream, a, (unsigned long long)v, 0) : -1)
                     : (w32 ? w32(copy_stream, a, (unsigned int)v, 0) : -1);
  if (rc != 0) return NULL;   /* not supported here (e.g. stream memory operations off): the caller's kernel */
  CK(cudaStreamSynchronize(copy_stream));
  *done = 1;
  return NULL;
}
