/* Team barrier: dissemination over the team, on monotonic counters.
 *
 * Round r adds 1 to the counter r of the PE 2^r ahead and waits until my
 * own counter r reaches the barrier's epoch.  Counters only grow, so no
 * flag is ever reset: the same code replays inside a captured GPU graph
 * (Iris #531) and back-to-back barriers need no extra handshake. */
#ifndef SHOAL_COLL_BARRIER_H
#define SHOAL_COLL_BARRIER_H

#include "../teams/team.h"

/* Synchronize the team without completing earlier puts (team_sync). */
SHOAL_FN void shoal_coll_sync(shoal_team *t)
{
  if (t->size <= 1) return;
  uint64_t epoch = ++t->sync[SHOAL_SYNC_EPOCH];
  for (int r = 0, d = 1; d < t->size; r++, d <<= 1) {
    (void)shoal_dev_uint64_fetch_add(SHOAL_DEV_CTX, &t->sync[SHOAL_SYNC_BARRIER + r], 1,
                                     shoal_team_peer(t, d));
    shoal_dev_uint64_wait_until(&t->sync[SHOAL_SYNC_BARRIER + r], SHMEM_CMP_GE, epoch);
  }
}

/* Barrier: complete my earlier puts and AMOs, then synchronize. */
SHOAL_FN void shoal_coll_barrier(shoal_team *t)
{
  shoal_dev_quiet(SHOAL_DEV_CTX);
  shoal_coll_sync(t);
}

#endif
