/* The remote-transport seam, as device code sees it.
 *
 * When shoal_dev_ptr() finds no mapping for a peer, the operation goes
 * through these calls.  On the CPU they enter the runtime's transport
 * (transport/transport.h: libfabric, or an honest error); on a GPU they are
 * posted to the host proxy.  Addresses are symmetric addresses in the
 * caller's own space; the transport turns them into offsets. */
#ifndef SHOAL_DEVICE_REMOTE_H
#define SHOAL_DEVICE_REMOTE_H

#include "state.h"

typedef enum shoal_dtype {
  SHOAL_DT_I32, SHOAL_DT_I64, SHOAL_DT_U32, SHOAL_DT_U64, SHOAL_DT_F32, SHOAL_DT_F64,
} shoal_dtype;

/* The dtype of a C type, as a constant expression. */
#define SHOAL_DTYPE_OF(T) \
  ((T)0.5 != (T)0 ? (sizeof(T) == 4 ? SHOAL_DT_F32 : SHOAL_DT_F64) \
   : ((T)-1 < (T)1) ? (sizeof(T) == 4 ? SHOAL_DT_I32 : SHOAL_DT_I64) \
   : (sizeof(T) == 4 ? SHOAL_DT_U32 : SHOAL_DT_U64))

typedef enum shoal_amo_op {
  SHOAL_AMO_FETCH, SHOAL_AMO_SET, SHOAL_AMO_SWAP, SHOAL_AMO_CSWAP,
  SHOAL_AMO_FETCH_ADD, SHOAL_AMO_FETCH_AND, SHOAL_AMO_FETCH_OR, SHOAL_AMO_FETCH_XOR,
  SHOAL_AMO_ADD, SHOAL_AMO_AND, SHOAL_AMO_OR, SHOAL_AMO_XOR,  /* non-fetching */
} shoal_amo_op;

#if SHOAL_TARGET_CPU
#define SHOAL_HIDDEN __attribute__((visibility("hidden")))
SHOAL_HIDDEN void shoal_remote_put(struct shoal_ctx *ctx, void *dest, const void *src, size_t n, int pe);
SHOAL_HIDDEN void shoal_remote_get(struct shoal_ctx *ctx, void *dest, const void *src, size_t n, int pe);
SHOAL_HIDDEN void shoal_remote_amo(struct shoal_ctx *ctx, shoal_amo_op op, shoal_dtype dt, void *dest,
                                   const void *operand, const void *compare, void *result, int pe);
/* Orders earlier remote operations of ctx before later ones. */
SHOAL_HIDDEN void shoal_remote_fence(struct shoal_ctx *ctx);
/* Completes earlier remote operations of ctx (NULL: of every context). */
SHOAL_HIDDEN void shoal_remote_quiet(struct shoal_ctx *ctx);
/* The context device-level code uses when the API gave none. */
SHOAL_HIDDEN extern struct shoal_ctx shoal_ctx_default;
#define SHOAL_DEV_CTX (&shoal_ctx_default)
#else
#include "remote_gpu.h"
#endif

/* quiet: every store, put and AMO issued so far is complete and visible. */
SHOAL_FN void shoal_dev_quiet(struct shoal_ctx *ctx)
{
  shoal_fence_system();
  shoal_remote_quiet(ctx);
}

#endif
