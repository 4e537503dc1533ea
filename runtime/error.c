/* Errors end the job with a message that names the call and the argument. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vprint(const char *kind, const char *call, const char *fmt, va_list ap)
{
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  /* Inside the library, routines are named pshmem_X (the profiling
   * interface); the user called shmem_X. */
  if (call && strncmp(call, "pshmem_", 7) == 0) call++;
  if (call)
    fprintf(stderr, "shoal: PE %d: %s%s: %s\n", shoal_dstate.my_pe, kind, call, msg);
  else
    fprintf(stderr, "shoal: PE %d: %s%s\n", shoal_dstate.my_pe, kind, msg);
  fflush(stderr);
}

void shoal_error(const char *call, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vprint("error: ", call, fmt, ap);
  va_end(ap);
  shoal_boot_abort(1, "shoal: fatal error");
}

void shoal_warn(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vprint("warning: ", NULL, fmt, ap);
  va_end(ap);
}

void shoal_debug(const char *fmt, ...)
{
  if (!shoal_rt.env.debug) return;
  va_list ap;
  va_start(ap, fmt);
  vprint("debug: ", NULL, fmt, ap);
  va_end(ap);
}

void shoal_not_initialized(const char *call)
{
  if (shoal_rt.initialized == 2)
    fprintf(stderr, "shoal: error: %s: called after shmem_finalize\n", call);
  else
    fprintf(stderr, "shoal: error: %s: called before shmem_init (call shmem_init first)\n", call);
  fflush(stderr);
  exit(1);
}

void shoal_bad_pe(const char *call, int pe)
{
  shoal_error(call, "argument 'pe' = %d is out of range: valid PEs are 0..%d", pe,
              shoal_dstate.n_pes - 1);
}

void shoal_bad_sym(const char *call, const char *arg, const void *addr, size_t bytes)
{
  shoal_error(call,
              "argument '%s' = %p (%zu bytes) is not symmetric: remotely accessed memory must "
              "come from shmem_malloc (or be a global/static variable on the CPU target)",
              arg, addr, bytes);
}

void shoal_bad_align(const char *call, const char *arg, const void *addr, size_t bytes)
{
  shoal_error(call, "argument '%s' = %p is not aligned to %zu bytes: an atomic needs an address "
              "aligned to its size", arg, addr, bytes);
}

void shoal_bad_count(const char *call, const char *arg, size_t n)
{
  shoal_error(call, "argument '%s' = %zu is not a valid count (negative or overflowing?)", arg, n);
}

bool shoal_is_symmetric_range(const void *addr, size_t bytes)
{
  const shoal_dev_state *s = &shoal_dstate;
  size_t off = shoal_region_offset(addr, s->heap_base, s->heap_size);
  if (off != SIZE_MAX) return bytes <= s->heap_size - off;
  off = shoal_region_offset(addr, s->data_base, s->data_size);
  if (off != SIZE_MAX) return bytes <= s->data_size - off;
  return shoal_gpu_owns(addr, bytes);
}
