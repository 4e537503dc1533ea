/* Hierarchical all-reduce, for teams that span nodes (the team's node
 * layout: teams/team.h, hier_*).  Per chunk of at most one pushbox slot:
 *
 *   1. inside each node, every member pushes its chunk into its slot of the
 *      node leader's pushbox (the leader is the node's first member; a
 *      store, the leader is mapped), and the leader reduces the node's
 *      chunks;
 *   2. across nodes, only the leaders exchange: each pushes its node's
 *      partial into its slot of every other leader's pushbox (one message
 *      per node pair and chunk, through the remote transport), then every
 *      leader reduces the partials in node order, so all compute the same
 *      bits;
 *   3. inside each node, the leader pushes the result into its slot of
 *      every member's pushbox, and each member copies it out.
 *
 * Every write to another PE is a push into the receiver's pushbox behind
 * the pair's credits (collectives/coll.h), so nobody reads another PE's
 * memory, source and dest may be any memory (a GPU's host proxy reads only
 * global memory: the leaders' partials are staged in the pushbox), and in
 * place works: a chunk of source is pushed or staged before that chunk of
 * dest is written.  Remotely written: the team's pushbox only. */
#ifndef SHOAL_COLL_HIER_H
#define SHOAL_COLL_HIER_H

#include "reduce_op.h"

SHOAL_FN int shoal_hier_leader(const shoal_team *t, int node) { return t->hier_first[node]; }

/* The team and element size allow the hierarchical all-reduce. */
SHOAL_FN bool shoal_hier_usable(const shoal_team *t, size_t es)
{
  return t->hier && es > 0 && shoal_pushbox_slot_bytes(t) >= es;
}

/* Push bytes from src into my next slot on team PE `to`, and signal. */
SHOAL_FN void shoal_hier_push(shoal_team *t, int to, const void *src, size_t bytes)
{
  char *slot = shoal_push_slot_out(t, to);   /* `to` has a free slot of mine */
  shoal_dev_putmem(SHOAL_DEV_CTX, slot, src, bytes, shoal_team_world_pe(t, to));
  shoal_coll_signal(t, to);
}

/* A node member that is not the leader: push my chunk, take the result. */
SHOAL_FN void shoal_hier_member_chunk(shoal_team *t, int lead, char *d, const char *s, size_t bytes)
{
  shoal_hier_push(t, lead, s, bytes);
  shoal_coll_wait(t, lead);
  shoal_copy(d, shoal_push_slot_in(t, lead), bytes);
  shoal_coll_credit_give(t, lead);
}

/* The leader: reduce my node's chunks into my staged one, exchange with
 * the other leaders, reduce the partials in node order into d, push d to
 * my node's members. */
SHOAL_FN void shoal_hier_leader_chunk(shoal_team *t, int type, int op, char *d, const char *s, size_t c)
{
  int nodes = t->hier_nodes, mine_node = t->hier_node;
  int lead = t->my_pe, last = t->hier_first[mine_node + 1];
  size_t bytes = c * shoal_reduce_size(type);
  char *mine = shoal_pushbox_mine(t);
  shoal_copy(mine, s, bytes);
  for (int m = lead + 1; m < last; m++) {
    shoal_coll_wait(t, m);
    shoal_reduce_combine(type, op, mine, shoal_push_slot_in(t, m), c);
  }
  for (int k = 1; k < nodes; k++) {
    int p = shoal_hier_leader(t, (mine_node + k) % nodes);
    char *slot = shoal_push_slot_out(t, p);
    shoal_dev_putmem(SHOAL_DEV_CTX, slot, mine, bytes, shoal_team_world_pe(t, p));
  }
  shoal_coll_fence();   /* the partials land before the signals; my reads of members' slots are done */
  for (int k = 1; k < nodes; k++)
    shoal_chan_tell(t, shoal_hier_leader(t, (mine_node + k) % nodes), SHOAL_CHAN_SENT, SHOAL_CHAN_IN);
  for (int m = lead + 1; m < last; m++) shoal_chan_tell(t, m, SHOAL_CHAN_CREDIT_SENT, SHOAL_CHAN_CREDIT_IN);
  for (int k = 1; k < nodes; k++) shoal_coll_wait(t, shoal_hier_leader(t, (mine_node + k) % nodes));
  for (int j = 0; j < nodes; j++) {
    const char *part = j == mine_node ? mine : shoal_push_slot_in(t, shoal_hier_leader(t, j));
    if (j == 0) shoal_copy(d, part, bytes);
    else shoal_reduce_combine(type, op, d, part, c);
  }
  shoal_coll_fence();   /* my reads of the leaders' slots are done */
  for (int k = 1; k < nodes; k++)
    shoal_chan_tell(t, shoal_hier_leader(t, (mine_node + k) % nodes), SHOAL_CHAN_CREDIT_SENT,
                    SHOAL_CHAN_CREDIT_IN);
  for (int m = lead + 1; m < last; m++) shoal_hier_push(t, m, d, bytes);
}

SHOAL_FN void shoal_coll_reduce_hier(shoal_team *t, int type, int op, void *dest, const void *src,
                                     size_t count)
{
  size_t es = shoal_reduce_size(type);
  size_t per = shoal_pushbox_slot_bytes(t) / es;   /* > 0: shoal_hier_usable */
  int lead = shoal_hier_leader(t, t->hier_node);
  for (size_t i = 0; i < count; i += per) {
    size_t c = count - i < per ? count - i : per;
    char *d = (char *)dest + i * es;
    const char *s = (const char *)src + i * es;
    if (t->my_pe == lead) shoal_hier_leader_chunk(t, type, op, d, s, c);
    else shoal_hier_member_chunk(t, lead, d, s, c * es);
  }
}

#endif
