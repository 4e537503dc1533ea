/* A fused kernel: every PE computes a vector and all-reduces it inline
 * over a strided team (the even PEs when there are 3 or more, else every
 * PE), then uses the result in the same kernel (normalizes by the team's
 * sum), with no return to the host in between.
 *   oshrun -np 4 ./fused_allreduce */
#include <shmem.h>
#include <shmemx.h>
#include <math.h>
#include <stdio.h>
#if defined(__HIPCC__)
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaMemcpy hipMemcpy
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#endif

#define N 100000

__global__ void __launch_bounds__(1024) compute_reduce_normalize(shmem_team_t team, float *v, float *sum, float *out, int n)
{
  int me = shmem_my_pe();
  for (int i = threadIdx.x; i < n; i += blockDim.x) v[i] = (float)((i % 97) + me);   /* compute */
  shmemx_float_sum_reduce_block(team, sum, v, n);                                     /* all-reduce */
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = v[i] / sum[i];          /* use it */
}

int main(void)
{
  shmem_init();
  int me = shmem_my_pe(), np = shmem_n_pes();
  int stride = np >= 3 ? 2 : 1;
  shmem_team_t team = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, stride, (np + stride - 1) / stride, NULL, 0, &team);
  float *v = (float *)shmem_malloc(N * sizeof(float)), *sum = (float *)shmem_malloc(N * sizeof(float));
  float *out = (float *)shmem_malloc(N * sizeof(float));
  int ok = 1;
  if (team != SHMEM_TEAM_INVALID) {
    int tn = shmem_team_n_pes(team);
    compute_reduce_normalize<<<1, 1024>>>(team, v, sum, out, N);
    if (cudaDeviceSynchronize() != 0) { fprintf(stderr, "fused_allreduce: kernel failed\n"); return 1; }
    float *h = (float *)malloc(N * sizeof(float));
    cudaMemcpy(h, sum, N * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++) {
      float want = 0;
      for (int j = 0; j < tn; j++) want += (float)((i % 97) + j * stride);
      if (h[i] != want) { ok = 0; break; }
    }
    free(h);
    printf("fused_allreduce: PE %d, team of %d (stride %d): %s\n", me, tn, stride, ok ? "ok" : "WRONG");
    shmem_team_destroy(team);
  }
  shmem_barrier_all();
  shmem_free(out); shmem_free(sum); shmem_free(v);
  shmem_finalize();
  return ok ? 0 : 1;
}
