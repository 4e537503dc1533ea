/* Reduction operators, written once for every type and op.
 *
 * Algorithms are type-erased: they move bytes and call shoal_reduce_combine
 * with a (type, op) pair, whose switch is generated from the type tables in
 * <shoal/types.h>.  Plain C: no function pointers, so GPU code can use it. */
#ifndef SHOAL_COLL_REDUCE_OP_H
#define SHOAL_COLL_REDUCE_OP_H

#include "coll.h"
#include <shoal/types.h>
#include <shoal/f16.h>   /* bfloat16 and half <-> float */
#include <shoal/cpair.h> /* complex products as the CPU's */

/* 16-bit floats: half where the compiler has _Float16; bfloat16 is stored
 * as uint16_t and computed in float. */
#if defined(__FLT16_MAX__) && !defined(__cplusplus)
#define SHOAL_HAVE_HALF 1
#define SHOAL_HALF_TYPES(X) X(_Float16, half)
#else
#define SHOAL_HALF_TYPES(X)
#endif

typedef enum shoal_rtype {
#define SHOAL_RT_ENUM(T, N) SHOAL_RT_##N,
  SHOAL_REDUCE_ARITH_TYPES(SHOAL_RT_ENUM)
  SHOAL_HALF_TYPES(SHOAL_RT_ENUM)
#undef SHOAL_RT_ENUM
  SHOAL_RT_bfloat16,
  SHOAL_RT_half16,   /* IEEE half as its 16 bits, computed in float: the GPU's (no _Float16 there) */
  SHOAL_RT_cpairf,   /* complex as (re, im) pairs of float, double: the GPU's (no _Complex there) */
  SHOAL_RT_cpaird,
  SHOAL_RT_COUNT
} shoal_rtype;

typedef enum shoal_rop {
#define SHOAL_OP_ENUM(OP, CLASS) SHOAL_OP_##OP,
  SHOAL_REDUCE_OPS(SHOAL_OP_ENUM)
#undef SHOAL_OP_ENUM
  SHOAL_OP_COUNT
} shoal_rop;

SHOAL_FN size_t shoal_reduce_size(int type)
{
  switch (type) {
#define SHOAL_RT_SIZE(T, N) case SHOAL_RT_##N: return sizeof(T);
    SHOAL_REDUCE_ARITH_TYPES(SHOAL_RT_SIZE)
    SHOAL_HALF_TYPES(SHOAL_RT_SIZE)
#undef SHOAL_RT_SIZE
  case SHOAL_RT_cpairf: return 2 * sizeof(float);
  case SHOAL_RT_cpaird: return 2 * sizeof(double);
  default: return 2;   /* bfloat16, half16 */
  }
}

/* Integer sums and products wrap (computed unsigned: signed overflow would
 * be undefined); floating types use their own arithmetic. */
#define SHOAL_IS_INT(T) ((T)0.5 == (T)0)
#define SHOAL_OPX_sum(T, a, b) \
  (SHOAL_IS_INT(T) ? (T)((unsigned long long)(a) + (unsigned long long)(b)) : (T)((a) + (b)))
#define SHOAL_OPX_prod(T, a, b) \
  (SHOAL_IS_INT(T) ? (T)((unsigned long long)(a) * (unsigned long long)(b)) : (T)((a) * (b)))
#define SHOAL_OPX_min(T, a, b) ((b) < (a) ? (b) : (a))
#define SHOAL_OPX_max(T, a, b) ((b) > (a) ? (b) : (a))
#define SHOAL_OPX_and(T, a, b) ((T)((a) & (b)))
#define SHOAL_OPX_or(T, a, b) ((T)((a) | (b)))
#define SHOAL_OPX_xor(T, a, b) ((T)((a) ^ (b)))

#define SHOAL_COMBINE_CASE(T, N, OP) \
  case SHOAL_RT_##N: { \
    T *a_ = (T *)acc; \
    const T *b_ = (const T *)in; \
    for (size_t i_ = 0; i_ < n; i_++) a_[i_] = SHOAL_OPX_##OP(T, a_[i_], b_[i_]); \
    return 1; \
  }
#define SHOAL_CASE_and(T, N) SHOAL_COMBINE_CASE(T, N, and)
#define SHOAL_CASE_or(T, N) SHOAL_COMBINE_CASE(T, N, or)
#define SHOAL_CASE_xor(T, N) SHOAL_COMBINE_CASE(T, N, xor)
#define SHOAL_CASE_min(T, N) SHOAL_COMBINE_CASE(T, N, min)
#define SHOAL_CASE_max(T, N) SHOAL_COMBINE_CASE(T, N, max)
#define SHOAL_CASE_sum(T, N) SHOAL_COMBINE_CASE(T, N, sum)
#define SHOAL_CASE_prod(T, N) SHOAL_COMBINE_CASE(T, N, prod)

/* bfloat16 (half false) or IEEE half as 16 bits, combined in float. */
SHOAL_FN int shoal_reduce_16(int op, void *acc, const void *in, size_t n, bool half)
{
  uint16_t *a = (uint16_t *)acc;
  const uint16_t *b = (const uint16_t *)in;
  for (size_t i = 0; i < n; i++) {
    float x = half ? shoal_half_to_float(a[i]) : shoal_bf16_to_float(a[i]);
    float y = half ? shoal_half_to_float(b[i]) : shoal_bf16_to_float(b[i]), r;
    switch (op) {
    case SHOAL_OP_sum: r = x + y; break;
    case SHOAL_OP_prod: r = x * y; break;
    case SHOAL_OP_min: r = y < x ? y : x; break;
    case SHOAL_OP_max: r = y > x ? y : x; break;
    default: return 0;
    }
    a[i] = half ? shoal_float_to_half(r) : shoal_float_to_bf16(r);
  }
  return 1;
}

/* Complex (re, im) pairs of float (dbl false) or double: sum and prod. */
SHOAL_FN int shoal_reduce_cpair(int op, void *acc, const void *in, size_t n, bool dbl)
{
  if (op != SHOAL_OP_sum && op != SHOAL_OP_prod) return 0;
  for (size_t i = 0; i < 2 * n; i += 2) {
    if (dbl) {
      double *a = (double *)acc + i;
      const double *b = (const double *)in + i;
      if (op == SHOAL_OP_sum) a[0] += b[0], a[1] += b[1];
      else shoal_cpaird_mul(a[0], a[1], b[0], b[1], &a[0], &a[1]);
    } else {
      float *a = (float *)acc + i;
      const float *b = (const float *)in + i;
      if (op == SHOAL_OP_sum) a[0] += b[0], a[1] += b[1];
      else shoal_cpairf_mul(a[0], a[1], b[0], b[1], &a[0], &a[1]);
    }
  }
  return 1;
}

/* On a GPU, one out-of-line copy per unit: only one thread of a block runs
 * these algorithms there (<shoal/gpu_remote_coll.h>), and the switch over
 * every type and operator would otherwise be inlined at each call site. */
#if SHOAL_TARGET_GPU
#define SHOAL_COMBINE_FN static __device__ __noinline__
#else
#define SHOAL_COMBINE_FN SHOAL_FN
#endif

/* acc[i] = acc[i] op in[i] for n elements (the bitwise ops also take the
 * signed types of the deprecated TYPE_OP_to_all).  Returns 0 for a (type, op)
 * pair the tables do not define (callers never pass one). */
SHOAL_COMBINE_FN int shoal_reduce_combine(int type, int op, void *acc, const void *in, size_t n)
{
  if (type == SHOAL_RT_bfloat16 || type == SHOAL_RT_half16) return shoal_reduce_16(op, acc, in, n, type == SHOAL_RT_half16);
  if (type == SHOAL_RT_cpairf || type == SHOAL_RT_cpaird) return shoal_reduce_cpair(op, acc, in, n, type == SHOAL_RT_cpaird);
  switch (op) {
  case SHOAL_OP_and:
    switch (type) { SHOAL_REDUCE_BITWISE_TYPES(SHOAL_CASE_and) SHOAL_TOALL_BITWISE_TYPES(SHOAL_CASE_and) default: break; }
    break;
  case SHOAL_OP_or:
    switch (type) { SHOAL_REDUCE_BITWISE_TYPES(SHOAL_CASE_or) SHOAL_TOALL_BITWISE_TYPES(SHOAL_CASE_or) default: break; }
    break;
  case SHOAL_OP_xor:
    switch (type) { SHOAL_REDUCE_BITWISE_TYPES(SHOAL_CASE_xor) SHOAL_TOALL_BITWISE_TYPES(SHOAL_CASE_xor) default: break; }
    break;
  case SHOAL_OP_min:
    switch (type) { SHOAL_REDUCE_MINMAX_TYPES(SHOAL_CASE_min) SHOAL_HALF_TYPES(SHOAL_CASE_min) default: break; }
    break;
  case SHOAL_OP_max:
    switch (type) { SHOAL_REDUCE_MINMAX_TYPES(SHOAL_CASE_max) SHOAL_HALF_TYPES(SHOAL_CASE_max) default: break; }
    break;
  case SHOAL_OP_sum:
    switch (type) { SHOAL_REDUCE_ARITH_TYPES(SHOAL_CASE_sum) SHOAL_HALF_TYPES(SHOAL_CASE_sum) default: break; }
    break;
  case SHOAL_OP_prod:
    switch (type) { SHOAL_REDUCE_ARITH_TYPES(SHOAL_CASE_prod) SHOAL_HALF_TYPES(SHOAL_CASE_prod) default: break; }
    break;
  default: break;
  }
  return 0;
}

/* acc op= n elements of symmetric `src` on world PE pe: read in place when
 * pe is mapped, else staged through a small local buffer: on the CPU the
 * stack; on a GPU, whose host proxy writes only global memory, my own
 * pushbox ring (nobody pushes to themselves, and the algorithms that call
 * this do not push), or one word at a time where a team has no pushbox. */
SHOAL_FN void shoal_reduce_from(const shoal_team *t, int type, int op, void *acc, const void *src,
                                size_t n, int pe)
{
  const void *r = shoal_dev_ptr(src, pe);
  if (SHOAL_LIKELY(r != NULL)) {
    shoal_reduce_combine(type, op, acc, r, n);
    return;
  }
  size_t es = shoal_reduce_size(type);
#if SHOAL_TARGET_CPU
  (void)t;
#ifdef __cplusplus
  alignas(16) char stack[2048];
#else
  _Alignas(16) char stack[2048];
#endif
  char *buf = stack;
  size_t cap = sizeof stack;
#else
  uint64_t word[2];
  char *buf = shoal_pushbox_mine(t);
  size_t cap = shoal_pushbox_slot_bytes(t);
  if (cap < es) {   /* device types are at most 8 bytes: inline gets */
    buf = (char *)word;
    cap = 8;
  }
#endif
  size_t per = cap / es;
  for (size_t i = 0; i < n; i += per) {
    size_t c = n - i < per ? n - i : per;
    shoal_dev_getmem(SHOAL_DEV_CTX, buf, (const char *)src + i * es, c * es, pe);
    shoal_reduce_combine(type, op, (char *)acc + i * es, buf, c);
  }
}

/* acc = op over team members, in team order, of the n elements at byte
 * offset off of each member's symmetric src.  When acc is my own block of
 * src (in place) it starts from mine instead, so my data is read before it
 * is overwritten; callers computing each element once (two-shot, reduce-
 * scatter) still give every PE the same bits. */
SHOAL_FN void shoal_reduce_block(shoal_team *t, int type, int op, void *acc, const void *src,
                                 size_t off, size_t n)
{
  const char *s = (const char *)src + off;
  size_t bytes = n * shoal_reduce_size(type);
  if (n == 0) return;
  if (acc == (const void *)s) {
    for (int q = 0; q < t->size; q++)
      if (q != t->my_pe) shoal_reduce_from(t, type, op, acc, s, n, shoal_team_world_pe(t, q));
    return;
  }
  if (t->my_pe == 0) shoal_copy(acc, s, bytes);
  else shoal_dev_getmem(SHOAL_DEV_CTX, acc, s, bytes, shoal_team_world_pe(t, 0));
  for (int q = 1; q < t->size; q++)
    if (q == t->my_pe) shoal_reduce_combine(type, op, acc, s, n);
    else shoal_reduce_from(t, type, op, acc, s, n, shoal_team_world_pe(t, q));
}

#endif
