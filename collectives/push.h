/* The data movers, one algorithm at any scope (collectives/scope.h):
 * fcollect, broadcast (the root pushes) and alltoall (each member's block
 * to its owner) store straight into every member's dest.
 *
 *   1. every thread of the lane finds each member's dest (the peer bases,
 *      hoisted out of the copy loop into pd, one slot per team PE);
 *   2. meeting: every member's source is ready and its dest free;
 *   3. lane b moves its share of the bytes, units * b / nlanes .. in
 *      16-byte units: each unit loaded once and stored to every member, in
 *      the staggered order (me + i) % n so that the members do not all
 *      write to the same peer at once (Iris Gluon all-gather);
 *   4. meeting: every share has landed everywhere.
 * Every member must be reachable by load/store (t->all_mapped; a GPU's
 * peers within SHOAL_SCOPE_MAX_PEERS).  Remotely written: dest.
 * Callers: the CPU's team fcollect and broadcast (one lane, large
 * messages; collectives/fcollect.h, broadcast_push.h pick),
 * the GPU's grid collectives (<shoal/gpu_grid.h>, a lane per block), and
 * tests/coll/test_lanes (k CPU threads as k lanes). */
#ifndef SHOAL_COLL_PUSH_H
#define SHOAL_COLL_PUSH_H

#include "scope.h"

/* Members a lane keeps the dest of (pd's length). */
#define SHOAL_SCOPE_MAX_PEERS 64

/* pd[q] = team PE q's mapping of dest + off, for every thread of the lane. */
SHOAL_FN void shoal_push_peers(const shoal_scope *s, shoal_team *t, char **pd, void *dest, size_t off,
                               const char *call)
{
  for (unsigned j = s->tid; j < (unsigned)t->size; j += s->nthreads) {
    int pe = shoal_team_world_pe(t, (int)j);
    char *r = (char *)shoal_dev_ptr(dest, pe);
    if (SHOAL_UNLIKELY(!r)) shoal_scope_unmapped(call, dest, pe);
    pd[j] = r + off;
  }
  shoal_scope_sync_lane(s);
}

/* The same for the call's dest, where the lane's host found them (s->dest_at). */
SHOAL_FN void shoal_push_dests(const shoal_scope *s, shoal_team *t, char **pd, void *dest, size_t off,
                               const char *call)
{
  if (!s->dest_at) {
    shoal_push_peers(s, t, pd, dest, off, call);
    return;
  }
  for (unsigned j = s->tid; j < (unsigned)t->size; j += s->nthreads) pd[j] = s->dest_at[j] + off;
  shoal_scope_sync_lane(s);
}

/* Block me of every member's dest gets my src. */
SHOAL_FN void shoal_push_fcollect(const shoal_scope *s, shoal_team *t, char **pd, void *dest, const void *src,
                                  size_t bytes, const char *call)
{
  size_t lo, hi;
  shoal_push_dests(s, t, pd, dest, (size_t)t->my_pe * bytes, call);
  shoal_scope_enter(s, t, call);
  shoal_scope_byte_share(s, bytes, &lo, &hi);
  shoal_scope_push(s, pd, t->size, t->my_pe, (const char *)src, lo, hi);
  shoal_scope_leave(s, t, call);
}

/* Every member's dest gets the root's src (the root's too; dest == src
 * on the root is allowed). */
SHOAL_FN void shoal_push_broadcast(const shoal_scope *s, shoal_team *t, char **pd, void *dest, const void *src,
                                   size_t bytes, int root, const char *call)
{
  size_t lo, hi;
  if (t->my_pe == root) shoal_push_dests(s, t, pd, dest, 0, call);
  shoal_scope_enter(s, t, call);
  if (t->my_pe == root) {
    shoal_scope_byte_share(s, bytes, &lo, &hi);
    shoal_scope_push(s, pd, t->size, t->my_pe, (const char *)src, lo, hi);
  }
  shoal_scope_leave(s, t, call);
}

/* Block q of my src goes to block me of team PE q's dest. */
SHOAL_FN void shoal_push_alltoall(const shoal_scope *s, shoal_team *t, char **pd, void *dest, const void *src,
                                  size_t bytes, const char *call)
{
  int np = t->size, me = t->my_pe;
  size_t lo, hi;
  shoal_push_dests(s, t, pd, dest, (size_t)me * bytes, call);
  shoal_scope_enter(s, t, call);
  shoal_scope_byte_share(s, bytes, &lo, &hi);
  shoal_scope_scatter(s, pd, np, me, (const char *)src, bytes, lo, hi);
  shoal_scope_leave(s, t, call);
}

/* ---- the staged push (NCCL's simple protocol) ------------------------------
 * fcollect and alltoall without the first meeting: each lane stores its
 * share of every member's block into that member's staging buffer (my own
 * block straight into my dest), meets lane b of the members once (its
 * stores in place on all of them), and copies its share of each member's
 * block out of my staging buffer into dest.  A member that starts late
 * finds the others' blocks waiting; the push's first meeting waited for
 * it before anyone stored.
 *
 * A staging buffer holds two halves of a slot per member (cap bytes each);
 * a call writes the half of the parity of the team's staged calls so far
 * (the top bit of *calls, the same on every member).  Why a half is free
 * when a call writes it: the call before (the other half) met lane b of
 * every member, so every member had begun that call, and so had finished
 * the one before it -- the last to read this half -- its lanes having met
 * at its exit (a grid's lanes that meet) or its kernel having ended (an
 * _on_stream kernel's).  So a team's staged calls must follow each other
 * on every member (one stream a team), as every collective's on its
 * counters, and a captured graph replays them: the count lives in device
 * memory.
 * Blocks of up to cap bytes; dest must not overlap src; every member
 * mapped, running the same number of lanes (the meeting's tags check it).
 * Callers: the GPU's _on_stream fcollect and alltoall where every member
 * shares this GPU (<shoal/gpu_grid.h>, buffers in the team's LL box,
 * gpu/gpu_runtime.c), and tests/coll/test_lanes. */
typedef struct shoal_stage {
  char *const *at;    /* team PE q's staging buffer as mapped here */
  char *mine;         /* mine */
  uint64_t *calls;    /* mine: its top bit is the parity of the team's staged calls so far */
  size_t cap;         /* bytes of a member's slot in a half (a multiple of 16) */
  uint64_t count;     /* lanes that do not meet locally (a fresh kernel's): *calls as read when the
                         kernel began (the last kernel's count is in place then), a load off the
                         call's path; lanes that meet read *calls once they have met */
} shoal_stage;

/* which: 1 fcollect, 2 alltoall; bytes <= st->cap. */
SHOAL_FN void shoal_push_staged(const shoal_scope *s, shoal_team *t, char **pd, const shoal_stage *st, int which,
                                void *dest, const void *src, size_t bytes, const char *call)
{
  int np = t->size, me = t->my_pe;
  size_t lo, hi;
  if (s->local) shoal_scope_sync_local(s, t, call);   /* the PE's lanes wrote src, counted the last call */
  size_t half = (size_t)((s->local ? *st->calls : st->count) >> 63) * (size_t)np;
  for (unsigned j = s->tid; j < (unsigned)np; j += s->nthreads)
    pd[j] = (int)j == me ? (char *)dest + (size_t)me * bytes : st->at[j] + (half + (size_t)me) * st->cap;
  shoal_scope_sync_lane(s);
  shoal_scope_byte_share(s, bytes, &lo, &hi);
  if (which == 1) shoal_scope_push(s, pd, np, me, (const char *)src, lo, hi);
  else shoal_scope_scatter(s, pd, np, me, (const char *)src, bytes, lo, hi);
  if (s->nthreads == 1) shoal_scope_sync_lane(s);   /* the spread meeting begins with it */
  shoal_scope_meet_peers_spread(s, t, true, true, call);
  shoal_scope_sync_lane(s);
  shoal_scope_gather(s, (char *)dest, bytes, st->mine + half * st->cap, st->cap, np, me, lo, hi);
  /* Count the call, so that the next one writes the other half: each lane
   * adds its share of 2^63 (shoal_scope_arrival's), and the top bit flips
   * once all have -- adds that nobody waits for (the last lane to finish
   * found by the adds' old values, and its count, cost a call 0.5 us on one
   * H200).  The next call reads it after the lanes meet, or once this
   * kernel has ended. */
  if (s->tid == 0) (void)shoal_scope_add_local(st->calls, shoal_scope_arrival(s));
  if (s->local) shoal_scope_sync_local(s, t, call);
}

/* The CPU's team collectives may push when every member is mapped.  Not
 * the active sets: they have no sync words of their own (they borrow the
 * world team's), so their lane counters would mix. */
SHOAL_FN bool shoal_push_ok(const shoal_team *t)
{
  return t->all_mapped && t->slot >= 0 && t->size <= SHOAL_SCOPE_MAX_PEERS;
}

/* From how many bytes (a member's block) the CPU's one-lane push beats the
 * puts paced by pairwise signals (collectives/fcollect.h):
 * below, its two all-member meetings cost more than the pairwise
 * handshakes (bench/coll, 4 PEs on 2 cores: 1.2-1.4x at 512 B-64 KB; at
 * 1 MB the push is 0.7x).  Broadcast: the root's push against every member
 * pulling in parallel, which wins on more cores until 512 KB here. */
#define SHOAL_PUSH_CPU_MIN_BYTES (256u << 10)
#define SHOAL_PUSH_BCAST_MIN_BYTES (512u << 10)

/* which: 0 broadcast, 1 fcollect, 2 alltoall (the GPU's numbering). */
SHOAL_FN void shoal_push_move(const shoal_scope *s, shoal_team *t, char **pd, int which, void *dest,
                              const void *src, size_t bytes, int root, const char *call)
{
  if (which == 0) shoal_push_broadcast(s, t, pd, dest, src, bytes, root, call);
  else if (which == 1) shoal_push_fcollect(s, t, pd, dest, src, bytes, call);
  else shoal_push_alltoall(s, t, pd, dest, src, bytes, call);
}

/* The CPU's scope: one lane of one thread. */
SHOAL_FN void shoal_push_move_one(shoal_team *t, int which, void *dest, const void *src, size_t bytes, int root,
                                  const char *call)
{
  shoal_scope s = shoal_scope_make(0, 1, 0, 1, 0);
  char *pd[SHOAL_SCOPE_MAX_PEERS];
  shoal_push_move(&s, t, pd, which, dest, src, bytes, root, call);
}

#endif
