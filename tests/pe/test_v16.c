/* The OpenSHMEM 1.6 additions: ibput/ibget (every typed, sized and ctx
 * form, between every pair of PEs), signal_add/signal_set (plain, ctx and
 * the C11 generic names), shmem_pe_quiet, shmem_team_ptr, the sum_inscan/sum_exscan scans
 * (every type, out of place and in place, world and a strided team),
 * sessions, and the 1.6 team-split rule (no wrap-around past the parent).
 * Compiled as C11, so the generic names are tested too.
 *
 * Fresh random data every round, outputs poisoned, every element checked
 * (and the gaps between blocks must stay poisoned). */
#include "shoal_test.h"

#define NB 5    /* blocks */
#define BS 3    /* elements per block */
#define DSTB 4  /* dest stride between block starts (elements), > BS: gaps */
#define SSTB 7  /* source stride */
#define SPAN(st) ((size_t)((NB - 1) * (st) + BS))

static shmem_ctx_t test_ctx;

static int gap_poisoned(const void *p, size_t bytes)
{
  const unsigned char *c = p;
  for (size_t i = 0; i < bytes; i++)
    if (c[i] != POISON_BYTE) return 0;
  return 1;
}

static void complete(int ctx_form)
{
  if (ctx_form) shmem_ctx_quiet(test_ctx);
  else shmem_quiet();
}

/* Check one PE's blocked layout at stride st: block b, element e equals
 * the source element at b * sst + e; the gaps stay poisoned. */
#define CHECK_BLOCKS(T, base, st, sst, q, salt, what) \
  for (size_t b_ = 0; b_ < NB; b_++) { \
    for (size_t e_ = 0; e_ < BS; e_++) \
      ck_assert_msg((base)[b_ * (st) + e_] == (T)shoal_test_val(q, b_ * (sst) + e_, salt), \
                    "%s: block %zu element %zu from PE %d wrong", what, b_, e_, q); \
    if (b_ + 1 < NB) \
      ck_assert_msg(gap_poisoned((base) + b_ * (st) + BS, sizeof(T) * ((st) - BS)), \
                    "%s: wrote into the gap after block %zu", what, b_); \
  }

#define IB_TYPED(T, N) \
  START_TEST(test_ib_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(); \
    T *slots = shmem_malloc(sizeof(T) * SPAN(DSTB) * (size_t)np); \
    T *src = shmem_malloc(sizeof(T) * SPAN(SSTB)); \
    T *loc = malloc(sizeof(T) * SPAN(DSTB) * (size_t)np); \
    ck_assert_ptr_nonnull(slots); ck_assert_ptr_nonnull(src); ck_assert_ptr_nonnull(loc); \
    for (int form = 0; form < 2; form++) { \
      unsigned salt = 100 + (unsigned)form; \
      for (size_t j = 0; j < SPAN(SSTB); j++) src[j] = (T)shoal_test_val(me, j, salt); \
      shoal_test_poison(slots, sizeof(T) * SPAN(DSTB) * (size_t)np); \
      shmem_barrier_all(); \
      for (int k = 0; k < np; k++) { \
        int p = (me + k) % np; \
        T *d = slots + (size_t)me * SPAN(DSTB); \
        if (form) shmem_ctx_##N##_ibput(test_ctx, d, src, DSTB, SSTB, BS, NB, p); \
        else shmem_##N##_ibput(d, src, DSTB, SSTB, BS, NB, p); \
      } \
      complete(form); \
      shmem_barrier_all(); \
      for (int q = 0; q < np; q++) \
        CHECK_BLOCKS(T, slots + (size_t)q * SPAN(DSTB), DSTB, SSTB, q, salt, #N " ibput"); \
      shoal_test_poison(loc, sizeof(T) * SPAN(DSTB) * (size_t)np); \
      for (int k = 0; k < np; k++) { \
        int p = (me + k) % np; \
        T *d = loc + (size_t)p * SPAN(DSTB); \
        if (form) shmem_ctx_##N##_ibget(test_ctx, d, src, DSTB, SSTB, BS, NB, p); \
        else shmem_##N##_ibget(d, src, DSTB, SSTB, BS, NB, p); \
      } \
      for (int q = 0; q < np; q++) \
        CHECK_BLOCKS(T, loc + (size_t)q * SPAN(DSTB), DSTB, SSTB, q, salt, #N " ibget"); \
      shmem_barrier_all(); \
    } \
    free(loc); shmem_free(src); shmem_free(slots); \
  } \
  END_TEST
SHOAL_RMA_TYPES(IB_TYPED)

/* Sized forms, 8..128 bits, through one table; element = BYTES bytes. */
typedef void (*ib_fn)(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, size_t, int);
typedef void (*ctx_ib_fn)(shmem_ctx_t, void *, const void *, ptrdiff_t, ptrdiff_t, size_t, size_t, int);
static const struct {
  size_t es;
  ib_fn put, get;
  ctx_ib_fn cput, cget;
} sized[] = {
#define SIZED_ROW(BITS, BYTES) \
  {BYTES, shmem_ibput##BITS, shmem_ibget##BITS, shmem_ctx_ibput##BITS, shmem_ctx_ibget##BITS},
  SHOAL_SIZED_RMA(SIZED_ROW)
};
enum { N_SIZED = sizeof sized / sizeof sized[0] };

static int elem_ok(const unsigned char *p, size_t es, int q, size_t idx, unsigned salt)
{
  for (size_t b = 0; b < es; b++)
    if (p[b] != (unsigned char)(shoal_test_val(q, idx * es + b, salt) | 1)) return 0;
  return 1;
}

START_TEST(test_ib_sized)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  size_t es = sized[_i / 2].es;
  int form = _i % 2;
  unsigned salt = 200 + (unsigned)_i;
  unsigned char *slots = shmem_malloc(es * SPAN(DSTB) * (size_t)np);
  unsigned char *src = shmem_malloc(es * SPAN(SSTB));
  unsigned char *loc = malloc(es * SPAN(DSTB) * (size_t)np);
  for (size_t j = 0; j < es * SPAN(SSTB); j++) src[j] = (unsigned char)(shoal_test_val(me, j, salt) | 1);
  shoal_test_poison(slots, es * SPAN(DSTB) * (size_t)np);
  shmem_barrier_all();
  for (int k = 0; k < np; k++) {
    int p = (me + k) % np;
    void *d = slots + (size_t)me * SPAN(DSTB) * es;
    if (form) sized[_i / 2].cput(test_ctx, d, src, DSTB, SSTB, BS, NB, p);
    else sized[_i / 2].put(d, src, DSTB, SSTB, BS, NB, p);
  }
  complete(form);
  shmem_barrier_all();
  shoal_test_poison(loc, es * SPAN(DSTB) * (size_t)np);
  for (int k = 0; k < np; k++) {
    int p = (me + k) % np;
    void *d = loc + (size_t)p * SPAN(DSTB) * es;
    if (form) sized[_i / 2].cget(test_ctx, d, src, DSTB, SSTB, BS, NB, p);
    else sized[_i / 2].get(d, src, DSTB, SSTB, BS, NB, p);
  }
  for (int round = 0; round < 2; round++) {
    const unsigned char *base = round ? loc : slots;
    for (int q = 0; q < np; q++)
      for (size_t b = 0; b < NB; b++) {
        const unsigned char *blk = base + ((size_t)q * SPAN(DSTB) + b * DSTB) * es;
        for (size_t e = 0; e < BS; e++)
          ck_assert_msg(elem_ok(blk + e * es, es, q, b * SSTB + e, salt),
                        "ib%s%zu form %d: block %zu element %zu from PE %d wrong",
                        round ? "get" : "put", es * 8, form, b, e, q);
        if (b + 1 < NB)
          ck_assert_msg(gap_poisoned(blk + BS * es, es * (DSTB - BS)),
                        "ib%s%zu: wrote into the gap after block %zu", round ? "get" : "put", es * 8, b);
      }
  }
  shmem_barrier_all();
  free(loc); shmem_free(src); shmem_free(slots);
}
END_TEST

/* Zero blocks or zero-length blocks move nothing, NULL buffers included. */
START_TEST(test_ib_zero)
{
  int np = shmem_n_pes();
  shmem_int_ibput(NULL, NULL, 1, 1, 0, 5, np - 1);
  shmem_int_ibget(NULL, NULL, 1, 1, 3, 0, np - 1);
  shmem_ctx_ibput64(test_ctx, NULL, NULL, 1, 1, 0, 0, 0);
  shmem_barrier_all();
}
END_TEST

/* C11 generic ibput/ibget, plain and ctx. */
START_TEST(test_ib_generic)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  long *slots = shmem_malloc(sizeof(long) * SPAN(DSTB));
  long *src = shmem_malloc(sizeof(long) * SPAN(SSTB));
  long loc[SPAN(DSTB)];
  int peer = (me + 1) % np, from = (me + np - 1) % np;
  for (int form = 0; form < 2; form++) {
    unsigned salt = 300 + (unsigned)form;
    for (size_t j = 0; j < SPAN(SSTB); j++) src[j] = (long)shoal_test_val(me, j, salt);
    shoal_test_poison(slots, sizeof(long) * SPAN(DSTB));
    shmem_barrier_all();
    if (form) shmem_ibput(test_ctx, slots, src, DSTB, SSTB, BS, NB, peer);
    else shmem_ibput(slots, src, DSTB, SSTB, BS, NB, peer);
    complete(form);
    shmem_barrier_all();
    CHECK_BLOCKS(long, slots, DSTB, SSTB, from, salt, "generic ibput");
    shoal_test_poison(loc, sizeof loc);
    if (form) shmem_ibget(test_ctx, loc, src, DSTB, SSTB, BS, NB, peer);
    else shmem_ibget(loc, src, DSTB, SSTB, BS, NB, peer);
    CHECK_BLOCKS(long, loc, DSTB, SSTB, peer, salt, "generic ibget");
    shmem_barrier_all();
  }
  shmem_free(src); shmem_free(slots);
}
END_TEST

/* ---- signal_add / signal_set ------------------------------------------- */
START_TEST(test_signal_add_set)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  uint64_t *sig = shmem_malloc(sizeof(uint64_t) * 8 * (size_t)np);
  for (int form = 0; form < 4; form++) {   /* plain, ctx, generic, generic ctx */
    uint64_t *add = sig, *set = sig + np;
    unsigned salt = 400 + (unsigned)form;
    uint64_t base = shoal_test_val(0, 1, salt) >> 8;   /* the same on every PE */
    for (int i = 0; i < np; i++) { add[i] = base; set[i] = ~(uint64_t)0; }
    shmem_barrier_all();
    for (int k = 0; k < np; k++) {
      int p = (me + k) % np;
      uint64_t v = shoal_test_val(me, 7, salt) >> 8, s = shoal_test_val(me, 9, salt);
      switch (form) {
      case 0: shmem_signal_add(add, v, p); (shmem_signal_set)(set + me, s, p); break;
      case 1: shmem_ctx_signal_add(test_ctx, add, v, p); shmem_ctx_signal_set(test_ctx, set + me, s, p); break;
      case 2: shmem_signal_add(add, v, p); shmem_signal_set(set + me, s, p); break;
      default: shmem_signal_add(test_ctx, add, v, p); shmem_signal_set(test_ctx, set + me, s, p); break;
      }
    }
    uint64_t want = base;
    for (int q = 0; q < np; q++) want += shoal_test_val(q, 7, salt) >> 8;
    ck_assert_uint_eq(shmem_signal_wait_until(add, SHMEM_CMP_EQ, want), want);
    for (int q = 0; q < np; q++)
      ck_assert_uint_eq(shmem_signal_wait_until(set + q, SHMEM_CMP_EQ, shoal_test_val(q, 9, salt)),
                        shoal_test_val(q, 9, salt));
    ck_assert_uint_eq(shmem_signal_fetch(add), want);
    shmem_barrier_all();
  }
  shmem_free(sig);
}
END_TEST

/* ---- shmem_pe_quiet: data to the listed PEs is complete before the flag */
START_TEST(test_pe_quiet)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np, prev = (me + np - 1) % np;
  long *data = shmem_malloc(sizeof(long) * 512);
  int *flag = shmem_calloc(2, sizeof(int));
  long src[512];
  for (int form = 0; form < 2; form++) {
    for (int i = 0; i < 512; i++) src[i] = (long)shoal_test_val(me, (size_t)i, 950 + (unsigned)form);
    shoal_test_poison(data, sizeof(long) * 512);
    shmem_barrier_all();
    int list[2] = {next, me};
    if (form) {
      shmem_ctx_long_put_nbi(test_ctx, data, src, 512, next);
      shmem_ctx_pe_quiet(test_ctx, list, 2);
    } else {
      shmem_long_put_nbi(data, src, 512, next);
      shmem_pe_quiet(list, 1);
    }
    shmem_int_atomic_set(flag + form, 1, next);
    shmem_int_wait_until(flag + form, SHMEM_CMP_EQ, 1);
    for (int i = 0; i < 512; i++)
      ck_assert_msg(data[i] == (long)shoal_test_val(prev, (size_t)i, 950 + (unsigned)form),
                    "pe_quiet form %d: element %d from PE %d not delivered", form, i, prev);
  }
  shmem_pe_quiet(NULL, 0);                       /* nothing to do */
  shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, &me, 1);  /* no operation */
  shmem_barrier_all();
  shmem_free(flag);
  shmem_free(data);
}
END_TEST

/* 1.6 clarifies that fence orders the operations of its own context: data
 * put on a context, that context's fence, then the flag on it: whoever
 * sees the flag sees the data (through libfabric too). */
START_TEST(test_ctx_fence_order)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), next = (me + 1) % np, prev = (me + np - 1) % np;
  long *data = shmem_malloc(sizeof(long) * 256);
  long *flag = shmem_calloc(8, sizeof(long));
  long src[256];
  for (int round = 0; round < 8; round++) {
    for (int i = 0; i < 256; i++) src[i] = (long)shoal_test_val(me, (size_t)i, 980 + (unsigned)round);
    shmem_barrier_all();
    shmem_ctx_long_put_nbi(test_ctx, data, src, 256, next);
    shmem_ctx_fence(test_ctx);
    shmem_ctx_long_atomic_set(test_ctx, flag + round, 1, next);
    shmem_long_wait_until(flag + round, SHMEM_CMP_EQ, 1);
    for (int i = 0; i < 256; i++)
      ck_assert_msg(data[i] == (long)shoal_test_val(prev, (size_t)i, 980 + (unsigned)round),
                    "ctx fence round %d: element %d from PE %d arrived after the flag", round, i, prev);
    shmem_ctx_quiet(test_ctx);
  }
  shmem_barrier_all();
  shmem_free(flag);
  shmem_free(data);
}
END_TEST

/* ---- shmem_team_ptr ---------------------------------------------------- */
START_TEST(test_team_ptr)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  long *x = shmem_malloc(sizeof(long) * 4);
  for (int i = 0; i < 4; i++) x[i] = (long)shoal_test_val(me, (size_t)i, 500);
  shmem_barrier_all();
  ck_assert_ptr_null(shmem_team_ptr(SHMEM_TEAM_INVALID, x, 0));
  ck_assert_ptr_null(shmem_team_ptr(SHMEM_TEAM_WORLD, x, -1));
  ck_assert_ptr_null(shmem_team_ptr(SHMEM_TEAM_WORLD, x, np));
  ck_assert_ptr_eq(shmem_team_ptr(SHMEM_TEAM_WORLD, x, me), x);
  for (int p = 0; p < np; p++) {
    long *r = shmem_team_ptr(SHMEM_TEAM_WORLD, x, p);
    ck_assert_ptr_eq(r, shmem_ptr(x, p));
    if (r) for (int i = 0; i < 4; i++) ck_assert(r[i] == (long)shoal_test_val(p, (size_t)i, 500));
  }
  /* A strided team, odd world PEs: team PE t is world PE 2t + 1. */
  shmem_team_t odd = SHMEM_TEAM_INVALID;
  if (np >= 2) {
    ck_assert_int_eq(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, np / 2, NULL, 0, &odd), 0);
    if (me % 2) {
      ck_assert_ptr_nonnull(odd);
      for (int t = 0; t < np / 2; t++) {
        long *r = shmem_team_ptr(odd, x, t);
        ck_assert_ptr_eq(r, shmem_ptr(x, 2 * t + 1));
        if (r) ck_assert(r[3] == (long)shoal_test_val(2 * t + 1, 3, 500));
      }
      ck_assert_ptr_null(shmem_team_ptr(odd, x, np / 2));
    } else {
      ck_assert_ptr_null(odd);
      ck_assert_ptr_null(shmem_team_ptr(odd, x, 0));
    }
    shmem_team_destroy(odd);
  }
  shmem_barrier_all();
  shmem_free(x);
}
END_TEST

/* 1.6: a split that would run past the parent's last PE is not wrapped
 * around; it fails with SHMEM_TEAM_INVALID on every PE. */
START_TEST(test_split_no_wrap)
{
  int np = shmem_n_pes();
  shmem_team_t t = (shmem_team_t)1;
  int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, np - 1, 1, 2, NULL, 0, &t);
  if (np >= 2) {
    ck_assert_int_ne(rc, 0);
    ck_assert_ptr_null(t);
  }
  rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, np, 2, NULL, 0, &t);
  if (np >= 2) {
    ck_assert_int_ne(rc, 0);
    ck_assert_ptr_null(t);
  }
  shmem_barrier_all();
}
END_TEST

/* ---- scans ------------------------------------------------------------- */
#define SCAN_NE 37
/* Small values (1..64): float sums stay exact; integer sums wrap the same
 * way whether computed in T or in unsigned long long and cast. */
static long long scan_val(int pe, size_t i, unsigned salt)
{
  return (long long)(shoal_test_val(pe, i, salt) % 64) + 1;
}

#define SCAN_TYPED(T, N) \
  static T scan_expect_##N(shmem_team_t team, int me_t, size_t i, unsigned salt, int incl) \
  { \
    unsigned long long s = 0; \
    int last = incl ? me_t : me_t - 1; \
    for (int q = 0; q <= last; q++) \
      s += (unsigned long long)scan_val(shmem_team_translate_pe(team, q, SHMEM_TEAM_WORLD), i, salt); \
    return (T)s; \
  } \
  START_TEST(test_scan_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(); \
    T *src = shmem_malloc(sizeof(T) * SCAN_NE), *dst = shmem_malloc(sizeof(T) * SCAN_NE); \
    shmem_team_t teams[2] = {SHMEM_TEAM_WORLD, SHMEM_TEAM_INVALID}; \
    if (np >= 3) shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, np - 1, NULL, 0, &teams[1]); \
    for (int ti = 0; ti < 2; ti++) { \
      shmem_team_t team = teams[ti]; \
      for (int mode = 0; mode < 4; mode++) {   /* bit 0: exclusive; bit 1: in place */ \
        unsigned salt = 600 + (unsigned)(ti * 4 + mode); \
        int incl = !(mode & 1), inplace = (mode & 2) != 0; \
        T *out = inplace ? src : dst; \
        shmem_barrier_all(); \
        for (size_t i = 0; i < SCAN_NE; i++) src[i] = (T)scan_val(me, i, salt); \
        if (!inplace) shoal_test_poison(dst, sizeof(T) * SCAN_NE); \
        if (team == SHMEM_TEAM_INVALID) continue; \
        int me_t = shmem_team_my_pe(team); \
        int rc = incl ? shmem_##N##_sum_inscan(team, out, src, SCAN_NE) \
                      : shmem_##N##_sum_exscan(team, out, src, SCAN_NE); \
        ck_assert_int_eq(rc, 0); \
        for (size_t i = 0; i < SCAN_NE; i++) \
          ck_assert_msg(out[i] == scan_expect_##N(team, me_t, i, salt, incl), \
                        #N " %s%s on team %d: element %zu on team PE %d wrong", \
                        incl ? "inscan" : "exscan", inplace ? " in place" : "", ti, i, me_t); \
      } \
    } \
    shmem_barrier_all(); \
    if (teams[1] != SHMEM_TEAM_INVALID) shmem_team_destroy(teams[1]); \
    shmem_free(dst); shmem_free(src); \
  } \
  END_TEST
SHOAL_REDUCE_ARITH_TYPES(SCAN_TYPED)

/* Larger than the team scratch, in place: the staged path chunks. */
START_TEST(test_scan_large)
{
  int me = shmem_my_pe();
  size_t n = 50000;
  double *x = shmem_malloc(sizeof(double) * n);
  long *y = shmem_malloc(sizeof(long) * n), *z = shmem_malloc(sizeof(long) * n);
  for (size_t i = 0; i < n; i++) { x[i] = (double)scan_val(me, i, 700); y[i] = (long)shoal_test_val(me, i, 701); }
  shoal_test_poison(z, sizeof(long) * n);
  ck_assert_int_eq(shmem_double_sum_inscan(SHMEM_TEAM_WORLD, x, x, n), 0);
  ck_assert_int_eq(shmem_long_sum_exscan(SHMEM_TEAM_WORLD, z, y, n), 0);
  for (size_t i = 0; i < n; i++) {
    double e = 0;
    unsigned long long f = 0;
    for (int q = 0; q <= me; q++) e += (double)scan_val(q, i, 700);
    for (int q = 0; q < me; q++) f += shoal_test_val(q, i, 701);
    ck_assert_msg(x[i] == e, "large in-place inscan: element %zu wrong", i);
    ck_assert_msg(z[i] == (long)f, "large exscan: element %zu wrong", i);
  }
  shmem_barrier_all();
  shmem_free(z); shmem_free(y); shmem_free(x);
}
END_TEST

/* The generic names pick the typed routine. */
START_TEST(test_scan_generic)
{
  int me = shmem_my_pe();
  int *a = shmem_malloc(sizeof(int) * SCAN_NE), *b = shmem_malloc(sizeof(int) * SCAN_NE);
  for (size_t i = 0; i < SCAN_NE; i++) a[i] = (int)scan_val(me, i, 800);
  shoal_test_poison(b, sizeof(int) * SCAN_NE);
  ck_assert_int_eq(shmem_sum_inscan(SHMEM_TEAM_WORLD, b, a, SCAN_NE), 0);
  for (size_t i = 0; i < SCAN_NE; i++) {
    int e = 0;
    for (int q = 0; q <= me; q++) e += (int)scan_val(q, i, 800);
    ck_assert_int_eq(b[i], e);
  }
  ck_assert_int_eq(shmem_sum_exscan(SHMEM_TEAM_WORLD, b, a, SCAN_NE), 0);
  for (size_t i = 0; i < SCAN_NE; i++) {
    int e = 0;
    for (int q = 0; q < me; q++) e += (int)scan_val(q, i, 800);
    ck_assert_int_eq(b[i], e);
  }
  shmem_barrier_all();
  shmem_free(b); shmem_free(a);
}
END_TEST

/* ---- sessions: hints that change no result ----------------------------- */
START_TEST(test_session)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  int *x = shmem_malloc(sizeof(int) * 64);
  shoal_test_poison(x, sizeof(int) * 64);
  shmem_barrier_all();
  shmem_ctx_session_config_t cfg = {.total_ops = 64};
  shmem_ctx_session_start(test_ctx, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
  shmem_ctx_session_start(test_ctx, 0, NULL, 0);   /* a second start combines */
  shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, NULL, 0);   /* no action */
  shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL, 0);
  int peer = (me + 1) % np, from = (me + np - 1) % np;
  for (int i = 0; i < 64; i++) shmem_ctx_int_p(test_ctx, x + i, (int)shoal_test_val(me, (size_t)i, 900), peer);
  shmem_ctx_session_stop(test_ctx);
  shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
  shmem_ctx_session_stop(SHMEM_CTX_INVALID);
  shmem_ctx_quiet(test_ctx);
  shmem_barrier_all();
  for (int i = 0; i < 64; i++) ck_assert_int_eq(x[i], (int)shoal_test_val(from, (size_t)i, 900));
  shmem_barrier_all();
  shmem_free(x);
}
END_TEST

static void ctx_setup(void) { ck_assert_int_eq(shmem_ctx_create(0, &test_ctx), 0); }
static void ctx_teardown(void) { shmem_ctx_destroy(test_ctx); }

static Suite *make_suite(void)
{
  Suite *s = suite_create("v16");
  TCase *tc = tcase_create("v16");
  tcase_set_timeout(tc, 240);
  tcase_add_unchecked_fixture(tc, ctx_setup, ctx_teardown);
#define ADD_IB(T, N) tcase_add_test(tc, test_ib_##N);
  SHOAL_RMA_TYPES(ADD_IB)
  tcase_add_loop_test(tc, test_ib_sized, 0, 2 * N_SIZED);
  tcase_add_test(tc, test_ib_zero);
  tcase_add_test(tc, test_ib_generic);
  tcase_add_test(tc, test_signal_add_set);
  tcase_add_test(tc, test_pe_quiet);
  tcase_add_test(tc, test_ctx_fence_order);
  tcase_add_test(tc, test_team_ptr);
  tcase_add_test(tc, test_split_no_wrap);
#define ADD_SCAN(T, N) tcase_add_test(tc, test_scan_##N);
  SHOAL_REDUCE_ARITH_TYPES(ADD_SCAN)
  tcase_add_test(tc, test_scan_large);
  tcase_add_test(tc, test_scan_generic);
  tcase_add_test(tc, test_session);
  suite_add_tcase(s, tc);
  return s;
}

SHOAL_TEST_MAIN(make_suite)
