/* Team barrier on monotonic counters: a counter barrier when all members
 * are load/store reachable, else dissemination.
 *
 * Dissemination round r adds 1 to the counter r of the PE 2^r ahead and waits until my
 * own counter r reaches the barrier's epoch.  Counters only grow, so no
 * flag is ever reset: the same code replays inside a captured GPU graph
 * (Iris #531) and back-to-back barriers need no extra handshake. */
#ifndef SHOAL_COLL_BARRIER_H
#define SHOAL_COLL_BARRIER_H

#include "coll.h"

/* Counter barrier, when every member's memory is mapped here: each PE adds
 * 1 to the counter on the team's first PE and watches it reach epoch * size.
 * One arrival per PE, no dependent rounds: with more PEs than cores (4 PEs
 * on 2 cores in CI) each PE needs to run only once to let the others go. */
SHOAL_FN void shoal_coll_sync_counter(shoal_team *t, uint64_t *root_counter, uint64_t epoch)
{
  (void)shoal_fetch_add(root_counter, 1);
  uint64_t target = epoch * (uint64_t)t->size;
  shoal_backoff b = SHOAL_BACKOFF_WATCH(root_counter, SHMEM_CMP_GE, target);
  while (shoal_load_acquire(root_counter) < target) {
    shoal_wait_progress();   /* a manual-progress transport may owe a peer its arrival */
    shoal_backoff_wait(&b);
  }
}

/* Dissemination: log2(size) rounds, each PE reads only its own counters,
 * so once it returns nobody will touch its words for this barrier again
 * (team_destroy relies on that before zeroing them). */
SHOAL_FN void shoal_coll_sync_dissemination(shoal_team *t)
{
  if (t->size <= 1) return;
  uint64_t epoch = ++t->sync[SHOAL_SYNC_DISS_EPOCH];
  for (int r = 0, d = 1; d < t->size; r++, d <<= 1) {
    (void)shoal_dev_uint64_fetch_add(SHOAL_DEV_CTX, &t->sync[SHOAL_SYNC_BARRIER + r], 1,
                                     shoal_team_peer(t, d));
    shoal_dev_uint64_wait_until(&t->sync[SHOAL_SYNC_BARRIER + r], SHMEM_CMP_GE, epoch);
  }
}

/* Synchronize the team without completing earlier puts (team_sync). */
SHOAL_FN void shoal_coll_sync(shoal_team *t)
{
  if (t->size <= 1) return;
  if (t->slot < 0) {   /* an active set: no counters of its own, only channels */
    shoal_coll_all(t);
    return;
  }
  if (t->all_mapped) {
    uint64_t epoch = ++t->sync[SHOAL_SYNC_EPOCH];
    uint64_t *root = (uint64_t *)shoal_dev_ptr(&t->sync[SHOAL_SYNC_COUNTER], t->start);
    shoal_coll_sync_counter(t, root, epoch);
  } else {
    shoal_coll_sync_dissemination(t);
  }
}

/* Barrier: complete my earlier puts and AMOs, then synchronize. */
SHOAL_FN void shoal_coll_barrier(shoal_team *t)
{
  shoal_dev_quiet(SHOAL_DEV_CTX);
  shoal_coll_sync(t);
}

#endif
