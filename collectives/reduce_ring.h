/* Ring all-reduce: chunked reduce-scatter then all-gather around the ring
 * me -> me + 1, with one signal per round (Ascend #975).
 *
 * The vector is cut into segments of n chunks, a chunk being at most one
 * scratch slot.  In reduce-scatter round s, I put my partial of chunk
 * (me - s) into slot s of my right neighbour's scratch and signal it; I
 * wait for my left neighbour's partial of chunk (me - 1 - s) and fold it
 * into my dest.  After n - 1 rounds I hold chunk me + 1 complete; the
 * all-gather rounds pass completed chunks to the right, straight into the
 * neighbour's dest.
 *
 * Slots are never reset.  At the start I tell my left neighbour my scratch
 * and dest are free, and wait for the same from my right.  A slot is reused
 * one segment later, and by then the neighbour has consumed it: I cannot
 * finish a segment's all-gather before my right neighbour has finished its
 * reduce-scatter (its completed chunk is the last one to reach me).
 * Remotely written: dest and scratch.  Nothing is remotely read. */
#ifndef SHOAL_COLL_REDUCE_RING_H
#define SHOAL_COLL_REDUCE_RING_H

#include "reduce_op.h"

/* Elements a ring slot holds for this team and type (0: not enough scratch). */
SHOAL_FN size_t shoal_ring_slot_elems(const shoal_team *t, size_t es)
{
  if (t->size < 2) return 0;
  size_t slot = (shoal_coll_scratch_size(t) / (size_t)(t->size - 1)) & ~(size_t)15;
  return slot / es;
}

SHOAL_FN void shoal_coll_reduce_ring(shoal_team *t, int type, int op, void *dest, const void *src,
                                     size_t count)
{
  int n = t->size, me = t->my_pe;
  size_t es = shoal_reduce_size(type);
  if (n == 1) {
    shoal_copy(dest, src, count * es);
    return;
  }
  int right = (me + 1) % n, left = (me + n - 1) % n;
  int wright = shoal_team_world_pe(t, right);
  size_t slot_elems = shoal_ring_slot_elems(t, es);
  size_t slot_bytes = slot_elems * es;
  size_t ce = (count + (size_t)n - 1) / (size_t)n;
  if (ce > slot_elems) ce = slot_elems;
  char *d = (char *)dest;
  const char *s = (const char *)src;

  shoal_coll_signal(t, left);   /* my scratch and dest are free */
  shoal_coll_wait(t, right);
  for (size_t base = 0; base < count; base += (size_t)n * ce) {
    /* chunk c of this segment: elements [base + c * ce, ...) clipped to count */
#define SHOAL_RING_LO(c) (base + (size_t)(c) * ce < count ? base + (size_t)(c) * ce : count)
#define SHOAL_RING_LEN(c) \
  ((SHOAL_RING_LO(c) + ce < count ? SHOAL_RING_LO(c) + ce : count) - SHOAL_RING_LO(c))
    for (int r = 0; r < n - 1; r++) {
      int cs = (me - r + n) % n, cr = (me - 1 - r + 2 * n) % n;
      const char *from = (r == 0 ? s : d) + SHOAL_RING_LO(cs) * es;
      char *slot = t->scratch + (size_t)r * slot_bytes;
      shoal_dev_putmem(SHOAL_DEV_CTX, slot, from, SHOAL_RING_LEN(cs) * es, wright);
      shoal_coll_signal(t, right);
      shoal_coll_wait(t, left);
      char *acc = d + SHOAL_RING_LO(cr) * es;
      shoal_copy(acc, s + SHOAL_RING_LO(cr) * es, SHOAL_RING_LEN(cr) * es);
      shoal_reduce_combine(type, op, acc, slot, SHOAL_RING_LEN(cr));
    }
    for (int r = 0; r < n - 1; r++) {
      int cs = (me + 1 - r + n) % n;
      char *chunk = d + SHOAL_RING_LO(cs) * es;
      shoal_dev_putmem(SHOAL_DEV_CTX, chunk, chunk, SHOAL_RING_LEN(cs) * es, wright);
      shoal_coll_signal(t, right);
      shoal_coll_wait(t, left);
    }
#undef SHOAL_RING_LO
#undef SHOAL_RING_LEN
  }
}

#endif
