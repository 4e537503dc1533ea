/* All-reduce: pick an algorithm by message size and team size, or the one
 * SHOAL_ALLREDUCE forces, and run it.
 *
 * One-shot moves (n - 1) whole vectors per PE: it wins for small messages.
 * Its push form (peers' vectors land in my pushbox) has one round of
 * latency: auto picks it.  The pull form (I read every peer's source; two
 * synchronizations) is what SHOAL_ALLREDUCE=oneshot forces.  Two-shot moves 2 (n - 1) / n of the
 * vector per PE in two rounds: medium and large messages on small teams.
 * Ring moves the same volume in 2 (n - 1) neighbour rounds: large teams,
 * where one-shot and two-shot put n - 1 peers on every link at once.
 * Hierarchical (collectives/hier.h) on teams that span nodes with some
 * node holding several members (the team's node layout, teams/team.c):
 * reduce inside each node over load/store, only the node leaders talk
 * across nodes (one message per node pair instead of one per PE pair),
 * and the result goes back inside the node.  Every member sees the same
 * layout and sizes, so every member picks the same algorithm. */
#ifndef SHOAL_COLL_REDUCE_SELECT_H
#define SHOAL_COLL_REDUCE_SELECT_H

#include "hier.h"
#include "reduce_oneshot.h"
#include "reduce_push.h"
#include "reduce_ring.h"
#include "reduce_twoshot.h"

typedef enum shoal_allreduce_algo {
  SHOAL_ALLREDUCE_AUTO, SHOAL_ALLREDUCE_ONESHOT, SHOAL_ALLREDUCE_TWOSHOT, SHOAL_ALLREDUCE_RING,
  SHOAL_ALLREDUCE_PUSH,   /* one-shot through the pushbox: auto's choice for small messages */
  SHOAL_ALLREDUCE_HIER,   /* node-wise: auto's choice on teams that span nodes */
} shoal_allreduce_algo;

#define SHOAL_ONESHOT_MAX_BYTES 16384   /* per PE; beyond this two-shot wins at 4 PEs */
#define SHOAL_RING_MIN_PES 9
/* Auto takes the hierarchical all-reduce (also the GPU's remote path,
 * <shoal/gpu_remote_coll.h>, asks this): at every size where the team's
 * layout allows it. */
SHOAL_FN bool shoal_allreduce_hier_wins(const shoal_team *t, size_t count, size_t es)
{
  (void)count;
  return shoal_hier_usable(t, es);
}

/* The algorithm that will run (never AUTO), given what the team can do:
 * one-shot in place and ring need scratch; teams without scratch (the
 * deprecated active sets) fall back to two-shot. */
SHOAL_FN int shoal_allreduce_pick(const shoal_team *t, int forced, size_t count, size_t es,
                                  int in_place)
{
  size_t bytes = count * es;
  int a = forced;
  if (a == SHOAL_ALLREDUCE_AUTO && shoal_allreduce_hier_wins(t, count, es)) a = SHOAL_ALLREDUCE_HIER;
  if (a == SHOAL_ALLREDUCE_HIER && !shoal_hier_usable(t, es)) a = SHOAL_ALLREDUCE_AUTO;   /* forced */
  if (a == SHOAL_ALLREDUCE_AUTO) {
    /* push while the vector fits one pushbox slot (one round); a longer
     * one would take a round per slot-sized chunk, so it is pulled */
    if (t->size <= 2 || bytes <= SHOAL_ONESHOT_MAX_BYTES)
      a = bytes <= shoal_pushbox_slot_bytes(t) ? SHOAL_ALLREDUCE_PUSH : SHOAL_ALLREDUCE_ONESHOT;
    else if (t->size < SHOAL_RING_MIN_PES) a = SHOAL_ALLREDUCE_TWOSHOT;
    else a = SHOAL_ALLREDUCE_RING;
  }
  if (a == SHOAL_ALLREDUCE_PUSH && shoal_pushbox_slot_bytes(t) < es) a = SHOAL_ALLREDUCE_ONESHOT;   /* no pushbox */
  if (a == SHOAL_ALLREDUCE_ONESHOT && in_place && shoal_coll_scratch_size(t) < es)
    a = SHOAL_ALLREDUCE_TWOSHOT;
  if (a == SHOAL_ALLREDUCE_RING && t->size > 1 && shoal_ring_slot_elems(t, es) == 0)
    a = SHOAL_ALLREDUCE_TWOSHOT;
  return a;
}

SHOAL_FN void shoal_coll_allreduce(shoal_team *t, int algo, int type, int op, void *dest,
                                   const void *src, size_t count)
{
  switch (algo) {
  case SHOAL_ALLREDUCE_PUSH: shoal_coll_reduce_push(t, type, op, dest, src, count); break;
  case SHOAL_ALLREDUCE_ONESHOT: shoal_coll_reduce_oneshot(t, type, op, dest, src, count); break;
  case SHOAL_ALLREDUCE_RING: shoal_coll_reduce_ring(t, type, op, dest, src, count); break;
  case SHOAL_ALLREDUCE_HIER: shoal_coll_reduce_hier(t, type, op, dest, src, count); break;
  default: shoal_coll_reduce_twoshot(t, type, op, dest, src, count); break;
  }
}

#endif
