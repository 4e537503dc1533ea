/* Dispatch from device/remote.h's seam to the chosen transport. */
#include "transport.h"
#ifdef SHOAL_HAVE_OFI
#include "proxy/am.h"
#endif

#include <string.h>

static const char *op_call(shoal_amo_op op)
{
  return op <= SHOAL_AMO_FETCH ? "atomic fetch" : "atomic operation";
}

/* Without a transport an unmapped peer is an error, never a silent no-op. */
static _Noreturn void no_transport(const char *what, int pe)
{
  shoal_error(what,
              "PE %d is not reachable by load/store from PE %d and no remote transport is "
              "active (build with libfabric, or run all PEs on one node)",
              pe, shoal_dstate.my_pe);
}

/* GPU builds: the symmetric heap is GPU memory, which the host reaches
 * through the GPU runtime rather than the fabric. */
void shoal_remote_put(struct shoal_ctx *ctx, void *dest, const void *src, size_t n, int pe)
{
  if (n == 0) return;   /* nothing moves, so no transport is needed (NULL dest is valid) */
#ifdef SHOAL_HAVE_GPU
  if (shoal_gpu_owns(dest, 1)) { shoal_gpu_rma(1, dest, src, n, pe); return; }
#endif
  if (!shoal_rt.transport) no_transport("put", pe);
  shoal_rt.transport->put(ctx->transport, dest, src, n, pe);
}

void shoal_remote_get(struct shoal_ctx *ctx, void *dest, const void *src, size_t n, int pe)
{
  if (n == 0) return;
#ifdef SHOAL_HAVE_GPU
  if (shoal_gpu_owns(src, 1)) { shoal_gpu_rma(0, dest, src, n, pe); return; }
#endif
  if (!shoal_rt.transport) no_transport("get", pe);
  shoal_rt.transport->get(ctx->transport, dest, src, n, pe);
}

void shoal_remote_amo(struct shoal_ctx *ctx, shoal_amo_op op, shoal_dtype dt, void *dest,
                      const void *operand, const void *compare, void *result, int pe)
{
#ifdef SHOAL_HAVE_GPU
  if (shoal_gpu_owns(dest, 1)) { shoal_gpu_amo(op, dt, dest, operand, compare, result, pe); return; }
#endif
  if (!shoal_rt.transport) no_transport(op_call(op), pe);
  shoal_rt.transport->amo(ctx->transport, op, dt, dest, operand, compare, result, pe);
}

void shoal_remote_fence(struct shoal_ctx *ctx)
{
  if (shoal_rt.transport) shoal_rt.transport->fence(ctx->transport);
}

void shoal_progress_hook(void)
{
  if (shoal_rt.transport && shoal_rt.transport->progress) shoal_rt.transport->progress();
}

int shoal_transport_init(const bool *is_remote, int n_remote)
{
  const char *want = shoal_rt.env.transport;
  shoal_rt.transport = NULL;
  if (n_remote == 0 && !strcmp(want, "auto")) return 0;
#ifdef SHOAL_HAVE_OFI
  const shoal_transport *t = strcmp(want, "proxy") ? &shoal_transport_ofi : &shoal_transport_proxy;
  if (t->init(is_remote) != 0) return -1;
  shoal_rt.transport = t;
  shoal_ctx_default.transport = t->ctx_create ? t->ctx_create(0) : NULL;
  return 0;
#else
  (void)is_remote;
  if (n_remote > 0)
    shoal_warn("%d peers are not reachable by load/store and this build has no libfabric "
               "transport: operations on them will fail", n_remote);
  return 0;
#endif
}

void shoal_transport_fini(void)
{
  if (!shoal_rt.transport) return;
  if (shoal_rt.transport->ctx_destroy) shoal_rt.transport->ctx_destroy(shoal_ctx_default.transport);
  shoal_rt.transport->fini();
  shoal_rt.transport = NULL;
}
