/* What a kernel's first pass over its code and data costs (no Shoal code):
 * in a CUDA graph of back-to-back launches of one kernel, as the library's
 * _on_stream calls run, thread 0 stamps %globaltimer around
 *   chain   four dependent loads of words the previous kernel wrote (a
 *           pair counter's chain: counter, slot, base, bound),
 *   code    a straight run of CODE_OPS integer steps (three instructions
 *           each, 16 bytes an instruction, no loads),
 *   const   a load from __constant__ memory indexed by a kernel argument
 *           (shoal_dev_ptr's peer table),
 * each done twice in one kernel, back to back: the second pass runs on
 * what the first brought into the SM (instruction cache, L1, TLB), so the
 * first pass's extra time is the cold cost each launch pays.  Then
 * k_probe: one load of each kind, each dependent on the one before and
 * stamped once its value is in -- a field of a 392-byte __grid_constant__
 * record (the team record's size) and another in the same line, a word
 * of __constant__ memory and another beside it, a global word the
 * previous launch wrote and the next one, a __constant__ word in another
 * line -- without and with PDL (griddepcontrol.wait at entry, as the
 * library's kernels).
 *   bench_cold [launches (default 1000)]
 * Prints median ns per step over the launches of one graph replay. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CODE_OPS 256
#define NST 8

__constant__ uint64_t peer_base[64];

__device__ __forceinline__ unsigned long long gtimer(void)
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
  return t;
}

/* four dependent loads: p[0] holds an index into p, and so on */
__device__ __forceinline__ uint64_t chain(const volatile uint64_t *p, uint64_t start)
{
  uint64_t i = start;
#pragma unroll
  for (int k = 0; k < 4; k++) i = p[i];
  return i;
}

/* a straight run of CODE_OPS steps in 8 independent chains, each step a
 * shift, xor and multiply the compiler cannot fold into the next */
__device__ __forceinline__ uint32_t code_run(uint32_t x)
{
  uint32_t a[8];
#pragma unroll
  for (int j = 0; j < 8; j++) a[j] = x + j;
#pragma unroll
  for (int k = 0; k < CODE_OPS / 8; k++)
#pragma unroll
    for (int j = 0; j < 8; j++) a[j] = (a[j] ^ (a[j] >> (1 + (k + j) % 13))) * (2654435761u + 2u * (uint32_t)(k * 8 + j));
  uint32_t r = 0;
#pragma unroll
  for (int j = 0; j < 8; j++) r ^= a[j];
  return r;
}

/* stamps: 0 entry, 1 chain, 2 chain again, 3 code, 4 code again, 5 const, 6 const again, 7 after the meeting */
__global__ void __launch_bounds__(1024) k_cold(uint64_t *words, int peer, unsigned long long *ts, int it, uint32_t seed)
{
  unsigned long long g[NST];
  __shared__ uint64_t sh;
  g[0] = gtimer();
  uint64_t v = 0;
  uint32_t c = 0;
  if (threadIdx.x == 0) {
    v = chain(words, 0);
    g[1] = gtimer();
    v += chain(words, 1);   /* other words: no L1 hit on the values themselves ... */
    g[2] = gtimer();
    c = code_run(seed + (uint32_t)v);
    g[3] = gtimer();
    /* the same code again: a loop of two passes would be one copy */
    c ^= code_run(seed + c);
    g[4] = gtimer();
    v += peer_base[(peer + (int)(c & 1)) & 63];
    g[5] = gtimer();
    v += peer_base[(peer + 1 + (int)(c & 1)) & 63];
    g[6] = gtimer();
    sh = v + c;
  }
  __syncthreads();
  g[7] = gtimer();
  /* the previous kernel's writes: the next launch chases what this one stored */
  if (threadIdx.x == 0) {
    words[8 + (it & 7)] = sh;   /* never 0..7: the chains stay inside words[0..7] */
    for (int k = 0; k < NST; k++) ts[(size_t)it * NST + k] = g[k];
  }
}

static double med(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/* ---- one cold load of each kind, each stamped once its value is in ---- */
struct rec_t { uint64_t f[49]; };   /* 392 bytes: the team record's size */
__constant__ uint64_t ctab[512];
#define MAGIC 0x5eed5eed5eed5eedull
/* the time once v is in: the branch needs v, and the stamp follows it */
__device__ __forceinline__ unsigned long long after(uint64_t v, uint64_t *sink)
{
  if (v == MAGIC) *sink = v;
  return gtimer();
}
/* a zero the compiler cannot see through (keeps each load where it is) */
__device__ __forceinline__ unsigned zero_of(uint64_t v)
{
  unsigned z;
  asm volatile("{ .reg .pred p; setp.eq.u64 p, %1, 0x5eed5eed5eed5eed; selp.u32 %0, 1, 0, p; }" : "=r"(z) : "l"(v));
  return z;
}
#define NPR 9   /* entry, param, param again, const, const again, global, global again, const (other line), PDL wait */
template <bool PDL>
__global__ void __launch_bounds__(1024) k_probe(const __grid_constant__ rec_t rec, uint64_t *words, unsigned long long *ts,
                                                int it)
{
  unsigned long long g[NPR];
  g[0] = gtimer();
  if (PDL) asm volatile("griddepcontrol.wait;" ::: "memory");
  g[8] = gtimer();
  if (threadIdx.x == 0) {
    unsigned z = zero_of(g[0]);
    uint64_t a = rec.f[z + 1];
    g[1] = after(a, words + 60);
    uint64_t b = rec.f[zero_of(a) + 2];
    g[2] = after(b, words + 60);
    uint64_t c = ctab[zero_of(b) + 3];
    g[3] = after(c, words + 60);
    uint64_t d = ctab[zero_of(c) + 4];
    g[4] = after(d, words + 60);
    uint64_t e = words[zero_of(d) + 16];
    g[5] = after(e, words + 60);
    uint64_t f = words[zero_of(e) + 17];
    g[6] = after(f, words + 60);
    uint64_t h = ctab[zero_of(f) + 300];
    g[7] = after(h, words + 60);
    words[16] = a + b + c + d + e + f + h + (uint64_t)it;   /* the next launch's global load: written here */
    for (int k = 0; k < NPR; k++) ts[(size_t)it * NPR + k] = g[k];
  }
  if (PDL) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

template <bool PDL>
static void probe_rounds(cudaStream_t st, uint64_t *words, unsigned long long *ts, int iters)
{
  rec_t rec;
  for (int i = 0; i < 49; i++) rec.f[i] = (uint64_t)i * 3;
  std::vector<unsigned long long> hts((size_t)NPR * iters);
  for (int round = 0; round < 3; round++) {
    cudaGraph_t gr;
    cudaGraphExec_t ex;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < iters; i++) {
      cudaLaunchConfig_t cfg = {};
      cudaLaunchAttribute at[1];
      at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      at[0].val.programmaticStreamSerializationAllowed = 1;
      cfg.gridDim = dim3(1);
      cfg.blockDim = dim3(1024);
      cfg.stream = st;
      cfg.attrs = at;
      cfg.numAttrs = PDL ? 1 : 0;
      CK(cudaLaunchKernelEx(&cfg, k_probe<PDL>, rec, words, ts, i));
    }
    CK(cudaStreamEndCapture(st, &gr));
    CK(cudaGraphInstantiate(&ex, gr, 0));
    CK(cudaGraphLaunch(ex, st));   /* warm-up */
    CK(cudaStreamSynchronize(st));
    CK(cudaGraphLaunch(ex, st));
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(hts.data(), ts, sizeof(unsigned long long) * hts.size(), cudaMemcpyDeviceToHost));
    std::vector<double> d[NPR];
    for (int i = 1; i < iters; i++) {
      const unsigned long long *o = &hts[(size_t)i * NPR];
      d[0].push_back((double)(o[8] - o[0]));
      d[1].push_back((double)(o[1] - o[8]));
      for (int k = 2; k < 8; k++) d[k].push_back((double)(o[k] - o[k - 1]));
    }
    printf("probe%s round %d | ns: pdl-wait %.0f param %.0f param-again %.0f const %.0f const-again %.0f "
           "global %.0f global-again %.0f const-other-line %.0f\n",
           PDL ? " (PDL)" : "", round, med(d[0]), med(d[1]), med(d[2]), med(d[3]), med(d[4]), med(d[5]), med(d[6]),
           med(d[7]));
    CK(cudaGraphExecDestroy(ex));
    CK(cudaGraphDestroy(gr));
  }
}

int main(int argc, char **argv)
{
  int iters = argc > 1 ? atoi(argv[1]) : 1000;
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  uint64_t *words;
  CK(cudaMalloc((void **)&words, 64 * sizeof(uint64_t)));
  /* chain(0): 0 -> 2 -> 4 -> 6 -> 0; chain(1): 1 -> 3 -> 5 -> 7 -> 1 */
  uint64_t h[64] = {0};
  for (int i = 0; i < 8; i++) h[i] = (uint64_t)((i + 2) & 7);
  CK(cudaMemcpy(words, h, sizeof h, cudaMemcpyHostToDevice));
  uint64_t hb[64];
  for (int i = 0; i < 64; i++) hb[i] = 0x10000ull * (uint64_t)i;
  CK(cudaMemcpyToSymbol(peer_base, hb, sizeof hb));
  unsigned long long *ts;
  CK(cudaMalloc((void **)&ts, sizeof(unsigned long long) * NST * (size_t)iters));
  std::vector<unsigned long long> hts((size_t)NST * iters);
  for (int round = 0; round < 3; round++) {
    cudaGraph_t gr;
    cudaGraphExec_t ex;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < iters; i++) k_cold<<<1, 1024, 0, st>>>(words, 3, ts, i, (uint32_t)(i * 7 + round));
    CK(cudaStreamEndCapture(st, &gr));
    CK(cudaGraphInstantiate(&ex, gr, 0));
    CK(cudaGraphLaunch(ex, st));   /* warm-up */
    CK(cudaStreamSynchronize(st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0, st));
    CK(cudaGraphLaunch(ex, st));
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CK(cudaMemcpy(hts.data(), ts, sizeof(unsigned long long) * hts.size(), cudaMemcpyDeviceToHost));
    std::vector<double> d[NST];
    for (int i = 1; i < iters; i++) {
      const unsigned long long *o = &hts[(size_t)i * NST];
      for (int k = 1; k < NST; k++) d[k - 1].push_back((double)(o[k] - o[k - 1]));
      d[NST - 1].push_back((double)o[0] - (double)hts[(size_t)(i - 1) * NST + NST - 1]);
    }
    printf("round %d: %.2f us per launch | ns: chain %.0f chain-again %.0f code(%d ops) %.0f code-again %.0f "
           "const %.0f const-again %.0f meeting(1024 thr) %.0f gap %.0f\n",
           round, ms * 1e3 / iters, med(d[0]), med(d[1]), CODE_OPS, med(d[2]), med(d[3]), med(d[4]), med(d[5]),
           med(d[6]), med(d[7]));
    CK(cudaGraphExecDestroy(ex));
    CK(cudaGraphDestroy(gr));
  }
  uint64_t hc[512];
  for (int i = 0; i < 512; i++) hc[i] = (uint64_t)i * 7;
  CK(cudaMemcpyToSymbol(ctab, hc, sizeof hc));
  unsigned long long *pts;
  CK(cudaMalloc((void **)&pts, sizeof(unsigned long long) * NPR * (size_t)iters));
  probe_rounds<false>(st, words, pts, iters);
  probe_rounds<true>(st, words, pts, iters);
  return 0;
}
