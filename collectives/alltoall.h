/* alltoall: block p of my source goes to block me of PE p's dest, pushed in
 * the staggered order (me + i) % n after p says its dest is free.
 * Remotely written: dest. */
#ifndef SHOAL_COLL_ALLTOALL_H
#define SHOAL_COLL_ALLTOALL_H

#include "coll.h"

SHOAL_FN void shoal_coll_alltoall(shoal_team *t, void *dest, const void *src, size_t bytes)
{
  int n = t->size, me = t->my_pe;
  char *d = (char *)dest + (size_t)me * bytes;
  const char *s = (const char *)src;
  for (int i = 1; i < n; i++) shoal_coll_signal(t, (me + i) % n);   /* ready */
  shoal_copy(d, s + (size_t)me * bytes, bytes);
  for (int i = 1; i < n; i++) {
    int p = (me + i) % n;
    shoal_coll_wait(t, p);
    shoal_dev_putmem(SHOAL_DEV_CTX, d, s + (size_t)p * bytes, bytes, shoal_team_world_pe(t, p));
    shoal_coll_signal(t, p);
  }
  for (int i = 1; i < n; i++) shoal_coll_wait(t, (me + i) % n);   /* data */
}

/* Which alltoall: on the CPU always the puts above.  The lane push
 * (collectives/push.h, the GPU grid's alltoall) stores each byte once as
 * these puts do -- there is no unit to load once for several members --
 * and its two all-member meetings cost more than the pairwise handshakes
 * (bench/coll, 4 PEs on 2 cores: 1.2-1.5x at 16 KB-1 MB). */
SHOAL_FN void shoal_coll_alltoall_pick(shoal_team *t, void *dest, const void *src, size_t bytes, const char *call)
{
  (void)call;
  shoal_coll_alltoall(t, dest, src, bytes);
}

#endif
