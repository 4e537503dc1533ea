/* POSIX shared-memory segments: each PE creates its own (mode 0600), every
 * PE of the node maps it, and the owner unlinks the name as soon as all have
 * mapped it, so nothing is left in /dev/shm after a normal exit or a kill. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int shoal_segment_create(shoal_segment *s, const char *name, size_t size)
{
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", name);
  s->size = size;
  shm_unlink(name);   /* a stale segment of a crashed job with our name */
  s->fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
  if (s->fd < 0) {
    shoal_warn("shm_open(%s): %s", name, strerror(errno));
    return -1;
  }
  if (ftruncate(s->fd, (off_t)size) != 0) {
    shoal_warn("ftruncate(%s, %zu): %s (is /dev/shm large enough? see SHMEM_SYMMETRIC_SIZE)",
               name, size, strerror(errno));
    goto fail;
  }
  s->base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
  if (s->base == MAP_FAILED) {
    shoal_warn("mmap(%s, %zu): %s", name, size, strerror(errno));
    s->base = NULL;
    goto fail;
  }
  return 0;
fail:
  close(s->fd);
  shm_unlink(name);
  s->fd = -1;
  return -1;
}

void *shoal_segment_map_peer(const char *name, size_t size)
{
  int fd = shm_open(name, O_RDWR, 0600);
  if (fd < 0) return NULL;
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  return p == MAP_FAILED ? NULL : p;
}

void shoal_segment_unlink(shoal_segment *s)
{
  if (s->name[0]) shm_unlink(s->name);
  if (s->fd >= 0) close(s->fd);
  s->fd = -1;
}

void shoal_segment_destroy(shoal_segment *s)
{
  if (s->base) munmap(s->base, s->size);
  s->base = NULL;
}
