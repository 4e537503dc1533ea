/* Symmetric global and static variables on the CPU target.
 *
 * OpenSHMEM makes a program's global and static data remotely accessible.
 * At init we copy the executable's writable load segment (.data and .bss,
 * past the RELRO part) into a shared-memory segment and map that segment
 * over the same addresses (MAP_FIXED): the program keeps using its variables
 * unchanged while peers on the node map the segment too.  This runs once, in
 * shmem_init, before the program's other threads could touch its globals. */
#include "internal.h"

#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct range {
  uintptr_t lo, hi;
  int after_relro;   /* lo is the end of RELRO: round up, not down */
} range;

static int find_main_data(struct dl_phdr_info *info, size_t sz, void *arg)
{
  (void)sz;
  range *r = arg;
  uintptr_t relro_end = 0;
  /* The first object dl_iterate_phdr reports is the executable. */
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_GNU_RELRO) relro_end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
  }
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W)) continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
    int after = relro_end > lo && relro_end < hi;
    if (after) lo = relro_end;
    if (hi - lo > r->hi - r->lo) { r->lo = lo; r->hi = hi; r->after_relro = after; }
  }
  return 1;
}

/* A plain word copy: the range holds the sanitizers' redzones between
 * globals, which an instrumented memcpy would report. */
__attribute__((no_sanitize_address, optimize("no-tree-loop-distribute-patterns")))
static void copy_words(void *dst, const void *src, size_t len)
{
  uint64_t *d = dst;
  const uint64_t *s = src;
  for (size_t i = 0; i < len / sizeof *d; i++) d[i] = s[i];
}

int shoal_dataseg_share(shoal_segment *seg, const char *name, char **base, size_t *size)
{
  range r = {0, 0, 0};
  dl_iterate_phdr(find_main_data, &r);
  if (r.hi <= r.lo) return -1;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  /* A page partly holding RELRO data stays private: round up past it. */
  char *lo = (char *)((r.after_relro ? r.lo + page - 1 : r.lo) & ~(page - 1));
  char *hi = (char *)((r.hi + page - 1) & ~(page - 1));
  if (hi <= lo) return -1;
  size_t len = (size_t)(hi - lo);
  if (shoal_segment_create(seg, name, len) != 0) return -1;
  copy_words(seg->base, lo, len);
  void *p = mmap(lo, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, seg->fd, 0);
  if (p != lo) {
    shoal_segment_unlink(seg);
    shoal_segment_destroy(seg);
    return -1;
  }
  munmap(seg->base, len);   /* the program's own addresses are the segment now */
  seg->base = lo;
  *base = lo;
  *size = len;
  return 0;
}
