/* The GPU interface of gpu/gpu.h over the HIP runtime API (AMD).
 * The heap is fine-grained device memory, so peers' flag and signal
 * writes are coherent without cache maintenance. */
#include "../runtime/internal.h"
#include "gpu.h"

#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <string.h>

#define CK(call) do { hipError_t e_ = (call); if (e_ != hipSuccess) return hipGetErrorString(e_); } while (0)

_Static_assert(sizeof(hipIpcMemHandle_t) <= sizeof(shoal_gpu_ipc), "IPC handle size");

const char *shoal_gpu_v_name(void) { return "HIP"; }
const char *shoal_gpu_v_count(int *n) { CK(hipGetDeviceCount(n)); return NULL; }
/* Host-initiated copies run on their own non-blocking stream: they must
 * not queue behind a user kernel that may be waiting for them. */
static hipStream_t copy_stream;

void shoal_gpu_v_relax_capture(void)
{
  hipStreamCaptureMode m = hipStreamCaptureModeRelaxed;
  (void)hipThreadExchangeStreamCaptureMode(&m);
}

const char *shoal_gpu_v_set_device(int dev)
{
  CK(hipSetDevice(dev));
  CK(hipFree(0));
  if (!copy_stream) CK(hipStreamCreateWithFlags(&copy_stream, hipStreamNonBlocking));
  return NULL;
}
const char *shoal_gpu_v_malloc(void **p, size_t n)
{
  CK(hipExtMallocWithFlags(p, n, hipDeviceMallocFinegrained));
  return NULL;
}
void shoal_gpu_v_free(void *p) { (void)hipFree(p); }
const char *shoal_gpu_v_memset(void *p, int v, size_t n)
{
  CK(hipMemsetAsync(p, v, n, copy_stream));
  CK(hipStreamSynchronize(copy_stream));
  return NULL;
}
const char *shoal_gpu_v_sync(void)
{
  CK(hipDeviceSynchronize());
  return NULL;
}
const char *shoal_gpu_v_memcpy(void *d, const void *s, size_t n)
{
  CK(hipMemcpyAsync(d, s, n, hipMemcpyDefault, copy_stream));
  CK(hipStreamSynchronize(copy_stream));
  return NULL;
}
const char *shoal_gpu_v_ipc_get(void *p, shoal_gpu_ipc *h)
{
  hipIpcMemHandle_t hh;
  CK(hipIpcGetMemHandle(&hh, p));
  memset(h, 0, sizeof *h);
  memcpy(h->bytes, &hh, sizeof hh);
  return NULL;
}
const char *shoal_gpu_v_ipc_open(const shoal_gpu_ipc *h, void **p)
{
  hipIpcMemHandle_t hh;
  memcpy(&hh, h->bytes, sizeof hh);
  CK(hipIpcOpenMemHandle(p, hh, hipIpcMemLazyEnablePeerAccess));
  return NULL;
}
void shoal_gpu_v_ipc_close(void *p) { (void)hipIpcCloseMemHandle(p); }
void shoal_gpu_v_bus_id(int dev, char *buf, int len)
{
  if (hipDeviceGetPCIBusId(buf, len, dev) != hipSuccess) snprintf(buf, (size_t)len, "device %d", dev);
}
int shoal_gpu_v_is_device(const void *p)
{
  hipPointerAttribute_t a;
  if (hipPointerGetAttributes(&a, p) != hipSuccess) {
    (void)hipGetLastError();
    return 0;
  }
#if HIP_VERSION_MAJOR >= 6
  return a.type == hipMemoryTypeDevice || a.type == hipMemoryTypeManaged;
#else
  return a.memoryType == hipMemoryTypeDevice || a.isManaged;
#endif
}
const char *shoal_gpu_v_host_alloc_mapped(void **h, void **d, size_t n)
{
  /* Coherent (fine-grained, not cached in L2): the proxy queue is polled
   * from both sides and written with plain stores (device/proxy_queue.h). */
  CK(hipHostMalloc(h, n, hipHostMallocMapped | hipHostMallocPortable | hipHostMallocCoherent));
  CK(hipHostGetDevicePointer(d, *h, 0));
  return NULL;
}
void shoal_gpu_v_host_free(void *h) { (void)hipHostFree(h); }
const char *shoal_gpu_v_host_register(void *p, size_t n)
{
  CK(hipHostRegister(p, n, hipHostRegisterPortable));
  return NULL;
}
void shoal_gpu_v_host_unregister(void *p) { (void)hipHostUnregister(p); }

/* A 4- or 8-byte store into GPU memory by the stream (hipStreamWriteValue,
 * ordered after the copies before it): how the proxy applies a peer's
 * signal or flag without launching a kernel. */
const char *shoal_gpu_v_write_value(void *p, uint64_t v, size_t size, int *done)
{
  *done = 0;
  hipError_t e = size == 8 ? hipStreamWriteValue64(copy_stream, p, v, 0)
                           : hipStreamWriteValue32(copy_stream, p, (uint32_t)v, 0);
  if (e != hipSuccess) {
    (void)hipGetLastError();
    return NULL;   /* not supported here: the caller's kernel */
  }
  CK(hipStreamSynchronize(copy_stream));
  *done = 1;
  return NULL;
}

/* HIP's deferred code-object loading has not been seen to hold other
 * threads' calls (gpu.h); nothing to ask for, and the mode is unknown. */
void shoal_gpu_v_prefer_eager_loading(void) {}
int shoal_gpu_v_lazy_loading(void) { return -1; }
