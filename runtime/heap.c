/* shmem_malloc and friends over the allocator in alloc.c.
 *
 * Every PE makes the same calls, so every PE's allocator returns the same
 * offset: a failure (NULL) happens on every PE alike and leaves the heap as
 * it was.  Each call ends (shmem_free: begins) with the barrier the spec
 * requires, so no PE touches a peer's block before the peer has it. */
#include "internal.h"
#include "../collectives/barrier.h"
#include "../device/amo.h"

#include <string.h>
#include <unistd.h>

static void heap_barrier(void)
{
  shoal_wait_in_team(shoal_wait_call, SHMEM_TEAM_WORLD);   /* a collective: waits end if a PE left */
  shoal_coll_barrier(SHMEM_TEAM_WORLD);
}

/* The heap calls are collective and must ask for the same size on every PE,
 * or the next common block lands at different offsets.  Each call leaves
 * its arguments in one of two slots of the runtime words, and after the
 * call's closing barrier reads its right neighbour's: a neighbour can only
 * reuse a slot after the next call's barrier, which this PE enters after
 * reading (so two slots suffice).  Around the ring every pair is seen. */
static unsigned heap_check_seq;

static uint64_t *heap_check_slot(void)
{
  return shoal_rt.left + shoal_dstate.n_pes + 4 * (heap_check_seq & 1);
}

static void heap_check_post(size_t size, size_t align)
{
  uint64_t *w = heap_check_slot();
  shoal_store_relaxed(&w[0], (uint64_t)size);
  shoal_store_relaxed(&w[1], (uint64_t)align);
}

/* After the closing barrier. */
static void heap_check_compare(const char *call, size_t size, size_t align)
{
  uint64_t *w = heap_check_slot();
  heap_check_seq++;
  int n = shoal_dstate.n_pes, me = shoal_dstate.my_pe, peer = (me + 1) % n;
  if (n == 1) return;
  uint64_t psize = shoal_dev_uint64_fetch(SHOAL_DEV_CTX, &w[0], peer);
  uint64_t palign = shoal_dev_uint64_fetch(SHOAL_DEV_CTX, &w[1], peer);
  if (psize != (uint64_t)size)
    shoal_error(call, "PE %d asked for %zu bytes but PE %d for %llu bytes: this call is "
                "collective and every PE must pass the same size (else the heaps fall out of "
                "step)", me, size, peer, (unsigned long long)psize);
  if (palign != (uint64_t)align)
    shoal_error(call, "PE %d asked for alignment %zu but PE %d for %llu: this call is collective "
                "and every PE must pass the same arguments", me, align, peer,
                (unsigned long long)palign);
}

#define GRAIN_OF_HEAP 16   /* the allocator's grain */

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

static void *heap_malloc(const char *call, size_t size)
{
  heap_check_post(size, 0);
  void *p = heap_alloc(call, size, 64);
  heap_barrier();
  heap_check_compare(call, size, 0);
  return p;
}

void *shmem_malloc(size_t size)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_malloc");
  return heap_malloc("shmem_malloc", size);
}

void *shmem_malloc_with_hints(size_t size, long hints)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_malloc_with_hints");
  long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
  /* a hint never makes a correct program fail: unknown bits are ignored */
  if (hints & ~known)
    shoal_debug("shmem_malloc_with_hints: ignoring unknown bits %#lx of argument 'hints' = %#lx "
                "(known: SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE)",
                hints & ~known, hints);
  /* Every block is already fit for remote atomics and signals. */
  return heap_malloc("shmem_malloc_with_hints", size);
}

/* Contents of heap blocks: host memory, or GPU memory in GPU builds. */
static void heap_fill(const char *call, void *p, size_t n)
{
#ifdef SHOAL_HAVE_GPU
  if (shoal_gpu_owns(p, n)) { shoal_gpu_fill(call, p, 0, n); return; }
#endif
  (void)call;
  memset(p, 0, n);
}
static void heap_copy(const char *call, void *dest, const void *src, size_t n)
{
#ifdef SHOAL_HAVE_GPU
  if (shoal_gpu_owns(dest, n)) { shoal_gpu_copy(call, dest, src, n); return; }
#endif
  (void)call;
  memcpy(dest, src, n);
}

void *shmem_calloc(size_t count, size_t size)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_calloc");
  void *p = NULL;
  bool overflow = size && count > SIZE_MAX / size;
  heap_check_post(overflow ? SIZE_MAX : count * size, 0);
  if (overflow)
    shoal_debug("shmem_calloc(%zu, %zu): the size overflows", count, size);
  else if ((p = heap_alloc("shmem_calloc", count * size, 64)))
    heap_fill("shmem_calloc", p, count * size);
  heap_barrier();
  heap_check_compare("shmem_calloc", overflow ? SIZE_MAX : count * size, 0);
  return p;
}

/* The allocator aligns offsets; an address is aligned when the offset is
 * aligned relative to the heap base's own phase (user_heap % alignment).
 * Up to the page size every PE's phase is 0.  Beyond it, the mappings'
 * addresses decide, and the offset is symmetric only if every PE has the
 * same phase: agree on it (OR and AND of the phases on PE 0 match exactly
 * when all are equal), else fail on every PE alike.  Collective, as
 * shmem_align is. */
static bool heap_common_phase(size_t alignment, size_t *phase)
{
  *phase = (size_t)((uintptr_t)shoal_rt.user_heap & (alignment - 1));
  if (alignment <= (size_t)sysconf(_SC_PAGESIZE) || shoal_dstate.n_pes == 1) return true;
  size_t off = shoal_alloc(shoal_rt.alloc, 2 * sizeof(uint64_t), GRAIN_OF_HEAP);
  if (off == SIZE_MAX) return false;   /* same on every PE */
  uint64_t *acc = (uint64_t *)(shoal_rt.user_heap + off);
  acc[0] = 0;             /* OR of the phases (PE 0's copy is used) */
  acc[1] = ~(uint64_t)0;  /* AND of the phases */
  heap_barrier();
  (void)shoal_dev_uint64_fetch_or(SHOAL_DEV_CTX, &acc[0], (uint64_t)*phase, 0);
  (void)shoal_dev_uint64_fetch_and(SHOAL_DEV_CTX, &acc[1], (uint64_t)*phase, 0);
  heap_barrier();
  bool same = shoal_dev_uint64_fetch(SHOAL_DEV_CTX, &acc[0], 0) ==
              shoal_dev_uint64_fetch(SHOAL_DEV_CTX, &acc[1], 0);
  shoal_alloc_free(shoal_rt.alloc, off);   /* PE 0's copy is not written again */
  if (!same)
    shoal_debug("shmem_align(%zu): the PEs' heaps are not mapped at the same offset from a "
                "%zu-byte boundary, so no symmetric block can be aligned to it", alignment,
                alignment);
  return same;
}

void *shmem_align(size_t alignment, size_t size)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_align");
  void *p = NULL;
  if (alignment == 0 || (alignment & (alignment - 1)))
    shoal_error("shmem_align", "argument 'alignment' = %zu is not a power of two", alignment);
  size_t phase;
  heap_check_post(size, alignment);
  if (size != 0 && heap_common_phase(alignment, &phase)) {
    size_t off = shoal_alloc_phase(shoal_rt.alloc, size, alignment, phase);
    if (off != SIZE_MAX) p = shoal_rt.user_heap + off;
    else shoal_debug("shmem_align(%zu, %zu): symmetric heap exhausted: %zu of %zu bytes free, "
                     "largest free block %zu bytes; raise SHMEM_SYMMETRIC_SIZE", alignment, size,
                     shoal_alloc_free_bytes(shoal_rt.alloc), shoal_rt.user_size,
                     shoal_alloc_largest_free(shoal_rt.alloc));
  }
  heap_barrier();
  heap_check_compare("shmem_align", size, alignment);
  return p;
}

void shmem_free(void *ptr)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_free");
  heap_barrier();
  if (!ptr) return;
  size_t off = heap_offset(ptr);
  if (off == SIZE_MAX || shoal_alloc_free(shoal_rt.alloc, off) != 0) bad_pointer("shmem_free", ptr);
}

void *shmem_realloc(void *ptr, size_t size)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_realloc");
  if (!ptr) return heap_malloc("shmem_realloc", size);
  if (size == 0) {
    shmem_free(ptr);
    return NULL;
  }
  size_t off = heap_offset(ptr);
  if (off == SIZE_MAX) bad_pointer("shmem_realloc", ptr);
  heap_check_post(size, 0);
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
      heap_copy("shmem_realloc", p, ptr, old < size ? old : size);
      shoal_alloc_free(shoal_rt.alloc, off);
    }
  }
  heap_barrier();
  heap_check_compare("shmem_realloc", size, 0);
  return p;
}

/* Deprecated 1.4 names. */
void *shmalloc(size_t size) { return shmem_malloc(size); }
void shfree(void *ptr) { shmem_free(ptr); }
void *shrealloc(void *ptr, size_t size) { return shmem_realloc(ptr, size); }
void *shmemalign(size_t alignment, size_t size) { return shmem_align(alignment, size); }
