/* An atomic counter on PE 0: every PE takes tickets with fetch_add.  Each
 * ticket must be handed out exactly once, and the final count must be
 * n_pes * TICKETS.  Exits non-zero on error. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define TICKETS 1000

static long counter;   /* symmetric: a global */

int main(void)
{
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  long total = (long)n * TICKETS;
  /* seen[t] on PE 0 is set by whichever PE drew ticket t */
  int *seen = shmem_calloc((size_t)total, sizeof(int));
  if (!seen) shmem_global_exit(2);

  for (int i = 0; i < TICKETS; i++) {
    long t = shmem_long_atomic_fetch_add(&counter, 1, 0);
    if (t < 0 || t >= total) {
      printf("PE %d: ticket %ld out of range\n", me, t);
      shmem_global_exit(1);
    }
    shmem_int_atomic_inc(&seen[t], 0);
  }
  shmem_barrier_all();

  int status = 0;
  if (me == 0) {
    long dup = 0;
    for (long t = 0; t < total; t++) dup += seen[t] != 1;
    if (counter != total || dup) {
      printf("atomic_counter: counter %ld (expected %ld), %ld tickets not drawn exactly once\n",
             counter, total, dup);
      status = 1;
    } else {
      printf("atomic_counter: %d PEs drew %ld distinct tickets: ok\n", n, total);
    }
  }
  shmem_barrier_all();
  /* PE 0's verdict for everyone */
  status = shmem_long_g(&counter, 0) != total || status;
  shmem_free(seen);
  shmem_finalize();
  return status;
}
