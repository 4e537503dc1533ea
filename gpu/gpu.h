/* The small GPU interface under the GPU runtime: one implementation per
 * vendor (gpu_cuda.c, gpu_hip.c), the rest (gpu_runtime.c) is shared.
 * Every call returns NULL on success or the vendor's error text. */
#ifndef SHOAL_GPU_GPU_H
#define SHOAL_GPU_GPU_H

#include <stddef.h>
#include <stdint.h>

typedef struct shoal_gpu_ipc { unsigned char bytes[64]; } shoal_gpu_ipc;

SHOAL_HIDDEN const char *shoal_gpu_v_name(void);   /* "CUDA", "HIP" */
SHOAL_HIDDEN const char *shoal_gpu_v_count(int *n);
SHOAL_HIDDEN const char *shoal_gpu_v_set_device(int dev);
/* The library's own threads (the proxy, the active-message service): their
 * copies and AMO kernels stay allowed while a user thread captures a graph
 * in global mode (relaxed capture interaction for this thread). */
SHOAL_HIDDEN void shoal_gpu_v_relax_capture(void);
/* Device memory for the symmetric heap.  On AMD it is fine-grained, so
 * flags and signals written by peers are seen without cache flushes. */
SHOAL_HIDDEN const char *shoal_gpu_v_malloc(void **p, size_t n);
SHOAL_HIDDEN void shoal_gpu_v_free(void *p);
SHOAL_HIDDEN const char *shoal_gpu_v_memset(void *p, int v, size_t n);
/* Synchronous copy between any two addresses (host or device). */
SHOAL_HIDDEN const char *shoal_gpu_v_memcpy(void *d, const void *s, size_t n);
/* Wait for the device to finish; reports a kernel that failed. */
SHOAL_HIDDEN const char *shoal_gpu_v_sync(void);
SHOAL_HIDDEN const char *shoal_gpu_v_ipc_get(void *p, shoal_gpu_ipc *h);
SHOAL_HIDDEN const char *shoal_gpu_v_ipc_open(const shoal_gpu_ipc *h, void **p);
SHOAL_HIDDEN void shoal_gpu_v_ipc_close(void *p);
/* Is p device memory (cudaMalloc/hipMalloc, symmetric or not)? */
SHOAL_HIDDEN int shoal_gpu_v_is_device(const void *p);
/* Host memory mapped into the device (the proxy's command queue): *h for
 * the host, *d for kernels. */
SHOAL_HIDDEN const char *shoal_gpu_v_host_alloc_mapped(void **h, void **d, size_t n);
SHOAL_HIDDEN void shoal_gpu_v_host_free(void *h);
/* Pin existing host memory (the proxy's staging buffers) for fast copies. */
SHOAL_HIDDEN const char *shoal_gpu_v_host_register(void *p, size_t n);
SHOAL_HIDDEN void shoal_gpu_v_host_unregister(void *p);
/* Bus id of the device, for messages. */
SHOAL_HIDDEN void shoal_gpu_v_bus_id(int dev, char *buf, int len);
/* Store a 4/8-byte value into GPU memory without a kernel; *done = 0 where
 * the runtime cannot (then launch one). */
SHOAL_HIDDEN const char *shoal_gpu_v_write_value(void *p, uint64_t v, size_t size, int *done);

/* Kernel code loading.  CUDA's lazy loading (the default since 12.2) loads
 * a kernel at its first launch under the context lock, and waits there for
 * the GPU to drain; every other CUDA call of the process, the proxy's
 * copies included, queues behind it.  A kernel that waits for the proxy
 * then never ends, nor does the launch (MSCCL++ and torchcomms users met
 * it).  prefer_eager: before the process's first runtime call, ask for
 * eager loading unless the user chose (CUDA_MODULE_LOADING); lazy: the mode
 * in force, 1 lazy, 0 eager, -1 unknown (HIP: its deferred loading has
 * not been seen to block other threads; it reports unknown). */
SHOAL_HIDDEN void shoal_gpu_v_prefer_eager_loading(void);
SHOAL_HIDDEN int shoal_gpu_v_lazy_loading(void);

/* The GPU runtime (gpu_runtime.c), called from runtime/init.c. */
SHOAL_HIDDEN int shoal_gpu_init(void);
SHOAL_HIDDEN void shoal_gpu_fini(void);
/* shmem_finalize, before it waits for the other PEs: this PE's kernels
 * are done, and one that stopped (a trap) ends the job here, naming it. */
SHOAL_HIDDEN void shoal_gpu_finish_kernels(const char *call);

#endif
