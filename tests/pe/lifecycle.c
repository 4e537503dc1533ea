/* Library setup and teardown, one scenario per run: `lifecycle CASE [N]`.
 * tests/pe/lifecycle.sh checks the exit status and the output. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
  const char *c = argc > 1 ? argv[1] : "";
  int arg = argc > 2 ? atoi(argv[2]) : 0;

  if (!strcmp(c, "finalize_twice")) {   /* a second finalize is harmless; exit is clean */
    shmem_init();
    shmem_init();   /* a second init is harmless too */
    shmem_barrier_all();
    shmem_finalize();
    shmem_finalize();
    printf("finalize_twice: ok\n");
    return 0;
  }
  if (!strcmp(c, "no_finalize")) {   /* returning from main without finalize is clean */
    shmem_init();
    long *p = shmem_malloc(64);
    shmem_long_p(p, 1, (shmem_my_pe() + 1) % shmem_n_pes());
    shmem_barrier_all();
    printf("no_finalize: ok\n");
    return 0;
  }
  if (!strcmp(c, "init_after_finalize")) {   /* refused with an error */
    shmem_init();
    shmem_finalize();
    int provided = -1;
    int rc = shmem_init_thread(SHMEM_THREAD_SINGLE, &provided);
    printf("init_after_finalize: rc %d\n", rc);
    return rc == 0 ? 0 : 3;   /* not reached: the second init ends the PE (status 1) */
  }
  if (!strcmp(c, "global_exit")) {   /* the last PE ends the job; the others are blocked */
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (me == n - 1) {
      usleep(100 * 1000);
      shmem_global_exit(arg);
    }
    shmem_barrier_all();   /* never completes: PE n-1 does not come */
    printf("global_exit: PE %d passed the barrier\n", me);
    return 0;
  }
  if (!strcmp(c, "error_exit")) {   /* exit(arg) on one PE, others in a barrier: no hang */
    shmem_init();
    if (shmem_my_pe() == 0) {
      usleep(100 * 1000);
      exit(arg);   /* no implicit finalize: it would meet the others' barrier */
    }
    shmem_barrier_all();   /* must not complete: PE 0 never calls it */
    printf("error_exit: PE %d passed a barrier PE 0 never entered\n", shmem_my_pe());
    fflush(stdout);
    for (;;) shmem_barrier_all();
  }
  if (!strcmp(c, "global_exit_all")) {   /* every PE calls it */
    shmem_init();
    shmem_global_exit(arg);
  }
  if (!strcmp(c, "start_pes")) {   /* the deprecated 1.4 setup names */
    start_pes(0);
    int ok = _my_pe() == shmem_my_pe() && _num_pes() == shmem_n_pes();
    shmem_finalize();
    printf("start_pes: %s\n", ok ? "ok" : "wrong");
    return ok ? 0 : 1;
  }
  fprintf(stderr, "lifecycle: unknown case '%s'\n", c);
  return 2;
}
