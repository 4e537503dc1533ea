/* Broadcast: every member pulls the root's source.
 *
 * The root signals each member that its source is ready, members copy it in
 * parallel and signal back; the root returns when all have copied, so its
 * source may change right after.  Remotely read: source (on the root). */
#ifndef SHOAL_COLL_BROADCAST_H
#define SHOAL_COLL_BROADCAST_H

#include "coll.h"

/* update_root: 1.5 semantics (the root's dest gets the data too); the
 * deprecated 1.4 calls leave the root's dest alone. */
SHOAL_FN void shoal_coll_broadcast(shoal_team *t, void *dest, const void *src, size_t bytes, int root,
                                   int update_root)
{
  int n = t->size, me = t->my_pe;
  if (me == root) {
    for (int i = 1; i < n; i++) shoal_coll_signal(t, (me + i) % n);
    if (update_root && dest != src) shoal_copy(dest, src, bytes);
    for (int i = 1; i < n; i++) shoal_coll_wait(t, (me + i) % n);
    return;
  }
  shoal_coll_wait(t, root);
  shoal_dev_getmem(SHOAL_DEV_CTX, dest, src, bytes, shoal_team_world_pe(t, root));
  shoal_coll_signal(t, root);
}

#endif
