/* The remote transport: how a PE reaches peers it cannot load/store.
 *
 * Modeled on a libfabric provider: a table of operations, chosen once at
 * init.  Addresses given to the transport are symmetric addresses in the
 * caller's address space (heap or data segment); the transport turns them
 * into (region, offset) itself.  Blocking calls return with the source
 * buffer reusable; completion at the target is only guaranteed by quiet. */
#ifndef SHOAL_TRANSPORT_TRANSPORT_H
#define SHOAL_TRANSPORT_TRANSPORT_H

#include "../runtime/internal.h"
#include "../device/remote.h"

typedef struct shoal_transport {
  const char *name;
  /* Collective over all PEs, after the heap exists.  is_remote[pe] is true
   * for each peer this transport must serve.  Returns 0 or -1. */
  int (*init)(const bool *is_remote);
  void (*fini)(void);
  /* Per-context state (NULL is fine for a transport without any). */
  void *(*ctx_create)(long options);
  void (*ctx_destroy)(void *tctx);
  void (*put)(void *tctx, void *dest, const void *src, size_t n, int pe);
  void (*get)(void *tctx, void *dest, const void *src, size_t n, int pe);
  void (*amo)(void *tctx, shoal_amo_op op, shoal_dtype dt, void *dest, const void *operand,
              const void *compare, void *result, int pe);
  void (*fence)(void *tctx);
  void (*quiet)(void *tctx);
  /* Drive progress for manual-progress providers; called by waiters. */
  void (*progress)(void);
} shoal_transport;

#ifdef SHOAL_HAVE_OFI
SHOAL_HIDDEN extern const shoal_transport shoal_transport_ofi;
#endif

/* Pick and start the transport for peers that are not mapped.  Returns 0,
 * or -1 with an error printed. */
SHOAL_HIDDEN int shoal_transport_init(const bool *is_remote, int n_remote);
SHOAL_HIDDEN void shoal_transport_fini(void);

#endif
