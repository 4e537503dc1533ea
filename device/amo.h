/* Atomic memory operations on a peer's symmetric object.
 *
 * On a mapped peer they are hardware atomics on the shared mapping; else the
 * remote transport does them (natively or emulated, its choice).  One generic
 * body per operation, instantiated for each AMO type by the X-macro at the
 * bottom. */
#ifndef SHOAL_DEVICE_AMO_H
#define SHOAL_DEVICE_AMO_H

#include "remote.h"
#include <shoal/types.h>

/* The remote fallback, shared by every operation. */
#define SHOAL_AMO_REMOTE(T, OP, dest, val, cmp, pe) do { \
    T res_ = 0, val_ = (val), cmp_ = (cmp); \
    shoal_remote_amo(ctx, OP, SHOAL_DTYPE_OF(T), dest, &val_, &cmp_, &res_, pe); \
    return res_; \
  } while (0)

/* A misaligned AMO would be torn or fault: refused.  The host entry
 * points check it with the other arguments (runtime/api_amo.c); in kernels
 * one check here, then the kernel traps and the host reports the trap. */
#if SHOAL_TARGET_GPU
SHOAL_COLD_FN void shoal_gpu_amo_misaligned(const char *arg, const void *p, int size)
{
  printf("shoal: PE %d: error: atomic in a kernel: argument '%s' = %p is not aligned to %d bytes\n",
         SHOAL_STATE->my_pe, arg, p, size);
  shoal_gpu_trap();
}
#define SHOAL_AMO_ALIGNED(T, ARG, p) do { \
    if (SHOAL_UNLIKELY((uintptr_t)(p) & (sizeof(T) - 1))) \
      shoal_gpu_amo_misaligned(ARG, (const void *)(p), (int)sizeof(T)); \
  } while (0)
#else
#define SHOAL_AMO_ALIGNED(T, ARG, p) ((void)0)
#endif

#define SHOAL_DEV_AMO_EXT(T, N) \
  SHOAL_FN T shoal_dev_##N##_fetch(struct shoal_ctx *ctx, const T *src, int pe) { \
    SHOAL_AMO_ALIGNED(T, "source", src); \
    T *r = (T *)shoal_dev_amo_ptr(src, pe), out; \
    if (SHOAL_LIKELY(r != NULL)) { shoal_atomic_load_any(r, &out); return out; } \
    SHOAL_AMO_REMOTE(T, SHOAL_AMO_FETCH, (T *)src, 0, 0, pe); \
  } \
  SHOAL_FN void shoal_dev_##N##_set(struct shoal_ctx *ctx, T *dest, T v, int pe) { \
    SHOAL_AMO_ALIGNED(T, "dest", dest); \
    T *r = (T *)shoal_dev_amo_ptr(dest, pe); \
    if (SHOAL_LIKELY(r != NULL)) { shoal_atomic_store_any(r, &v); return; } \
    T res_ = 0, cmp_ = 0; \
    shoal_remote_amo(ctx, SHOAL_AMO_SET, SHOAL_DTYPE_OF(T), dest, &v, &cmp_, &res_, pe); \
  } \
  SHOAL_FN T shoal_dev_##N##_swap(struct shoal_ctx *ctx, T *dest, T v, int pe) { \
    SHOAL_AMO_ALIGNED(T, "dest", dest); \
    T *r = (T *)shoal_dev_amo_ptr(dest, pe), out; \
    if (SHOAL_LIKELY(r != NULL)) { shoal_atomic_swap_any(r, &v, &out); return out; } \
    SHOAL_AMO_REMOTE(T, SHOAL_AMO_SWAP, dest, v, 0, pe); \
  }

#define SHOAL_DEV_AMO_STD(T, N) \
  SHOAL_FN T shoal_dev_##N##_compare_swap(struct shoal_ctx *ctx, T *dest, T cond, T v, int pe) { \
    SHOAL_AMO_ALIGNED(T, "dest", dest); \
    T *r = (T *)shoal_dev_amo_ptr(dest, pe); \
    if (SHOAL_LIKELY(r != NULL)) { T old = cond; shoal_cas(r, &old, v); return old; } \
    SHOAL_AMO_REMOTE(T, SHOAL_AMO_CSWAP, dest, v, cond, pe); \
  } \
  SHOAL_FN T shoal_dev_##N##_fetch_add(struct shoal_ctx *ctx, T *dest, T v, int pe) { \
    SHOAL_AMO_ALIGNED(T, "dest", dest); \
    T *r = (T *)shoal_dev_amo_ptr(dest, pe); \
    if (SHOAL_LIKELY(r != NULL)) return shoal_fetch_add(r, v); \
    SHOAL_AMO_REMOTE(T, SHOAL_AMO_FETCH_ADD, dest, v, 0, pe); \
  }

#define SHOAL_DEV_AMO_BIT_OP(T, N, OP, OPC) \
  SHOAL_FN T shoal_dev_##N##_fetch_##OP(struct shoal_ctx *ctx, T *dest, T v, int pe) { \
    SHOAL_AMO_ALIGNED(T, "dest", dest); \
    T *r = (T *)shoal_dev_amo_ptr(dest, pe); \
    if (SHOAL_LIKELY(r != NULL)) return shoal_fetch_##OP(r, v); \
    SHOAL_AMO_REMOTE(T, OPC, dest, v, 0, pe); \
  }
#define SHOAL_DEV_AMO_BIT(T, N) \
  SHOAL_DEV_AMO_BIT_OP(T, N, and, SHOAL_AMO_FETCH_AND) \
  SHOAL_DEV_AMO_BIT_OP(T, N, or, SHOAL_AMO_FETCH_OR) \
  SHOAL_DEV_AMO_BIT_OP(T, N, xor, SHOAL_AMO_FETCH_XOR)

SHOAL_AMO_EXT_TYPES(SHOAL_DEV_AMO_EXT)
SHOAL_AMO_STD_TYPES(SHOAL_DEV_AMO_STD)
SHOAL_AMO_BIT_TYPES(SHOAL_DEV_AMO_BIT)

#endif
