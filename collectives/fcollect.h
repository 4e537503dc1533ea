/* fcollect (all-gather of equal blocks), for teams with members behind a
 * transport (and the active sets): every member puts its block to
 * every member's dest, in the staggered order (me + i) % n so that all PEs
 * do not write to the same peer at once (Iris Gluon all-gather).
 *
 * A member first tells everyone its dest is free (it has entered the call),
 * then pushes each block after that peer's "ready" and signals it; it
 * returns when every block has landed.  Remotely written: dest. */
#ifndef SHOAL_COLL_FCOLLECT_H
#define SHOAL_COLL_FCOLLECT_H

#include "hier.h"
#include "push.h"

SHOAL_FN void shoal_coll_fcollect(shoal_team *t, void *dest, const void *src, size_t bytes)
{
  int n = t->size, me = t->my_pe;
  char *mine = (char *)dest + (size_t)me * bytes;
  for (int i = 1; i < n; i++) shoal_coll_signal(t, (me + i) % n);   /* ready */
  shoal_copy(mine, src, bytes);
  for (int i = 1; i < n; i++) {
    int p = (me + i) % n;
    shoal_coll_wait(t, p);   /* p's dest is free */
    shoal_dev_putmem(SHOAL_DEV_CTX, mine, src, bytes, shoal_team_world_pe(t, p));
    shoal_coll_signal(t, p);
  }
  for (int i = 1; i < n; i++) shoal_coll_wait(t, (me + i) % n);   /* data */
}

/* Which fcollect: the lane push (collectives/push.h) for large blocks when
 * every member is mapped; the hierarchical one (collectives/hier.h) on a
 * team that spans nodes with some node holding several members (the GPU's
 * remote path asks the same); else the puts above. */
SHOAL_FN void shoal_coll_fcollect_pick(shoal_team *t, void *dest, const void *src, size_t bytes, const char *call)
{
  if (bytes >= SHOAL_PUSH_CPU_MIN_BYTES && shoal_push_ok(t)) shoal_push_move_one(t, 1, dest, src, bytes, 0, call);
  else if (t->hier) shoal_coll_fcollect_hier(t, dest, src, bytes);
  else shoal_coll_fcollect(t, dest, src, bytes);
}

#endif
