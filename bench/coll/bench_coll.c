/* Collective latency for any OpenSHMEM 1.4+ library: barrier, broadcast,
 * fcollect, alltoall and sum reduction by size, on all PEs (and, built
 * against Shoal, its reduce-scatter).
 *
 *   oshrun -np 4 ./bench_coll [-o results.csv] [-l label] [-m max_bytes] [-t test] [-s step]
 *
 * The compared rows use only 1.4 calls (shmem_barrier_all, broadcast64,
 * fcollect64, alltoall64, long_sum_to_all), so the same source builds
 * against Shoal and against Open MPI's OSHMEM.  Built against Shoal it also
 * times the 1.5 team calls.  Each number is the slowest PE's best of TRIALS
 * loops of the average time per call, every loop starting after a barrier
 * (a root that returns early does not make a collective look fast).
 * -t runs only the test of that name (e.g. long_sum_reduce); -s 2 doubles
 * the size from 4 KB on (default: times 4). */
#include <shmem.h>
#ifdef SHOAL_TYPES_H
#include <shmemx.h>   /* Shoal's reduce-scatter */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TRIALS 3
#define MAX_BYTES_DEFAULT (1u << 20)

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

enum { T_BARRIER, T_BCAST, T_FCOLLECT, T_ALLTOALL, T_SUM, T_SUM_TEAM, T_BCAST_TEAM, T_FCOLLECT_TEAM,
       T_ALLTOALL_TEAM, T_RS_TEAM, N_TESTS };
static const char *const names[N_TESTS] = {"barrier_all", "broadcast64", "fcollect64", "alltoall64",
                                           "long_sum_to_all", "long_sum_reduce", "broadcastmem",
                                           "fcollectmem", "alltoallmem", "long_sum_reduce_scatter"};

/* Two pSync and pWrk sets, alternated, as 1.4 asks for back-to-back calls. */
static long psync[2][SHMEM_REDUCE_SYNC_SIZE > SHMEM_BCAST_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE
                    : SHMEM_BCAST_SYNC_SIZE];
static long psync_c[2][SHMEM_COLLECT_SYNC_SIZE];
static long psync_a[2][SHMEM_ALLTOALL_SYNC_SIZE];
static long *pwrk[2];
static char *src, *dst;
static int npes;
static double t_mine, t_max, t_wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
static long psync_t[SHMEM_REDUCE_SYNC_SIZE];

static void run(int test, size_t bytes, long iters)
{
  size_t n64 = bytes / 8 ? bytes / 8 : 1;
  for (long i = 0; i < iters; i++) {
    int k = (int)(i & 1);
    switch (test) {
    case T_BARRIER: shmem_barrier_all(); break;
    case T_BCAST: shmem_broadcast64(dst, src, n64, 0, 0, 0, npes, psync[k]); break;
    case T_FCOLLECT: shmem_fcollect64(dst, src, n64, 0, 0, npes, psync_c[k]); break;
    case T_ALLTOALL: shmem_alltoall64(dst, src, n64, 0, 0, npes, psync_a[k]); break;
    case T_SUM: shmem_long_sum_to_all((long *)dst, (long *)src, (int)n64, 0, 0, npes, pwrk[k], psync[k]); break;
#ifdef SHOAL_TYPES_H
    case T_SUM_TEAM: shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long *)dst, (long *)src, n64); break;
    case T_BCAST_TEAM: shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, bytes, 0); break;
    case T_FCOLLECT_TEAM: shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, bytes); break;
    case T_ALLTOALL_TEAM: shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, bytes); break;
    /* bytes: each member's block (the source holds npes blocks) */
    case T_RS_TEAM: shmemx_long_sum_reduce_scatter(SHMEM_TEAM_WORLD, (long *)dst, (long *)src, n64); break;
#endif
    default: break;
    }
  }
}

/* Iterations: enough to take a few ms even for the fastest call, fewer for
 * big messages.  The same on every PE (a collective). */
static long iters_for(int test, size_t bytes)
{
  int per_pe = test == T_FCOLLECT || test == T_ALLTOALL || test == T_FCOLLECT_TEAM || test == T_ALLTOALL_TEAM ||
               test == T_RS_TEAM;
  size_t moved = bytes * (per_pe ? (size_t)npes : 1);
  long n = (long)((64u << 20) / (moved + 256));
  if (n > 2000) n = 2000;
  if (n < 10) n = 10;
  return n;
}

int main(int argc, char **argv)
{
  const char *out = NULL, *label = "shoal", *only = NULL;
  unsigned step = 4;   /* size factor from 4 KB on */
  size_t max = MAX_BYTES_DEFAULT;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-o")) out = argv[i + 1];
    else if (!strcmp(argv[i], "-l")) label = argv[i + 1];
    else if (!strcmp(argv[i], "-m")) max = strtoul(argv[i + 1], NULL, 0);
    else if (!strcmp(argv[i], "-t")) only = argv[i + 1];
    else if (!strcmp(argv[i], "-s")) step = (unsigned)strtoul(argv[i + 1], NULL, 0);
  }
  shmem_init();
  int me = shmem_my_pe();
  npes = shmem_n_pes();
  for (int k = 0; k < 2; k++) {
    for (int j = 0; j < SHMEM_REDUCE_SYNC_SIZE; j++) psync[k][j] = SHMEM_SYNC_VALUE;
    for (int j = 0; j < SHMEM_COLLECT_SYNC_SIZE; j++) psync_c[k][j] = SHMEM_SYNC_VALUE;
    for (int j = 0; j < SHMEM_ALLTOALL_SYNC_SIZE; j++) psync_a[k][j] = SHMEM_SYNC_VALUE;
  }
  for (int j = 0; j < SHMEM_REDUCE_SYNC_SIZE; j++) psync_t[j] = SHMEM_SYNC_VALUE;
  size_t wrk = max / 16 + SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8;
  pwrk[0] = shmem_malloc(wrk * sizeof(long));
  pwrk[1] = shmem_malloc(wrk * sizeof(long));
  src = shmem_malloc(max * (size_t)npes);
  dst = shmem_malloc(max * (size_t)npes);
  if (!src || !dst || !pwrk[0] || !pwrk[1]) {
    if (me == 0) fprintf(stderr, "bench_coll: cannot allocate %zu bytes\n", 2 * max * (size_t)npes);
    shmem_global_exit(1);
  }
  memset(src, 1, max * (size_t)npes);
  memset(dst, 0, max * (size_t)npes);
  FILE *csv = NULL;
  if (me == 0) {
    if (out && !(csv = fopen(out, "w"))) perror(out);
    if (csv) fprintf(csv, "impl,test,bytes,value,unit\n");
    printf("%-16s %9s %12s   (%s, %d PEs, us per call)\n", "test", "bytes", "latency", label, npes);
  }
  shmem_barrier_all();
#ifdef SHOAL_TYPES_H
  int last = N_TESTS;
#else
  int last = T_SUM + 1;
#endif
  for (int test = 0; test < last; test++) {
    if (only && strcmp(only, names[test])) continue;
    for (size_t bytes = 8; bytes <= max; bytes *= (bytes < 4096 ? 8 : step < 2 ? 2 : step)) {
      if (test == T_BARRIER && bytes > 8) break;
      long iters = iters_for(test, bytes);
      run(test, bytes, iters / 10 + 1);   /* warm up */
      double best = 1e30;
      for (int t = 0; t < TRIALS; t++) {
        shmem_barrier_all();
        double t0 = now_us();
        run(test, bytes, iters);
        double us = (now_us() - t0) / (double)iters;
        if (us < best) best = us;
      }
      shmem_barrier_all();
      t_mine = best;
      shmem_double_max_to_all(&t_max, &t_mine, 1, 0, 0, npes, t_wrk, psync_t);
      best = t_max;
      if (me == 0) {
        printf("%-16s %9zu %12.2f\n", names[test], test == T_BARRIER ? (size_t)0 : bytes, best);
        fflush(stdout);
        if (csv) fprintf(csv, "%s,%s,%zu,%.3f,us\n", label, names[test], test == T_BARRIER ? (size_t)0 : bytes, best);
      }
    }
  }
  if (csv) fclose(csv);
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
