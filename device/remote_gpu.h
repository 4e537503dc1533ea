/* GPU half of device/remote.h.  A kernel reaches peers whose heap is mapped
 * into its GPU (NVLink/PCIe P2P through IPC handles); there is no device
 * proxy yet, so an unmapped peer or a non-symmetric address stops the
 * kernel with a message naming the operation. */
#ifndef SHOAL_DEVICE_REMOTE_GPU_H
#define SHOAL_DEVICE_REMOTE_GPU_H

#include <stdio.h>

#define SHOAL_DEV_CTX ((struct shoal_ctx *)0)

SHOAL_FN void shoal_gpu_fail(const char *what, const void *addr, int pe)
{
  printf("shoal: PE %d: error: %s: address %p is not in the symmetric heap, or PE %d is not "
         "mapped into this GPU (device-initiated operations need peer access)\n",
         SHOAL_STATE->my_pe, what, addr, pe);
#if defined(__CUDACC__)
  __trap();
#else
  abort();
#endif
}

SHOAL_FN void shoal_remote_put(struct shoal_ctx *ctx, void *dest, const void *src, size_t n, int pe)
{
  shoal_gpu_fail("put", dest, pe);
}
SHOAL_FN void shoal_remote_get(struct shoal_ctx *ctx, void *dest, const void *src, size_t n, int pe)
{
  shoal_gpu_fail("get", src, pe);
}
SHOAL_FN void shoal_remote_amo(struct shoal_ctx *ctx, shoal_amo_op op, shoal_dtype dt, void *dest,
                               const void *operand, const void *compare, void *result, int pe)
{
  shoal_gpu_fail("atomic", dest, pe);
}
SHOAL_FN void shoal_remote_fence(struct shoal_ctx *ctx) {}
SHOAL_FN void shoal_remote_quiet(struct shoal_ctx *ctx) {}

#endif
