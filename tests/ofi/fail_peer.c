/* A peer that stops answering or dies: the others must end with a clear
 * error, never hang.  Mode (argv[1]): "stop" (PE 1 stops itself), "kill"
 * (PE 1 is killed), "init" (only shmem_init: for a bad provider). */
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static long counter;

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "init";
  shmem_init();
  if (!strcmp(mode, "init")) {
    shmem_finalize();
    return 0;
  }
  shmem_barrier_all();
  if (shmem_my_pe() == 1) raise(!strcmp(mode, "stop") ? SIGSTOP : SIGKILL);
  sleep(1);
  /* Atomics need the target's side of the provider: they cannot finish. */
  for (int i = 0; i < 1000000; i++) shmem_long_atomic_inc(&counter, 1);
  shmem_quiet();
  printf("PE %d: atomics on a dead peer completed?\n", shmem_my_pe());
  return 0;
}
