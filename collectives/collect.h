/* collect (all-gather of blocks of different sizes), concatenated in team
 * order.  Members first swap their sizes through each peer's mailbox word,
 * then push their block at its offset, staggered as in fcollect.
 * Remotely written: dest. */
#ifndef SHOAL_COLL_COLLECT_H
#define SHOAL_COLL_COLLECT_H

#include "coll.h"

SHOAL_FN void shoal_coll_collect(shoal_team *t, void *dest, const void *src, size_t bytes)
{
  int n = t->size, me = t->my_pe;
  uint64_t *mail = shoal_chan(t, SHOAL_CHAN_MAIL);
  for (int i = 1; i < n; i++) shoal_coll_signal(t, (me + i) % n);   /* ready */
  for (int i = 1; i < n; i++) {
    int p = (me + i) % n;
    shoal_coll_wait(t, p);   /* p's mailbox and dest are free */
    shoal_dev_uint64_set(SHOAL_DEV_CTX, &mail[shoal_team_world_pe(t, me)], (uint64_t)bytes,
                         shoal_team_world_pe(t, p));
    shoal_coll_signal(t, p);
  }
  size_t off = 0;
  for (int i = 1; i < n; i++) {
    int p = (me + i) % n;
    shoal_coll_wait(t, p);
    if (p < me) off += (size_t)shoal_load_acquire(&mail[shoal_team_world_pe(t, p)]);
  }
  /* bytes 0: dest and src may be NULL, and nothing is copied */
  char *mine = bytes ? (char *)dest + off : (char *)dest;
  if (bytes) shoal_copy(mine, src, bytes);
  for (int i = 1; i < n; i++) {
    int p = (me + i) % n;
    if (bytes) shoal_dev_putmem(SHOAL_DEV_CTX, mine, src, bytes, shoal_team_world_pe(t, p));
    shoal_coll_signal(t, p);
  }
  for (int i = 1; i < n; i++) shoal_coll_wait(t, (me + i) % n);   /* data */
}

#endif
