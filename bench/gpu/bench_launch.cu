/* What one kernel launch costs the host and the GPU, by launch API: the
 * floor under every _on_stream call (bench/RESULTS.md, session 42: under
 * MPS the host's enqueue, 3.2-3.7 us, is the pace of the small calls).
 * No Shoal, no MPI: run N copies at once to load MPS as N PEs do.
 *   bench_launch [iters] [rounds]
 * Rows (CSV: pid, api, host_us, gpu_us per launch, medians of the rounds):
 *   chevron      k<<<...>>>
 *   ex           cudaLaunchKernelEx, no attributes
 *   ex_pdl       cudaLaunchKernelEx with programmatic stream serialization
 *   drv_pdl      cuLaunchKernelEx on the CUfunction found once, with it
 *   drv          cuLaunchKernel on that CUfunction
 *   drv_pdl_find cudaGetFuncBySymbol on every launch, then cuLaunchKernelEx
 *   krn_pdl      cuLaunchKernelEx on the context-free CUkernel (cudaGetKernel,
 *                found once), with it
 *   ex_krn_pdl   cudaLaunchKernelEx on that cudaKernel_t, with it
 * The kernel takes the arguments of Shoal's movers (a team, two pointers,
 * a size, an int) and waits for its predecessor (griddepcontrol.wait). */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(2); } } while (0)

__global__ void k_empty(int team, void *dest, const void *src, size_t n, int which)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  if (n == 12345 && threadIdx.x == 0 && team == which) *(int *)dest = *(const int *)src;
}

typedef CUresult (*launch_ex_fn)(const CUlaunchConfig *, CUfunction, void **, void **);
typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);
static launch_ex_fn p_launch_ex;
static launch_fn p_launch;
static CUfunction f_empty;
static cudaKernel_t k_handle;

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static void launch(int api, cudaStream_t st, int team, void *dest, const void *src, size_t n, int which)
{
  void *args[] = {&team, &dest, &src, &n, &which};
  if (api == 0) {
    k_empty<<<1, 512, 0, st>>>(team, dest, src, n, which);
    return;
  }
  if (api <= 2 || api == 7) {
    cudaLaunchConfig_t c = {};
    c.gridDim = 1;
    c.blockDim = 512;
    c.stream = st;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    c.attrs = at;
    c.numAttrs = api != 1;
    if (api == 7) (void)cudaLaunchKernelExC(&c, (const void *)k_handle, args);
    else (void)cudaLaunchKernelEx(&c, k_empty, team, dest, src, n, which);
    return;
  }
  if (api == 4) {
    (void)p_launch(f_empty, 1, 1, 1, 512, 1, 1, 0, (CUstream)st, args, NULL);
    return;
  }
  CUfunction f = api == 6 ? (CUfunction)k_handle : f_empty;
  if (api == 5) {
    cudaFunction_t g;
    (void)cudaGetFuncBySymbol(&g, (const void *)k_empty);
    f = (CUfunction)g;
  }
  CUlaunchConfig c = {};
  c.gridDimX = c.gridDimY = c.gridDimZ = 1;
  c.blockDimX = 512;
  c.blockDimY = c.blockDimZ = 1;
  c.hStream = (CUstream)st;
  CUlaunchAttribute at[1];
  at[0].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  at[0].value.programmaticStreamSerializationAllowed = 1;
  c.attrs = at;
  c.numAttrs = 1;
  (void)p_launch_ex(&c, f, args, NULL);
}

static int cmp_d(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
  int iters = argc > 1 ? atoi(argv[1]) : 2000, rounds = argc > 2 ? atoi(argv[2]) : 15;
  static const char *names[] = {"chevron", "ex", "ex_pdl", "drv_pdl", "drv", "drv_pdl_find", "krn_pdl", "ex_krn_pdl"};
  enum { NAPI = 8 };
  CK(cudaSetDevice(0));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuLaunchKernelEx", (void **)&p_launch_ex, 12000, cudaEnableDefault, &q));
  CK(cudaGetDriverEntryPointByVersion("cuLaunchKernel", (void **)&p_launch, 12000, cudaEnableDefault, &q));
  cudaFunction_t g;
  CK(cudaGetFuncBySymbol(&g, (const void *)k_empty));
  f_empty = (CUfunction)g;
  CK(cudaGetKernel(&k_handle, (const void *)k_empty));
  int *buf;
  CK(cudaMalloc(&buf, 64));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  double host[NAPI][64], gpu[NAPI][64];
  if (rounds > 64) rounds = 64;
  for (int r = 0; r < rounds; r++)
    for (int v = 0; v < NAPI; v++) {
      int api = (v + r) % NAPI;   /* the order rotated round by round */
      for (int i = 0; i < 100; i++) launch(api, st, 0, buf, buf + 4, 64, 1);
      CK(cudaStreamSynchronize(st));
      CK(cudaEventRecord(e0, st));
      double t0 = now_us();
      for (int i = 0; i < iters; i++) launch(api, st, 0, buf, buf + 4, 64, 1);
      double t1 = now_us();
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      CK(cudaGetLastError());
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      host[api][r] = (t1 - t0) / iters;
      gpu[api][r] = ms * 1e3 / iters;
    }
  for (int api = 0; api < NAPI; api++) {
    qsort(host[api], rounds, sizeof(double), cmp_d);
    qsort(gpu[api], rounds, sizeof(double), cmp_d);
    printf("%d,%s,%.3f,%.3f\n", (int)getpid(), names[api], host[api][rounds / 2], gpu[api][rounds / 2]);
  }
  return 0;
}
