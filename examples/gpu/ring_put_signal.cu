/* A ring of device-side puts with signals: a token travels around the PEs
 * `rounds` times; each PE adds its number and passes it on with one
 * put-with-signal, then waits for the next lap.  Only shmem names and
 * portable kernel syntax: builds as CUDA (nvcc ring_put_signal.cu) and as
 * HIP (hipcc -x hip ring_put_signal.cu) against a GPU build of Shoal.
 *   oshrun -np 2 ./ring_put_signal */
#include <shmem.h>
#include <stdio.h>
#if defined(__HIPCC__)
#define gpuDeviceSynchronize hipDeviceSynchronize
#else
#define gpuDeviceSynchronize cudaDeviceSynchronize
#endif

__global__ void ring(long *token, long *scratch, uint64_t *sig, int rounds)
{
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n;
  for (int r = 1; r <= rounds; r++) {
    /* PE 0 starts each lap; the others wait for the token first. */
    if (me != 0 || r > 1) shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)(me == 0 ? r - 1 : r));
    long t = (me == 0 && r == 1) ? 0 : *token;
    *scratch = t + me;
    shmem_long_put_signal(token, scratch, 1, sig, (uint64_t)r, SHMEM_SIGNAL_SET, next);
  }
  if (me == 0) shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)rounds);
}

int main(void)
{
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  const int rounds = 10;
  long *token = (long *)shmem_calloc(2, sizeof(long));
  uint64_t *sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
  ring<<<1, 32>>>(token, token + 1, sig, rounds);
  if (gpuDeviceSynchronize() != 0) { fprintf(stderr, "ring: kernel failed\n"); return 1; }
  shmem_barrier_all();
  /* Each lap adds 0 + 1 + ... + n-1; after `rounds` laps PE 0 holds it all. */
  long want = (long)rounds * n * (n - 1) / 2, got = shmem_long_g(token, 0);
  int ok = me != 0 || got == want;
  if (me == 0) printf("ring_put_signal: %d PEs, %d laps, token %ld (expected %ld): %s\n", n, rounds, got,
                      want, ok ? "ok" : "WRONG");
  shmem_free(sig);
  shmem_free(token);
  shmem_finalize();
  return ok ? 0 : 1;
}
