/* Hello from every PE, then a ring: each PE puts its number to the next. */
#include <shmem.h>
#include <stdio.h>

static int from_left = -1;   /* global: symmetric on the CPU target */

int main(void)
{
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  char name[SHMEM_MAX_NAME_LEN];
  shmem_info_get_name(name);
  printf("Hello from PE %d of %d (%s)\n", me, n, name);
  shmem_int_p(&from_left, me, (me + 1) % n);
  shmem_barrier_all();
  int expect = (me + n - 1) % n;
  if (from_left != expect) {
    printf("PE %d: expected %d from the left, got %d\n", me, expect, from_left);
    shmem_global_exit(1);
  }
  if (me == 0) printf("ring of %d PEs: ok\n", n);
  shmem_finalize();
  return 0;
}
