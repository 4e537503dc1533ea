/* put-with-signal: the data lands before the signal update is visible. */
#ifndef SHOAL_DEVICE_SIGNAL_H
#define SHOAL_DEVICE_SIGNAL_H

#include "amo.h"
#include "rma.h"
#include <shoal/constants.h>

SHOAL_FN void shoal_dev_signal_update(struct shoal_ctx *ctx, uint64_t *sig, uint64_t v, int op, int pe)
{
  if (op != SHMEM_SIGNAL_ADD) {
    shoal_dev_uint64_set(ctx, sig, v, pe);
    return;
  }
  uint64_t *r = (uint64_t *)shoal_dev_amo_ptr(sig, pe);
  if (SHOAL_LIKELY(r != NULL)) {
    (void)shoal_fetch_add(r, v);
    return;
  }
  /* Remote: a non-fetching add, so a proxy need not wait for an answer. */
  uint64_t res = 0, cmp = 0;
  shoal_remote_amo(ctx, SHOAL_AMO_ADD, SHOAL_DT_U64, sig, &v, &cmp, &res, pe);
}

SHOAL_FN void shoal_dev_put_signal(struct shoal_ctx *ctx, void *dest, const void *src, size_t n,
                                   uint64_t *sig, uint64_t v, int op, int pe)
{
  void *r = shoal_dev_ptr(dest, pe);
  if (SHOAL_LIKELY(r != NULL)) {
    shoal_copy(r, src, n);
    shoal_fence_system();
  } else {
    shoal_remote_put(ctx, dest, src, n, pe);
    shoal_remote_fence(ctx); /* data before signal, as shmem_fence orders */
  }
  shoal_dev_signal_update(ctx, sig, v, op, pe);
}

#endif
