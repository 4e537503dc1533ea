/* Shoal extensions to OpenSHMEM 1.5. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* All PEs of this node (SHMEM_TEAM_SHARED is the same set on the CPU). */
extern shmem_team_t SHMEMX_TEAM_NODE;

/* Library details for tools (shoal-info). */
const char *shmemx_build_config(void);
/* Environment variable i (0, 1, ...) the library reads: its name, default
 * and a one-line help.  Returns 0, or -1 past the last one.  Needs no
 * shmem_init. */
int shmemx_info_env(int i, const char **name, const char **default_value, const char **help);

/* ---- unique-id start (NVSHMEM's style) ---------------------------------- */
/* For programs that already have a communicator: one rank calls
 * shmemx_get_uniqueid, sends the bytes to every rank (MPI_Bcast, a
 * torch.distributed broadcast, a file), and every rank calls
 * shmemx_init_with_uniqueid(uid, its rank, the number of ranks) in place of
 * shmem_init.  The id carries rank 0's TCP rendezvous address; rank 0 must
 * run on the host that made it.  Both return 0, or -1 with a message. */
typedef struct shmemx_uniqueid {
  char internal[128];
} shmemx_uniqueid_t;
int shmemx_get_uniqueid(shmemx_uniqueid_t *uid);
int shmemx_init_with_uniqueid(shmemx_uniqueid_t uid, int rank, int nranks);

/* ---- collectives and teams --------------------------------------------- */
/* 16-bit floating types for reductions: half (_Float16, where the compiler
 * has it) and bfloat16 (stored as its 16 bits, computed in float). */
typedef uint16_t shmemx_bfloat16_t;
#if defined(__FLT16_MAX__) && !defined(__cplusplus)
#define SHMEMX_HAVE_HALF 1
typedef _Float16 shmemx_half_t;
#define SHMEMX_HALF_TYPES(X) X(shmemx_half_t, half)
#else
#define SHMEMX_HALF_TYPES(X)
#endif
#define SHMEMX_F16_TYPES(X) SHMEMX_HALF_TYPES(X) X(shmemx_bfloat16_t, bfloat16)

/* Reduce-scatter: on team PE i, dest[0 .. nreduce) gets the reduction over
 * the team of source[i * nreduce .. (i + 1) * nreduce). */
#define SHMEMX_DECL_RS_OP(T, N, OP) \
  int shmemx_##N##_##OP##_reduce_scatter(shmem_team_t team, T *dest, const T *source, \
                                         size_t nreduce);
#define SHMEMX_DECL_RS_BITWISE(T, N) \
  SHMEMX_DECL_RS_OP(T, N, and) SHMEMX_DECL_RS_OP(T, N, or) SHMEMX_DECL_RS_OP(T, N, xor)
#define SHMEMX_DECL_RS_MINMAX(T, N) SHMEMX_DECL_RS_OP(T, N, min) SHMEMX_DECL_RS_OP(T, N, max)
#define SHMEMX_DECL_RS_ARITH(T, N) SHMEMX_DECL_RS_OP(T, N, sum) SHMEMX_DECL_RS_OP(T, N, prod)
SHOAL_REDUCE_BITWISE_TYPES(SHMEMX_DECL_RS_BITWISE)
SHOAL_REDUCE_MINMAX_TYPES(SHMEMX_DECL_RS_MINMAX)
SHOAL_REDUCE_ARITH_TYPES(SHMEMX_DECL_RS_ARITH)

/* sum, prod, min, max all-reduce (and reduce-scatter) on 16-bit floats:
 * shmemx_half_sum_reduce, shmemx_bfloat16_max_reduce_scatter, ... */
#define SHMEMX_DECL_F16(T, N) \
  int shmemx_##N##_sum_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce); \
  int shmemx_##N##_prod_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce); \
  int shmemx_##N##_min_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce); \
  int shmemx_##N##_max_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce); \
  SHMEMX_DECL_RS_MINMAX(T, N) SHMEMX_DECL_RS_ARITH(T, N)
SHMEMX_F16_TYPES(SHMEMX_DECL_F16)

#ifdef __cplusplus
}
#endif

#endif

/* ---- GPU translation units (nvcc, hipcc): see <shoal/gpu_x.h> ----------- */
/* (the grid-scope collectives shmemx_*_grid and shmemx_grid_max_blocks:
 * <shoal/gpu_grid.h>, included with it) */
#if defined(SHOAL_GPU_TU) && !defined(SHMEMX_GPU_H)
#define SHMEMX_GPU_H
extern "C" shmem_team_t shoalh_team_node __asm__("SHMEMX_TEAM_NODE");
static inline __host__ __device__ shmem_team_t shoal_gpu_team_node(void)
{ return SHOAL_GPU_PICK((shmem_team_t)shoal_dgpu.team_key[2], shoalh_team_node); }
#define SHMEMX_TEAM_NODE (shoal_gpu_team_node())
#endif
