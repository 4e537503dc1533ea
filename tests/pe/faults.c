/* Faults a job must survive by ending cleanly, one per run:
 * `faults CASE [TAG]` (TAG only marks the processes, so the script can
 * find what is left of its own job).  tests/pe/faults.sh checks how each
 * ends: in time, with a non-zero status, a message, no process left, and
 * nothing left in /dev/shm. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long flag;   /* symmetric (global), nobody sets it */

static void forever(void)
{
  for (;;) sleep(1);
}

int main(int argc, char **argv)
{
  const char *c = argc > 1 ? argv[1] : "";

  if (!strcmp(c, "launcher_killed")) {   /* all PEs wait; the script kills mpirun */
    shmem_init();
    if (shmem_my_pe() == 0) {
      printf("launcher_killed: ready\n");
      fflush(stdout);
      forever();   /* never reaches the barrier */
    }
    shmem_barrier_all();
    return 0;
  }
  if (!strcmp(c, "early_exit")) {   /* the last PE leaves; the others wait in a barrier */
    shmem_init();
    if (shmem_my_pe() == shmem_n_pes() - 1) {
      usleep(200 * 1000);
      exit(0);   /* implicit finalize: meets the others' barrier, never their next one */
    }
    shmem_barrier_all();
    shmem_barrier_all();
    printf("early_exit: PE %d passed two barriers PE %d entered once\n", shmem_my_pe(),
           shmem_n_pes() - 1);
    return 0;
  }
  if (!strcmp(c, "early_exit_wait")) {   /* every other PE leaves; PE 0 waits for a word */
    shmem_init();
    if (shmem_my_pe() != 0) exit(0);
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 42);
    printf("early_exit_wait: the wait ended\n");
    return 0;
  }
  if (!strcmp(c, "finalize_vs_barrier")) {   /* PE 0 finalizes, the others are in a barrier */
    shmem_init();
    if (shmem_my_pe() != 0) shmem_barrier_all();
    shmem_finalize();
    return 0;
  }
  if (!strcmp(c, "normal_exit")) {   /* every PE returns without finalize, at different times */
    shmem_init();
    usleep((useconds_t)(100 * 1000 * shmem_my_pe()));
    printf("normal_exit: ok\n");
    return 0;
  }
  if (!strcmp(c, "wait_timeout")) {   /* SHOAL_WAIT_TIMEOUT ends a wait nobody ends */
    shmem_init();
    long *w = shmem_malloc(4 * sizeof(long));
    w[2] = 3;
    shmem_barrier_all();
    if (shmem_my_pe() == 0) shmem_long_wait_until(&w[2], SHMEM_CMP_GE, 7);
    else forever();
    printf("wait_timeout: the wait ended\n");
    return 0;
  }
  if (!strcmp(c, "barrier_timeout")) {   /* ... and a barrier one PE never enters */
    shmem_init();
    if (shmem_my_pe() == 0) forever();
    shmem_barrier_all();
    return 0;
  }
  if (!strcmp(c, "lock_timeout")) {   /* ... and a lock nobody releases */
    shmem_init();
    static long lock;
    if (shmem_my_pe() == 0) shmem_set_lock(&lock);
    shmem_barrier_all();
    if (shmem_my_pe() == 0) forever();
    shmem_set_lock(&lock);
    return 0;
  }
  if (!strcmp(c, "init_twice")) {   /* shmem_init after shmem_finalize stops the job */
    shmem_init();
    shmem_finalize();
    shmem_init();
    printf("init_twice: the second shmem_init returned\n");
    return 0;
  }
  if (!strcmp(c, "heap_sizes")) {   /* the script gives each PE its own SHMEM_SYMMETRIC_SIZE */
    shmem_init();
    printf("heap_sizes: shmem_init returned\n");
    return 0;
  }
  if (!strncmp(c, "alloc_", 6)) {   /* a collective allocation with a size per PE */
    shmem_init();
    size_t sz = 1024 + 64 * (size_t)shmem_my_pe();
    void *p = NULL;
    if (!strcmp(c, "alloc_malloc")) p = shmem_malloc(sz);
    else if (!strcmp(c, "alloc_calloc")) p = shmem_calloc(sz, 2);
    else if (!strcmp(c, "alloc_align")) p = shmem_align(256, sz);
    else if (!strcmp(c, "alloc_hints")) p = shmem_malloc_with_hints(sz, SHMEM_MALLOC_ATOMICS_REMOTE);
    else if (!strcmp(c, "alloc_realloc")) p = shmem_realloc(shmem_malloc(512), sz);
    else if (!strcmp(c, "alloc_same")) p = shmem_malloc(1024);
    printf("%s: returned %p\n", c, p);
    shmem_free(p);
    shmem_finalize();
    return 0;
  }
  if (!strcmp(c, "amo_misaligned")) {   /* an AMO on a misaligned address is refused */
    shmem_init();
    long *w = shmem_malloc(4 * sizeof(long));
    long *bad = (long *)((char *)w + 4);
    shmem_long_atomic_add(bad, 1, (shmem_my_pe() + 1) % shmem_n_pes());
    printf("amo_misaligned: the AMO ran\n");
    return 0;
  }
  if (!strcmp(c, "amo_misaligned_fetch")) {
    shmem_init();
    int *w = shmem_malloc(4 * sizeof(int));
    int *bad = (int *)((char *)w + 2);
    int v = shmem_int_atomic_fetch(bad, 0);
    printf("amo_misaligned_fetch: the AMO ran (%d)\n", v);
    return 0;
  }
  if (!strcmp(c, "huge_heap")) {   /* a heap the node cannot back is refused at init */
    shmem_init();
    char *p = shmem_malloc(1024);
    printf("huge_heap: shmem_init accepted the heap (%p)\n", (void *)p);
    return 0;
  }
  if (!strcmp(c, "team_destroy_twice")) {
    shmem_init();
    shmem_team_t t;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t);
    shmem_team_destroy(t);
    shmem_team_destroy(t);
    printf("team_destroy_twice: the second destroy returned\n");
    return 0;
  }
  if (!strcmp(c, "team_query_destroyed")) {
    shmem_init();
    shmem_team_t t;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &t);
    shmem_team_destroy(t);
    int n = shmem_team_n_pes(t);
    printf("team_query_destroyed: shmem_team_n_pes returned %d\n", n);
    return 0;
  }
  if (!strcmp(c, "team_never_created")) {
    shmem_init();
    static char junk[256];
    memset(junk, 0x5a, sizeof junk);
    int me = shmem_team_my_pe((shmem_team_t)(void *)junk);
    printf("team_never_created: shmem_team_my_pe returned %d\n", me);
    return 0;
  }
  fprintf(stderr, "faults: unknown case '%s'\n", c);
  return 2;
}
