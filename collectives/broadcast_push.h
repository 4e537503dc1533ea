/* Broadcast for small messages: the root pushes its data into its next slot
 * of every member's pushbox and signals; each member copies it out and
 * gives the root a credit.  The root waits only for credits of pushes
 * pushbox_depth calls old: it runs ahead of slow members, never waits a
 * round trip, and members wait one one-way latency.  Remotely written:
 * the team's scratch only.  shoal_coll_broadcast_pick chooses between this and the pull broadcast. */
#ifndef SHOAL_COLL_BROADCAST_PUSH_H
#define SHOAL_COLL_BROADCAST_PUSH_H

#include "broadcast.h"
#include "push.h"

SHOAL_FN void shoal_coll_broadcast_push(shoal_team *t, void *dest, const void *src, size_t bytes,
                                        int root, int update_root)
{
  int n = t->size, me = t->my_pe;
  if (me == root) {
    for (int i = 1; i < n; i++) {
      int p = (me + i) % n;
      char *slot = shoal_push_slot_out(t, p);
      shoal_dev_putmem(SHOAL_DEV_CTX, slot, src, bytes, shoal_team_world_pe(t, p));
      shoal_coll_signal(t, p);
    }
    if (update_root && dest != src) shoal_copy(dest, src, bytes);
    return;
  }
  shoal_coll_wait(t, root);
  shoal_copy(dest, shoal_push_slot_in(t, root), bytes);
  shoal_coll_credit_give(t, root);
}

/* Which broadcast: into the pushbox when the message fits a slot; else,
 * from SHOAL_PUSH_BCAST_MIN_BYTES on a mapped team (1.5 semantics), the
 * root's lane push (collectives/push.h); else every member pulls. */
SHOAL_FN void shoal_coll_broadcast_pick(shoal_team *t, void *dest, const void *src, size_t bytes,
                                        int root, int update_root, const char *call)
{
  if (bytes <= shoal_pushbox_slot_bytes(t))
    shoal_coll_broadcast_push(t, dest, src, bytes, root, update_root);
  else if (update_root && bytes >= SHOAL_PUSH_BCAST_MIN_BYTES && shoal_push_ok(t))
    shoal_push_move_one(t, 0, dest, src, bytes, root, call);
  else
    shoal_coll_broadcast(t, dest, src, bytes, root, update_root);
}

#endif
