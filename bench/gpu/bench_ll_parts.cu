/* Where the one-block LL kernel's time goes (Shoal only): the _on_stream
 * fcollect and alltoall that take shoal_gpu_k_move_ll (collectives/ll.h at
 * block scope), step by step, and variants of its order.  Back-to-back
 * launches (each through shoal_gpu_launch, as the library's) of:
 *   lib     shmemx_fcollectmem_on_stream / shmemx_alltoallmem_on_stream;
 *   base    ll.h's steps inline: open (the call's rings and number),
 *           puts, gets, close;
 *   twice   base's steps twice in one kernel, each stamped: the second
 *           call runs warm (its code, the record, the count just
 *           touched), so what the first spends on top is the cost of
 *           a kernel's first pass over them;
 *   release base letting the next kernel be scheduled once the lane's
 *           gets are done (collectives/scope.h: shoal_scope_release_next),
 *           whatever the team size (the library: one block on teams of
 *           up to SHOAL_GPU_LL_RELEASE_PES); its gap is negative where the
 *           next kernel starts before this one's count is done;
 *   empty   an empty kernel waiting at entry as the library's (PDL);
 *   sync    shmemx_barrier_all_on_stream;
 *   grid    the library's LL grid kernel (shoal_gpu_k_move_ll<true>) on
 *           the blocks and threads the host would give it, at sizes
 *           where the one-block kernel is the library's choice;
 *   grid1   the same grid kernel on one block: the grid protocol's own
 *           cost (the last lane's arrival) without more blocks;
 *   ideal   a bare LL kernel, the least an LL call can be: ll.h's
 *           protocol (a call number, two halves, no credits) with the
 *           peer slots looked up on the host (shmem_ptr) and passed by
 *           value, on a box of its own, the library's thread count;
 *   idealr  ideal letting the next kernel be scheduled once its gets are
 *           done (as the library's one-block kernel does);
 *   ibar    a bare barrier: one relaxed store a peer of the epoch, then
 *           a wait for each peer's (32 threads);
 *   idptr   ideal finding each peer's slots as the library does: the
 *           team record by value, the peer's mapping from the heap table
 *           (shoal_dev_ptr);
 *   idsh    idptr with the slots found by a thread per pair into shared
 *           memory before the block meets (the library's lane).
 * ideal and ibar say how far the library's kernels are from a floor of
 * one kernel a call.  (Session 44-48's variants of the pair protocol
 * before session 51's -- early, batch, both, plan, pre, pre0 -- went with
 * it; bench/RESULTS.md keeps their figures.)
 * Each variant is timed without stamps (us per call), then again with
 * thread 0 stamping %globaltimer after each step (and the block's last
 * get): the medians per step, the gap between one kernel's end and the
 * next one's start, and -- where the PEs share the GPU, whose
 * %globaltimer is one clock -- the start skew between PEs and how long
 * after the last peer's puts a PE's gets were done (PE 0 reads every PE's
 * stamps from /tmp).  base, twice and release use the team's LL box and
 * call count as the library does, so they interleave with it; each one's result is
 * checked, every word.  BENCH_GRAPH=1 times one replay of a CUDA graph of
 * the calls instead of the stream.
 *   bench_ll_parts [iters (default 1000)] [dest bytes per PE ...] */
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

#define STAMPS 10  /* entry, after the PDL wait, then per call: after open, puts issued, the block's last get, after close */
#define R 2        /* the variants' words per thread per peer, held in registers */
#define P 8        /* at most this many PEs */

enum { V_BASE = 1, V_RELEASE, V_TWICE };
#define NK 13   /* lib, the three variants, empty, sync, grid, grid1, ideal, idealr, ibar, idptr, idsh */
enum { K_EMPTY = 4, K_SYNC, K_GRID, K_GRID1, K_IDEAL, K_IDEALR, K_IBAR, K_IDPTR, K_IDSH };
/* the variants with stamps, and the stamps each writes */
static bool stamped(int k) { return (k >= V_BASE && k <= V_TWICE) || k == K_IDEAL || k == K_IDPTR || k == K_IDSH; }
static int nstamps(int k) { return k == V_TWICE ? 10 : 6; }

/* A thread's source words for its first R indices: w[r][k] goes to team
 * PE me + k (fcollect: w[r][0], mine, to everyone). */
__device__ inline void src_words(uint32_t (&w)[R][P], const uint32_t *in, bool a2a, int np, int me, size_t nw,
                                 size_t first, size_t hi, unsigned nt)
{
#pragma unroll
  for (int r = 0; r < R; r++) {
    size_t i = first + (size_t)r * nt;
#pragma unroll
    for (int k = 0; k < P; k++)
      if (i < hi && k < np && (k == 0 || a2a)) w[r][k] = in[(a2a ? (size_t)((me + k) % np) * nw : 0) + i];
  }
}

template <int V, bool STAMP>
__global__ void __launch_bounds__(SHOAL_GPU_LAUNCH_THREADS) k_ll(int which, SHOAL_GRID_TEAM_PARAM rec, void *dest,
                                                                const void *src, size_t nbytes,
                                                                unsigned long long *ts, int it)
{
  unsigned long long g[STAMPS];
  __shared__ unsigned long long last_get;
  if (STAMP) g[0] = gtimer();
  shoal_gpu_pdl_wait();
  if (STAMP) g[1] = gtimer();
  shoal_team *t = shoal_grid_record(rec);
  __shared__ shoal_ll ll;
  shoal_scope s = shoal_gpu_ll_scope<false, shoal_gpu_block_scope>(t);
  const bool a2a = which == 2;
  const uint32_t *in = (const uint32_t *)src;
  uint32_t *out = (uint32_t *)dest;
  int np = t->size, me = t->my_pe;
  unsigned nt = s.nthreads;
  size_t nw = nbytes / 4, lo = 0, hi = nw;
  uint32_t w[R][P];
  const int calls = V == V_TWICE ? 2 : 1;
  for (int c = 0; c < calls; c++) {
  unsigned long long *gc = g + 4 * c;   /* this call's stamps: gc[2..5] */
  if (STAMP && s.tid == 0) last_get = 0;
  s.ends_kernel = V == V_RELEASE;
  uint64_t arrived = shoal_ll_open(&s, t, &ll, "ll_parts");
  if (STAMP) gc[2] = gtimer();
  src_words(w, in, a2a, np, me, nw, lo + s.tid, hi, nt);
#pragma unroll
  for (int r = 0; r < R; r++) {
    size_t i = lo + s.tid + (size_t)r * nt;
    if (i >= hi) continue;
#pragma unroll
    for (int k = 1; k < P; k++)
      if (k < np) shoal_ll_put(&ll, (me + k) % np, i, a2a ? w[r][k] : w[r][0]);
    out[(size_t)me * nw + i] = w[r][0];
  }
  if (STAMP) gc[3] = gtimer();
  for (int k = 1; k < np; k++) {
    int q = (me + k) % np;
#pragma unroll
    for (int r = 0; r < R; r++) {
      size_t i = lo + s.tid + (size_t)r * nt;
      if (i < hi) out[(size_t)q * nw + i] = shoal_ll_get(&ll, q, i);
    }
  }
  if (STAMP) {
    atomicMax(&last_get, gtimer());
    __syncthreads();
    gc[4] = last_get;
  }
  shoal_ll_close(&s, t, &ll, arrived, "ll_parts");
  if (STAMP) gc[5] = gtimer();
  if (STAMP) __syncthreads();   /* last_get read before the next call resets it */
  }
  if (STAMP && s.tid == 0)
    for (int k = 0; k < 2 + 4 * calls; k++) ts[(size_t)it * STAMPS + k] = g[k];
}

__global__ void __launch_bounds__(SHOAL_GPU_LAUNCH_THREADS) k_empty(void) { shoal_gpu_pdl_wait(); }

/* ideal, idealr and ibar (the header): box[2][np][words] on each PE, the
 * peers' boxes as mapped here; epoch: this PE's count of calls, in its
 * own device memory (the next kernel reads it after the PDL wait). */
struct ideal_box {
  uint64_t *peer[P];
  uint64_t *box;
  unsigned *epoch;
  int me, np;
};
/* ADDR: how a thread finds the slots -- 0 the pointers passed by value;
 * 1 as the library does (the team record by value, each peer's mapping
 * of the box from the heap table, shoal_dev_ptr); 2 as 1, found by a
 * thread per pair into shared memory, then the block meets (the library's
 * lane).  STAMP: thread 0 stamps %globaltimer as k_ll does. */
template <bool RELEASE, bool STAMP, int ADDR>
__global__ void __launch_bounds__(SHOAL_GPU_LAUNCH_THREADS) k_ideal(const __grid_constant__ ideal_box d,
                                                                    SHOAL_GRID_TEAM_PARAM rec, int which,
                                                                    uint32_t *out, const uint32_t *in, size_t nw,
                                                                    unsigned long long *ts, int it)
{
  unsigned long long g[6];
  __shared__ unsigned long long last_get;
  __shared__ uint64_t *sh_out[P];
  if (STAMP) g[0] = gtimer();
  shoal_gpu_pdl_wait();
  if (STAMP) g[1] = gtimer();
  if (STAMP && threadIdx.x == 0) last_get = 0;
  const unsigned e = *(volatile unsigned *)d.epoch + 1;
  int me = d.me, np = d.np;
  shoal_team *t = ADDR ? shoal_grid_record(rec) : NULL;
  if (ADDR) me = t->my_pe, np = t->size;
  const bool a2a = which == 2;
  const size_t slot = (size_t)(e & 1) * (size_t)np * nw;
  if (ADDR == 2) {
    for (unsigned j = threadIdx.x; j + 1 < (unsigned)np; j += blockDim.x) {
      int q = shoal_ll_pair(me, j, np);
      sh_out[q] = (uint64_t *)shoal_dev_ptr(d.box, shoal_team_world_pe(t, q)) + slot + (size_t)me * nw;
    }
    __syncthreads();
  }
  if (STAMP) {
    if (e == 0) __trap();   /* the epoch's load done before the stamp */
    g[2] = gtimer();
  }
  for (size_t i = threadIdx.x; i < nw; i += blockDim.x) {
    uint32_t w[P];
    w[0] = in[(a2a ? (size_t)me * nw : 0) + i];
#pragma unroll
    for (int k = 1; k < P; k++)
      if (k < np) w[k] = a2a ? in[(size_t)(me + k < np ? me + k : me + k - np) * nw + i] : w[0];
#pragma unroll
    for (int k = 1; k < P; k++)
      if (k < np) {
        int q = me + k < np ? me + k : me + k - np;
        uint64_t *o = ADDR == 0   ? d.peer[q] + slot + (size_t)me * nw
                      : ADDR == 1 ? (uint64_t *)shoal_dev_ptr(d.box, shoal_team_world_pe(t, q)) + slot + (size_t)me * nw
                                  : sh_out[q];
        shoal_store_relaxed(o + i, (uint64_t)e << 32 | w[k]);
      }
    out[(size_t)me * nw + i] = w[0];
  }
  if (STAMP) g[3] = gtimer();
  for (size_t i = threadIdx.x; i < nw; i += blockDim.x) {
    uint64_t v[P];
    unsigned use = 0;
#pragma unroll
    for (int k = 1; k < P; k++)
      if (k < np) use |= 1u << k;
    while (use) {   /* every missing word loaded before any flag is looked at */
#pragma unroll
      for (int k = 1; k < P; k++) {
        int q = me - k < 0 ? me - k + np : me - k;
        if (use >> k & 1) v[k] = shoal_load_relaxed(d.box + slot + (size_t)q * nw + i);
      }
#pragma unroll
      for (int k = 1; k < P; k++) {
        int q = me - k < 0 ? me - k + np : me - k;
        if ((use >> k & 1) && (unsigned)(v[k] >> 32) == e) {
          out[(size_t)q * nw + i] = (uint32_t)v[k];
          use &= ~(1u << k);
        }
      }
    }
  }
  if (STAMP) atomicMax(&last_get, gtimer());
  if (RELEASE) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) *d.epoch = e;
  if (STAMP && threadIdx.x == 0) {
    g[4] = last_get;
    g[5] = gtimer();
    for (int k = 0; k < 6; k++) ts[(size_t)it * STAMPS + k] = g[k];
  }
}
/* flags[np] on each PE: flag q is PE q's last arrival */
__global__ void __launch_bounds__(32) k_ibar(const __grid_constant__ ideal_box d)
{
  shoal_gpu_pdl_wait();
  const unsigned e = *(volatile unsigned *)d.epoch + 1;
  const int me = d.me, np = d.np;
  unsigned j = threadIdx.x;
  if (j + 1 < (unsigned)np) {
    int q = me + 1 + (int)j < np ? me + 1 + (int)j : me + 1 + (int)j - np;
    shoal_store_relaxed(d.peer[q] + me, (uint64_t)e);
    while (shoal_load_relaxed(d.box + q) < (uint64_t)e) {}
  }
  __syncthreads();
  if (threadIdx.x == 0) *d.epoch = e;
}
static ideal_box ibox, ibar_box;

static int me, np, use_graph;
static cudaStream_t st;
static cudaEvent_t e0, e1;

/* k: 0 lib, 1-3 the variants, then K_EMPTY ... K_IDSH */
static void enqueue(int k, bool stamp, int which, const shoal_team &rec, void *dst, const void *src, size_t block,
                    unsigned long long *ts, int i)
{
#define L(V) (stamp ? shoal_gpu_launch(k_ll<V, true>, 1, SHOAL_GPU_LAUNCH_THREADS, 0, st, which, rec, dst, src, block, ts, i) \
                    : shoal_gpu_launch(k_ll<V, false>, 1, SHOAL_GPU_LAUNCH_THREADS, 0, st, which, rec, dst, src, block, ts, i))
  switch (k) {
  case 0:
    if (which == 1) shmemx_fcollectmem_on_stream(SHMEM_TEAM_WORLD, dst, src, block, st);
    else shmemx_alltoallmem_on_stream(SHMEM_TEAM_WORLD, dst, src, block, st);
    break;
  case V_BASE: L(V_BASE); break;
  case V_RELEASE: L(V_RELEASE); break;
  case V_TWICE: L(V_TWICE); break;
  case K_EMPTY: shoal_gpu_launch(k_empty, 1, SHOAL_GPU_LAUNCH_THREADS, 0, st); break;
  case K_SYNC: shmemx_barrier_all_on_stream(st); break;
#define LI(R, A) (stamp ? shoal_gpu_launch(k_ideal<R, true, A>, 1, shoal_gpu_ll_threads(block), 0, st, ibox, rec, which, \
                                           (uint32_t *)dst, (const uint32_t *)src, block / 4, ts, i)                    \
                     : shoal_gpu_launch(k_ideal<R, false, A>, 1, shoal_gpu_ll_threads(block), 0, st, ibox, rec, which, \
                                        (uint32_t *)dst, (const uint32_t *)src, block / 4, ts, i))
  case K_IDEAL: LI(false, 0); break;
  case K_IDEALR: LI(true, 0); break;
  case K_IDPTR: LI(false, 1); break;
  case K_IDSH: LI(false, 2); break;
#undef LI
  case K_IBAR: shoal_gpu_launch(k_ibar, 1, 32, 0, st, ibar_box); break;
  default: {   /* the library's grid kernel, on the host's blocks or one */
    int blocks = k == K_GRID1 ? 1 : shoal_gpu_ll_blocks<shoal_gpu_k_move_ll<true>>(block, block);
    shoal_gpu_launch(shoal_gpu_k_move_ll<true>, blocks, shoal_gpu_ll_grid_threads(block, blocks), 0, st, which, rec, dst,
                     src, block, 0);
  }
  }
#undef L
}

/* us per call: the median of three timed rounds after a warm-up */
static float time_calls(int k, bool stamp, int which, const shoal_team &rec, void *dst, const void *src, size_t block,
                        unsigned long long *ts, int iters)
{
  float ms[3];
  for (int w = 0; w <= 3; w++) {
    cudaGraphExec_t exec = 0;
    if (use_graph) {
      cudaGraph_t g;
      CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
      for (int i = 0; i < iters; i++) enqueue(k, stamp, which, rec, dst, src, block, ts, i);
      CK(cudaStreamEndCapture(st, &g));
      CK(cudaGraphInstantiate(&exec, g, 0));
      CK(cudaGraphDestroy(g));
      CK(cudaGraphUpload(exec, st));
      CK(cudaStreamSynchronize(st));
    }
    shmem_barrier_all();
    CK(cudaEventRecord(e0, st));
    if (use_graph) CK(cudaGraphLaunch(exec, st));
    else
      for (int i = 0; i < iters; i++) enqueue(k, stamp, which, rec, dst, src, block, ts, i);
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float m;
    CK(cudaEventElapsedTime(&m, e0, e1));
    if (exec) CK(cudaGraphExecDestroy(exec));
    if (w) ms[w - 1] = m * 1e3f / (float)iters;
  }
  return median3(ms);
}

static double med(std::vector<double> v)
{
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv)
{
  bench_init("");
  me = MY_PE();
  np = N_PES();
  int iters = argc > 1 ? atoi(argv[1]) : 1000;
  std::vector<size_t> sizes;
  for (int a = 2; a < argc; a++) sizes.push_back(strtoull(argv[a], 0, 0));
  if (sizes.empty()) sizes = {4096, 8192, 16384};
  const char *g = getenv("BENCH_GRAPH");
  use_graph = g && !strcmp(g, "1");
  if (np > P) {
    if (me == 0) fprintf(stderr, "bench_ll_parts: at most %d PEs\n", P);
    return 1;
  }
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  size_t maxb = *std::max_element(sizes.begin(), sizes.end());
  uint32_t *dst = (uint32_t *)shmem_malloc(maxb), *src = (uint32_t *)shmem_malloc(maxb);
  /* word i of PE p's source: pat(p, i), fresh for each size */
  auto pat = [](int p, size_t i, size_t salt) { return (uint32_t)(p * 0x9E3779B1u ^ (uint32_t)(i * 2654435761u) ^ (uint32_t)salt); };
  std::vector<uint32_t> hsrc(maxb / 4), hdst(maxb / 4);
  unsigned long long *ts;
  CK(cudaMalloc((void **)&ts, sizeof(unsigned long long) * STAMPS * (size_t)iters));
  std::vector<unsigned long long> hts((size_t)STAMPS * iters), all((size_t)STAMPS * iters * np);
  shoal_team rec;
  if (!shoalx_gpu_team_record(SHMEM_TEAM_WORLD, &rec)) {
    fprintf(stderr, "bench_ll_parts: no team record\n");
    return 1;
  }
  bool one_gpu = shmem_team_n_pes(SHMEM_TEAM_SHARED) == np && shoalx_gpu_shared();
  const char *kn[NK] = {"lib",  "base",   "release", "twice", "empty", "sync", "grid",
                        "grid1", "ideal", "idealr", "ibar", "idptr", "idsh"};
  /* the bare kernels' boxes (the header): zeroed, so no stale flag matches */
  for (ideal_box *b : {&ibox, &ibar_box}) {
    size_t n = b == &ibox ? 2 * (size_t)np * (maxb / 4) : (size_t)np;
    b->box = (uint64_t *)shmem_malloc(n * 8);
    CK(cudaMemset(b->box, 0, n * 8));
    CK(cudaMalloc((void **)&b->epoch, sizeof(unsigned)));
    CK(cudaMemset(b->epoch, 0, sizeof(unsigned)));
    for (int p = 0; p < np; p++) b->peer[p] = (uint64_t *)shmem_ptr(b->box, p);
    b->me = me, b->np = np;
  }
  CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  if (me == 0)
    printf("%d PEs, %s; us per call (stamped: +stamps); steps: median ns (wait: pdl wait, open, puts, gets, close, gap; "
           "skew, arrive = last get - last peer's puts)\n", np, use_graph ? "graph replay" : "stream");
  int salt = 0;
  for (size_t bytes : sizes)
    for (int which = 1; which <= 2; which++) {
      size_t block = (bytes / (size_t)np) & ~(size_t)3, nw = block / 4;
      if (!block) continue;
      int launch = shoal_move_select_launch(which, block, true, shoalx_gpu_team_ll_slot(SHMEM_TEAM_WORLD),
                                            shoalx_gpu_team_ll_span(SHMEM_TEAM_WORLD),
                                            shoal_move_ll_stream_max(shoal_gpu_stream_ll_max(np), shoalx_gpu_shared() != 0, np),
                                            np, shoal_gpu_stream_knob(0));
      bool fits = launch == SHOAL_REDUCE_LAUNCH_LL && nw <= (size_t)R * SHOAL_GPU_LAUNCH_THREADS;
      const char *name = which == 1 ? "fcollect" : "alltoall";
      if (!fits) {
        if (me == 0) printf("%s %zu B: not the one-block LL kernel's size, skipped\n", name, bytes);
        continue;
      }
      for (int k = 0; k < NK; k++) {
        float us = time_calls(k, false, which, rec, dst, src, block, ts, iters);
        float us_st = stamped(k) ? time_calls(k, true, which, rec, dst, src, block, ts, iters) : 0;
        /* the result, fresh data, the dest poisoned */
        size_t bad = 0;
        if (k != K_EMPTY && k != K_SYNC && k != K_IBAR) {
          salt++;
          for (size_t i = 0; i < (which == 1 ? nw : nw * np); i++) hsrc[i] = pat(me, i, salt);
          CK(cudaMemcpy(src, hsrc.data(), (which == 1 ? nw : nw * np) * 4, cudaMemcpyHostToDevice));
          CK(cudaMemset(dst, 0xEE, nw * np * 4));
          CK(cudaDeviceSynchronize());
          shmem_barrier_all();
          enqueue(k, false, which, rec, dst, src, block, ts, 0);
          CK(cudaStreamSynchronize(st));
          shmem_barrier_all();
          CK(cudaMemcpy(hdst.data(), dst, nw * np * 4, cudaMemcpyDeviceToHost));
          for (size_t i = 0; i < nw * np; i++) {
            int q = (int)(i / nw);
            bad += hdst[i] != pat(q, (which == 1 ? 0 : (size_t)me * nw) + i % nw, salt);
          }
          if (bad) printf("PE %d: %s %zu B %s: %zu words wrong\n", me, name, bytes, kn[k], bad);
        }
        /* the stamped round's steps (ts holds its last timed round: the
         * check above wrote none) */
        /* steps: the PDL wait, then open, puts, gets, close of each call,
         * then the gap to the next kernel */
        double st_med[STAMPS] = {0}, skew = 0, arrive = 0;
        const int ns = nstamps(k), last = ns - 1;
        if (stamped(k)) {
          CK(cudaMemcpy(hts.data(), ts, sizeof(unsigned long long) * hts.size(), cudaMemcpyDeviceToHost));
          std::vector<double> v[STAMPS];
          for (int i = 0; i < iters; i++) {
            const unsigned long long *o = &hts[(size_t)i * STAMPS];
            for (int j = 0; j < last; j++) v[j].push_back((double)(o[j + 1] - o[j]));
            if (i) v[last].push_back((double)o[0] - (double)hts[(size_t)(i - 1) * STAMPS + last]);
          }
          for (int j = 0; j < ns; j++) st_med[j] = med(v[j]);
          if (one_gpu) {
            char fn[256];
            snprintf(fn, sizeof fn, "/tmp/ll_parts.%d", me);
            FILE *f = fopen(fn, "wb");
            fwrite(hts.data(), sizeof(unsigned long long), hts.size(), f);
            fclose(f);
            shmem_barrier_all();
            if (me == 0) {
              for (int p = 0; p < np; p++) {
                snprintf(fn, sizeof fn, "/tmp/ll_parts.%d", p);
                f = fopen(fn, "rb");
                if (!f || fread(&all[(size_t)p * STAMPS * iters], sizeof(unsigned long long), hts.size(), f) != hts.size())
                  fprintf(stderr, "bench_ll_parts: %s unreadable\n", fn);
                if (f) fclose(f);
              }
              std::vector<double> vs, va;
              for (int i = 0; i < iters; i++) {
                unsigned long long lo0 = ~0ull, hi0 = 0;
                for (int p = 0; p < np; p++) {
                  const unsigned long long *o = &all[((size_t)p * iters + i) * STAMPS];
                  lo0 = std::min(lo0, o[0]);
                  hi0 = std::max(hi0, o[0]);
                  unsigned long long puts = 0;
                  for (int q = 0; q < np; q++)
                    if (q != p) puts = std::max(puts, all[((size_t)q * iters + i) * STAMPS + 3]);
                  va.push_back((double)o[4] - (double)puts);
                }
                vs.push_back((double)(hi0 - lo0));
              }
              skew = med(vs);
              arrive = med(va);
            }
            shmem_barrier_all();
          }
        }
        if (me == 0) {
          printf("%-8s %6zu B %-7s %6.2f us", name, bytes, kn[k], us);
          if (stamped(k)) {
            printf("  +stamps %6.2f | wait %5.0f open %5.0f puts %5.0f gets %5.0f close %5.0f", us_st, st_med[0],
                   st_med[1], st_med[2], st_med[3], st_med[4]);
            if (k == V_TWICE)
              printf(" | 2nd: open %5.0f puts %5.0f gets %5.0f close %5.0f", st_med[5], st_med[6], st_med[7], st_med[8]);
            printf(" gap %5.0f | skew %5.0f arrive %5.0f", st_med[last], skew, arrive);
          }
          printf("%s\n", bad ? "  WRONG" : "");
          fflush(stdout);
        }
      }
    }
  shmem_finalize();
  return 0;
}
