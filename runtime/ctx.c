/* Communication contexts.  On load/store peers every context behaves the
 * same; the remote transport may keep per-context state (its own endpoint
 * or counters) so that quiet on one context does not wait for another. */
#include "internal.h"
#include "../transport/transport.h"
#ifdef SHOAL_HAVE_OFI
#include "../transport/proxy/am.h"
#endif
#ifdef SHOAL_HAVE_GPU
#include "../gpu/gpu_proxy.h"
#endif

#include <stdlib.h>

int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
  SHOAL_REQUIRE_INIT("shmem_ctx_create");
  if (!ctx) shoal_error("shmem_ctx_create", "argument 'ctx' is NULL");
  long known = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;
  if (options & ~known)
    shoal_error("shmem_ctx_create", "argument 'options' = %#lx has unknown bits (known: "
                "SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE, SHMEM_CTX_NOSTORE)", options);
  struct shoal_ctx *c = calloc(1, sizeof *c);
  if (!c) {
    *ctx = SHMEM_CTX_INVALID;
    return -1;
  }
  c->options = options;
  const shoal_transport *t = shoal_rt.transport;
  if (t && t->ctx_create) {
    c->transport = t->ctx_create(options);
    if (!c->transport) {
      free(c);
      *ctx = SHMEM_CTX_INVALID;
      return -1;
    }
  }
  *ctx = c;
  return 0;
}

void shmem_ctx_destroy(shmem_ctx_t ctx)
{
  SHOAL_REQUIRE_INIT("shmem_ctx_destroy");
  if (ctx == SHMEM_CTX_INVALID) return;
  if (ctx == SHMEM_CTX_DEFAULT)
    shoal_error("shmem_ctx_destroy", "argument 'ctx' is SHMEM_CTX_DEFAULT, which cannot be destroyed");
  shmem_ctx_quiet(ctx);
  const shoal_transport *t = shoal_rt.transport;
  if (t && t->ctx_destroy && ctx->transport) t->ctx_destroy(ctx->transport);
  free(ctx);
}

void shoal_remote_quiet(struct shoal_ctx *ctx)
{
#if defined(SHOAL_HAVE_GPU) && defined(SHOAL_HAVE_OFI)
  /* What finished kernels posted for the proxy is sent first; host puts
   * and AMOs to remote GPU heaps go through the proxy too. */
  shoal_gpu_proxy_drain();
  if (shoal_am_on() && shoal_rt.transport != &shoal_transport_proxy) shoal_am_quiet("shmem_quiet");
#endif
  const shoal_transport *t = shoal_rt.transport;
  if (!t) return;
  /* NULL: every context; contexts share the transport's completion
   * tracking unless it keeps them apart. */
  t->quiet(ctx ? ctx->transport : NULL);
}
