/* Put and get: load/store to a mapped peer, the remote transport otherwise. */
#ifndef SHOAL_DEVICE_RMA_H
#define SHOAL_DEVICE_RMA_H

#include "remote.h"

SHOAL_FN void shoal_dev_putmem(struct shoal_ctx *ctx, void *dest, const void *src, size_t n, int pe)
{
  void *r = shoal_dev_ptr(dest, pe);
  if (SHOAL_LIKELY(r != NULL)) shoal_copy(r, src, n);
  else shoal_remote_put(ctx, dest, src, n, pe);
}

SHOAL_FN void shoal_dev_getmem(struct shoal_ctx *ctx, void *dest, const void *src, size_t n, int pe)
{
  const void *r = shoal_dev_ptr(src, pe);
  if (SHOAL_LIKELY(r != NULL)) shoal_copy(dest, r, n);
  else shoal_remote_get(ctx, dest, src, n, pe);
}

/* Strided put/get of nelems elements of size es: element i goes from
 * src[i * sst] to dest[i * dst] (strides in elements). */
SHOAL_FN void shoal_dev_iput(struct shoal_ctx *ctx, void *dest, const void *src, ptrdiff_t dst,
                             ptrdiff_t sst, size_t nelems, size_t es, int pe)
{
  char *r = (char *)shoal_dev_ptr(dest, pe);
  const char *s = (const char *)src;
  for (size_t i = 0; i < nelems; i++) {
    ptrdiff_t di = (ptrdiff_t)i * dst * (ptrdiff_t)es, si = (ptrdiff_t)i * sst * (ptrdiff_t)es;
    if (SHOAL_LIKELY(r != NULL)) shoal_copy(r + di, s + si, es);
    else shoal_remote_put(ctx, (char *)dest + di, s + si, es, pe);
  }
}

SHOAL_FN void shoal_dev_iget(struct shoal_ctx *ctx, void *dest, const void *src, ptrdiff_t dst,
                             ptrdiff_t sst, size_t nelems, size_t es, int pe)
{
  const char *r = (const char *)shoal_dev_ptr(src, pe);
  char *d = (char *)dest;
  for (size_t i = 0; i < nelems; i++) {
    ptrdiff_t di = (ptrdiff_t)i * dst * (ptrdiff_t)es, si = (ptrdiff_t)i * sst * (ptrdiff_t)es;
    if (SHOAL_LIKELY(r != NULL)) shoal_copy(d + di, r + si, es);
    else shoal_remote_get(ctx, d + di, (const char *)src + si, es, pe);
  }
}

/* Blocked strided put/get (OpenSHMEM 1.6 ibput/ibget): nblocks blocks of
 * bsize contiguous elements of size es; block b goes from src[b * sst] to
 * dest[b * dst] (strides in elements, between the starts of blocks). */
SHOAL_FN void shoal_dev_ibput(struct shoal_ctx *ctx, void *dest, const void *src, ptrdiff_t dst,
                              ptrdiff_t sst, size_t bsize, size_t nblocks, size_t es, int pe)
{
  for (size_t b = 0; b < nblocks; b++)
    shoal_dev_putmem(ctx, (char *)dest + (ptrdiff_t)b * dst * (ptrdiff_t)es,
                     (const char *)src + (ptrdiff_t)b * sst * (ptrdiff_t)es, bsize * es, pe);
}

SHOAL_FN void shoal_dev_ibget(struct shoal_ctx *ctx, void *dest, const void *src, ptrdiff_t dst,
                              ptrdiff_t sst, size_t bsize, size_t nblocks, size_t es, int pe)
{
  for (size_t b = 0; b < nblocks; b++)
    shoal_dev_getmem(ctx, (char *)dest + (ptrdiff_t)b * dst * (ptrdiff_t)es,
                     (const char *)src + (ptrdiff_t)b * sst * (ptrdiff_t)es, bsize * es, pe);
}

#endif
