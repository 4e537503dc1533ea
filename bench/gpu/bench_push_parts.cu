/* Where the grid push's time goes (Shoal only): the _on_stream fcollect
 * and alltoall that take the grid kernel (collectives/push.h at grid
 * scope, <shoal/gpu_grid.h>), step by step.  Back-to-back launches of:
 *   lib    shmemx_fcollectmem_on_stream / shmemx_alltoallmem_on_stream;
 *   parts  the same steps inline in a kernel of as many blocks, thread 0
 *          of each block stamping %globaltimer after each: the team
 *          lookup and the peers' dest, the first meeting, the push, the
 *          second meeting;
 *   empty  an empty kernel of as many blocks, and
 *   sync   shmemx_barrier_all_on_stream, the floors.
 * %globaltimer is one clock for the whole GPU, so where the PEs share one
 * GPU (MPS) the stamps of all PEs line up: with BENCH_DUMP=prefix each PE
 * writes its stamps to prefix.PE (it, block, t0..t4, in ns), and
 * bench/gpu/push_parts.py lines them up (when each PE's kernel starts
 * against the first, how long each meeting waits after the last
 * arrival).  Prints us per call of each, and for parts the median ns of
 * each step over the blocks and calls.
 * BENCH_EXACT=1 keeps each size as given (else whole 16-byte vectors a
 * member): blocks that are not whole words take neither LL nor the
 * vector copies.
 *   bench_push_parts [iters (default 1000)] [dest bytes per PE ...] */
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

#define STAMPS 5

/* shoal_grid_move's grid push of an _on_stream kernel (which 1 fcollect,
 * 2 alltoall), stamped. */
__global__ void __launch_bounds__(SHOAL_GPU_GRID_THREADS) k_parts(int which, void *dest, const void *src,
                                                                  size_t nbytes, unsigned long long *ts, int it)
{
  unsigned long long g[STAMPS];
  g[0] = gtimer();
  shoal_team *t = shoal_gpu_team_or_fail("parts", SHMEM_TEAM_WORLD);
  __shared__ char *pd[SHOAL_GPU_MAX_FAST_PEERS];
  shoal_scope s = shoal_grid_scope(false);
  int np = t->size, me = t->my_pe;
  size_t lo, hi;
  shoal_push_peers(&s, t, pd, dest, (size_t)me * nbytes, "parts");
  g[1] = gtimer();
  shoal_scope_enter(&s, t, "parts");
  g[2] = gtimer();
  shoal_scope_byte_share(&s, nbytes, &lo, &hi);
  if (which == 1) shoal_scope_push(&s, pd, np, me, (const char *)src, lo, hi);
  else shoal_scope_scatter(&s, pd, np, me, (const char *)src, nbytes, lo, hi);
  shoal_scope_sync_lane(&s);
  g[3] = gtimer();
  shoal_scope_leave(&s, t, "parts");
  g[4] = gtimer();
  if (s.tid == 0) {
    unsigned long long *o = ts + ((size_t)it * s.nlanes + s.lane) * STAMPS;
    for (int k = 0; k < STAMPS; k++) o[k] = g[k];
  }
}

/* The same push with nothing looked up in the kernel: every pointer the
 * steps need found once (k_plan) and passed by value, and the meetings'
 * atomics, waits and fence at system scope (SYS, as the library's) or at
 * the GPU's (where every member runs on this GPU).  Same words, same
 * meeting numbers as the library's, so the two interleave. */
struct plan {
  char *pd[8];        /* team PE q's dest + me x block */
  uint64_t *arr[8];   /* team PE me + 1 + j's arrival words (lane 0's) */
  uint64_t *mine;     /* mine */
  int np, me;
  char *ps[8];        /* team PE q's staging buffer (k_stage) */
  char *dest, *stage; /* mine */
};
__global__ void k_plan(plan *out, void *dest, size_t off, void *stage)
{
  shoal_team *t = shoal_gpu_team(SHMEM_TEAM_WORLD);
  uint64_t *w = &shoal_scope_words(t)[SHOAL_GRID_BLOCK0];
  int np = t->size, me = t->my_pe;
  out->np = np;
  out->me = me;
  out->mine = w;
  for (int j = 0; j + 1 < np; j++) out->arr[j] = (uint64_t *)shoal_dev_ptr(w, shoal_team_world_pe(t, (me + 1 + j) % np));
  for (int q = 0; q < np; q++) out->pd[q] = (char *)shoal_dev_ptr(dest, shoal_team_world_pe(t, q)) + off;
  for (int q = 0; q < np; q++) out->ps[q] = (char *)shoal_dev_ptr(stage, shoal_team_world_pe(t, q));
  out->dest = (char *)dest;
  out->stage = (char *)stage;
}
template <bool SYS> __device__ inline void p_fence(void)
{
  if (SYS) cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_system);
  else cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
}
template <bool SYS> __device__ inline void p_add(uint64_t *p)
{
  if (SYS) cuda::atomic_ref<uint64_t, cuda::thread_scope_system>(*p).fetch_add(1, cuda::memory_order_relaxed);
  else cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*p).fetch_add(1, cuda::memory_order_relaxed);
}
__device__ unsigned p_stuck;   /* waits given up (a bench must not hang) */
template <bool SYS> __device__ inline void p_wait(uint64_t *p, uint64_t v)
{
  for (unsigned k = 0; k < (1u << 24); k++)
    if ((SYS ? cuda::atomic_ref<uint64_t, cuda::thread_scope_system>(*p).load(cuda::memory_order_acquire)
             : cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*p).load(cuda::memory_order_acquire)) >= v)
      return;
  atomicAdd(&p_stuck, 1u);
}
template <bool SYS>
__global__ void __launch_bounds__(SHOAL_GPU_GRID_THREADS) k_proto(int which, const plan P, const void *src,
                                                                  size_t nbytes, unsigned long long *ts, int it)
{
  unsigned long long g[STAMPS];
  g[0] = gtimer();
  shoal_scope s = shoal_grid_scope(false);
  int np = P.np, me = P.me;
  size_t lane = s.lane;
  uint64_t *mine = P.mine + 2 * lane;
  __shared__ uint64_t e_sh;
  if (s.tid == 0) {
    e_sh = mine[1] + 1;
    mine[1] = e_sh + 1;   /* this call's two meetings */
  }
  __syncthreads();
  uint64_t e = e_sh;
  g[1] = gtimer();
  if (s.tid + 1 < (unsigned)np) p_add<SYS>(P.arr[s.tid] + 2 * lane);   /* fresh: no fence */
  if (s.tid == 0) p_wait<SYS>(mine, e * (uint64_t)(np - 1));
  __syncthreads();
  g[2] = gtimer();
  size_t lo, hi;
  shoal_scope_byte_share(&s, nbytes, &lo, &hi);
  if (which == 1) shoal_scope_push(&s, P.pd, np, me, (const char *)src, lo, hi);
  else shoal_scope_scatter(&s, P.pd, np, me, (const char *)src, nbytes, lo, hi);
  __syncthreads();
  g[3] = gtimer();
  if (s.tid + 1 < (unsigned)np) {
    p_fence<SYS>();
    p_add<SYS>(P.arr[s.tid] + 2 * lane);
  }
  if (s.tid == 0) p_wait<SYS>(mine, (e + 1) * (uint64_t)(np - 1));
  __syncthreads();
  g[4] = gtimer();
  if (s.tid == 0) {
    unsigned long long *o = ts + ((size_t)it * s.nlanes + s.lane) * STAMPS;
    for (int k = 0; k < STAMPS; k++) o[k] = g[k];
  }
}

/* The push into the receivers' staging buffers (NCCL's simple protocol):
 * no first meeting.  Each receiver has two halves of np blocks; call e
 * (the lane's meeting number, one meeting a call) writes half e & 1, slot
 * of the sender.  The half is free: the sender met the receiver's lane at
 * e - 1 after the receiver's lane copied half e & 1 out at e - 2.  My own
 * block goes straight to my dest; after the one meeting, each lane copies
 * its share of every peer's block out of my staging into dest. */
template <bool SYS>
__global__ void __launch_bounds__(SHOAL_GPU_GRID_THREADS) k_stage(int which, const plan P, const void *src,
                                                                  size_t nbytes, unsigned long long *ts, int it)
{
  unsigned long long g[STAMPS];
  g[0] = gtimer();
  shoal_scope s = shoal_grid_scope(false);
  int np = P.np, me = P.me;
  size_t lane = s.lane;
  uint64_t *mine = P.mine + 2 * lane;
  __shared__ uint64_t e_sh;
  __shared__ char *dst[8];
  if (s.tid == 0) {
    e_sh = mine[1] + 1;
    mine[1] = e_sh;
  }
  __syncthreads();
  uint64_t e = e_sh;
  size_t half = (size_t)(e & 1) * (size_t)np;
  if (s.tid < (unsigned)np)
    dst[s.tid] = (int)s.tid == me ? P.dest + (size_t)me * nbytes : P.ps[s.tid] + (half + (size_t)me) * nbytes;
  __syncthreads();
  g[1] = g[2] = gtimer();
  size_t lo, hi;
  shoal_scope_byte_share(&s, nbytes, &lo, &hi);
  if (which == 1) shoal_scope_push(&s, dst, np, me, (const char *)src, lo, hi);
  else shoal_scope_scatter(&s, dst, np, me, (const char *)src, nbytes, lo, hi);
  __syncthreads();
  g[3] = gtimer();
  if (s.tid + 1 < (unsigned)np) {
    p_fence<SYS>();
    p_add<SYS>(P.arr[s.tid] + 2 * lane);
  }
  if (s.tid == 0) p_wait<SYS>(mine, e * (uint64_t)(np - 1));
  __syncthreads();
  /* copy out: every peer's vectors loaded before any is stored */
  const uint4 *in = (const uint4 *)(P.stage + half * nbytes);
  uint4 *out = (uint4 *)P.dest;
  size_t nv = nbytes / 16;
  for (size_t i = lo / 16 + s.tid; i < hi / 16; i += s.nthreads) {
    uint4 x[8];
    for (int k = 1; k < np; k++) x[k] = in[(size_t)((me + k) % np) * nv + i];
    for (int k = 1; k < np; k++) out[(size_t)((me + k) % np) * nv + i] = x[k];
  }
  __syncthreads();
  g[4] = gtimer();
  if (s.tid == 0) {
    unsigned long long *o = ts + ((size_t)it * s.nlanes + s.lane) * STAMPS;
    for (int k = 0; k < STAMPS; k++) o[k] = g[k];
  }
}

/* The library's staged push (shoal_grid_move_staged, collectives/push.h:
 * shoal_push_staged) from the library's plan, stamped: the plan copied,
 * the stores, the meeting, the copy out, the count. */
__global__ void __launch_bounds__(SHOAL_GPU_GRID_THREADS) k_sparts(int which, const __grid_constant__ shoal_gpu_plan p,
                                                                   void *dest, const void *src, size_t nbytes,
                                                                   unsigned long long *ts, int it)
{
  unsigned long long g[STAMPS + 1];
  g[0] = gtimer();
  uint64_t count = *p.stage_calls;
  __shared__ char *pd[SHOAL_GPU_PLAN_PEERS];
  shoal_scope s = shoal_grid_scope(false);
  s.words_at = p.words_at;
  shoal_stage st = {p.stage_at, p.stage, p.stage_calls, p.stage_cap, count};
  shoal_team *t = const_cast<shoal_team *>(&p.team);
  const char *call = "sparts";
  int np = t->size, me = t->my_pe;
  size_t lo, hi, bytes = nbytes;
  size_t half = (size_t)(st.count >> 63) * (size_t)np;
  for (unsigned j = s.tid; j < (unsigned)np; j += s.nthreads)
    pd[j] = (int)j == me ? (char *)dest + (size_t)me * bytes : st.at[j] + (half + (size_t)me) * st.cap;
  shoal_scope_sync_lane(&s);
  g[1] = gtimer();
  shoal_scope_byte_share(&s, bytes, &lo, &hi);
  if (which == 1) shoal_scope_push(&s, pd, np, me, (const char *)src, lo, hi);
  else shoal_scope_scatter(&s, pd, np, me, (const char *)src, bytes, lo, hi);
  shoal_scope_sync_lane(&s);
  g[2] = gtimer();
  shoal_scope_meet_peers_spread(&s, t, true, true, call);
  shoal_scope_sync_lane(&s);
  g[3] = gtimer();
  shoal_scope_gather(&s, (char *)dest, bytes, st.mine + half * st.cap, st.cap, np, me, lo, hi);
  shoal_scope_sync_lane(&s);
  g[4] = gtimer();
  if (s.tid == 0) (void)shoal_scope_add_local(st.calls, shoal_scope_arrival(&s));
  g[5] = gtimer();
  if (s.tid == 0) {
    unsigned long long *o = ts + ((size_t)it * s.nlanes + s.lane) * STAMPS;
    o[0] = g[0];
    o[1] = g[1];
    o[2] = g[2];
    o[3] = g[3];
    o[4] = g[4];
  }
}

__global__ void k_empty(void) {}

static double med(std::vector<double> v);
/* per block: start (lookups), enter, push, leave; per call: the gap from
 * the last block's end to the next call's first start; dumped to
 * $BENCH_DUMP-name-bytes-variant.PE */
static void stamps(unsigned long long *ts, int iters, int nb, std::vector<double> *v, const char *dump, int me,
                   int which, size_t bytes, int k)
{
  std::vector<unsigned long long> h((size_t)STAMPS * iters * nb);
  CK(cudaMemcpy(h.data(), ts, sizeof(unsigned long long) * h.size(), cudaMemcpyDeviceToHost));
  unsigned long long prev_last = 0;
  for (int i = 0; i < iters; i++) {
    unsigned long long first = ~0ull, last = 0;
    for (int b = 0; b < nb; b++) {
      const unsigned long long *o = &h[((size_t)i * nb + b) * STAMPS];
      for (int s = 0; s < 4; s++) v[s].push_back((double)(o[s + 1] - o[s]));
      first = std::min(first, o[0]);
      last = std::max(last, o[4]);
    }
    if (i) v[4].push_back((double)first - (double)prev_last);
    prev_last = last;
  }
  if (!dump) return;
  char fn[512];
  snprintf(fn, sizeof fn, "%s-%s-%zu-%s.%d", dump, which == 1 ? "fcollect" : "alltoall", bytes,
           k == 1 ? "parts" : k == 4 ? "sys" : k == 5 ? "gpu" : k == 6 ? "stage-gpu" : k == 7 ? "stage-sys" : "sparts", me);
  FILE *f = fopen(fn, "w");
  if (!f) return;
  for (int i = 0; i < iters; i++)
    for (int b = 0; b < nb; b++) {
      const unsigned long long *o = &h[((size_t)i * nb + b) * STAMPS];
      fprintf(f, "%d,%d,%llu,%llu,%llu,%llu,%llu\n", i, b, o[0], o[1], o[2], o[3], o[4]);
    }
  fclose(f);
}

static double med(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int main(int argc, char **argv)
{
  bench_init("/tmp/nvshmem_uid_push_parts.bin");
  int me = MY_PE(), np = N_PES();
  int iters = argc > 1 ? atoi(argv[1]) : 1000;
  std::vector<size_t> sizes;
  for (int a = 2; a < argc; a++) sizes.push_back(strtoull(argv[a], 0, 0));
  if (sizes.empty()) sizes = {256u << 10, 512u << 10, 1u << 20, 4u << 20};
  /* whole vectors a member, as bench_grid's floats; BENCH_EXACT=1: the
   * sizes as given (a member's block of any byte count) */
  const char *exact = getenv("BENCH_EXACT");
  if (!exact || strcmp(exact, "1"))
    for (size_t &b : sizes) b -= b % (16 * (size_t)np);
  const char *dump = getenv("BENCH_DUMP");
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  size_t maxb = *std::max_element(sizes.begin(), sizes.end());
  char *dst = (char *)MALLOC(maxb), *src = (char *)MALLOC(maxb), *stage = (char *)MALLOC(2 * maxb);
  /* byte i of PE p's source: pat(p, i); the protos' results are checked */
  auto pat = [](int p, size_t i) { return (char)((size_t)p * 131 + i * 7 + (i >> 9)); };
  std::vector<char> hsrc(maxb), hdst(maxb);
  for (size_t i = 0; i < maxb; i++) hsrc[i] = pat(me, i);
  CK(cudaMemcpy(src, hsrc.data(), maxb, cudaMemcpyHostToDevice));
  int maxblocks = shmemx_grid_max_blocks(k_parts, SHOAL_GPU_GRID_THREADS, 0);
  unsigned long long *ts;
  CK(cudaMalloc((void **)&ts, sizeof(unsigned long long) * STAMPS * (size_t)iters * maxblocks));
  CK(cudaDeviceSynchronize());
  if (me == 0) printf("%d PEs; parts: at most %d blocks of %d threads\n", np, maxblocks, SHOAL_GPU_GRID_THREADS);
  for (size_t bytes : sizes)
    for (int which = 1; which <= 2; which++) {
      size_t block = bytes / (size_t)np;
      int nb = shoal_gpu_stream_grid<shoal_gpu_k_move_grid<>>(SHOAL_GPU_GRID_THREADS, block,
                                                              SHOAL_GPU_MOVE_BLOCK_BYTES);
      if (nb > maxblocks) nb = maxblocks;
      plan hp, *dplan;
      CK(cudaMalloc((void **)&dplan, sizeof hp));
      k_plan<<<1, 1>>>(dplan, dst, (size_t)me * block, stage);
      CK(cudaMemcpy(&hp, dplan, sizeof hp, cudaMemcpyDeviceToHost));
      CK(cudaFree(dplan));
      bool one_gpu = shmem_team_n_pes(SHMEM_TEAM_SHARED) == np && shoalx_gpu_shared();
      const int K = 9;
      float ms[K];
      std::vector<double> v[6][5];
      const int vix[K] = {-1, 0, -1, -1, 1, 2, 3, 4, 5};
      shoal_gpu_plan sp;
      bool sp_ok = shoalx_gpu_team_plan(SHMEM_TEAM_WORLD, dst, &sp) && sp.stage_cap >= block && which != 0;
      bool vec = block % 16 == 0;   /* the protos copy whole vectors */
      for (int k = 0; k < K; k++) {
        if (((k == 5 || k == 6) && !one_gpu) || (k >= 4 && !vec) || (k == 8 && !sp_ok)) { ms[k] = 0; continue; }
        for (int round = 0; round < 2; round++) {   /* warm-up, timed */
          shmem_barrier_all();
          CK(cudaEventRecord(e0, st));
          for (int i = 0; i < iters; i++) {
            if (k == 0) shoal_gpu_move_on_stream("lib", which, SHMEM_TEAM_WORLD, dst, src, block, 0, st);
            else if (k == 1) k_parts<<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>(which, dst, src, block, ts, i);
            else if (k == 2) k_empty<<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>();
            else if (k == 3) shmemx_barrier_all_on_stream(st);
            else if (k == 4) k_proto<true><<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>(which, hp, src, block, ts, i);
            else if (k == 5) k_proto<false><<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>(which, hp, src, block, ts, i);
            else if (k == 6) k_stage<false><<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>(which, hp, src, block, ts, i);
            else if (k == 7) k_stage<true><<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>(which, hp, src, block, ts, i);
            else k_sparts<<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>(which, sp, dst, src, block, ts, i);
          }
          CK(cudaEventRecord(e1, st));
          CK(cudaEventSynchronize(e1));
          CK(cudaGetLastError());
          CK(cudaEventElapsedTime(&ms[k], e0, e1));
        }
        if (vix[k] >= 0) stamps(ts, iters, nb, v[vix[k]], dump, me, which, bytes, k);
        if (k >= 4 && k < 8) {   /* the protos' result, checked against the library's */
          CK(cudaMemset(dst, 0xEE, np * block));
          shmem_barrier_all();
          if (k == 4) k_proto<true><<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>(which, hp, src, block, ts, 0);
          else if (k == 5) k_proto<false><<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>(which, hp, src, block, ts, 0);
          else if (k == 6) k_stage<false><<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>(which, hp, src, block, ts, 0);
          else k_stage<true><<<nb, SHOAL_GPU_GRID_THREADS, 0, st>>>(which, hp, src, block, ts, 0);
          CK(cudaStreamSynchronize(st));
          shmem_barrier_all();
          CK(cudaMemcpy(hdst.data(), dst, np * block, cudaMemcpyDeviceToHost));
          size_t bad = 0;
          for (size_t i = 0; i < np * block; i++) {
            int q = (int)(i / block);
            bad += hdst[i] != pat(q, (which == 1 ? 0 : (size_t)me * block) + i % block);
          }
          if (bad) printf("PE %d: variant %d: %zu bytes wrong\n", me, k, bad);
        }
      }
      const char *name = which == 1 ? "fcollect" : "alltoall";
      /* what the library's own call takes at this size (it may not be the push) */
      int launch = shoal_move_select_launch(which, block, true, shoalx_gpu_team_ll_slot(SHMEM_TEAM_WORLD),
                                            shoalx_gpu_team_ll_span(SHMEM_TEAM_WORLD),
                                            shoal_move_ll_stream_max(shoal_gpu_stream_ll_max(np), shoalx_gpu_shared() != 0, np),
                                            np, shoal_gpu_stream_knob(0));
      shoal_gpu_plan lp;
      bool staged = shoalx_gpu_team_plan(SHMEM_TEAM_WORLD, dst, &lp) && shoal_move_staged(which, launch, block, lp.stage_cap);
      const char *how = staged ? "staged" : launch == SHOAL_REDUCE_LAUNCH_GRID ? "push" : launch == SHOAL_REDUCE_LAUNCH_LL_GRID ? "LL" : "block";
      printf("PE %d/%d %-8s %8zu B, %2d blocks: us/call lib(%s) %6.2f parts %6.2f empty %6.2f sync %6.2f proto-sys %6.2f proto-gpu %6.2f stage-gpu %6.2f stage-sys %6.2f sparts %6.2f\n",
             me, np, name, bytes, nb, how, ms[0] * 1e3 / iters, ms[1] * 1e3 / iters, ms[2] * 1e3 / iters,
             ms[3] * 1e3 / iters, ms[4] * 1e3 / iters, ms[5] * 1e3 / iters, ms[6] * 1e3 / iters, ms[7] * 1e3 / iters,
             ms[8] * 1e3 / iters);
      const char *vname[6] = {"parts", "proto-sys", "proto-gpu", "stage-gpu", "stage-sys", "sparts"};
      for (int k = 0; k < 6; k++)
        if (!v[k][0].empty())
          printf("PE %d/%d %-8s %8zu B %-9s median ns: start %5.0f enter %5.0f push %5.0f leave %5.0f gap %5.0f\n", me, np,
                 name, bytes, vname[k], med(v[k][0]), med(v[k][1]), med(v[k][2]), med(v[k][3]), med(v[k][4]));
      fflush(stdout);
      shmem_barrier_all();
    }
  unsigned stuck = 0;
  CK(cudaMemcpyFromSymbol(&stuck, p_stuck, sizeof stuck));
  if (stuck) printf("PE %d: %u proto waits gave up\n", me, stuck);
  CK(cudaFree(ts));
  bench_finalize();
  return 0;
}
