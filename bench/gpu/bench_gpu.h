/* What the GPU benchmarks share: the library they are built against
 * (Shoal by default, NVSHMEM with -DUSE_NVSHMEM), its start and end, and
 * CUDA error checks.  Each benchmark adds its own D_* macros for the
 * calls it times. */
#ifndef SHOAL_BENCH_GPU_H
#define SHOAL_BENCH_GPU_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef USE_NVSHMEM
#include <nvshmem.h>
#include <nvshmemx.h>
#define IMPL "nvshmem"
#define MY_PE() nvshmem_my_pe()
#define N_PES() nvshmem_n_pes()
#define MALLOC(n) nvshmem_malloc(n)
#define BARRIER() nvshmem_barrier_all()
#else
#include <shmem.h>
#include <shmemx.h>
#ifdef SHOAL_NO_WAIT_WATCHDOG
#define IMPL "shoal-nowd"   /* the same code without the wait watchdog's check */
#else
#define IMPL "shoal"
#endif
#define MY_PE() shmem_my_pe()
#define N_PES() shmem_n_pes()
#define MALLOC(n) shmem_malloc(n)
#define BARRIER() shmem_barrier_all()
#endif

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(2); } } while (0)

/* NVSHMEM starts with its unique-id bootstrap: the id goes from rank 0 to
 * the others through a file (NVSHMEM_ID_FILE, else idfile), so the
 * program needs no MPI.  One GPU per local rank; PEs share GPUs when there
 * are fewer. */
static void bench_init(const char *idfile)
{
#ifdef USE_NVSHMEM
  const char *rs = getenv("OMPI_COMM_WORLD_RANK"), *ns = getenv("OMPI_COMM_WORLD_SIZE");
  const char *lrs = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  int rank = rs ? atoi(rs) : 0, nranks = ns ? atoi(ns) : 1;
  int ndev = 1;
  CK(cudaGetDeviceCount(&ndev));
  CK(cudaSetDevice((lrs ? atoi(lrs) : 0) % ndev));
  nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (getenv("NVSHMEM_ID_FILE")) idfile = getenv("NVSHMEM_ID_FILE");
  if (rank == 0) {
    nvshmemx_get_uniqueid(&id);
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s.tmp", idfile);
    FILE *f = fopen(tmp, "wb"); fwrite(&id, sizeof id, 1, f); fclose(f);
    rename(tmp, idfile);
  } else {
    FILE *f;
    while (!(f = fopen(idfile, "rb"))) usleep(1000);
    if (fread(&id, sizeof id, 1, f) != 1) { fprintf(stderr, "bad id file %s\n", idfile); exit(2); }
    fclose(f);
  }
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  nvshmemx_set_attr_uniqueid_args(rank, nranks, &id, &attr);
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
  if (rank == 0) unlink(idfile);
#else
  (void)idfile;
  shmem_init();
#endif
}

/* The median of three timed rounds (the benchmarks' rows). */
static inline float median3(const float *t)
{
  float a = t[0], b = t[1], c = t[2];
  return a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
}
static void bench_finalize(void)
{
#ifdef USE_NVSHMEM
  nvshmem_finalize();
#else
  shmem_finalize();
#endif
}

#endif
