/* A profiling tool (OpenSHMEM 1.5 section 10): it interposes a few shmem_
 * routines, counts the calls and forwards them to their pshmem_ names.
 * tests/install/run.sh links it with the shared and the static library. */
#include <pshmem.h>
#include <stdio.h>

static long puts_seen, barriers_seen, pcontrol_level = -1;

void shmem_int_put(int *dest, const int *source, size_t nelems, int pe)
{
  puts_seen++;
  pshmem_int_put(dest, source, nelems, pe);
}

void shmem_barrier_all(void)
{
  barriers_seen++;
  pshmem_barrier_all();
}

void shmem_pcontrol(const int level, ...)
{
  pcontrol_level = level;
  pshmem_pcontrol(level);
}

void shmem_finalize(void)
{
  printf("pshmem tool: PE %d: puts %ld barriers %ld pcontrol %ld\n", pshmem_my_pe(), puts_seen,
         barriers_seen, pcontrol_level);
  fflush(stdout);
  pshmem_finalize();
}
