/* One kernel per memory-ordering operation of Shoal's device API, compiled
 * for AMD GPUs by tests/gpu/isa/check.sh, which reads the generated ISA:
 * what these kernels do to symmetric memory is seen by other GPUs (xGMI)
 * and the host, so each must use system scope, never agent or workgroup
 * scope.  Never run: the kernels only need to compile. */
#include <shmem.h>

extern "C" {
__global__ void isa_fence(void) { shmem_fence(); }
__global__ void isa_quiet(void) { shmem_quiet(); }
__global__ void isa_put_signal_set(long *d, const long *s, uint64_t *sig, int pe)
{
  shmem_long_put_signal(d, s, 1, sig, 7, SHMEM_SIGNAL_SET, pe);
}
__global__ void isa_put_signal_add(long *d, const long *s, uint64_t *sig, int pe)
{
  shmem_long_put_signal(d, s, 1, sig, 7, SHMEM_SIGNAL_ADD, pe);
}
__global__ void isa_signal_wait_until(uint64_t *sig, uint64_t *out)
{
  *out = shmem_signal_wait_until(sig, SHMEM_CMP_GE, 3);
}
__global__ void isa_signal_fetch(const uint64_t *sig, uint64_t *out) { *out = shmem_signal_fetch(sig); }
__global__ void isa_wait_until(long *ivar) { shmem_long_wait_until(ivar, SHMEM_CMP_EQ, 5); }
__global__ void isa_atomic_fetch_add(long *d, long *out, int pe) { *out = shmem_long_atomic_fetch_add(d, 3, pe); }
__global__ void isa_atomic_add(long *d, int pe) { shmem_long_atomic_add(d, 3, pe); }
__global__ void isa_atomic_set(long *d, int pe) { shmem_long_atomic_set(d, 3, pe); }
__global__ void isa_atomic_fetch(const long *s, long *out, int pe) { *out = shmem_long_atomic_fetch(s, pe); }
__global__ void isa_atomic_swap(long *d, long *out, int pe) { *out = shmem_long_atomic_swap(d, 3, pe); }
__global__ void isa_atomic_compare_swap(long *d, long *out, int pe)
{
  *out = shmem_long_atomic_compare_swap(d, 2, 3, pe);
}
__global__ void isa_atomic_fetch_or(unsigned *d, unsigned *out, int pe)
{
  *out = shmem_uint_atomic_fetch_or(d, 4u, pe);
}
}
