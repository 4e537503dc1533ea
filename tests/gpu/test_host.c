/* The host API on GPU memory from plain C: a file built with cc (no CUDA or
 * HIP headers) against a GPU build of libshoal.  shmem_malloc returns GPU
 * memory; put/get/p/g/iput/iget, put_signal, every AMO kind, wait/test,
 * calloc/realloc, shmem_ptr, teams split here, and the blocking team
 * collectives (every reduction type class: integers, float, the 16-bit
 * floats, complex) all work on it.  Fresh data every run, outputs poisoned
 * first, every element checked against a reference each PE computes. */
#include <shmem.h>
#include <shmemx.h>
#include <shoal/f16.h>
#include <shoal/cpair.h>
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;
/* One line per stage on stderr, so a hang shows where it is. */
static int verbose;
#define STAGE(name) do { if (me == 0 || verbose) { fprintf(stderr, "test_host: PE %d: %s\n", me, name); } } while (0)
static uint64_t seed;
static int me, npes;

#define CHECK(cond, ...) do { if (!(cond)) { if (++failures < 20) { \
    fprintf(stderr, "PE %d: FAIL %s:%d: ", me, __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)

/* The value PE pe holds at index i of data set tag: any PE can predict it. */
static uint64_t mix(uint64_t x)
{
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
  return x;
}
static uint64_t val(int tag, int pe, size_t i) { return mix(seed ^ mix((uint64_t)tag << 40 ^ (uint64_t)pe << 32 ^ i)) | 1; }

static void test_rma(void)
{
  const size_t n = 5000;
  int *buf = shmem_malloc(n * sizeof(int));
  int *src = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
  int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  for (size_t i = 0; i < n; i++) src[i] = (int)val(1, me, i);
  shmem_barrier_all();
  shmem_int_put(buf, src, n, right);   /* host memory to a peer's GPU heap */
  shmem_barrier_all();
  memset(out, 0x5a, n * sizeof(int));
  shmem_int_get(out, buf, n, me);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += out[i] != (int)val(1, left, i);
  CHECK(bad == 0, "put/get: %zu of %zu elements wrong", bad, n);
  /* get from a peer, into host memory */
  memset(out, 0x5a, n * sizeof(int));
  shmem_getmem(out, buf, n * sizeof(int), right);
  bad = 0;
  for (size_t i = 0; i < n; i++) bad += out[i] != (int)val(1, me, i);
  CHECK(bad == 0, "getmem from a peer: %zu wrong", bad);
  /* p/g and strided */
  shmem_barrier_all();
  shmem_long_p((long *)buf, (long)val(2, me, 0), right);
  shmem_barrier_all();
  CHECK(shmem_long_g((long *)buf, me) == (long)val(2, left, 0), "p/g");
  int st[8];
  for (int i = 0; i < 8; i++) st[i] = (int)val(3, me, (size_t)i);
  shmem_barrier_all();
  shmem_int_iput(buf + 16, st, 3, 1, 8, right);
  shmem_barrier_all();
  int got[8] = {0};
  shmem_int_iget(got, buf + 16, 1, 3, 8, me);
  for (int i = 0; i < 8; i++) CHECK(got[i] == (int)val(3, left, (size_t)i), "iput/iget element %d", i);
  shmem_barrier_all();
  shmem_free(buf);
  free(src);
  free(out);
}

static void test_signal_wait(void)
{
  uint64_t *sig = shmem_calloc(4, sizeof(uint64_t));
  long *data = shmem_malloc(64 * sizeof(long));
  int *flags = shmem_calloc((size_t)npes, sizeof(int));
  int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  long src[64];
  for (int i = 0; i < 64; i++) src[i] = (long)val(4, me, (size_t)i);
  uint64_t zero[4];
  shmem_getmem(zero, sig, sizeof zero, me);
  CHECK(zero[0] == 0 && zero[3] == 0, "calloc on the GPU heap is not zeroed");
  shmem_barrier_all();
  shmem_long_put_signal(data, src, 64, sig, 7, SHMEM_SIGNAL_SET, right);
  CHECK(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 7) == 7, "signal_wait_until value");
  long in[64];
  shmem_long_get(in, data, 64, me);
  for (int i = 0; i < 64; i++) CHECK(in[i] == (long)val(4, left, (size_t)i), "put_signal data %d", i);
  CHECK(shmem_signal_fetch(sig) == 7, "signal_fetch");
  /* every PE sets its flag on every PE; wait for all, any, some, test */
  shmem_barrier_all();
  for (int pe = 0; pe < npes; pe++) shmem_int_atomic_set(&flags[me], me + 1, pe);
  shmem_int_wait_until_all(flags, (size_t)npes, NULL, SHMEM_CMP_NE, 0);
  for (int pe = 0; pe < npes; pe++) CHECK(shmem_int_g(&flags[pe], me) == pe + 1, "flag of PE %d", pe);
  CHECK(shmem_int_test_all(flags, (size_t)npes, NULL, SHMEM_CMP_GT, 0) == 1, "test_all");
  CHECK(shmem_int_wait_until_any(flags, (size_t)npes, NULL, SHMEM_CMP_EQ, left + 1) == (size_t)left,
        "wait_until_any index");
  size_t idx[64];
  CHECK(shmem_int_wait_until_some(flags, (size_t)npes, idx, NULL, SHMEM_CMP_GE, 1) == (size_t)npes,
        "wait_until_some count");
  /* Every flag is satisfied: a series of test_any / wait_until_any calls
   * must return each index in turn, not the lowest again and again. */
  size_t prev = (size_t)left;   /* what the wait_until_any above returned */
  for (int k = 0; k < 2 * npes; k++) {
    size_t got = k & 1 ? shmem_int_test_any(flags, (size_t)npes, NULL, SHMEM_CMP_GE, 1)
                       : shmem_int_wait_until_any(flags, (size_t)npes, NULL, SHMEM_CMP_GE, 1);
    CHECK(got == (prev + 1) % (size_t)npes, "_any rotation: call %d returned %zu after %zu", k, got, prev);
    prev = got;
  }
  CHECK(shmem_int_test(&flags[me], SHMEM_CMP_EQ, me + 1) == 1, "test");
  CHECK(shmem_int_test(&flags[me], SHMEM_CMP_EQ, me + 2) == 0, "test false");
  shmem_int_wait_until(&flags[right], SHMEM_CMP_EQ, right + 1);
  shmem_barrier_all();
  shmem_free(flags);
  shmem_free(data);
  shmem_free(sig);
}

static void test_amo(void)
{
  uint64_t *u = shmem_calloc(4, sizeof(uint64_t));
  int *i32 = shmem_calloc(2, sizeof(int));
  double *d = shmem_calloc(1, sizeof(double));
  for (int k = 0; k < 10; k++) (void)shmem_uint64_atomic_fetch_add(&u[0], (uint64_t)me + 1, 0);
  shmem_int_atomic_inc(&i32[0], 0);
  shmem_uint64_atomic_or(&u[1], 1ull << (me % 64), 0);
  shmem_barrier_all();
  if (me == 0) {
    uint64_t want = 10ull * (uint64_t)npes * (uint64_t)(npes + 1) / 2;
    CHECK(shmem_uint64_atomic_fetch(&u[0], 0) == want, "fetch_add sum %llu, want %llu",
          (unsigned long long)shmem_uint64_atomic_fetch(&u[0], 0), (unsigned long long)want);
    CHECK(shmem_int_atomic_fetch(&i32[0], 0) == npes, "inc");
    uint64_t mask = npes >= 64 ? ~0ull : (1ull << npes) - 1;
    CHECK(shmem_uint64_atomic_fetch(&u[1], 0) == mask, "or");
  }
  shmem_barrier_all();
  /* compare_swap: exactly one PE wins */
  int won = shmem_int_atomic_compare_swap(&i32[1], 0, me + 100, 0) == 0;
  int *wins = shmem_calloc(1, sizeof(int));
  if (won) shmem_int_atomic_add(wins, 1, 0);
  shmem_barrier_all();
  if (me == 0) CHECK(shmem_int_atomic_fetch(wins, 0) == 1, "compare_swap winners");
  uint64_t x = val(5, me, 0);
  uint64_t old = shmem_uint64_atomic_swap(&u[2 + (me & 1)], x, me);
  CHECK(old == 0, "swap old value");
  CHECK(shmem_uint64_atomic_fetch_xor(&u[2 + (me & 1)], x, me) == x, "fetch_xor old value");
  CHECK(shmem_uint64_atomic_fetch(&u[2 + (me & 1)], me) == 0, "xor result");
  shmem_double_atomic_set(d, 2.5 * me, me);
  CHECK(shmem_double_atomic_swap(d, 1.25, me) == 2.5 * me, "double swap");
  CHECK(shmem_double_atomic_fetch(d, me) == 1.25, "double fetch");
  shmem_barrier_all();
  shmem_free(wins);
  shmem_free(d);
  shmem_free(i32);
  shmem_free(u);
}

static void test_heap(void)
{
  const size_t n = 1000;
  long *a = shmem_malloc(n * sizeof(long));
  long h[1000];
  for (size_t i = 0; i < n; i++) h[i] = (long)val(6, me, i);
  shmem_long_put(a, h, n, me);
  shmem_barrier_all();
  long *b = shmem_realloc(a, 4 * n * sizeof(long));   /* may move: contents kept */
  CHECK(b != NULL, "realloc");
  long back[1000];
  memset(back, 0, sizeof back);
  shmem_long_get(back, b, n, me);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += back[i] != h[i];
  CHECK(bad == 0, "realloc kept %zu of %zu", n - bad, n);
  /* A pointer for PEs of my node only: the others go through the host proxy. */
  for (int pe = 0; pe < npes; pe++)
    CHECK((shmem_ptr(b, pe) != NULL) == (shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0),
          "shmem_ptr to PE %d", pe);
  CHECK(shmem_ptr(b, me) == (void *)b, "shmem_ptr to myself");
  CHECK(shmem_addr_accessible(b, (me + 1) % npes), "addr_accessible");
  shmem_free(b);
}

/* Symmetric GPU buffers for test_coll, allocated by every PE (shmem_malloc
 * is collective over the world, so not inside a team's test). */
static struct { int *src, *dst; float *fs, *fd; double *cs, *cd; } bufs;

/* The blocking collectives on GPU memory, over a team split in this C file,
 * small (one block) and large (whole-GPU) sizes. */
/* Complex sums and products on GPU memory (n elements a member; complex
 * reduce_scatter: n a member's block), all-reduce and reduce_scatter:
 *  - sums of parts that are small integers (exact in any order);
 *  - complexd products of +-1, +-2 parts (exact in any order);
 *  - complexf products of fractions in the algorithms' order -- team
 *    order, or on a team that spans nodes with several members on some
 *    node (the hierarchical algorithms) each node's members in team order,
 *    then the nodes in order -- with the bits of shoal_cpairf_mul,
 *    (ac - bd) + (ad + bc)i and no fused multiply-add: a GPU that
 *    contracted would differ.  Nodes as SHOAL_PES_PER_NODE and mpirun lay
 *    them out: world PE / SHMEM_TEAM_SHARED's size. */
static double cpart(int tag, int pe, size_t i, int k)
{
  uint64_t v = val(tag, pe, 2 * i + (size_t)k);
  if (tag == 11) return (double)(int)(v % 2001) - 1000.0;
  if (tag == 12) return (v & 2 ? 2.0 : 1.0) * (v & 4 ? -1.0 : 1.0);
  return 0.5 + (double)(v % 1000003) / 1000003.0;
}
static int complex_reduce(shmem_team_t team, int dbl, int prod, int scatter, void *d, const void *s, size_t n)
{
  if (dbl) {
    double _Complex *dd = d;
    const double _Complex *ds = s;
    if (prod) return scatter ? shmemx_complexd_prod_reduce_scatter(team, dd, ds, n) : shmem_complexd_prod_reduce(team, dd, ds, n);
    return scatter ? shmemx_complexd_sum_reduce_scatter(team, dd, ds, n) : shmem_complexd_sum_reduce(team, dd, ds, n);
  }
  float _Complex *fd = d;
  const float _Complex *fs = s;
  if (prod) return scatter ? shmemx_complexf_prod_reduce_scatter(team, fd, fs, n) : shmem_complexf_prod_reduce(team, fd, fs, n);
  return scatter ? shmemx_complexf_sum_reduce_scatter(team, fd, fs, n) : shmem_complexf_sum_reduce(team, fd, fs, n);
}
/* acc = acc OP b, the double and the float accumulators (a product only
 * in the one of its type) */
static void complex_step(int dbl, int prod, double *re, double *im, float *fre, float *fim, double br, double bi,
                         float fbr, float fbi)
{
  if (!prod) *re += br, *im += bi, *fre += fbr, *fim += fbi;
  else if (dbl) shoal_cpaird_mul(*re, *im, br, bi, re, im);
  else shoal_cpairf_mul(*fre, *fim, fbr, fbi, fre, fim);
}
/* The reference for element at: each run of members that starts where
 * group[p] is set combined in team order, then the runs in order. */
static void complex_fold(int tag, const int *wpe, const int *group, int tn, size_t at, int dbl, int prod,
                         double *re, double *im, float *fre, float *fim)
{
  for (int p = 0; p < tn;) {
    double nre = cpart(tag, wpe[p], at, 0), nim = cpart(tag, wpe[p], at, 1);
    float gre = (float)nre, gim = (float)nim;
    int q = p + 1;
    for (; q < tn && !group[q]; q++) {
      double br = cpart(tag, wpe[q], at, 0), bi = cpart(tag, wpe[q], at, 1);
      complex_step(dbl, prod, &nre, &nim, &gre, &gim, br, bi, (float)br, (float)bi);
    }
    if (p == 0) *re = nre, *im = nim, *fre = gre, *fim = gim;
    else complex_step(dbl, prod, re, im, fre, fim, nre, nim, gre, gim);
    p = q;
  }
}
static void test_complex(shmem_team_t team, const char *name, size_t n, const int *wpe, int tn, int tme)
{
  static const struct { int tag, dbl, prod; const char *what; } cases[] = {
    {11, 1, 0, "complexd sum"}, {11, 0, 0, "complexf sum"}, {12, 1, 1, "complexd prod"}, {13, 0, 1, "complexf prod"},
  };
  size_t total = n * (size_t)tn;
  /* group[p]: team PE p starts a new node's run of members */
  int per_node = shmem_team_n_pes(SHMEM_TEAM_SHARED), runs = 0, crowded = 0;
  int *group = malloc((size_t)tn * sizeof(int));
  for (int p = 0; p < tn; p++) {
    group[p] = p == 0 || wpe[p] / per_node != wpe[p - 1] / per_node;
    runs += group[p];
    crowded |= !group[p];
  }
  const char *hier_env = getenv("SHOAL_COLL_HIER");
  if (runs < 2 || !crowded || (hier_env && !strcmp(hier_env, "0")))
    for (int p = 1; p < tn; p++) group[p] = 0;   /* flat: team order */
  double *h = malloc(2 * total * sizeof(double)), *poison = malloc(2 * total * sizeof(double));
  float *hf = (float *)h;
  memset(poison, 0x7b, 2 * total * sizeof(double));
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int tag = cases[c].tag, dbl = cases[c].dbl, prod = cases[c].prod;
    size_t es = dbl ? 2 * sizeof(double) : 2 * sizeof(float);
    for (size_t i = 0; i < 2 * total; i++) {
      double v = cpart(tag, me, i / 2, (int)(i & 1));
      if (dbl) h[i] = v;
      else hf[i] = (float)v;
    }
    shmem_putmem(bufs.cs, h, total * es, me);
    for (int scatter = 0; scatter < 2; scatter++) {
      shmem_putmem(bufs.cd, poison, total * es, me);
      shmem_team_sync(team);
      CHECK(complex_reduce(team, dbl, prod, scatter, bufs.cd, bufs.cs, n) == 0, "%s %s (scatter %d) rc", name,
            cases[c].what, scatter);
      shmem_getmem(h, bufs.cd, n * es, me);
      size_t bad = 0;
      for (size_t i = 0; i < n; i++) {
        size_t at = scatter ? (size_t)tme * n + i : i;
        double re = 0, im = 0;
        float fre = 0, fim = 0;
        complex_fold(tag, wpe, group, tn, at, dbl, prod, &re, &im, &fre, &fim);
        bad += dbl ? h[2 * i] != re || h[2 * i + 1] != im : hf[2 * i] != fre || hf[2 * i + 1] != fim;
      }
      CHECK(bad == 0, "%s %s (scatter %d) n=%zu: %zu wrong", name, cases[c].what, scatter, n, bad);
    }
  }
  free(poison);
  free(h);
  free(group);
}

static void test_coll(shmem_team_t team, const char *name, size_t n)
{
  int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
  if (tme < 0) return;
  int *wpe = malloc((size_t)tn * sizeof(int));
  for (int i = 0; i < tn; i++) wpe[i] = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
  size_t total = n * (size_t)tn;
  int *src = bufs.src, *dst = bufs.dst;
  float *fs = bufs.fs, *fd = bufs.fd;
  int *h = malloc(total * sizeof(int)), *poison = malloc(total * sizeof(int));
  float *hf = malloc(n * sizeof(float));
  memset(poison, 0x7b, total * sizeof(int));
  for (size_t i = 0; i < total; i++) h[i] = (int)(val(7, me, i) % 1000003);
  for (size_t i = 0; i < n; i++) hf[i] = (float)(val(8, me, i) % 4096) * 0.25f;
  shmem_int_put(src, h, total, me);
  shmem_float_put(fs, hf, n, me);
  size_t bad;
#define RESET() do { shmem_int_put(dst, poison, total, me); shmem_float_put(fd, (float *)poison, n, me); \
                     shmem_team_sync(team); } while (0)
  if (verbose) fprintf(stderr, "PE %d: %s collectives n=%zu\n", me, name, n);
  /* broadcast from the last member */
  RESET();
  STAGE("broadcast");
  CHECK(shmem_int_broadcast(team, dst, src, n, tn - 1) == 0, "%s broadcast rc", name);
  shmem_int_get(h, dst, n, me);
  bad = 0;
  for (size_t i = 0; i < n; i++) bad += h[i] != (int)(val(7, wpe[tn - 1], i) % 1000003);
  CHECK(bad == 0, "%s broadcast n=%zu: %zu wrong", name, n, bad);
  /* fcollect */
  STAGE("fcollect");
  RESET();
  CHECK(shmem_int_fcollect(team, dst, src, n) == 0, "%s fcollect rc", name);
  shmem_int_get(h, dst, total, me);
  bad = 0;
  for (int p = 0; p < tn; p++)
    for (size_t i = 0; i < n; i++) bad += h[(size_t)p * n + i] != (int)(val(7, wpe[p], i) % 1000003);
  CHECK(bad == 0, "%s fcollect n=%zu: %zu wrong", name, n, bad);
  /* alltoall */
  STAGE("alltoall");
  RESET();
  CHECK(shmem_int_alltoall(team, dst, src, n) == 0, "%s alltoall rc", name);
  shmem_int_get(h, dst, total, me);
  bad = 0;
  for (int p = 0; p < tn; p++)
    for (size_t i = 0; i < n; i++)
      bad += h[(size_t)p * n + i] != (int)(val(7, wpe[p], (size_t)tme * n + i) % 1000003);
  CHECK(bad == 0, "%s alltoall n=%zu: %zu wrong", name, n, bad);
  /* sum and max reductions, reduce_scatter */
  RESET();
  CHECK(shmem_int_sum_reduce(team, dst, src, n) == 0, "%s sum_reduce rc", name);
  shmem_int_get(h, dst, n, me);
  bad = 0;
  for (size_t i = 0; i < n; i++) {
    int want = 0;
    for (int p = 0; p < tn; p++) want += (int)(val(7, wpe[p], i) % 1000003);
    bad += h[i] != want;
  }
  CHECK(bad == 0, "%s int sum_reduce n=%zu: %zu wrong", name, n, bad);
  RESET();
  CHECK(shmem_float_max_reduce(team, fd, fs, n) == 0, "%s max_reduce rc", name);
  shmem_float_get(hf, fd, n, me);
  bad = 0;
  for (size_t i = 0; i < n; i++) {
    float want = 0;
    for (int p = 0; p < tn; p++) {
      float v = (float)(val(8, wpe[p], i) % 4096) * 0.25f;
      if (v > want) want = v;
    }
    bad += hf[i] != want;
  }
  CHECK(bad == 0, "%s float max_reduce n=%zu: %zu wrong", name, n, bad);
  RESET();
  CHECK(shmemx_int_sum_reduce_scatter(team, dst, src, n) == 0, "%s reduce_scatter rc", name);
  shmem_int_get(h, dst, n, me);
  bad = 0;
  for (size_t i = 0; i < n; i++) {
    int want = 0;
    for (int p = 0; p < tn; p++) want += (int)(val(7, wpe[p], (size_t)tme * n + i) % 1000003);
    bad += h[i] != want;
  }
  CHECK(bad == 0, "%s reduce_scatter n=%zu: %zu wrong", name, n, bad);
  /* 16-bit floats: the bfloat16 sum (small integers: exact in any order),
   * its reduce_scatter, and the half max of any finite values */
  uint16_t *s16 = (uint16_t *)src, *d16 = (uint16_t *)dst, *h16 = (uint16_t *)h;
  for (size_t i = 0; i < total; i++) h16[i] = shoal_float_to_bf16((float)(int)(val(9, me, i) % 61) - 30.0f);
  shmem_putmem(s16, h16, total * 2, me);
  RESET();
  CHECK(shmemx_bfloat16_sum_reduce(team, d16, s16, n) == 0, "%s bfloat16 sum_reduce rc", name);
  shmem_getmem(h16, d16, n * 2, me);
  bad = 0;
  for (size_t i = 0; i < n; i++) {
    float want = 0;
    for (int p = 0; p < tn; p++) want += (float)(int)(val(9, wpe[p], i) % 61) - 30.0f;
    bad += h16[i] != shoal_float_to_bf16(want);
  }
  CHECK(bad == 0, "%s bfloat16 sum_reduce n=%zu: %zu wrong", name, n, bad);
  RESET();
  CHECK(shmemx_bfloat16_sum_reduce_scatter(team, d16, s16, n) == 0, "%s bfloat16 reduce_scatter rc", name);
  shmem_getmem(h16, d16, n * 2, me);
  bad = 0;
  for (size_t i = 0; i < n; i++) {
    float want = 0;
    for (int p = 0; p < tn; p++) want += (float)(int)(val(9, wpe[p], (size_t)tme * n + i) % 61) - 30.0f;
    bad += h16[i] != shoal_float_to_bf16(want);
  }
  CHECK(bad == 0, "%s bfloat16 reduce_scatter n=%zu: %zu wrong", name, n, bad);
#ifdef SHMEMX_HAVE_HALF
  for (size_t i = 0; i < n; i++) h16[i] = shoal_float_to_half(((float)(val(10, me, i) % 20001) - 10000.0f) / 64.0f);
  shmem_putmem(s16, h16, n * 2, me);
  RESET();
  CHECK(shmemx_half_max_reduce(team, (shmemx_half_t *)d16, (const shmemx_half_t *)s16, n) == 0,
        "%s half max_reduce rc", name);
  shmem_getmem(h16, d16, n * 2, me);
  bad = 0;
  for (size_t i = 0; i < n; i++) {
    uint16_t want = 0;
    float best = -INFINITY;
    for (int p = 0; p < tn; p++) {
      uint16_t b = shoal_float_to_half(((float)(val(10, wpe[p], i) % 20001) - 10000.0f) / 64.0f);
      if (shoal_half_to_float(b) > best) best = shoal_half_to_float(b), want = b;
    }
    bad += h16[i] != want;
  }
  CHECK(bad == 0, "%s half max_reduce n=%zu: %zu wrong", name, n, bad);
#endif
#undef RESET
  STAGE("complex");
  test_complex(team, name, n, wpe, tn, tme);
  shmem_team_sync(team);
  free(hf);
  free(poison);
  free(h);
  free(wpe);
}

static uint64_t seed_sym;

/* test_host misaligned: a complex product on GPU memory 8 bytes off the
 * 16 its elements need must stop with a message naming the argument
 * (tests/gpu/run.sh checks it). */
static int misaligned(void)
{
  double *a = shmem_malloc(64 * sizeof(double)), *b = shmem_malloc(64 * sizeof(double));
  shmem_complexd_prod_reduce(SHMEM_TEAM_WORLD, (double _Complex *)(b + 1), (double _Complex *)a, 4);
  fprintf(stderr, "test_host: PE %d: the misaligned complex product returned\n", me);
  shmem_finalize();
  return 1;
}

int main(int argc, char **argv)
{
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  if (argc > 1 && !strcmp(argv[1], "misaligned")) return misaligned();
  verbose = getenv("SHOAL_TEST_VERBOSE") != NULL;
  if (me == 0) seed_sym = (uint64_t)time(NULL) ^ 0x5eed;
  shmem_barrier_all();
  seed = shmem_uint64_g(&seed_sym, 0);
  if (me == 0) printf("test_host: %d PEs, seed %llu\n", npes, (unsigned long long)seed);
  STAGE("test_rma");
  test_rma();
  STAGE("test_signal_wait");
  test_signal_wait();
  STAGE("test_amo");
  test_amo();
  STAGE("test_heap");
  test_heap();
  STAGE("team split");
  shmem_team_t even = SHMEM_TEAM_INVALID;
  int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even);
  CHECK(rc == 0, "split");
  size_t sizes[] = {1, 777, 100000};   /* the last one runs on the whole GPU */
  bufs.src = shmem_malloc(sizes[2] * (size_t)npes * sizeof(int));
  bufs.dst = shmem_malloc(sizes[2] * (size_t)npes * sizeof(int));
  bufs.fs = shmem_malloc(sizes[2] * sizeof(float));
  bufs.fd = shmem_malloc(sizes[2] * sizeof(float));
  bufs.cs = shmem_malloc(sizes[2] * (size_t)npes * 2 * sizeof(double));
  bufs.cd = shmem_malloc(sizes[2] * (size_t)npes * 2 * sizeof(double));
  for (int s = 0; s < 3; s++) {
    STAGE(s == 0 ? "collectives, 1 element" : s == 1 ? "collectives, 777 elements" : "collectives, 100000 elements");
    test_coll(SHMEM_TEAM_WORLD, "world", sizes[s]);
    if (even != SHMEM_TEAM_INVALID) test_coll(even, "even", sizes[s]);
    shmem_barrier_all();
  }
  shmem_team_destroy(even);
  shmem_free(bufs.cd);
  shmem_free(bufs.cs);
  shmem_free(bufs.fd);
  shmem_free(bufs.fs);
  shmem_free(bufs.dst);
  shmem_free(bufs.src);
  shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &failures, &failures, 1);   /* every PE's count */
  if (me == 0) printf("test_host: %s\n", failures ? "FAILED" : "passed");
  int rcode = failures ? 1 : 0;
  shmem_finalize();
  return rcode;
}
