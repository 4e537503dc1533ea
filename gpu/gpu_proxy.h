/* The GPU side of the host proxy (gpu_proxy.c), for gpu_runtime.c. */
#ifndef SHOAL_GPU_PROXY_H
#define SHOAL_GPU_PROXY_H

#include "../device/proxy_queue.h"

/* Collective: when some PEs' GPU heaps cannot be mapped, start the fabric
 * half (active messages) and the thread serving this PE's kernels, and fill
 * *dev_q for them; otherwise leave it empty (cap 0).  0, or -1. */
SHOAL_HIDDEN bool shoal_gpu_proxy_needed(void);   /* some PE's GPU heap cannot be mapped */
SHOAL_HIDDEN int shoal_gpu_proxy_start(int device, char *base, size_t size, shoal_pq *dev_q);
SHOAL_HIDDEN void shoal_gpu_proxy_stop(void);
SHOAL_HIDDEN bool shoal_gpu_proxy_on(void);
/* Host quiet (so also barriers): every command this PE's kernels posted
 * so far is carried out (then the active messages' quiet completes them
 * at their targets).  A kernel's shmem_p through the proxy only posts, so
 * a finished kernel's puts may still sit in the queue. */
SHOAL_HIDDEN void shoal_gpu_proxy_drain(void);

#endif
