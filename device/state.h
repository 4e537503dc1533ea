/* What device code needs to know about the job: who am I, and where each
 * peer's symmetric memory is mapped in my address space. */
#ifndef SHOAL_DEVICE_STATE_H
#define SHOAL_DEVICE_STATE_H

#include "arch.h"

struct shoal_ctx;   /* opaque to device code; transports look inside */

typedef struct shoal_dev_state {
  int my_pe;
  int n_pes;
  /* Symmetric heap: my mapping, and each peer's heap as mapped here (NULL
   * where a peer is not mapped, e.g. on another node). */
  char *heap_base;
  size_t heap_size;
  char **peer_heap;
  /* CPU target: the program's data and bss segments are symmetric too. */
  char *data_base;
  size_t data_size;
  char **peer_data;
  /* Set by a transport whose atomics are not atomic with CPU atomics on
   * the same memory: then every AMO, mapped peers' too, goes through it. */
  int amo_remote;
} shoal_dev_state;

#if SHOAL_TARGET_CPU
extern shoal_dev_state shoal_dstate __attribute__((visibility("hidden")));
#define SHOAL_STATE (&shoal_dstate)
#define SHOAL_PEER_HEAP(pe) (shoal_dstate.peer_heap[pe])
#else
#include "state_gpu.h"
#endif

/* Offset of addr inside the region [base, base + size), or SIZE_MAX. */
SHOAL_FN size_t shoal_region_offset(const void *addr, const char *base, size_t size)
{
  size_t off = (size_t)((uintptr_t)addr - (uintptr_t)base);
  return off < size ? off : SIZE_MAX;
}

/* Is addr inside symmetric memory (heap or, on the CPU, data segment)? */
SHOAL_FN int shoal_dev_is_symmetric(const void *addr)
{
  const shoal_dev_state *s = SHOAL_STATE;
  return shoal_region_offset(addr, s->heap_base, s->heap_size) != SIZE_MAX ||
         shoal_region_offset(addr, s->data_base, s->data_size) != SIZE_MAX;
}

/* The local address of symmetric object addr on PE pe, or NULL when pe's
 * memory is not mapped here (or addr is not symmetric).  This is the only
 * place that turns a symmetric address into a peer address; pe is always a
 * world PE (teams translate first, in teams/team.h). */
SHOAL_FN void *shoal_dev_ptr(const void *addr, int pe)
{
  const shoal_dev_state *s = SHOAL_STATE;
  size_t off = shoal_region_offset(addr, s->heap_base, s->heap_size);
  if (SHOAL_LIKELY(off != SIZE_MAX)) {
    char *base = SHOAL_PEER_HEAP(pe);
    return base ? base + off : NULL;
  }
  off = shoal_region_offset(addr, s->data_base, s->data_size);
  if (off != SIZE_MAX) {
    char *base = s->peer_data ? s->peer_data[pe] : NULL;
    return base ? base + off : NULL;
  }
  return NULL;
}

/* Where an AMO on addr at pe may use hardware atomics on a mapping; NULL
 * sends it through the remote transport. */
SHOAL_FN void *shoal_dev_amo_ptr(const void *addr, int pe)
{
  if (SHOAL_UNLIKELY(SHOAL_STATE->amo_remote)) return NULL;
  return shoal_dev_ptr(addr, pe);
}

#endif
