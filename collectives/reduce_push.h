/* Push one-shot all-reduce: every member pushes its whole vector into its
 * slot of every peer's pushbox, then reduces all slots locally, in team
 * order (every PE computes the same bits).
 *
 * One round of latency: the credits that let me write a peer's slot were
 * given at the end of the previous use, so in steady state nobody waits
 * for a handshake, and nobody reads another PE's source, so there is no
 * closing synchronization either.  Large vectors go in slot-sized chunks,
 * one credit each.  Works in place (my own block is staged in my own slot
 * first, and pushed from there: a GPU's host proxy reads only global
 * memory).  Remotely written: the team's scratch only, so source and dest
 * may be any memory.  The choice for small messages on teams with scratch. */
#ifndef SHOAL_COLL_REDUCE_PUSH_H
#define SHOAL_COLL_REDUCE_PUSH_H

#include "reduce_op.h"

/* Team PE q's part of this round: my own staged copy, or q's push to me. */
SHOAL_FN const char *shoal_push_part(shoal_team *t, int q, const char *mine)
{
  return q == t->my_pe ? mine : shoal_push_slot_in(t, q);
}

SHOAL_FN void shoal_coll_reduce_push(shoal_team *t, int type, int op, void *dest, const void *src,
                                     size_t count)
{
  int n = t->size, me = t->my_pe;
  size_t es = shoal_reduce_size(type);
  size_t per = shoal_pushbox_slot_bytes(t) / es;   /* > 0: reduce_select checks */
  char *mine = shoal_pushbox_mine(t);
  for (size_t i = 0; i < count; i += per) {
    size_t c = count - i < per ? count - i : per, bytes = c * es;
    const char *s = (const char *)src + i * es;
    char *acc = (char *)dest + i * es;
    shoal_copy(mine, s, bytes);
    for (int k = 1; k < n; k++) {
      int p = (me + k) % n;
      char *slot = shoal_push_slot_out(t, p);   /* p has a free slot of mine */
      shoal_dev_putmem(SHOAL_DEV_CTX, slot, mine, bytes, shoal_team_world_pe(t, p));
      shoal_coll_signal(t, p);
    }
    for (int k = 1; k < n; k++) shoal_coll_wait(t, (me + k) % n);
    shoal_copy(acc, shoal_push_part(t, 0, mine), bytes);
    for (int q = 1; q < n; q++) shoal_reduce_combine(type, op, acc, shoal_push_part(t, q, mine), c);
    shoal_coll_credit_give_others(t);
  }
}

#endif
