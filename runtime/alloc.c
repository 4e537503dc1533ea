/* The symmetric heap allocator: first fit over an address-ordered block
 * list, with alignment, splitting, and coalescing of neighbours on free.
 *
 * Metadata lives in private memory, never in the heap: user data cannot
 * corrupt it, and identical call sequences on every PE give identical
 * offsets, which is what makes the heap symmetric.  A hash table finds the
 * live block of an offset for free and realloc. */
#include "internal.h"

#include <stdlib.h>

typedef struct block {
  size_t off, size;
  bool free;
  struct block *prev, *next;   /* address order */
  struct block *hnext;         /* hash chain of live blocks */
} block;

struct shoal_allocator {
  size_t size;
  block *head;
  block **buckets;
  size_t nbuckets, live;
};

#define GRAIN ((size_t)16)

static size_t hash_off(const shoal_allocator *a, size_t off)
{
  return (size_t)((off / GRAIN) * 0x9E3779B97F4A7C15ull) & (a->nbuckets - 1);
}

static void hash_insert(shoal_allocator *a, block *b)
{
  if (a->live + 1 > a->nbuckets) {   /* grow: keep chains short */
    size_t n = a->nbuckets * 2;
    block **nb = calloc(n, sizeof *nb);
    if (nb) {
      block **old = a->buckets;
      size_t on = a->nbuckets;
      a->buckets = nb;
      a->nbuckets = n;
      for (size_t i = 0; i < on; i++)
        for (block *c = old[i], *nx; c; c = nx) {
          nx = c->hnext;
          size_t h = hash_off(a, c->off);
          c->hnext = nb[h];
          nb[h] = c;
        }
      free(old);
    }
  }
  size_t h = hash_off(a, b->off);
  b->hnext = a->buckets[h];
  a->buckets[h] = b;
  a->live++;
}

static block *hash_find(shoal_allocator *a, size_t off, bool unlink)
{
  for (block **pp = &a->buckets[hash_off(a, off)]; *pp; pp = &(*pp)->hnext)
    if ((*pp)->off == off) {
      block *b = *pp;
      if (unlink) {
        *pp = b->hnext;
        a->live--;
      }
      return b;
    }
  return NULL;
}

static block *new_block(size_t off, size_t size, bool is_free)
{
  block *b = calloc(1, sizeof *b);
  if (b) {
    b->off = off;
    b->size = size;
    b->free = is_free;
  }
  return b;
}

/* Insert nb right after b in address order. */
static void link_after(block *b, block *nb)
{
  nb->prev = b;
  nb->next = b->next;
  if (b->next) b->next->prev = nb;
  b->next = nb;
}

/* Merge b's free successor into b. */
static void absorb_next(block *b)
{
  block *n = b->next;
  b->size += n->size;
  b->next = n->next;
  if (n->next) n->next->prev = b;
  free(n);
}

shoal_allocator *shoal_alloc_create(size_t size)
{
  shoal_allocator *a = calloc(1, sizeof *a);
  if (!a) return NULL;
  a->size = size & ~(GRAIN - 1);
  a->nbuckets = 64;
  a->buckets = calloc(a->nbuckets, sizeof *a->buckets);
  a->head = new_block(0, a->size, true);
  if (!a->buckets || !a->head) {
    shoal_alloc_destroy(a);
    return NULL;
  }
  return a;
}

void shoal_alloc_destroy(shoal_allocator *a)
{
  if (!a) return;
  for (block *b = a->head, *n; b; b = n) {
    n = b->next;
    free(b);
  }
  free(a->buckets);
  free(a);
}

size_t shoal_alloc(shoal_allocator *a, size_t size, size_t align)
{
  return shoal_alloc_phase(a, size, align, 0);
}

size_t shoal_alloc_phase(shoal_allocator *a, size_t size, size_t align, size_t phase)
{
  if (size == 0 || size > a->size) return SIZE_MAX;
  if (align < GRAIN) align = GRAIN;
  if (align & (align - 1)) return SIZE_MAX;
  phase &= align - 1;
  if (phase & (GRAIN - 1)) return SIZE_MAX;   /* blocks start on grains */
  size = (size + GRAIN - 1) & ~(GRAIN - 1);
  for (block *b = a->head; b; b = b->next) {
    if (!b->free) continue;
    /* the first start >= b->off with (start + phase) % align == 0 */
    size_t start = ((b->off + phase + align - 1) & ~(align - 1)) - phase;
    size_t pad = start - b->off;
    if (b->size < pad || b->size - pad < size) continue;
    if (pad) {   /* leave the padding as a free block in front */
      block *nb = new_block(start, b->size - pad, true);
      if (!nb) return SIZE_MAX;
      b->size = pad;
      link_after(b, nb);
      b = nb;
    }
    if (b->size > size) {   /* split off the tail */
      block *tail = new_block(b->off + size, b->size - size, true);
      if (!tail) return SIZE_MAX;
      b->size = size;
      link_after(b, tail);
    }
    b->free = false;
    hash_insert(a, b);
    return b->off;
  }
  return SIZE_MAX;
}

int shoal_alloc_free(shoal_allocator *a, size_t off)
{
  block *b = hash_find(a, off, true);
  if (!b) return -1;
  b->free = true;
  if (b->next && b->next->free) absorb_next(b);
  if (b->prev && b->prev->free) absorb_next(b->prev);
  return 0;
}

size_t shoal_alloc_block_size(shoal_allocator *a, size_t off)
{
  block *b = hash_find(a, off, false);
  return b ? b->size : 0;
}

size_t shoal_alloc_resize(shoal_allocator *a, size_t off, size_t size, int *moved)
{
  *moved = 0;
  block *b = hash_find(a, off, false);
  if (!b || size == 0) return SIZE_MAX;
  size = (size + GRAIN - 1) & ~(GRAIN - 1);
  if (size <= b->size) {   /* shrink in place; give the tail back */
    if (size < b->size) {
      block *tail = new_block(b->off + size, b->size - size, true);
      if (tail) {
        b->size = size;
        link_after(b, tail);
        if (tail->next && tail->next->free) absorb_next(tail);
      }
    }
    return off;
  }
  block *n = b->next;
  if (n && n->free && b->size + n->size >= size) {   /* grow into the free neighbour */
    size_t need = size - b->size;
    if (n->size == need) {
      absorb_next(b);
    } else {
      n->off += need;
      n->size -= need;
      b->size = size;
    }
    return off;
  }
  size_t noff = shoal_alloc(a, size, GRAIN);
  if (noff != SIZE_MAX) *moved = 1;
  return noff;
}

size_t shoal_alloc_free_bytes(shoal_allocator *a)
{
  size_t n = 0;
  for (block *b = a->head; b; b = b->next)
    if (b->free) n += b->size;
  return n;
}

size_t shoal_alloc_largest_free(shoal_allocator *a)
{
  size_t n = 0;
  for (block *b = a->head; b; b = b->next)
    if (b->free && b->size > n) n = b->size;
  return n;
}

size_t shoal_alloc_live_blocks(shoal_allocator *a) { return a->live; }
