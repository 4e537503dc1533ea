/* Where a barrier kernel's time goes (Shoal only).  Back-to-back launches
 * of:
 *   lib    shmemx_barrier_all_on_stream (the library's kernel);
 *   parts  the same steps inline, thread 0 stamping the SM clock after
 *          each: the team lookup, the block barrier and meeting number,
 *          the arrivals on the peers, the wait for theirs;
 *   raw    a bare meeting: peer counters looked up on the host
 *          (shmem_ptr), one relaxed add a peer, an acquire wait (where all
 *          PEs are on one node).
 * Prints us per call for each, and for parts the median ns of each step
 * and of the gap between one kernel's end and the next one's start
 * (%globaltimer).  bench_sync_parts [iters (default 2000)] */
#include <string.h>
#include <stdint.h>
#include <algorithm>
#include <vector>
#include "bench_gpu.h"

__device__ inline unsigned long long gtimer(void)
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

#define STEPS 8   /* globaltimer at entry, clock64 at 6 points, globaltimer at exit */

__global__ void k_parts(unsigned long long *ts, int it)
{
  unsigned long long g0 = gtimer();
  long long c0 = clock64();
  shoal_team *t = shoal_gpu_team(SHMEM_TEAM_WORLD);
  long long c0a = clock64();
  if (!t || t->my_pe < 0) __trap();
  long long c0b = clock64();
  int n = t->size, me = t->my_pe;
  if (!(t->slot >= 0 && !t->gpu_proxied)) __trap();
  long long c1 = clock64();
  shoal_scope s = shoal_gpu_block_lane(true);
  uint64_t e = s.tid == 0 ? shoal_scope_next_meeting(&s, t) : 0;
  __syncthreads();
  long long c2 = clock64();
  for (unsigned j = s.tid; j + 1 < (unsigned)n; j += s.nthreads) shoal_scope_arrive(&s, t, (me + 1 + (int)j) % n, "parts");
  long long c3 = clock64();
  if (s.tid == 0) shoal_scope_await_peers(&s, t, e, false, "parts");
  long long c4 = clock64();
  __syncthreads();
  if (s.tid == 0) {
    unsigned long long *o = ts + (size_t)it * STEPS;
    o[0] = g0;
    o[1] = (unsigned long long)(c0a - c0);
    o[2] = (unsigned long long)(c0b - c0a);
    o[3] = (unsigned long long)(c1 - c0b);
    o[4] = (unsigned long long)(c2 - c1);
    o[5] = (unsigned long long)(c3 - c2);
    o[6] = (unsigned long long)(c4 - c3);
    o[7] = gtimer();
  }
}

/* peers[j]: the counter's address on team PE me + 1 + j; mine: my own. */
__global__ void k_raw(uint64_t *const *peers, uint64_t *mine, uint64_t *epoch, int n)
{
  uint64_t e = 0;
  if (threadIdx.x == 0) e = ++*epoch;
  __syncthreads();
  if ((int)threadIdx.x + 1 < n) atomicAdd((unsigned long long *)peers[threadIdx.x], 1ull);
  if (threadIdx.x == 0) {
    cuda::atomic_ref<uint64_t, cuda::thread_scope_system> r(*mine);
    while (r.load(cuda::memory_order_acquire) < e * (uint64_t)(n - 1)) {}
  }
  __syncthreads();
}

static double med(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv)
{
  bench_init("/tmp/nvshmem_uid_parts.bin");
  int me = MY_PE(), np = N_PES();
  int iters = argc > 1 ? atoi(argv[1]) : 2000;
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  unsigned long long *ts;
  CK(cudaMalloc((void **)&ts, sizeof(unsigned long long) * STEPS * iters));
  /* raw: a counter of its own in the heap */
  uint64_t *ctr = (uint64_t *)shmem_calloc(1, sizeof(uint64_t)), *epoch;
  CK(cudaMalloc((void **)&epoch, sizeof(uint64_t)));
  CK(cudaMemset(epoch, 0, sizeof(uint64_t)));
  std::vector<uint64_t *> hp(np > 1 ? np - 1 : 1);
  /* raw needs every peer's counter mapped here: all PEs on one node (the
   * same answer on every PE) */
  int mapped = shmem_team_n_pes(SHMEM_TEAM_SHARED) == np;
  for (int j = 0; j + 1 < np && mapped; j++) hp[j] = (uint64_t *)shmem_ptr(ctr, (me + 1 + j) % np);
  uint64_t **dp;
  CK(cudaMalloc((void **)&dp, sizeof(uint64_t *) * hp.size()));
  CK(cudaMemcpy(dp, hp.data(), sizeof(uint64_t *) * hp.size(), cudaMemcpyHostToDevice));
  CK(cudaDeviceSynchronize());
  float ms;
  for (int k = 0; k < (mapped ? 3 : 2); k++) {
    for (int round = 0; round < 2; round++) {   /* warm-up, timed */
      shmem_barrier_all();
      CK(cudaEventRecord(e0, st));
      for (int i = 0; i < iters; i++) {
        if (k == 0) shmemx_barrier_all_on_stream(st);
        else if (k == 1) k_parts<<<1, 32, 0, st>>>(ts, i);
        else k_raw<<<1, 32, 0, st>>>(dp, ctr, epoch, np);
      }
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      CK(cudaGetLastError());
      CK(cudaEventElapsedTime(&ms, e0, e1));
    }
    if (me == 0) printf("PE 0 of %d: %-6s %8.2f us per call\n", np, k == 0 ? "lib" : k == 1 ? "parts" : "raw", ms * 1e3 / iters);
    if (k == 1) {
      std::vector<unsigned long long> h((size_t)STEPS * iters);
      CK(cudaMemcpy(h.data(), ts, sizeof(unsigned long long) * h.size(), cudaMemcpyDeviceToHost));
      int clk = 0;
      CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));   /* kHz */
      double ns_per_cycle = 1e6 / clk;
      std::vector<double> v[STEPS];
      for (int i = 1; i < iters; i++) {
        const unsigned long long *o = &h[(size_t)i * STEPS];
        v[0].push_back((double)(o[0] - h[(size_t)(i - 1) * STEPS + 7]));   /* gap */
        for (int s = 1; s <= 6; s++) v[s].push_back(o[s] * ns_per_cycle);
        v[7].push_back((double)(o[7] - o[0]));
      }
      printf("PE %d: parts, median ns: gap %.0f | team key %.0f | my_pe %.0f | slot, proxied %.0f | barrier+meeting no. %.0f | "
             "arrivals %.0f | wait %.0f | kernel %.0f\n",
             me, med(v[0]), med(v[1]), med(v[2]), med(v[3]), med(v[4]), med(v[5]), med(v[6]), med(v[7]));
      fflush(stdout);
    }
  }
  shmem_barrier_all();
  bench_finalize();
  return 0;
}
