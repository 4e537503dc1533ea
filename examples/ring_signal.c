/* A ring with put-with-signal: each PE sends a block to its right-hand
 * neighbour with shmem_put_signal and waits for the block from its left with
 * shmem_signal_wait_until -- no barrier between the rounds.  The signal
 * carries the round number, and the data is guaranteed to have landed once
 * the signal is seen.  Checks every element and exits non-zero on error. */
#include <shmem.h>
#include <stdio.h>

#define N 1024
#define ROUNDS 10

static long recv_buf[ROUNDS][N];   /* globals are symmetric on the CPU target */
static uint64_t round_sig;

static long value(int pe, int round, int i) { return ((long)pe << 32) + (long)round * N + i + 1; }

int main(void)
{
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  int right = (me + 1) % n, left = (me + n - 1) % n;
  long send[N];
  int errors = 0;

  for (int r = 0; r < ROUNDS; r++) {
    for (int i = 0; i < N; i++) send[i] = value(me, r, i);
    /* data into round r's buffer on the right, then signal = r + 1 */
    shmem_long_put_signal(recv_buf[r], send, N, &round_sig, (uint64_t)r + 1, SHMEM_SIGNAL_SET,
                          right);
    shmem_signal_wait_until(&round_sig, SHMEM_CMP_GE, (uint64_t)r + 1);
    for (int i = 0; i < N; i++)
      if (recv_buf[r][i] != value(left, r, i)) {
        if (errors++ < 5)
          printf("PE %d: round %d element %d: got %ld, expected %ld\n", me, r, i, recv_buf[r][i],
                 value(left, r, i));
      }
  }
  /* every PE checked; agree on the result */
  static int total_errors;
  shmem_int_atomic_add(&total_errors, errors, 0);
  shmem_barrier_all();
  if (me == 0) {
    if (total_errors) printf("ring_signal: %d wrong elements\n", total_errors);
    else printf("ring_signal: %d PEs, %d rounds of %d longs: ok\n", n, ROUNDS, N);
  }
  int status = shmem_int_g(&total_errors, 0) != 0;
  shmem_finalize();
  return status;
}
