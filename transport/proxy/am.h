/* Active messages over libfabric: the fabric half of the host proxy.
 *
 * Each PE opens its own RDM endpoint with FI_MSG and a service thread that
 * answers peers.  An operation on a peer's memory is a message to that
 * peer's proxy, which applies it to its own memory (host memory, or its
 * GPU heap with the GPU runtime's copies and kernels), so any provider with
 * RDM messages works, GPU memory registration (FI_HMEM) or not (with it,
 * puts and gets between GPU heaps are zero-copy RMA).  Messages
 * from one PE are applied in the order sent (FI_ORDER_SAS), which gives
 * fence for free; quiet is a round trip to every peer written to.
 *
 * Regions name memory by (region, offset): the same offset on every PE. */
#ifndef SHOAL_TRANSPORT_PROXY_AM_H
#define SHOAL_TRANSPORT_PROXY_AM_H

#include "../transport.h"

enum { SHOAL_AM_HEAP, SHOAL_AM_DATA, SHOAL_AM_GPU_HEAP, SHOAL_AM_N_REGIONS };

/* Collective over all PEs.  Returns 0, or -1 with an error printed that
 * names the provider and what it lacks. */
SHOAL_HIDDEN int shoal_am_init(void);
SHOAL_HIDDEN void shoal_am_fini(void);
SHOAL_HIDDEN bool shoal_am_on(void);
/* The GPU heap, once the GPU runtime has it (offsets index it). */
SHOAL_HIDDEN void shoal_am_set_region(int region, void *base, size_t size);
/* The GPU the service thread works on (it applies peers' data to it). */
SHOAL_HIDDEN void shoal_am_set_gpu_device(int dev);
/* Blocking in the OpenSHMEM sense: put returns with src reusable (copied
 * out), get and amo with the result in place.  src/dest may be host or
 * device memory of any kind. */
SHOAL_HIDDEN void shoal_am_put(const char *call, int pe, int region, size_t off, const void *src, size_t n);
SHOAL_HIDDEN void shoal_am_get(const char *call, int pe, int region, size_t off, void *dest, size_t n);
SHOAL_HIDDEN void shoal_am_amo(const char *call, int pe, int region, size_t off, shoal_amo_op op,
                               shoal_dtype dt, const void *operand, const void *compare, void *result);
/* Every put and AMO issued so far is applied at its target. */
SHOAL_HIDDEN void shoal_am_quiet(const char *call);
/* For shoal-info and SHMEM_DEBUG: provider name and FI_HMEM support. */
SHOAL_HIDDEN const char *shoal_am_provider(void);
SHOAL_HIDDEN bool shoal_am_hmem(void);
/* Collective, after shoal_am_set_region(SHOAL_AM_GPU_HEAP): register the
 * GPU heap with the provider (FI_HMEM) for zero-copy puts and gets between
 * GPU heaps; off unless every PE could. */
SHOAL_HIDDEN void shoal_am_register_gpu_heap(int device);
/* Whether it is on, and why not (why: "" when on). */
SHOAL_HIDDEN bool shoal_am_zero_copy(const char **why);

/* The proxy as a host transport (SHOAL_TRANSPORT=proxy): every remote
 * operation of the CPU API through active messages. */
SHOAL_HIDDEN extern const shoal_transport shoal_transport_proxy;

#endif
