/* The element combine of the reduction algorithms at any scope, a
 * parameter of each algorithm (reduce_oneshot.h, reduce_twoshot.h,
 * reduce_scatter.h).  The algorithm says who reads which slice of which
 * member, when the members meet and where the result goes; a reducer says
 * how a slice is combined:
 *
 *   shoal_reducer_size(r)        bytes per element;
 *   shoal_reducer_range(s, r, out, in, np, lo, hi)
 *       elements [lo, hi) of the reduction over in[0..np) (team order),
 *       stored at out (the pull, reduce-scatter); lo a whole number of
 *       16-byte units (shoal_reduce_share), or lo == hi (nothing: touches
 *       no element);
 *   shoal_reducer_range_all(s, r, pd, me, in, np, lo, hi)
 *       the same stored at every member's pd[(me + k) % np], k = 1..np,
 *       in that staggered order (two-shot's all-gather half).
 *
 * The CPU's reducer (here) is type-erased: a (type, op) pair for
 * shoal_reduce_combine (reduce_op.h), a cache-sized piece at a time.  The
 * GPU's (<shoal/gpu_block.h>: shoal_gpu_reducer<T, OP>) is typed: 16-byte
 * vectors, the loads of four members out at once (two vectors a thread
 * on smaller teams), peer bases hoisted.  In C++ the algorithms are
 * templates on the reducer (SHOAL_REDUCER_TEMPLATE); in C they take the
 * CPU's. */
#ifndef SHOAL_COLL_REDUCE_COMBINE_H
#define SHOAL_COLL_REDUCE_COMBINE_H

#include "push.h"
#include "reduce_op.h"

#ifdef __cplusplus
#define SHOAL_REDUCER_TEMPLATE template <class shoal_R>
#define SHOAL_REDUCER shoal_R
#else
#define SHOAL_REDUCER_TEMPLATE
#define SHOAL_REDUCER shoal_reducer
#endif

typedef struct shoal_reducer {
  int type, op;   /* shoal_rtype, shoal_rop */
} shoal_reducer;

SHOAL_FN shoal_reducer shoal_reducer_make(int type, int op)
{
  shoal_reducer r;
  r.type = type;
  r.op = op;
  return r;
}
SHOAL_FN size_t shoal_reducer_size(const shoal_reducer *r) { return shoal_reduce_size(r->type); }

/* Elements a thread combines before storing them to the outputs: the
 * piece stays in the cache while it is copied to every member. */
#define SHOAL_REDUCE_PIECE_BYTES (32u << 10)

/* Elements [lo, hi) by the lane's threads (a CPU lane: one thread), a
 * piece at a time: reduced at home + piece, then copied to the other nout - 1
 * outputs out[(me + k) % nout]. */
SHOAL_FN void shoal_reducer_pieces(const shoal_scope *s, const shoal_reducer *r, char *home, char *const *out,
                                   int nout, int me, const char *const *in, int np, size_t lo, size_t hi)
{
  size_t es = shoal_reduce_size(r->type);
  size_t per = SHOAL_REDUCE_PIECE_BYTES / es ? SHOAL_REDUCE_PIECE_BYTES / es : 1;
  for (size_t a = lo + s->tid * per; a < hi; a += (size_t)s->nthreads * per) {
    size_t c = hi - a < per ? hi - a : per, off = a * es;
    char *acc = home + off;
    int first = -1;
    /* In place (acc is one of the inputs): start from it, so it is read
     * before it is written.  Each element is computed once and stored to
     * every member, so every member still gets the same bits. */
    for (int q = 0; q < np; q++)
      if (in[q] + off == acc) first = q;
    if (first < 0) {
      shoal_copy(acc, in[0] + off, c * es);
      first = 0;
    }
    for (int q = 0; q < np; q++)
      if (q != first) shoal_reduce_combine(r->type, r->op, acc, in[q] + off, c);
    for (int k = 1; k < nout; k++) shoal_copy(out[(me + k) % nout] + off, acc, c * es);
  }
}
SHOAL_FN void shoal_reducer_range(const shoal_scope *s, const shoal_reducer *r, char *out, const char *const *in,
                                  int np, size_t lo, size_t hi)
{
  shoal_reducer_pieces(s, r, out, &out, 1, 0, in, np, lo, hi);
}
SHOAL_FN void shoal_reducer_range_all(const shoal_scope *s, const shoal_reducer *r, char *const *pd, int me,
                                      const char *const *in, int np, size_t lo, size_t hi)
{
  shoal_reducer_pieces(s, r, pd[me], pd, np, me, in, np, lo, hi);
}

/* Chunk c of `chunks`'s elements [lo, hi) of n, cut at 16-byte units (the
 * GPU's vectors); the last chunk also takes the tail that is no whole unit. */
SHOAL_FN void shoal_reduce_share(size_t n, size_t es, size_t c, size_t chunks, size_t *lo, size_t *hi)
{
  size_t unit = es < 16 && 16 % es == 0 ? 16 / es : 1;
  shoal_scope_share(n / unit, c, chunks, lo, hi);
  *lo *= unit;
  *hi *= unit;
  if (c == chunks - 1) *hi = n;
}

/* p[q] = team PE q's mapping of base + off, for every thread of the lane. */
SHOAL_FN void shoal_reduce_peers(const shoal_scope *s, shoal_team *t, char **p, const void *base, size_t off,
                                 const char *call)
{
  shoal_push_peers(s, t, p, (void *)base, off, call);
}

#endif
