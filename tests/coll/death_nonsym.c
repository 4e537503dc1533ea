/* Expected to die: a collective given a private (non-symmetric) buffer
 * that other PEs must access.  death.sh checks the exit status and that
 * the message names the call and the argument (Iris #526). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
  const char *which = argc > 1 ? argv[1] : "reduce";
  shmem_init();
  static int sym_src[64], sym_dst[256];   /* globals are symmetric */
  int *priv = malloc(sizeof(int) * 256);
  for (int i = 0; i < 64; i++) sym_src[i] = priv[i] = i;
  if (!strcmp(which, "reduce")) shmem_int_sum_reduce(SHMEM_TEAM_WORLD, sym_dst, priv, 64);
  else if (!strcmp(which, "reduce_dest")) shmem_int_max_reduce(SHMEM_TEAM_WORLD, priv, sym_src, 64);
  else if (!strcmp(which, "fcollect")) shmem_int_fcollect(SHMEM_TEAM_WORLD, priv, sym_src, 64);
  else if (!strcmp(which, "broadcast")) shmem_int_broadcast(SHMEM_TEAM_WORLD, sym_dst, priv, 64, 0);
  else if (!strcmp(which, "alltoall")) shmem_int_alltoall(SHMEM_TEAM_WORLD, priv, sym_src, 8);
  else if (!strcmp(which, "to_all")) {
    static long psync[SHMEM_REDUCE_SYNC_SIZE];
    long pwrk_priv[8];
    shmem_long_sum_to_all((long *)sym_dst, (long *)sym_src, 4, 0, 0, shmem_n_pes(), pwrk_priv, psync);
  }
  printf("not reached: %s accepted a private buffer\n", which);
  shmem_finalize();
  free(priv);
  return 0;
}
