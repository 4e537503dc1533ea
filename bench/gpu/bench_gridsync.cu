/* What a grid collective in a user's kernel pays to bring its blocks
 * together: Shoal's grid barrier (the local meeting of every grid call,
 * collectives/scope.h shoal_scope_sync_local), the whole
 * shmemx_sync_all_grid (two grid barriers around block 0's meeting with
 * the peers) and the in-kernel grid all-reduce of 4 KB, beside CUDA's own
 * grid barrier (cooperative groups' this_grid().sync(), under a
 * cooperative launch), each called back to back inside one kernel on the
 * same grid (shmemx_grid_max_blocks blocks of 1024 threads).
 *
 *   mpirun -np 2 bench_gridsync          (any number of PEs; 1 is fine)
 *
 * Prints us per call (the median of three timed rounds) and appends CSV
 * rows to $BENCH_CSV when set. */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <string.h>

#include "bench_gpu.h"

namespace cg = cooperative_groups;

#define ROUNDS 3
#define ITERS 2000

__global__ void __launch_bounds__(1024) k_shoal_local(int iters)
{
  shoal_team *t = shoal_gpu_team_or_fail("bench", SHMEM_TEAM_WORLD);
  for (int i = 0; i < iters; i++) shoal_grid_sync_local(t, "bench");
}
__global__ void __launch_bounds__(1024) k_cg_sync(int iters)
{
  cg::grid_group g = cg::this_grid();
  for (int i = 0; i < iters; i++) g.sync();
}
__global__ void __launch_bounds__(1024) k_sync_all_grid(int iters)
{
  for (int i = 0; i < iters; i++) shmemx_sync_all_grid();
}
__global__ void __launch_bounds__(1024) k_sync_all_block(int iters)
{
  for (int i = 0; i < iters; i++) shmemx_sync_all_block();
}
__global__ void __launch_bounds__(1024) k_sum_grid(float *d, const float *s, size_t n, int iters)
{
  for (int i = 0; i < iters; i++) shmemx_float_sum_reduce_grid(SHMEM_TEAM_WORLD, d, s, n);
}
__global__ void __launch_bounds__(1024) k_sum_block(float *d, const float *s, size_t n, int iters)
{
  for (int i = 0; i < iters; i++) shmemx_float_sum_reduce_block(SHMEM_TEAM_WORLD, d, s, n);
}

static int me, np;
static FILE *csv;
static cudaEvent_t e0, e1;

static int cmp_float(const void *a, const void *b)
{
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* us per call of launch(iters), median of ROUNDS rounds after a warm-up. */
template <class F>
static double timed(F launch)
{
  float r[ROUNDS], ms;
  for (int w = 0; w <= ROUNDS; w++) {
    shmem_barrier_all();
    CK(cudaEventRecord(e0));
    launch(w ? ITERS : 10);
    CK(cudaGetLastError());
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (w) r[w - 1] = ms;
  }
  qsort(r, ROUNDS, sizeof r[0], cmp_float);
  return r[ROUNDS / 2] * 1e3 / ITERS;
}

static void row(const char *what, int grid, double us)
{
  if (me) return;
  printf("%-28s grid %4d  %8.3f us/call\n", what, grid, us);
  if (csv) fprintf(csv, "gridsync,%d,%s,%d,%.4f\n", np, what, grid, us);
}

int main(void)
{
  bench_init("/tmp/nvshmem_uid_gridsync.bin");
  me = MY_PE();
  np = N_PES();
  const char *cp = getenv("BENCH_CSV");
  if (me == 0 && cp) csv = fopen(cp, "a");
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  int grid = shmemx_grid_max_blocks(k_sum_grid, 1024, 0);
  int cg_per_sm = 0, dev = 0, sms = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&cg_per_sm, k_cg_sync, 1024, 0));
  if (me == 0) printf("bench_gridsync: %d PEs, %d SMs, Shoal's grid %d blocks of 1024 (cooperative limit %d)\n", np,
                      sms, grid, cg_per_sm * sms);
  size_t n = 1024;   /* 4 KB of float */
  float *src = (float *)shmem_malloc(n * sizeof(float)), *dst = (float *)shmem_malloc(n * sizeof(float));
  CK(cudaMemset(src, 0, n * sizeof(float)));
  CK(cudaDeviceSynchronize());
  int grids[3] = {grid, grid / 2, 8};
  for (int gi = 0; gi < 3; gi++) {
    int gr = grids[gi];
    if (gr < 1 || (gi && gr == grids[gi - 1])) continue;
    row("shoal grid barrier (local)", gr, timed([&](int it) { k_shoal_local<<<gr, 1024>>>(it); }));
    if (gr <= cg_per_sm * sms)
      row("cuda cg grid.sync", gr, timed([&](int it) {
            void *args[] = {&it};
            CK(cudaLaunchCooperativeKernel((void *)k_cg_sync, gr, 1024, args, 0, 0));
          }));
    row("shmemx_sync_all_grid", gr, timed([&](int it) { k_sync_all_grid<<<gr, 1024>>>(it); }));
    row("all-reduce 4 KB grid", gr, timed([&](int it) { k_sum_grid<<<gr, 1024>>>(dst, src, n, it); }));
  }
  row("shmemx_sync_all_block", 1, timed([&](int it) { k_sync_all_block<<<1, 1024>>>(it); }));
  row("all-reduce 4 KB block", 1, timed([&](int it) { k_sum_block<<<1, 1024>>>(dst, src, n, it); }));
  if (csv) fclose(csv);
  shmem_free(src);
  shmem_free(dst);
  bench_finalize();
  return 0;
}
