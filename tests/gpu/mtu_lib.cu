/* One of several translation units of test_multi_tu (see mtu_main.cu). */
#include <shmem.h>
#if defined(__HIPCC__)
#define cudaDeviceSynchronize hipDeviceSynchronize
#endif

__global__ void k_lib(int *buf, int slot, int value)
{
  int next = (shmem_my_pe() + 1) % shmem_n_pes();
  shmem_int_p(buf + slot, value, next);
  shmem_quiet();
}

extern "C" int launch_lib(int *buf, int slot, int value)
{
  k_lib<<<1, 1>>>(buf, slot, value);
  return (int)cudaDeviceSynchronize();
}
