// The wait watchdog inside a kernel (issue 12): every PE's kernel waits on
// a signal nobody sends.  With SHOAL_WAIT_TIMEOUT set, one thread prints
// what it waited for and the kernel traps; the host finds the failed kernel
// (here at shmem_finalize) and the job ends with a failure status.
// tests/gpu/run.sh runs it at 2 PEs and checks the status, the time and
// the messages.
#include <shmem.h>
#include <stdio.h>
#include "gpu_test.h"   // the CUDA names on HIP

__global__ void wait_forever(uint64_t *sig)
{
  shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 42);   // nobody sends 42
}

int main()
{
  shmem_init();
  uint64_t *sig = (uint64_t *)shmem_calloc(4, sizeof(uint64_t));
  wait_forever<<<2, 32>>>(sig + 1);
  cudaError_t e = cudaDeviceSynchronize();
  printf("test_watchdog: PE %d: the kernel ended: %s\n", shmem_my_pe(), cudaGetErrorString(e));
  fflush(stdout);
  shmem_finalize();   // ends the job: the kernel failed
  printf("test_watchdog: PE %d: shmem_finalize returned after a failed kernel (wrong)\n",
         shmem_my_pe());
  return 0;
}
