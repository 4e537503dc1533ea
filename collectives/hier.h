/* Hierarchical all-reduce (reduce-scatter and fcollect: below), for teams
 * that span nodes (the team's node layout: teams/team.h, hier_*).  Per
 * chunk of at most one pushbox ring (a sender's depth slots on a
 * receiver, taken whole: below):
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

/* Hierarchical reduce-scatter (member i gets block i, count elements, of
 * the reduction of every member's source of n blocks).  A node's members
 * are consecutive team PEs, so their blocks are one range of every source
 * (node j's range: blocks first[j] .. first[j + 1] - 1).  Every leader
 * walks the ranges in chunks of at most one pushbox ring, in rounds that
 * all leaders count alike (the longest range's chunks), and in round r:
 *
 *   1. for every other node j with a chunk r of its range, reduces my
 *      node's sources over that chunk (reading my node's members' sources
 *      in place: they are mapped, and symmetric as the entry points
 *      require) into my staging ring and pushes it to j's leader: one
 *      message per node pair and chunk;
 *   2. for chunk r of my node's range, reduces my node's sources into my
 *      staging ring, adds the partials the other leaders pushed (in node
 *      order), and hands each member the piece of its block the chunk
 *      holds: a push into its pushbox (a store: it is mapped), or my dest.
 *
 * Nodes of unequal size have ranges of unequal length: a leader pushes to
 * j only in the rounds where j's range has a chunk, and j waits only for
 * the chunks of its range.  A member signals its leader on entry (its
 * source is ready), copies out its pieces as they come, and, when the
 * leader still reads its source after its last piece (later rounds),
 * waits for the leader's last signal.  Remotely written: the team's
 * pushbox only; remotely read: source, by the node's leader. */
SHOAL_FN size_t shoal_hier_range(const shoal_team *t, int node, size_t count)
{
  return (size_t)(t->hier_first[node + 1] - t->hier_first[node]) * count;
}

/* acc = my node's reduction of c elements at byte offset off of the
 * members' source (I am the leader: first member). */
SHOAL_FN void shoal_hier_node_partial(shoal_team *t, int type, int op, char *acc, const char *src, size_t off,
                                      size_t c)
{
  int last = t->hier_first[t->hier_node + 1];
  shoal_copy(acc, src + off, c * shoal_reduce_size(type));
  for (int q = t->my_pe + 1; q < last; q++)
    shoal_reduce_from(t, type, op, acc, src + off, c, shoal_team_world_pe(t, q));
}

SHOAL_FN void shoal_coll_reduce_scatter_hier(shoal_team *t, int type, int op, void *dest, const void *src,
                                             size_t count)
{
  size_t es = shoal_reduce_size(type);
  size_t per = shoal_hier_ring_bytes(t) / es;   /* > 0: shoal_hier_usable */
  int nodes = t->hier_nodes, mine = t->hier_node, me = t->my_pe;
  int lead = shoal_hier_leader(t, mine), last = t->hier_first[mine + 1];
  const char *s = (const char *)src;
  if (count == 0) return;
  size_t rounds = 0;
  for (int j = 0; j < nodes; j++) {
    size_t r = (shoal_hier_range(t, j, count) + per - 1) / per;
    if (r > rounds) rounds = r;
  }
  if (me != lead) {
    size_t b = (size_t)(me - lead) * count;   /* my block in my node's range */
    size_t r_end = (b + count - 1) / per + 1;
    shoal_coll_signal(t, lead);   /* my source is ready */
    for (size_t r = b / per; r < r_end; r++) {
      size_t lo = r * per > b ? r * per : b, hi = (r + 1) * per < b + count ? (r + 1) * per : b + count;
      shoal_coll_wait(t, lead);
      shoal_copy((char *)dest + (lo - b) * es, shoal_hier_ring_in(t, lead), (hi - lo) * es);
      shoal_coll_fence();   /* my reads of the ring are done before the leader may reuse it */
      shoal_hier_ring_credit(t, lead);
    }
    if (r_end < rounds) shoal_coll_wait(t, lead);   /* the leader is done reading my source */
    return;
  }
  char *stage = shoal_pushbox_ring(t, me, 0);   /* my own ring: my staging area */
  size_t mylen = shoal_hier_range(t, mine, count);
  for (int m = lead + 1; m < last; m++) shoal_coll_wait(t, m);   /* their sources are ready */
  for (size_t r = 0; r < rounds; r++) {
    size_t at = r * per;
    for (int k = 1; k < nodes; k++) {   /* 1. my node's partials of the other ranges */
      int j = (mine + k) % nodes;
      size_t len = shoal_hier_range(t, j, count);
      if (at >= len) continue;
      size_t c = len - at < per ? len - at : per;
      shoal_hier_node_partial(t, type, op, stage, s, ((size_t)t->hier_first[j] * count + at) * es, c);
      shoal_hier_put(t, shoal_hier_leader(t, j), stage, c * es);   /* blocking: stage is free again */
    }
    shoal_coll_fence();   /* the partials land before the signals */
    for (int k = 1; k < nodes; k++) {
      int j = (mine + k) % nodes;
      if (at < shoal_hier_range(t, j, count)) shoal_chan_tell(t, shoal_hier_leader(t, j), SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
    }
    if (at >= mylen) continue;
    size_t c = mylen - at < per ? mylen - at : per;   /* 2. chunk r of my range */
    shoal_hier_node_partial(t, type, op, stage, s, ((size_t)lead * count + at) * es, c);
    for (int j = 0; j < nodes; j++) {
      if (j == mine) continue;
      shoal_coll_wait(t, shoal_hier_leader(t, j));
      shoal_reduce_combine(type, op, stage, shoal_hier_ring_in(t, shoal_hier_leader(t, j)), c);
    }
    shoal_coll_fence();   /* my reads of the leaders' rings are done */
    for (int k = 1; k < nodes; k++) shoal_hier_ring_credit(t, shoal_hier_leader(t, (mine + k) % nodes));
    for (int m = lead; m < last; m++) {
      size_t b = (size_t)(m - lead) * count;
      size_t lo = at > b ? at : b, hi = at + c < b + count ? at + c : b + count;
      if (lo >= hi) continue;
      if (m == me) shoal_copy((char *)dest + (lo - b) * es, stage + (lo - at) * es, (hi - lo) * es);
      else shoal_hier_put(t, m, stage + (lo - at) * es, (hi - lo) * es);
    }
    shoal_coll_fence();
    for (int m = lead + 1; m < last; m++) {
      size_t b = (size_t)(m - lead) * count;
      if (at < b + count && b < at + c) shoal_chan_tell(t, m, SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
    }
  }
  shoal_coll_fence();   /* my reads of my members' sources are done */
  for (int m = lead + 1; m < last; m++)
    if (((size_t)(m - lead) * count + count - 1) / per + 1 < rounds) shoal_chan_tell(t, m, SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
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
