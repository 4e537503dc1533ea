/* Atomic memory operations: the public names, generated from the type
 * tables, over the device/ code. */
#include "internal.h"
#include "../device/amo.h"

static inline struct shoal_ctx *amo_enter(const char *call, const char *arg, shmem_ctx_t ctx,
                                          const void *dest, size_t bytes, int pe)
{
  SHOAL_REQUIRE_INIT(call);
  if (SHOAL_UNLIKELY(ctx == SHMEM_CTX_INVALID))
    shoal_error(call, "argument 'ctx' is SHMEM_CTX_INVALID");
  SHOAL_CHECK_PE(call, pe);
  SHOAL_CHECK_SYM(call, arg, dest, bytes);
  SHOAL_CHECK_ALIGN(call, arg, dest, bytes);
  return ctx;
}
#define ENTER(NAME, CTX, DEST, T) amo_enter(NAME, #DEST, CTX, DEST, sizeof(T), pe)

/* Each operation in its blocking, ctx, and (where fetching) _nbi forms.
 * One body per operation takes the public name, so an error names the call
 * the program made (shmem_long_atomic_add, not its ctx form). */
#define SHOAL_AMO_FORMS(T, N, OP, PARAMS, ARGS, BODY) \
  static inline T amo_##N##_##OP(const char *call, shmem_ctx_t ctx, T *dest PARAMS, int pe) \
  { struct shoal_ctx *c = ENTER(call, ctx, dest, T); return BODY; } \
  T shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest PARAMS, int pe) \
  { return amo_##N##_##OP("shmem_ctx_" #N "_atomic_" #OP, ctx, dest ARGS, pe); } \
  T shmem_##N##_atomic_##OP(T *dest PARAMS, int pe) \
  { return amo_##N##_##OP("shmem_" #N "_atomic_" #OP, SHMEM_CTX_DEFAULT, dest ARGS, pe); } \
  void shmem_ctx_##N##_atomic_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest PARAMS, int pe) \
  { *fetch = amo_##N##_##OP("shmem_ctx_" #N "_atomic_" #OP "_nbi", ctx, dest ARGS, pe); } \
  void shmem_##N##_atomic_##OP##_nbi(T *fetch, T *dest PARAMS, int pe) \
  { *fetch = amo_##N##_##OP("shmem_" #N "_atomic_" #OP "_nbi", SHMEM_CTX_DEFAULT, dest ARGS, pe); }

/* A non-fetching operation. */
#define SHOAL_AMO_VOID(T, N, OP, PARAMS, ARGS, BODY) \
  static inline void amo_##N##_##OP(const char *call, shmem_ctx_t ctx, T *dest PARAMS, int pe) \
  { struct shoal_ctx *c = ENTER(call, ctx, dest, T); (void)(BODY); } \
  void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest PARAMS, int pe) \
  { amo_##N##_##OP("shmem_ctx_" #N "_atomic_" #OP, ctx, dest ARGS, pe); } \
  void shmem_##N##_atomic_##OP(T *dest PARAMS, int pe) \
  { amo_##N##_##OP("shmem_" #N "_atomic_" #OP, SHMEM_CTX_DEFAULT, dest ARGS, pe); }

#define COMMA ,
#define SHOAL_AMO_EXT(T, N) \
  static inline T amo_##N##_fetch(const char *call, shmem_ctx_t ctx, const T *source, int pe) \
  { struct shoal_ctx *c = ENTER(call, ctx, source, T); return shoal_dev_##N##_fetch(c, source, pe); } \
  T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *src, int pe) \
  { return amo_##N##_fetch("shmem_ctx_" #N "_atomic_fetch", ctx, src, pe); } \
  T shmem_##N##_atomic_fetch(const T *src, int pe) \
  { return amo_##N##_fetch("shmem_" #N "_atomic_fetch", SHMEM_CTX_DEFAULT, src, pe); } \
  void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *src, int pe) \
  { *fetch = amo_##N##_fetch("shmem_ctx_" #N "_atomic_fetch_nbi", ctx, src, pe); } \
  void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *src, int pe) \
  { *fetch = amo_##N##_fetch("shmem_" #N "_atomic_fetch_nbi", SHMEM_CTX_DEFAULT, src, pe); } \
  SHOAL_AMO_VOID(T, N, set, COMMA T value, COMMA value, (shoal_dev_##N##_set(c, dest, value, pe), 0)) \
  SHOAL_AMO_FORMS(T, N, swap, COMMA T value, COMMA value, shoal_dev_##N##_swap(c, dest, value, pe))

#define SHOAL_AMO_STD(T, N) \
  SHOAL_AMO_FORMS(T, N, compare_swap, COMMA T cond COMMA T value, COMMA cond COMMA value, \
                  shoal_dev_##N##_compare_swap(c, dest, cond, value, pe)) \
  SHOAL_AMO_FORMS(T, N, fetch_add, COMMA T value, COMMA value, \
                  shoal_dev_##N##_fetch_add(c, dest, value, pe)) \
  SHOAL_AMO_FORMS(T, N, fetch_inc, , , shoal_dev_##N##_fetch_add(c, dest, (T)1, pe)) \
  SHOAL_AMO_VOID(T, N, add, COMMA T value, COMMA value, shoal_dev_##N##_fetch_add(c, dest, value, pe)) \
  SHOAL_AMO_VOID(T, N, inc, , , shoal_dev_##N##_fetch_add(c, dest, (T)1, pe))

#define SHOAL_AMO_BIT_OP(T, N, OP) \
  SHOAL_AMO_FORMS(T, N, fetch_##OP, COMMA T value, COMMA value, \
                  shoal_dev_##N##_fetch_##OP(c, dest, value, pe)) \
  SHOAL_AMO_VOID(T, N, OP, COMMA T value, COMMA value, shoal_dev_##N##_fetch_##OP(c, dest, value, pe))
#define SHOAL_AMO_BIT(T, N) SHOAL_AMO_BIT_OP(T, N, and) SHOAL_AMO_BIT_OP(T, N, or) SHOAL_AMO_BIT_OP(T, N, xor)

SHOAL_AMO_EXT_TYPES(SHOAL_AMO_EXT)
SHOAL_AMO_STD_TYPES(SHOAL_AMO_STD)
SHOAL_AMO_BIT_TYPES(SHOAL_AMO_BIT)

/* Deprecated 1.4 names. */
#define SHOAL_AMO_DEPR(T, N) \
  T shmem_##N##_swap(T *d, T v, int pe) { return shmem_##N##_atomic_swap(d, v, pe); } \
  T shmem_##N##_cswap(T *d, T c, T v, int pe) { return shmem_##N##_atomic_compare_swap(d, c, v, pe); } \
  T shmem_##N##_finc(T *d, int pe) { return shmem_##N##_atomic_fetch_inc(d, pe); } \
  void shmem_##N##_inc(T *d, int pe) { shmem_##N##_atomic_inc(d, pe); } \
  T shmem_##N##_fadd(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_add(d, v, pe); } \
  void shmem_##N##_add(T *d, T v, int pe) { shmem_##N##_atomic_add(d, v, pe); } \
  T shmem_##N##_fetch(const T *s, int pe) { return shmem_##N##_atomic_fetch(s, pe); } \
  void shmem_##N##_set(T *d, T v, int pe) { shmem_##N##_atomic_set(d, v, pe); }
SHOAL_AMO_DEPR(int, int)
SHOAL_AMO_DEPR(long, long)
SHOAL_AMO_DEPR(long long, longlong)
float shmem_float_swap(float *d, float v, int pe) { return shmem_float_atomic_swap(d, v, pe); }
double shmem_double_swap(double *d, double v, int pe) { return shmem_double_atomic_swap(d, v, pe); }
float shmem_float_fetch(const float *s, int pe) { return shmem_float_atomic_fetch(s, pe); }
double shmem_double_fetch(const double *s, int pe) { return shmem_double_atomic_fetch(s, pe); }
void shmem_float_set(float *d, float v, int pe) { shmem_float_atomic_set(d, v, pe); }
void shmem_double_set(double *d, double v, int pe) { shmem_double_atomic_set(d, v, pe); }
/* Parenthesized: <shoal/generic.h> makes shmem_swap a macro. */
long (shmem_swap)(long *d, long v, int pe) { return shmem_long_atomic_swap(d, v, pe); }
