/* The floor under any shared-memory OpenSHMEM on this machine: two
 * processes (one per core) ping-pong a counter in a shared page with C11
 * atomics and spin-waits, no library at all.  bench/p2p/run.sh prints it
 * beside the ping-pong numbers of Shoal and OSHMEM. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 20000
#define TRIALS 50

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void pin(int cpu)
{
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu % CPU_SETSIZE, &set);
  (void)sched_setaffinity(0, sizeof set, &set);   /* best effort */
}

static void wait_for(_Atomic long *flag, long v)
{
  while (atomic_load_explicit(flag, memory_order_acquire) != v) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}

int main(void)
{
  /* Two flags on separate cache lines. */
  _Atomic long *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return perror("mmap"), 1;
  _Atomic long *ping = page, *pong = page + 16;
  pid_t child = fork();
  if (child < 0) return perror("fork"), 1;
  if (child == 0) {
    pin(1);
    for (long i = 1; i <= (long)TRIALS * ROUNDS; i++) {
      wait_for(ping, i);
      atomic_store_explicit(pong, i, memory_order_release);
    }
    _exit(0);
  }
  pin(0);
  double best = 1e30;
  for (long t = 0; t < TRIALS; t++) {
    double t0 = now_us();
    for (long i = t * ROUNDS + 1; i <= (t + 1) * ROUNDS; i++) {
      atomic_store_explicit(ping, i, memory_order_release);
      wait_for(pong, i);
    }
    double us = (now_us() - t0) / ROUNDS / 2;
    if (us < best) best = us;
  }
  waitpid(child, NULL, 0);
  printf("shm_floor: one-way latency of a flag between two processes: %.3f us (best of %d)\n", best,
         TRIALS);
  return 0;
}
