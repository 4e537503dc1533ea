/* shmem_malloc and friends over the allocator in alloc.c.
 *
 * Every PE makes the same calls, so every PE's allocator returns the same
 * offset: a failure (NULL) happens on every PE alike and leaves the heap as
 * it was.  Each call ends (shmem_free: begins) with the barrier the spec
 * requires, so no PE touches a peer's block before the peer has it. */
#include "internal.h"
#include "../collectives/barrier.h"

#include <string.h>

static void heap_barrier(void) { shoal_coll_barrier(SHMEM_TEAM_WORLD); }

static void *heap_alloc(const char *call, size_t size, size_t align)
{
  if (size == 0) return NULL;
  size_t off = shoal_alloc(shoal_rt.alloc, size, align);
  if (off == SIZE_MAX) {
    shoal_debug("%s(%zu): symmetric heap exhausted: %zu of %zu bytes free, largest free block "
                "%zu bytes; raise SHMEM_SYMMETRIC_SIZE", call, size,
                shoal_alloc_free_bytes(shoal_rt.alloc), shoal_rt.user_size,
                shoal_alloc_largest_free(shoal_rt.alloc));
    return NULL;
  }
  return shoal_rt.user_heap + off;
}

/* The allocator offset of a pointer the user hands back, or SIZE_MAX. */
static size_t heap_offset(const void *ptr)
{
  size_t off = shoal_region_offset(ptr, shoal_rt.user_heap, shoal_rt.user_size);
  if (off == SIZE_MAX || shoal_alloc_block_size(shoal_rt.alloc, off) == 0) return SIZE_MAX;
  return off;
}

static _Noreturn void bad_pointer(const char *call, const void *ptr)
{
  shoal_error(call, "argument 'ptr' = %p was not returned by shmem_malloc/calloc/align/realloc, "
              "or was already freed", ptr);
}

void *shmem_malloc(size_t size)
{
  SHOAL_REQUIRE_INIT("shmem_malloc");
  void *p = heap_alloc("shmem_malloc", size, 64);
  heap_barrier();
  return p;
}

void *shmem_malloc_with_hints(size_t size, long hints)
{
  SHOAL_REQUIRE_INIT("shmem_malloc_with_hints");
  long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
  if (hints & ~known)
    shoal_error("shmem_malloc_with_hints", "argument 'hints' = %#lx has unknown bits (known: "
                "SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE)", hints);
  /* Every block is already fit for remote atomics and signals. */
  return shmem_malloc(size);
}

void *shmem_calloc(size_t count, size_t size)
{
  SHOAL_REQUIRE_INIT("shmem_calloc");
  void *p = NULL;
  if (size && count > SIZE_MAX / size)
    shoal_debug("shmem_calloc(%zu, %zu): the size overflows", count, size);
  else if ((p = heap_alloc("shmem_calloc", count * size, 64)))
    memset(p, 0, count * size);
  heap_barrier();
  return p;
}

void *shmem_align(size_t alignment, size_t size)
{
  SHOAL_REQUIRE_INIT("shmem_align");
  void *p = NULL;
  if (alignment == 0 || (alignment & (alignment - 1)))
    shoal_error("shmem_align", "argument 'alignment' = %zu is not a power of two", alignment);
  p = heap_alloc("shmem_align", size, alignment);
  heap_barrier();
  return p;
}

void shmem_free(void *ptr)
{
  SHOAL_REQUIRE_INIT("shmem_free");
  heap_barrier();
  if (!ptr) return;
  size_t off = heap_offset(ptr);
  if (off == SIZE_MAX || shoal_alloc_free(shoal_rt.alloc, off) != 0) bad_pointer("shmem_free", ptr);
}

void *shmem_realloc(void *ptr, size_t size)
{
  SHOAL_REQUIRE_INIT("shmem_realloc");
  if (!ptr) return shmem_malloc(size);
  if (size == 0) {
    shmem_free(ptr);
    return NULL;
  }
  size_t off = heap_offset(ptr);
  if (off == SIZE_MAX) bad_pointer("shmem_realloc", ptr);
  heap_barrier();   /* peers are done with the old block */
  size_t old = shoal_alloc_block_size(shoal_rt.alloc, off);
  int moved;
  size_t noff = shoal_alloc_resize(shoal_rt.alloc, off, size, &moved);
  void *p = NULL;
  if (noff == SIZE_MAX) {
    shoal_debug("shmem_realloc(%p, %zu): symmetric heap exhausted; the old block is kept", ptr,
                size);
  } else {
    p = shoal_rt.user_heap + noff;
    if (moved) {
      memcpy(p, ptr, old < size ? old : size);
      shoal_alloc_free(shoal_rt.alloc, off);
    }
  }
  heap_barrier();
  return p;
}

/* Deprecated 1.4 names. */
void *shmalloc(size_t size) { return shmem_malloc(size); }
void shfree(void *ptr) { shmem_free(ptr); }
void *shrealloc(void *ptr, size_t size) { return shmem_realloc(ptr, size); }
void *shmemalign(size_t alignment, size_t size) { return shmem_align(alignment, size); }
