/* Put, get, p, g, iput, iget, their _nbi and ctx forms, and put_signal, for
 * every standard RMA type (generated from the type table), every sized form
 * (8..128) and the mem forms, between every pair of PEs.
 *
 * Each round fills fresh non-zero data (a new salt), poisons every output,
 * and checks every element (and that strided gaps stay poisoned). */
#include "shoal_test.h"

#define NE 37   /* elements per PE: odd, so no power-of-two luck */
#define DST 3   /* strides for iput/iget */
#define SST 2

static shmem_ctx_t test_ctx;

static int gap_poisoned(const void *p, size_t bytes)
{
  const unsigned char *c = p;
  for (size_t i = 0; i < bytes; i++)
    if (c[i] != POISON_BYTE) return 0;
  return 1;
}

/* Contiguous forms: 0 plain, 1 ctx, 2 nbi, 3 ctx nbi, 4 p/g, 5 ctx p/g. */
enum { N_CONTIG = 6, N_SIGNAL = 4 };
static const char *const contig_name[N_CONTIG] = {"", "ctx ", "nbi ", "ctx nbi ", "p/g ", "ctx p/g "};

static void complete(int form)
{
  if (form & 1) shmem_ctx_quiet(test_ctx);
  else shmem_quiet();
}

#define RMA_TYPED(T, N) \
  static void put_##N(int form, T *d, const T *s, size_t n, int pe) \
  { \
    switch (form) { \
    case 0: shmem_##N##_put(d, s, n, pe); break; \
    case 1: shmem_ctx_##N##_put(test_ctx, d, s, n, pe); break; \
    case 2: shmem_##N##_put_nbi(d, s, n, pe); break; \
    case 3: shmem_ctx_##N##_put_nbi(test_ctx, d, s, n, pe); break; \
    case 4: for (size_t i = 0; i < n; i++) shmem_##N##_p(d + i, s[i], pe); break; \
    default: for (size_t i = 0; i < n; i++) shmem_ctx_##N##_p(test_ctx, d + i, s[i], pe); break; \
    } \
  } \
  static void get_##N(int form, T *d, const T *s, size_t n, int pe) \
  { \
    switch (form) { \
    case 0: shmem_##N##_get(d, s, n, pe); break; \
    case 1: shmem_ctx_##N##_get(test_ctx, d, s, n, pe); break; \
    case 2: shmem_##N##_get_nbi(d, s, n, pe); break; \
    case 3: shmem_ctx_##N##_get_nbi(test_ctx, d, s, n, pe); break; \
    case 4: for (size_t i = 0; i < n; i++) d[i] = shmem_##N##_g(s + i, pe); break; \
    default: for (size_t i = 0; i < n; i++) d[i] = shmem_ctx_##N##_g(test_ctx, s + i, pe); break; \
    } \
  } \
  static void put_signal_##N(int form, T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, \
                             int op, int pe) \
  { \
    switch (form) { \
    case 0: shmem_##N##_put_signal(d, s, n, sig, v, op, pe); break; \
    case 1: shmem_ctx_##N##_put_signal(test_ctx, d, s, n, sig, v, op, pe); break; \
    case 2: shmem_##N##_put_signal_nbi(d, s, n, sig, v, op, pe); break; \
    default: shmem_ctx_##N##_put_signal_nbi(test_ctx, d, s, n, sig, v, op, pe); break; \
    } \
  } \
  START_TEST(test_rma_##N) \
  { \
    int me = shmem_my_pe(), np = shmem_n_pes(); \
    size_t all = (size_t)NE * (size_t)np; \
    T *slots = shmem_malloc(sizeof(T) * all * DST);  /* a slot per source PE */ \
    T *src = shmem_malloc(sizeof(T) * NE * DST);     /* symmetric source for gets */ \
    uint64_t *sigs = shmem_calloc((size_t)np * 2 * N_SIGNAL, sizeof(uint64_t)); \
    T *loc = malloc(sizeof(T) * all * DST); \
    ck_assert_ptr_nonnull(slots); ck_assert_ptr_nonnull(src); ck_assert_ptr_nonnull(sigs); \
    unsigned salt = 0; \
    for (int form = 0; form < N_CONTIG; form++) { \
      salt++; \
      for (size_t i = 0; i < NE; i++) src[i] = (T)shoal_test_val(me, i, salt); \
      shoal_test_poison(slots, sizeof(T) * all); \
      shmem_barrier_all(); \
      for (int k = 0; k < np; k++) put_##N(form, slots + (size_t)me * NE, src, NE, (me + k) % np); \
      complete(form); \
      shmem_barrier_all(); \
      for (int q = 0; q < np; q++) \
        for (size_t i = 0; i < NE; i++) \
          ck_assert_msg(slots[(size_t)q * NE + i] == (T)shoal_test_val(q, i, salt), \
                        #N " %sput: element %zu from PE %d wrong", contig_name[form], i, q); \
      shoal_test_poison(loc, sizeof(T) * all); \
      for (int k = 0; k < np; k++) { \
        int p = (me + k) % np; \
        get_##N(form, loc + (size_t)p * NE, src, NE, p); \
      } \
      complete(form); \
      for (int q = 0; q < np; q++) \
        for (size_t i = 0; i < NE; i++) \
          ck_assert_msg(loc[(size_t)q * NE + i] == (T)shoal_test_val(q, i, salt), \
                        #N " %sget: element %zu from PE %d wrong", contig_name[form], i, q); \
      shmem_barrier_all(); \
    } \
    /* iput: src[i * SST] -> slot[i * DST]; iget the other way round */ \
    for (int form = 0; form < 2; form++) { \
      salt++; \
      for (size_t j = 0; j < NE * DST; j++) src[j] = (T)shoal_test_val(me, j, salt); \
      shoal_test_poison(slots, sizeof(T) * all * DST); \
      shmem_barrier_all(); \
      for (int k = 0; k < np; k++) { \
        T *d = slots + (size_t)me * NE * DST; \
        int p = (me + k) % np; \
        if (form) shmem_ctx_##N##_iput(test_ctx, d, src, DST, SST, NE, p); \
        else shmem_##N##_iput(d, src, DST, SST, NE, p); \
      } \
      complete(form); \
      shmem_barrier_all(); \
      for (int q = 0; q < np; q++) \
        for (size_t i = 0; i < NE; i++) { \
          T *e = slots + (size_t)q * NE * DST + i * DST; \
          ck_assert_msg(e[0] == (T)shoal_test_val(q, i * SST, salt), \
                        #N " %siput: element %zu from PE %d wrong", contig_name[form], i, q); \
          if (i + 1 < NE) ck_assert_msg(gap_poisoned(e + 1, sizeof(T) * (DST - 1)), \
                                        #N " iput wrote into the gap after element %zu", i); \
        } \
      shoal_test_poison(loc, sizeof(T) * all * SST); \
      for (int k = 0; k < np; k++) { \
        int p = (me + k) % np; \
        T *d = loc + (size_t)p * NE * SST; \
        if (form) shmem_ctx_##N##_iget(test_ctx, d, src, SST, DST, NE, p); \
        else shmem_##N##_iget(d, src, SST, DST, NE, p); \
      } \
      for (int q = 0; q < np; q++) \
        for (size_t i = 0; i < NE; i++) { \
          T *e = loc + (size_t)q * NE * SST + i * SST; \
          ck_assert_msg(e[0] == (T)shoal_test_val(q, i * DST, salt), \
                        #N " %siget: element %zu from PE %d wrong", contig_name[form], i, q); \
          ck_assert_msg(gap_poisoned(e + 1, sizeof(T) * (SST - 1)), \
                        #N " iget wrote into the gap after element %zu", i); \
        } \
      shmem_barrier_all(); \
    } \
    /* put_signal: SET gives each source its own signal word, ADD sums into \
     * one; the receiver waits on the signal alone, then checks the data. */ \
    for (int form = 0; form < N_SIGNAL; form++) \
      for (int add = 0; add < 2; add++) { \
        salt++; \
        uint64_t *sig = sigs + (size_t)(form * 2 + add) * (size_t)np; \
        for (size_t i = 0; i < NE; i++) src[i] = (T)shoal_test_val(me, i, salt); \
        shoal_test_poison(slots, sizeof(T) * all); \
        shmem_barrier_all(); \
        for (int k = 0; k < np; k++) \
          put_signal_##N(form, slots + (size_t)me * NE, src, NE, add ? sig : sig + me, \
                         add ? (uint64_t)me + 1 : salt * 1000u + (uint64_t)me, \
                         add ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET, (me + k) % np); \
        if (add) { \
          uint64_t total = (uint64_t)np * (uint64_t)(np + 1) / 2; \
          ck_assert_uint_eq(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, total), total); \
        } else { \
          for (int q = 0; q < np; q++) \
            ck_assert_uint_eq(shmem_signal_wait_until(sig + q, SHMEM_CMP_EQ, salt * 1000u + (uint64_t)q), \
                              salt * 1000u + (uint64_t)q); \
        } \
        for (int q = 0; q < np; q++) \
          for (size_t i = 0; i < NE; i++) \
            ck_assert_msg(slots[(size_t)q * NE + i] == (T)shoal_test_val(q, i, salt), \
                          #N " put_signal form %d %s: element %zu from PE %d wrong", form, \
                          add ? "ADD" : "SET", i, q); \
        ck_assert_uint_eq(shmem_signal_fetch(add ? sig : sig + np - 1), \
                          add ? (uint64_t)np * (uint64_t)(np + 1) / 2 \
                              : salt * 1000u + (uint64_t)(np - 1)); \
        shmem_barrier_all(); \
      } \
    free(loc); \
    shmem_free(sigs); shmem_free(src); shmem_free(slots); \
  } \
  END_TEST
SHOAL_RMA_TYPES(RMA_TYPED)

/* ---- sized (8..128 bits) and mem forms, through one table of entry points */
typedef void (*put_fn)(void *, const void *, size_t, int);
typedef void (*ctx_put_fn)(shmem_ctx_t, void *, const void *, size_t, int);
typedef void (*iput_fn)(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
typedef void (*ctx_iput_fn)(shmem_ctx_t, void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
typedef void (*sig_fn)(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
typedef void (*ctx_sig_fn)(shmem_ctx_t, void *, const void *, size_t, uint64_t *, uint64_t, int, int);

typedef struct bulk_api {
  const char *name;
  size_t es;   /* bytes per element */
  put_fn put, get, put_nbi, get_nbi;
  ctx_put_fn ctx_put, ctx_get, ctx_put_nbi, ctx_get_nbi;
  iput_fn iput, iget;              /* NULL for mem */
  ctx_iput_fn ctx_iput, ctx_iget;
  sig_fn put_signal, put_signal_nbi;
  ctx_sig_fn ctx_put_signal, ctx_put_signal_nbi;
} bulk_api;

#define BULK_SIZED(BITS, BYTES) \
  {"sized " #BITS, BYTES, shmem_put##BITS, shmem_get##BITS, shmem_put##BITS##_nbi, \
   shmem_get##BITS##_nbi, shmem_ctx_put##BITS, shmem_ctx_get##BITS, shmem_ctx_put##BITS##_nbi, \
   shmem_ctx_get##BITS##_nbi, shmem_iput##BITS, shmem_iget##BITS, shmem_ctx_iput##BITS, \
   shmem_ctx_iget##BITS, shmem_put_signal##BITS, shmem_put_signal##BITS##_nbi, \
   shmem_ctx_put_signal##BITS, shmem_ctx_put_signal##BITS##_nbi},
static const bulk_api bulk_apis[] = {
    SHOAL_SIZED_RMA(BULK_SIZED)
    {"mem", 1, shmem_putmem, shmem_getmem, shmem_putmem_nbi, shmem_getmem_nbi, shmem_ctx_putmem,
     shmem_ctx_getmem, shmem_ctx_putmem_nbi, shmem_ctx_getmem_nbi, NULL, NULL, NULL, NULL,
     shmem_putmem_signal, shmem_putmem_signal_nbi, shmem_ctx_putmem_signal,
     shmem_ctx_putmem_signal_nbi},
};
#define N_BULK (int)(sizeof bulk_apis / sizeof *bulk_apis)

static uint8_t byte_val(int pe, size_t byte, unsigned salt)
{
  uint8_t b = (uint8_t)shoal_test_val(pe, byte, salt);
  return b ? b : 1;
}

/* Elements of es bytes from pe's pattern: element i = bytes [i*es, (i+1)*es). */
static void fill_bytes(uint8_t *p, size_t n_elems, size_t es, int pe, unsigned salt)
{
  for (size_t b = 0; b < n_elems * es; b++) p[b] = byte_val(pe, b, salt);
}

static void check_elem(const uint8_t *got, size_t es, int pe, size_t elem, unsigned salt,
                       const char *what, const char *api)
{
  for (size_t b = 0; b < es; b++)
    ck_assert_msg(got[b] == byte_val(pe, elem * es + b, salt),
                  "%s %s: element %zu byte %zu from PE %d wrong", api, what, elem, b, pe);
}

START_TEST(test_rma_bulk)
{
  const bulk_api *api = &bulk_apis[_i];
  int me = shmem_my_pe(), np = shmem_n_pes();
  size_t es = api->es, all = (size_t)NE * (size_t)np;
  uint8_t *slots = shmem_malloc(es * all * DST);
  uint8_t *src = shmem_malloc(es * NE * DST);
  uint64_t *sigs = shmem_calloc((size_t)np * N_SIGNAL * 2, sizeof(uint64_t));
  uint8_t *loc = malloc(es * all * DST);
  ck_assert_ptr_nonnull(slots);
  unsigned salt = 100;
  for (int form = 0; form < 4; form++) {
    salt++;
    fill_bytes(src, NE, es, me, salt);
    shoal_test_poison(slots, es * all);
    shmem_barrier_all();
    for (int k = 0; k < np; k++) {
      int p = (me + k) % np;
      uint8_t *d = slots + (size_t)me * NE * es;
      switch (form) {
      case 0: api->put(d, src, NE, p); break;
      case 1: api->ctx_put(test_ctx, d, src, NE, p); break;
      case 2: api->put_nbi(d, src, NE, p); break;
      default: api->ctx_put_nbi(test_ctx, d, src, NE, p); break;
      }
    }
    complete(form);
    shmem_barrier_all();
    for (int q = 0; q < np; q++)
      for (size_t i = 0; i < NE; i++)
        check_elem(slots + ((size_t)q * NE + i) * es, es, q, i, salt, contig_name[form], api->name);
    shoal_test_poison(loc, es * all);
    for (int k = 0; k < np; k++) {
      int p = (me + k) % np;
      uint8_t *d = loc + (size_t)p * NE * es;
      switch (form) {
      case 0: api->get(d, src, NE, p); break;
      case 1: api->ctx_get(test_ctx, d, src, NE, p); break;
      case 2: api->get_nbi(d, src, NE, p); break;
      default: api->ctx_get_nbi(test_ctx, d, src, NE, p); break;
      }
    }
    complete(form);
    for (int q = 0; q < np; q++)
      for (size_t i = 0; i < NE; i++)
        check_elem(loc + ((size_t)q * NE + i) * es, es, q, i, salt, "get", api->name);
    shmem_barrier_all();
  }
  for (int form = 0; api->iput && form < 2; form++) {
    salt++;
    fill_bytes(src, NE * DST, es, me, salt);
    shoal_test_poison(slots, es * all * DST);
    shmem_barrier_all();
    for (int k = 0; k < np; k++) {
      int p = (me + k) % np;
      uint8_t *d = slots + (size_t)me * NE * DST * es;
      if (form) api->ctx_iput(test_ctx, d, src, DST, SST, NE, p);
      else api->iput(d, src, DST, SST, NE, p);
    }
    complete(form);
    shmem_barrier_all();
    for (int q = 0; q < np; q++)
      for (size_t i = 0; i < NE; i++) {
        uint8_t *e = slots + ((size_t)q * NE * DST + i * DST) * es;
        check_elem(e, es, q, i * SST, salt, "iput", api->name);
        if (i + 1 < NE) ck_assert(gap_poisoned(e + es, es * (DST - 1)));
      }
    shoal_test_poison(loc, es * all * SST);
    for (int k = 0; k < np; k++) {
      int p = (me + k) % np;
      uint8_t *d = loc + (size_t)p * NE * SST * es;
      if (form) api->ctx_iget(test_ctx, d, src, SST, DST, NE, p);
      else api->iget(d, src, SST, DST, NE, p);
    }
    for (int q = 0; q < np; q++)
      for (size_t i = 0; i < NE; i++) {
        uint8_t *e = loc + ((size_t)q * NE * SST + i * SST) * es;
        check_elem(e, es, q, i * DST, salt, "iget", api->name);
        ck_assert(gap_poisoned(e + es, es * (SST - 1)));
      }
    shmem_barrier_all();
  }
  for (int form = 0; form < N_SIGNAL; form++)
    for (int add = 0; add < 2; add++) {
      salt++;
      uint64_t *sig = sigs + (size_t)(form * 2 + add) * (size_t)np;
      fill_bytes(src, NE, es, me, salt);
      shoal_test_poison(slots, es * all);
      shmem_barrier_all();
      for (int k = 0; k < np; k++) {
        int p = (me + k) % np, op = add ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;
        uint8_t *d = slots + (size_t)me * NE * es;
        uint64_t *s = add ? sig : sig + me, v = add ? 1 : salt;
        switch (form) {
        case 0: api->put_signal(d, src, NE, s, v, op, p); break;
        case 1: api->ctx_put_signal(test_ctx, d, src, NE, s, v, op, p); break;
        case 2: api->put_signal_nbi(d, src, NE, s, v, op, p); break;
        default: api->ctx_put_signal_nbi(test_ctx, d, src, NE, s, v, op, p); break;
        }
      }
      if (add) shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)np);
      else
        for (int q = 0; q < np; q++) shmem_signal_wait_until(sig + q, SHMEM_CMP_EQ, salt);
      for (int q = 0; q < np; q++)
        for (size_t i = 0; i < NE; i++)
          check_elem(slots + ((size_t)q * NE + i) * es, es, q, i, salt, "put_signal", api->name);
      ck_assert_uint_eq(shmem_signal_fetch(sig), add ? (uint64_t)np : salt);
      shmem_barrier_all();
    }
  free(loc);
  shmem_free(sigs);
  shmem_free(src);
  shmem_free(slots);
}
END_TEST

/* Zero elements move nothing, to any PE, even from a NULL source. */
START_TEST(test_rma_zero_count)
{
  int me = shmem_my_pe(), np = shmem_n_pes();
  long *d = shmem_malloc(sizeof(long));
  *d = 42;
  shmem_barrier_all();
  shmem_long_put(d, NULL, 0, (me + 1) % np);
  shmem_putmem_nbi(d, NULL, 0, (me + 1) % np);
  shmem_long_iput(d, NULL, 1, 1, 0, (me + 1) % np);
  shmem_quiet();
  shmem_barrier_all();
  ck_assert_int_eq(*d, 42);
  shmem_free(d);
}
END_TEST

static void ctx_setup(void) { ck_assert_int_eq(shmem_ctx_create(0, &test_ctx), 0); }
static void ctx_teardown(void) { shmem_ctx_destroy(test_ctx); }

#define ADD_TYPED(T, N) tcase_add_test(tc, test_rma_##N);
static Suite *rma_suite(void)
{
  Suite *s = suite_create("rma");
  TCase *tc = tcase_create("rma");
  tcase_set_timeout(tc, 120);
  tcase_add_unchecked_fixture(tc, ctx_setup, ctx_teardown);
  SHOAL_RMA_TYPES(ADD_TYPED)
  tcase_add_loop_test(tc, test_rma_bulk, 0, N_BULK);
  tcase_add_test(tc, test_rma_zero_count);
  suite_add_tcase(s, tc);
  return s;
}

SHOAL_TEST_MAIN(rma_suite)
