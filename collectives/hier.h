/* Hierarchical all-reduce, for teams that span nodes (the team's node
 * layout: teams/team.h, hier_*).  Per chunk of at most one pushbox ring
 * (a sender's depth slots on a receiver, taken whole: below):
 *
 *   1. inside each node, every member pushes its chunk into its ring in the
 *      node leader's pushbox (the leader is the node's first member; a
 *      store, the leader is mapped), and the leader reduces the node's
 *      chunks;
 *   2. across nodes, only the leaders exchange: each pushes its node's
 *      partial into its ring in every other leader's pushbox (one message
 *      per node pair and chunk, through the remote transport), then every
 *      leader reduces the partials in node order, so all compute the same
 *      bits;
 *   3. inside each node, the leader pushes the result into its ring in
 *      every member's pushbox, and each member copies it out.
 *
 * Every write to another PE is a push into the receiver's pushbox behind
 * the pair's credits (collectives/coll.h), so nobody reads another PE's
 * memory, source and dest may be any memory (a GPU's host proxy reads only
 * global memory: the leaders stage their partials in their own ring, which
 * nobody else writes), and in place works: a chunk of source is pushed or
 * staged before that chunk of dest is written.  Remotely written: the
 * team's pushbox only. */
#ifndef SHOAL_COLL_HIER_H
#define SHOAL_COLL_HIER_H

#include "reduce_op.h"

SHOAL_FN int shoal_hier_leader(const shoal_team *t, int node) { return t->hier_first[node]; }

/* The team and element size allow the hierarchical all-reduce. */
SHOAL_FN bool shoal_hier_usable(const shoal_team *t, size_t es)
{
  return t->hier && es > 0 && shoal_pushbox_slot_bytes(t) >= es;
}

/* Whole-ring pushes: one push takes all depth slots of my ring on the
 * receiver, as pushes k .. k + depth - 1 of the pair, k a multiple of depth
 * (both sides round their count up the same way, so slot pushes and ring
 * pushes mix), so a chunk is depth times a slot with one signal and one
 * credit.  My ring on my own PE is my staging area (nobody pushes to
 * themselves). */
SHOAL_FN size_t shoal_hier_ring_bytes(const shoal_team *t)
{
  return (size_t)t->pushbox_depth * shoal_pushbox_slot_bytes(t);
}
SHOAL_FN uint64_t shoal_hier_ring_start(uint64_t k, uint64_t depth) { return (k + depth - 1) / depth * depth; }

/* My ring on team PE `to`, once `to` has consumed every earlier push
 * (credits count skipped slots only once the ring push is consumed, so
 * wait for the pushes actually made, not for the rounded-up count). */
SHOAL_FN char *shoal_hier_ring_out(shoal_team *t, int to)
{
  uint64_t *seen = &shoal_chan(t, SHOAL_CHAN_CREDIT_SEEN)[shoal_team_world_pe(t, to)];
  uint64_t depth = (uint64_t)t->pushbox_depth, made = *seen;
  *seen = shoal_hier_ring_start(made, depth) + depth;
  if (made > 0)
    shoal_dev_uint64_wait_until(&shoal_chan(t, SHOAL_CHAN_CREDIT_IN)[shoal_team_world_pe(t, to)], SHMEM_CMP_GE, made);
  return shoal_pushbox_ring(t, t->my_pe, 0);
}

/* Team PE `from`'s ring in my pushbox (after shoal_coll_wait saw its push). */
SHOAL_FN const char *shoal_hier_ring_in(const shoal_team *t, int from) { return shoal_pushbox_ring(t, from, 0); }

/* Tell `from` I have consumed its ring push (the caller fenced my reads). */
SHOAL_FN void shoal_hier_ring_credit(shoal_team *t, int from)
{
  uint64_t *sent = &shoal_chan(t, SHOAL_CHAN_CREDIT_SENT)[shoal_team_world_pe(t, from)];
  *sent = shoal_hier_ring_start(*sent, (uint64_t)t->pushbox_depth) + (uint64_t)t->pushbox_depth;
  shoal_chan_publish(t, from, SHOAL_CHAN_CREDIT_IN, *sent);
}

/* Push bytes from src into my ring on team PE `to` (no signal). */
SHOAL_FN void shoal_hier_put(shoal_team *t, int to, const void *src, size_t bytes)
{
  shoal_dev_putmem(SHOAL_DEV_CTX, shoal_hier_ring_out(t, to), src, bytes, shoal_team_world_pe(t, to));
}

/* A node member that is not the leader: push my chunk, take the result. */
SHOAL_FN void shoal_hier_member_chunk(shoal_team *t, int lead, char *d, const char *s, size_t bytes)
{
  shoal_hier_put(t, lead, s, bytes);
  shoal_coll_signal(t, lead);
  shoal_coll_wait(t, lead);
  shoal_copy(d, shoal_hier_ring_in(t, lead), bytes);
  shoal_coll_fence();   /* my reads of the ring are done before the leader may reuse it */
  shoal_hier_ring_credit(t, lead);
}

/* The leader: reduce my node's chunks into my staged one, exchange with
 * the other leaders, reduce the partials in node order into d, push d to
 * my node's members. */
SHOAL_FN void shoal_hier_leader_chunk(shoal_team *t, int type, int op, char *d, const char *s, size_t c)
{
  int nodes = t->hier_nodes, mine_node = t->hier_node;
  int lead = t->my_pe, last = t->hier_first[mine_node + 1];
  size_t bytes = c * shoal_reduce_size(type);
  char *mine = shoal_pushbox_ring(t, lead, 0);   /* my own ring: my staging area */
  shoal_copy(mine, s, bytes);
  for (int m = lead + 1; m < last; m++) {
    shoal_coll_wait(t, m);
    shoal_reduce_combine(type, op, mine, shoal_hier_ring_in(t, m), c);
  }
  for (int k = 1; k < nodes; k++) shoal_hier_put(t, shoal_hier_leader(t, (mine_node + k) % nodes), mine, bytes);
  shoal_coll_fence();   /* the partials land before the signals; my reads of members' rings are done */
  for (int k = 1; k < nodes; k++)
    shoal_chan_tell(t, shoal_hier_leader(t, (mine_node + k) % nodes), SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
  for (int m = lead + 1; m < last; m++) shoal_hier_ring_credit(t, m);
  for (int k = 1; k < nodes; k++) shoal_coll_wait(t, shoal_hier_leader(t, (mine_node + k) % nodes));
  for (int j = 0; j < nodes; j++) {
    const char *part = j == mine_node ? mine : shoal_hier_ring_in(t, shoal_hier_leader(t, j));
    if (j == 0) shoal_copy(d, part, bytes);
    else shoal_reduce_combine(type, op, d, part, c);
  }
  shoal_coll_fence();   /* my reads of the leaders' rings are done */
  for (int k = 1; k < nodes; k++) shoal_hier_ring_credit(t, shoal_hier_leader(t, (mine_node + k) % nodes));
  for (int m = lead + 1; m < last; m++) shoal_hier_put(t, m, d, bytes);
  shoal_coll_fence();
  for (int m = lead + 1; m < last; m++) shoal_chan_tell(t, m, SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
}

SHOAL_FN void shoal_coll_reduce_hier(shoal_team *t, int type, int op, void *dest, const void *src,
                                     size_t count)
{
  size_t es = shoal_reduce_size(type);
  size_t per = shoal_hier_ring_bytes(t) / es;   /* > 0: shoal_hier_usable */
  int lead = shoal_hier_leader(t, t->hier_node);
  for (size_t i = 0; i < count; i += per) {
    size_t c = count - i < per ? count - i : per;
    char *d = (char *)dest + i * es;
    const char *s = (const char *)src + i * es;
    if (t->my_pe == lead) shoal_hier_leader_chunk(t, type, op, d, s, c);
    else shoal_hier_member_chunk(t, lead, d, s, c * es);
  }
}

/* Hierarchical fcollect (all-gather of equal blocks): a node's members are
 * consecutive team PEs, so their blocks are one range of dest.
 *
 *   1. the leader tells its members and the other leaders its dest is
 *      free; each member puts its block into the leader's dest (a store)
 *      and signals;
 *   2. each leader puts its node's range into every other leader's dest
 *      once that one is free (one message per node pair) and signals;
 *   3. once every range has landed, the leader puts the whole dest into
 *      each member's and signals.
 *
 * Remotely written: dest (symmetric).  Every member waits twice for its
 * leader (dest free, dest complete) and signals it once; leaders signal
 * each other twice (free, landed) and wait for each other twice. */
SHOAL_FN void shoal_coll_fcollect_hier(shoal_team *t, void *dest, const void *src, size_t bytes)
{
  int nodes = t->hier_nodes, mine_node = t->hier_node, me = t->my_pe;
  int lead = shoal_hier_leader(t, mine_node), last = t->hier_first[mine_node + 1];
  char *d = (char *)dest;
  if (me != lead) {
    shoal_coll_wait(t, lead);   /* the leader's dest is free */
    shoal_dev_putmem(SHOAL_DEV_CTX, d + (size_t)me * bytes, src, bytes, shoal_team_world_pe(t, lead));
    shoal_coll_signal(t, lead);
    shoal_coll_wait(t, lead);   /* my dest holds every block */
    return;
  }
  shoal_coll_fence();
  for (int m = lead + 1; m < last; m++) shoal_chan_tell(t, m, SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
  for (int k = 1; k < nodes; k++)
    shoal_chan_tell(t, shoal_hier_leader(t, (mine_node + k) % nodes), SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
  shoal_copy(d + (size_t)me * bytes, src, bytes);
  for (int m = lead + 1; m < last; m++) shoal_coll_wait(t, m);   /* my node's blocks landed */
  char *range = d + (size_t)lead * bytes;
  size_t len = (size_t)(last - lead) * bytes;
  for (int k = 1; k < nodes; k++) {
    int p = shoal_hier_leader(t, (mine_node + k) % nodes);
    shoal_coll_wait(t, p);   /* p's dest is free */
    shoal_dev_putmem(SHOAL_DEV_CTX, range, range, len, shoal_team_world_pe(t, p));
  }
  shoal_coll_fence();
  for (int k = 1; k < nodes; k++)
    shoal_chan_tell(t, shoal_hier_leader(t, (mine_node + k) % nodes), SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
  for (int k = 1; k < nodes; k++) shoal_coll_wait(t, shoal_hier_leader(t, (mine_node + k) % nodes));
  for (int m = lead + 1; m < last; m++)
    shoal_dev_putmem(SHOAL_DEV_CTX, d, d, (size_t)t->size * bytes, shoal_team_world_pe(t, m));
  shoal_coll_fence();
  for (int m = lead + 1; m < last; m++) shoal_chan_tell(t, m, SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
}

#endif
