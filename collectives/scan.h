/* Inclusive and exclusive prefix sums over a team (OpenSHMEM 1.6
 * shmem_TYPE_sum_inscan / _exscan), as device functions.
 *
 * Member i reads the sources of members 0..i (inclusive) or 0..i-1
 * (exclusive; member 0 gets zeros) and adds them in team order, so equal
 * prefixes give equal bits on every member.  barrier - compute - barrier,
 * as the one-shot all-reduce: sources are ready before anyone reads, and
 * nobody returns (and may change its source) while others still read it.
 * In place, results go through my scratch chunk by chunk and land in dest
 * only after everyone has read that chunk.  Remotely read: source. */
#ifndef SHOAL_COLL_SCAN_H
#define SHOAL_COLL_SCAN_H

#include "reduce_op.h"

/* acc = sum of the n elements at byte offset off of the sources of members
 * 0..last (acc is not src: callers stage in-place scans). */
SHOAL_FN void shoal_scan_block(shoal_team *t, int type, int last, void *acc, const void *src,
                               size_t off, size_t n)
{
  const char *s = (const char *)src + off;
  size_t bytes = n * shoal_reduce_size(type);
  if (n == 0) return;
  if (last < 0) {   /* exclusive scan on member 0: the sum of nothing */
    for (size_t i = 0; i < bytes; i++) ((char *)acc)[i] = 0;
    return;
  }
  if (t->my_pe == 0) shoal_copy(acc, s, bytes);
  else shoal_dev_getmem(SHOAL_DEV_CTX, acc, s, bytes, shoal_team_world_pe(t, 0));
  for (int q = 1; q <= last; q++)
    if (q == t->my_pe) shoal_reduce_combine(type, SHOAL_OP_sum, acc, s, n);
    else shoal_reduce_from(t, type, SHOAL_OP_sum, acc, s, n, shoal_team_world_pe(t, q));
}

SHOAL_FN void shoal_coll_scan(shoal_team *t, int type, int inclusive, void *dest, const void *src,
                              size_t count)
{
  size_t es = shoal_reduce_size(type);
  int last = inclusive ? t->my_pe : t->my_pe - 1;
  if (dest != src) {
    shoal_coll_all(t);
    shoal_scan_block(t, type, last, dest, src, 0, count);
    shoal_coll_all(t);
    return;
  }
  size_t per = shoal_coll_scratch_size(t) / es;   /* > 0: the host entry checks */
  for (size_t i = 0; i < count; i += per) {
    size_t c = count - i < per ? count - i : per;
    shoal_coll_all(t);
    shoal_scan_block(t, type, last, t->scratch, src, i * es, c);
    shoal_coll_all(t);
    shoal_copy((char *)dest + i * es, t->scratch, c * es);
  }
}

#endif
