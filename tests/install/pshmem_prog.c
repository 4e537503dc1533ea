/* The program the profiling tool (pshmem_tool.c) watches: 3 puts round a
 * ring, 6 barriers, shmem_pcontrol(2); the data must still arrive. */
#include <shmem.h>
#include <stdio.h>

static int dst[3];

int main(void)
{
  shmem_init();
  shmem_pcontrol(2);
  int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  int src[3];
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 3; i++) src[i] = 1000 * me + 10 * round + i + 1;
    shmem_int_put(dst, src, 3, right);
    shmem_barrier_all();
    for (int i = 0; i < 3; i++)
      if (dst[i] != 1000 * left + 10 * round + i + 1) {
        printf("pshmem prog: PE %d: round %d element %d wrong\n", me, round, i);
        return 1;
      }
    shmem_barrier_all();   /* checked before the next round's put */
  }
  shmem_finalize();
  return 0;
}
