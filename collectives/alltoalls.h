/* alltoalls: alltoall with strides.  Element k of the block for PE p is
 * src[(p * nelems + k) * sst]; it lands in dest[(me * nelems + k) * dst] on
 * p (strides in elements of es bytes).  Remotely written: dest. */
#ifndef SHOAL_COLL_ALLTOALLS_H
#define SHOAL_COLL_ALLTOALLS_H

#include "coll.h"

SHOAL_FN void shoal_coll_alltoalls(shoal_team *t, void *dest, const void *src, ptrdiff_t dst,
                                   ptrdiff_t sst, size_t nelems, size_t es)
{
  int n = t->size, me = t->my_pe;
  char *d = (char *)dest + (size_t)me * nelems * (size_t)dst * es;
  const char *s = (const char *)src;
  size_t sblock = nelems * (size_t)sst * es;
  for (int i = 1; i < n; i++) shoal_coll_signal(t, (me + i) % n);   /* ready */
  for (size_t k = 0; k < nelems; k++)
    shoal_copy(d + k * (size_t)dst * es, s + (size_t)me * sblock + k * (size_t)sst * es, es);
  for (int i = 1; i < n; i++) {
    int p = (me + i) % n;
    shoal_coll_wait(t, p);
    shoal_dev_iput(SHOAL_DEV_CTX, d, s + (size_t)p * sblock, dst, sst, nelems, es,
                   shoal_team_world_pe(t, p));
    shoal_coll_signal(t, p);
  }
  for (int i = 1; i < n; i++) shoal_coll_wait(t, (me + i) % n);   /* data */
}

#endif
