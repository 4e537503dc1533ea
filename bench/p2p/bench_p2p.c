/* Point-to-point benchmark for any OpenSHMEM 1.4+ library: put/get latency
 * and bandwidth by size, atomic rate, ping-pong and barrier latency.
 *
 *   oshrun -np 2 ./bench_p2p [-o results.csv] [-l label] [-m max_bytes]
 *
 * PE 0 drives; PE 1 is the target (it waits in a barrier, as in the OSU
 * benchmarks).  Every number is the best of TRIALS timed loops, so a noisy
 * shared machine disturbs it less.  Only the 1.4 API is used, so the same
 * source builds against Shoal and against Open MPI's OSHMEM. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TRIALS 20
#define WINDOW 64            /* transfers in flight per bandwidth step, */
#define WINDOW_BYTES (4u << 20)   /* but at most this many bytes: short steps keep
                                     best-of-trials meaningful on a busy machine */
#define MAX_BYTES_DEFAULT (4u << 20)

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* A timed loop body: run `n` iterations of test `kind` at `bytes`. */
typedef void (*loop_fn)(int kind, size_t bytes, long n);

/* Best time per iteration (us) over TRIALS loops, each about TARGET_US long:
 * the iteration count is calibrated first, so fast and slow libraries are
 * both measured over loops long enough for the clock. */
#define TARGET_US 2000.0
static double best_time(loop_fn fn, int kind, size_t bytes)
{
  long n = 1;
  double t;
  for (;;) {
    double t0 = now_us();
    fn(kind, bytes, n);
    t = now_us() - t0;
    if (t >= TARGET_US / 8 || n >= (1L << 30)) break;
    n *= 2;
  }
  n = (long)(n * (TARGET_US / (t > 0 ? t : 1)));
  if (n < 1) n = 1;
  double best = 1e30;
  for (int i = 0; i < TRIALS; i++) {
    double t0 = now_us();
    fn(kind, bytes, n);
    double us = (now_us() - t0) / n;
    if (us < best) best = us;
  }
  return best;
}

static char *src, *dst;
static long amo_target;
static long amo_sink;

static void latency_loop(int kind, size_t sz, long n)
{
  for (long i = 0; i < n; i++) {
    if (kind == 0) {
      shmem_putmem(dst, src, sz, 1);
      shmem_quiet();
    } else {
      shmem_getmem(dst, src, sz, 1);
    }
  }
}

static int window_for(size_t sz)
{
  size_t w = WINDOW_BYTES / sz;
  return w < 1 ? 1 : w > WINDOW ? WINDOW : (int)w;
}

static void bandwidth_loop(int kind, size_t sz, long n)
{
  int window = window_for(sz);
  for (long i = 0; i < n; i++) {
    for (int w = 0; w < window; w++) {
      if (kind == 0) shmem_putmem_nbi(dst, src, sz, 1);
      else shmem_getmem_nbi(dst, src, sz, 1);
    }
    shmem_quiet();
  }
}

static long amo_count;   /* operations issued, to check the target */
static void atomic_loop(int kind, size_t sz, long n)
{
  for (long i = 0; i < n; i++) {
    if (kind == 0) amo_sink += shmem_long_atomic_fetch_add(&amo_target, 1, 1);
    else shmem_long_atomic_add(&amo_target, 1, 1);
  }
  shmem_quiet();
  amo_count += n;
}

static FILE *csv;
static const char *label = "shoal";

static void record(const char *test, size_t bytes, double value, const char *unit)
{
  printf("  %-18s %9zu %12.3f %s\n", test, bytes, value, unit);
  if (csv) fprintf(csv, "%s,%s,%zu,%.4f,%s\n", label, test, bytes, value, unit);
}

static long sync_long;   /* ping-pong flag: a global, symmetric */

int main(int argc, char **argv)
{
  const char *out = NULL;
  size_t max_bytes = MAX_BYTES_DEFAULT;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "-l") && i + 1 < argc) label = argv[++i];
    else if (!strcmp(argv[i], "-m") && i + 1 < argc) max_bytes = strtoul(argv[++i], NULL, 0);
    else {
      fprintf(stderr, "usage: %s [-o results.csv] [-l label] [-m max_bytes]\n", argv[0]);
      return 2;
    }
  }

  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  if (n < 2) {
    if (me == 0) fprintf(stderr, "bench_p2p: needs at least 2 PEs (oshrun -np 2)\n");
    shmem_finalize();
    return 2;
  }
  src = shmem_malloc(max_bytes);
  dst = shmem_malloc(max_bytes);
  if (!src || !dst) {
    if (me == 0) fprintf(stderr, "bench_p2p: shmem_malloc(%zu) failed\n", max_bytes);
    shmem_global_exit(1);
  }
  memset(src, me + 1, max_bytes);
  memset(dst, 0, max_bytes);
  if (me == 0) {
    if (out && !(csv = fopen(out, "w"))) {
      perror(out);
      shmem_global_exit(1);
    }
    if (csv) fprintf(csv, "impl,test,bytes,value,unit\n");
    printf("# %s: %d PEs, best of %d trials\n  %-18s %9s %12s\n", label, n, TRIALS, "test", "bytes",
           "value");
  }
  shmem_barrier_all();

  /* Latency: one blocking put (+ quiet) or get at a time. */
  for (int kind = 0; kind < 2; kind++) {
    for (size_t sz = 8; sz <= max_bytes; sz *= 2) {
      if (me == 0) record(kind == 0 ? "put_latency" : "get_latency", sz, best_time(latency_loop, kind, sz), "us");
      shmem_barrier_all();
    }
  }

  /* Bandwidth: WINDOW non-blocking transfers, then quiet. */
  for (int kind = 0; kind < 2; kind++) {
    for (size_t sz = 8; sz <= max_bytes; sz *= 2) {
      if (me == 0)
        record(kind == 0 ? "put_bandwidth" : "get_bandwidth", sz,
               (double)sz * window_for(sz) / best_time(bandwidth_loop, kind, sz), "MB/s");
      shmem_barrier_all();
    }
  }

  /* Ping-pong: PE 0 puts a flag with shmem_long_p, PE 1 waits for it and
   * answers; half the round trip is the one-way latency of a small put. */
  {
    long it = 2000;
    double best = 1e30;
    for (int t = 0; t < TRIALS; t++) {
      shmem_barrier_all();
      double t0 = now_us();
      for (long i = 1; i <= it; i++) {
        long v = (long)t * it + i;
        if (me == 0) {
          shmem_long_p(&sync_long, v, 1);
          shmem_long_wait_until(&sync_long, SHMEM_CMP_EQ, v);
        } else if (me == 1) {
          shmem_long_wait_until(&sync_long, SHMEM_CMP_EQ, v);
          shmem_long_p(&sync_long, v, 0);
        }
      }
      double us = (now_us() - t0) / it / 2;
      if (us < best) best = us;
    }
    if (me == 0) record("pingpong_put", sizeof(long), best, "us");
    shmem_barrier_all();
  }

  /* Atomic rate: PE 0 updates a long on PE 1. */
  for (int kind = 0; kind < 2; kind++) {
    if (me == 0)
      record(kind == 0 ? "atomic_fetch_add" : "atomic_add", sizeof(long), 1.0 / best_time(atomic_loop, kind, 0),
             "Mops/s");
    shmem_barrier_all();
  }
  /* Every fetch_add and add must have landed exactly once. */
  long expect = shmem_long_g(&amo_count, 0);
  if (me == 0 && shmem_long_g(&amo_target, 1) != expect) {
    fprintf(stderr, "bench_p2p: atomic counter is %ld, expected %ld\n", shmem_long_g(&amo_target, 1), expect);
    shmem_global_exit(1);
  }
  shmem_barrier_all();

  /* Barrier latency: every PE. */
  {
    long it = 2000;
    double best = 1e30;
    for (int t = 0; t < TRIALS; t++) {
      shmem_barrier_all();
      double t0 = now_us();
      for (long i = 0; i < it; i++) shmem_barrier_all();   /* fixed count: every PE must agree */
      double us = (now_us() - t0) / it;
      if (us < best) best = us;
    }
    if (me == 0) record("barrier_all", 0, best, "us");
  }

  if (csv) fclose(csv);
  fflush(stdout);
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
  shmem_finalize();
  return 0;
}
