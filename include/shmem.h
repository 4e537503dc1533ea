/* Shoal: OpenSHMEM 1.5 for CPUs and GPUs.  The standard API.
 *
 * Typed families (shmem_int_put, shmem_long_atomic_add, ...) are declared
 * from the type tables in <shoal/types.h>; `man shmem_put` and friends
 * document each family.  Extensions live in <shmemx.h>. */
#ifndef SHMEM_H
#define SHMEM_H

#include <stddef.h>
#include <stdint.h>
#include <shoal/constants.h>
#include <shoal/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct shoal_ctx *shmem_ctx_t;
typedef struct shoal_team *shmem_team_t;
typedef struct {
  int num_contexts;
} shmem_team_config_t;

extern shmem_ctx_t SHMEM_CTX_DEFAULT;
extern shmem_team_t SHMEM_TEAM_WORLD;
extern shmem_team_t SHMEM_TEAM_SHARED;
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#if defined(__CUDACC__) || defined(__HIPCC__)
#include <shoal/gpu_pre.h>   /* GPU translation units: see <shoal/gpu.h> */
#endif

/* ---- library setup and query ------------------------------------------- */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);

/* ---- memory management ------------------------------------------------- */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
void *shmem_malloc_with_hints(size_t size, long hints);

/* ---- teams ------------------------------------------------------------- */
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* ---- contexts ---------------------------------------------------------- */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);

/* ---- remote memory access ---------------------------------------------- */
#define SHOAL_DECL_RMA(T, N) \
  void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe); \
  void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe); \
  void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe); \
  void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe); \
  void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
  void shmem_##N##_p(T *dest, T value, int pe); \
  void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe); \
  T shmem_##N##_g(const T *source, int pe); \
  T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe); \
  void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t nelems, int pe); \
  void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t nelems, int pe); \
  void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                              uint64_t signal, int sig_op, int pe); \
  void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                                  uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
  void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                  uint64_t signal, int sig_op, int pe); \
  void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
#ifndef SHOAL_GPU_TU   /* GPU units get the others from <shoal/gpu.h> */
SHOAL_RMA_TYPES(SHOAL_DECL_RMA)
#else
SHOAL_DECL_RMA(long double, longdouble)   /* host-only in GPU units */
#endif
#undef SHOAL_DECL_RMA

#ifndef SHOAL_GPU_TU

#define SHOAL_DECL_SIZED(BITS, BYTES) \
  void shmem_put##BITS(void *dest, const void *source, size_t nelems, int pe); \
  void shmem_ctx_put##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
  void shmem_get##BITS(void *dest, const void *source, size_t nelems, int pe); \
  void shmem_ctx_get##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
  void shmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe); \
  void shmem_ctx_put##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
  void shmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe); \
  void shmem_ctx_get##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
  void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t nelems, int pe); \
  void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
  void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t nelems, int pe); \
  void shmem_put_signal##BITS(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, \
                              uint64_t signal, int sig_op, int pe); \
  void shmem_ctx_put_signal##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                  uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
  void shmem_put_signal##BITS##_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, \
                                    uint64_t signal, int sig_op, int pe); \
  void shmem_ctx_put_signal##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                        uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
SHOAL_SIZED_RMA(SHOAL_DECL_SIZED)
#undef SHOAL_DECL_SIZED

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ---- atomic memory operations ------------------------------------------ */
#define SHOAL_DECL_AMO_EXT(T, N) \
  T shmem_##N##_atomic_fetch(const T *source, int pe); \
  T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe); \
  void shmem_##N##_atomic_set(T *dest, T value, int pe); \
  void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe); \
  T shmem_##N##_atomic_swap(T *dest, T value, int pe); \
  T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe); \
  void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe); \
  void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe); \
  void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
#define SHOAL_DECL_AMO_STD(T, N) \
  T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe); \
  T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe); \
  T shmem_##N##_atomic_fetch_inc(T *dest, int pe); \
  T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe); \
  void shmem_##N##_atomic_inc(T *dest, int pe); \
  void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe); \
  T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe); \
  T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void shmem_##N##_atomic_add(T *dest, T value, int pe); \
  void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe); \
  void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, T value, int pe); \
  void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe); \
  void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe); \
  void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe); \
  void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
#define SHOAL_DECL_AMO_BIT_OP(T, N, OP) \
  T shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe); \
  T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void shmem_##N##_atomic_##OP(T *dest, T value, int pe); \
  void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe); \
  void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe); \
  void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
#define SHOAL_DECL_AMO_BIT(T, N) \
  SHOAL_DECL_AMO_BIT_OP(T, N, and) SHOAL_DECL_AMO_BIT_OP(T, N, or) SHOAL_DECL_AMO_BIT_OP(T, N, xor)
SHOAL_AMO_EXT_TYPES(SHOAL_DECL_AMO_EXT)
SHOAL_AMO_STD_TYPES(SHOAL_DECL_AMO_STD)
SHOAL_AMO_BIT_TYPES(SHOAL_DECL_AMO_BIT)
#undef SHOAL_DECL_AMO_EXT
#undef SHOAL_DECL_AMO_STD
#undef SHOAL_DECL_AMO_BIT_OP
#undef SHOAL_DECL_AMO_BIT

/* Deprecated 1.4 AMO names, still used by real programs. */
#define SHOAL_DECL_AMO_DEPR(T, N) \
  T shmem_##N##_swap(T *dest, T value, int pe); \
  T shmem_##N##_cswap(T *dest, T cond, T value, int pe); \
  T shmem_##N##_finc(T *dest, int pe); \
  void shmem_##N##_inc(T *dest, int pe); \
  T shmem_##N##_fadd(T *dest, T value, int pe); \
  void shmem_##N##_add(T *dest, T value, int pe); \
  T shmem_##N##_fetch(const T *source, int pe); \
  void shmem_##N##_set(T *dest, T value, int pe);
SHOAL_DECL_AMO_DEPR(int, int)
SHOAL_DECL_AMO_DEPR(long, long)
SHOAL_DECL_AMO_DEPR(long long, longlong)
#undef SHOAL_DECL_AMO_DEPR
float shmem_float_swap(float *dest, float value, int pe);
double shmem_double_swap(double *dest, double value, int pe);
float shmem_float_fetch(const float *source, int pe);
double shmem_double_fetch(const double *source, int pe);
void shmem_float_set(float *dest, float value, int pe);
void shmem_double_set(double *dest, double value, int pe);
long shmem_swap(long *dest, long value, int pe);

/* ---- ordering and point-to-point synchronization ----------------------- */
void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);

#define SHOAL_DECL_SYNC(T, N) \
  void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value); \
  void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
  size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
  size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                     int cmp, T cmp_value); \
  void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                         T *cmp_values); \
  size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                           T *cmp_values); \
  size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, \
                                            const int *status, int cmp, T *cmp_values); \
  int shmem_##N##_test(T *ivar, int cmp, T cmp_value); \
  int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
  size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
  size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, \
                               T cmp_value); \
  int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values); \
  size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                     T *cmp_values); \
  size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                      int cmp, T *cmp_values); \
  void shmem_##N##_wait(T *ivar, T cmp_value);
SHOAL_SYNC_TYPES(SHOAL_DECL_SYNC)
#undef SHOAL_DECL_SYNC
void shmem_wait(long *ivar, long cmp_value);
void shmem_wait_until(long *ivar, int cmp, long cmp_value);
#endif /* SHOAL_GPU_TU */

/* ---- distributed locks ------------------------------------------------- */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

/* ---- collectives ------------------------------------------------------- */
void shmem_barrier_all(void);
void shmem_sync_all(void);
int shmem_team_sync(shmem_team_t team);
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);
#define SHOAL_DECL_COLL(T, N) \
  int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root); \
  int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems); \
  int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems); \
  int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems); \
  int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, \
                            ptrdiff_t sst, size_t nelems);
SHOAL_RMA_TYPES(SHOAL_DECL_COLL)
#undef SHOAL_DECL_COLL

#define SHOAL_DECL_REDUCE_OP(T, N, OP) \
  int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define SHOAL_DECL_REDUCE_BITWISE(T, N) \
  SHOAL_DECL_REDUCE_OP(T, N, and) SHOAL_DECL_REDUCE_OP(T, N, or) SHOAL_DECL_REDUCE_OP(T, N, xor)
#define SHOAL_DECL_REDUCE_MINMAX(T, N) SHOAL_DECL_REDUCE_OP(T, N, min) SHOAL_DECL_REDUCE_OP(T, N, max)
#define SHOAL_DECL_REDUCE_ARITH(T, N) SHOAL_DECL_REDUCE_OP(T, N, sum) SHOAL_DECL_REDUCE_OP(T, N, prod)
SHOAL_REDUCE_BITWISE_TYPES(SHOAL_DECL_REDUCE_BITWISE)
SHOAL_REDUCE_MINMAX_TYPES(SHOAL_DECL_REDUCE_MINMAX)
SHOAL_REDUCE_ARITH_TYPES(SHOAL_DECL_REDUCE_ARITH)

/* Deprecated 1.4 active-set collectives (pSync/pWrk are checked, not used). */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);
void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);
void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                     int PE_size, long *pSync);
void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                     int PE_size, long *pSync);
void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);
void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);
void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       int PE_start, int logPE_stride, int PE_size, long *pSync);
#define SHOAL_DECL_TOALL_BITWISE(T, N) \
  SHOAL_DECL_TOALL_OP(T, N, and) SHOAL_DECL_TOALL_OP(T, N, or) SHOAL_DECL_TOALL_OP(T, N, xor)
#define SHOAL_DECL_TOALL_MINMAX(T, N) SHOAL_DECL_TOALL_OP(T, N, min) SHOAL_DECL_TOALL_OP(T, N, max)
#define SHOAL_DECL_TOALL_ARITH(T, N) SHOAL_DECL_TOALL_OP(T, N, sum) SHOAL_DECL_TOALL_OP(T, N, prod)
#define SHOAL_DECL_TOALL_OP(T, N, OP) \
  void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, \
                                 int logPE_stride, int PE_size, T *pWrk, long *pSync);
SHOAL_TOALL_BITWISE_TYPES(SHOAL_DECL_TOALL_BITWISE)
SHOAL_TOALL_MINMAX_TYPES(SHOAL_DECL_TOALL_MINMAX)
SHOAL_TOALL_ARITH_TYPES(SHOAL_DECL_TOALL_ARITH)

/* ---- profiling interface (section 10; pshmem_ names: <pshmem.h>) ------- */
void shmem_pcontrol(const int level, ...);

/* ---- deprecated 1.4 setup and memory names ----------------------------- */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);
void *shmalloc(size_t size);
void shfree(void *ptr);
void *shrealloc(void *ptr, size_t size);
void *shmemalign(size_t alignment, size_t size);
void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);

/* ---- OpenSHMEM 1.6 additions -------------------------------------------- */
/* `man shmem_ibput`, `shmem_signal_add`, `shmem_team_ptr`, `shmem_sum_inscan`,
 * `shmem_ctx_session_start` document them. */
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)
typedef struct {
  size_t total_ops;
} shmem_ctx_session_config_t;

void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config,
                             long config_mask);
void shmem_ctx_session_stop(shmem_ctx_t ctx);

#ifndef SHOAL_GPU_TU   /* GPU units get these from <shoal/gpu16.h> */
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_pe_quiet(const int *target_pes, size_t npes);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);
#endif
#define SHOAL_DECL_IBRMA(T, N) \
  void shmem_##N##_ibput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                         size_t nblocks, int pe); \
  void shmem_ctx_##N##_ibput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, \
                             ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
  void shmem_##N##_ibget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                         size_t nblocks, int pe); \
  void shmem_ctx_##N##_ibget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, \
                             ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
#define SHOAL_DECL_IBRMA_SIZED(BITS, BYTES) \
  void shmem_ibput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                         size_t nblocks, int pe); \
  void shmem_ctx_ibput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, \
                             ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
  void shmem_ibget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                         size_t nblocks, int pe); \
  void shmem_ctx_ibget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, \
                             ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
#ifndef SHOAL_GPU_TU
SHOAL_RMA_TYPES(SHOAL_DECL_IBRMA)
SHOAL_SIZED_RMA(SHOAL_DECL_IBRMA_SIZED)
#else
SHOAL_DECL_IBRMA(long double, longdouble)   /* host-only in GPU units */
#endif
#undef SHOAL_DECL_IBRMA
#undef SHOAL_DECL_IBRMA_SIZED

#define SHOAL_DECL_SCAN(T, N) \
  int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems); \
  int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems);
SHOAL_REDUCE_ARITH_TYPES(SHOAL_DECL_SCAN)
#undef SHOAL_DECL_SCAN

#ifdef __cplusplus
}
#endif
#if defined(__cplusplus) && !defined(SHOAL_GPU_TU)
/* C++: shmem_sync(team), the 1.5 generic form, as an overload. */
static inline int shmem_sync(shmem_team_t team) { return shmem_team_sync(team); }
#endif

#ifdef SHOAL_GPU_TU
#include <shoal/gpu.h>
#endif

#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#include <shoal/generic.h>
#include <shoal/generic16.h>
#endif

#endif
