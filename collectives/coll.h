/* What every collective algorithm shares: per-pair signal channels.
 *
 * A channel from PE a to PE b is one word on b that only a writes: the
 * number of signals a has sent to b.  a counts what it sent and b what it
 * has waited for, so a wait is "the word reached my count + 1".  Counts only
 * grow: nothing is ever reset between calls (a captured GPU graph replays
 * the same code, Iris #531), and a PE that runs ahead into the next
 * collective cannot be mistaken for this one.  Every signal is matched by
 * exactly one wait, and PEs meet in the same order on every pair, because
 * members call a team's collectives in the same order. */
#ifndef SHOAL_COLL_COLL_H
#define SHOAL_COLL_COLL_H

#include "../teams/team.h"

SHOAL_SELECT_FN uint64_t *shoal_chan(const shoal_team *t, int kind)
{
  return t->chan + (size_t)kind * (size_t)t->n_world;
}

/* Orders my earlier stores and puts before whatever I write next. */
SHOAL_FN void shoal_coll_fence(void)
{
  shoal_fence_system();
  shoal_remote_fence(SHOAL_DEV_CTX);
}

/* Write count v into my word of channel `kind` on team PE `to`. */
SHOAL_FN void shoal_chan_publish(shoal_team *t, int to, int kind, uint64_t v)
{
  shoal_dev_uint64_set(SHOAL_DEV_CTX, &shoal_chan(t, kind)[shoal_team_world_pe(t, t->my_pe)], v,
                       shoal_team_world_pe(t, to));
}

/* One more on my count `sent` for team PE `to`, published into its word of
 * channel `in`.  No fence: the caller has ordered what came before. */
SHOAL_FN void shoal_chan_tell(shoal_team *t, int to, int sent, int in)
{
  shoal_chan_publish(t, to, in, ++shoal_chan(t, sent)[shoal_team_world_pe(t, to)]);
}

/* The same to every other member, behind one fence: a fence per member
 * would also wait for the previous one to land (a round trip each on a
 * GPU, and on libfabric). */
SHOAL_FN void shoal_chan_tell_others(shoal_team *t, int sent, int in)
{
  shoal_coll_fence();
  for (int i = 1; i < t->size; i++) shoal_chan_tell(t, (t->my_pe + i) % t->size, sent, in);
}

/* Tell team PE `to` that everything I wrote to it so far has landed. */
SHOAL_FN void shoal_coll_signal(shoal_team *t, int to)
{
  shoal_coll_fence();
  shoal_chan_tell(t, to, SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
}
SHOAL_FN void shoal_coll_signal_others(shoal_team *t) { shoal_chan_tell_others(t, SHOAL_CHAN_SENT, SHOAL_CHAN_IN); }

/* Wait for the next signal from team PE `from`. */
SHOAL_FN void shoal_coll_wait(shoal_team *t, int from)
{
  int pe = shoal_team_world_pe(t, from);
  uint64_t v = ++shoal_chan(t, SHOAL_CHAN_SEEN)[pe];
  shoal_dev_uint64_wait_until(&shoal_chan(t, SHOAL_CHAN_IN)[pe], SHMEM_CMP_GE, v);
}

/* The pushbox: slots that only one-shot pushes write, a ring of
 * pushbox_depth slots per sender (the upper half of a team's scratch; for
 * the active sets, a ring per world PE beside the team slots).  Its flow
 * control is a separate credit channel: a receiver gives a credit to each
 * sender once it has consumed that sender's oldest push, and a sender may
 * be depth pushes ahead of the receiver's credits, so a broadcast root does
 * not wait for slow members call after call, and in steady state nobody
 * waits for a handshake.  The k-th push between a pair uses slot k % depth
 * on both sides: the sender counts pushes (CREDIT_SEEN), the receiver
 * credits (CREDIT_SENT).  Everything else that uses scratch stays in the
 * lower half (shoal_coll_scratch_size). */
SHOAL_FN size_t shoal_coll_scratch_size(const shoal_team *t) { return (t->scratch_size / 2) & ~(size_t)15; }
SHOAL_FN size_t shoal_pushbox_slot_bytes(const shoal_team *t) { return t->pushbox_slot; }
SHOAL_FN char *shoal_pushbox_ring(const shoal_team *t, int team_pe, uint64_t k)
{
  size_t sender = (size_t)(t->pushbox_by_world ? shoal_team_world_pe(t, team_pe) : team_pe);
  size_t depth = (size_t)t->pushbox_depth;
  return t->pushbox + (sender * depth + (size_t)(k % depth)) * t->pushbox_slot;
}

/* My own slot on my own PE: where I stage my part (nobody else writes it). */
SHOAL_FN char *shoal_pushbox_mine(const shoal_team *t) { return shoal_pushbox_ring(t, t->my_pe, 0); }

/* The slot on team PE `to` that my next push to it goes to (a symmetric
 * address), once `to` has consumed the push that used it depth pushes ago. */
SHOAL_FN char *shoal_push_slot_out(shoal_team *t, int to)
{
  int pe = shoal_team_world_pe(t, to);
  uint64_t k = shoal_chan(t, SHOAL_CHAN_CREDIT_SEEN)[pe]++;
  uint64_t depth = (uint64_t)t->pushbox_depth;
  if (k + 1 > depth)
    shoal_dev_uint64_wait_until(&shoal_chan(t, SHOAL_CHAN_CREDIT_IN)[pe], SHMEM_CMP_GE, k + 1 - depth);
  return shoal_pushbox_ring(t, t->my_pe, k);
}

/* The slot holding the oldest push from team PE `from` I have not yet
 * credited (after shoal_coll_wait has seen it arrive). */
SHOAL_FN const char *shoal_push_slot_in(shoal_team *t, int from)
{
  return shoal_pushbox_ring(t, from, shoal_chan(t, SHOAL_CHAN_CREDIT_SENT)[shoal_team_world_pe(t, from)]);
}

/* Tell team PE `to` I have consumed its oldest push (after a fence: my
 * reads of the slot are done before the sender may overwrite it). */
SHOAL_FN void shoal_coll_credit_give(shoal_team *t, int to)
{
  shoal_coll_fence();
  shoal_chan_tell(t, to, SHOAL_CHAN_CREDIT_SENT, SHOAL_CHAN_CREDIT_IN);
}
SHOAL_FN void shoal_coll_credit_give_others(shoal_team *t)
{
  shoal_chan_tell_others(t, SHOAL_CHAN_CREDIT_SENT, SHOAL_CHAN_CREDIT_IN);
}

/* Every member has reached this point, and what each wrote before is
 * visible to all.  Small teams signal everyone at once (one latency);
 * larger ones use log2(n) dissemination rounds over the same channels. */
SHOAL_FN void shoal_coll_all(shoal_team *t)
{
  int n = t->size;
  if (n <= 8) {
    shoal_coll_signal_others(t);
    for (int i = 1; i < n; i++) shoal_coll_wait(t, (t->my_pe + i) % n);
    return;
  }
  for (int d = 1; d < n; d <<= 1) {
    shoal_coll_signal(t, (t->my_pe + d) % n);
    shoal_coll_wait(t, (t->my_pe + n - d) % n);
  }
}

#endif
