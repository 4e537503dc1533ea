/* The OpenSHMEM 1.6 point-to-point additions in GPU translation units,
 * included at the end of <shoal/gpu.h>: shmem_team_ptr, shmem_signal_add/
 * set and the blocked strided shmem_ibput/ibget are __host__ __device__
 * like the 1.5 names (kernels run the device/ code on mapped peers' GPU
 * heaps; the host calls the library). */
#ifndef SHOAL_GPU16_H
#define SHOAL_GPU16_H

#undef shmem_team_ptr
#if SHOAL_IN_DEVICE_PASS
__device__ inline void *shoal_gpu_team_ptr(shmem_team_t team, const void *dest, int pe)
{
  shoal_team *t = shoal_gpu_team(team);
  if (!t || pe < 0 || pe >= t->size) return (void *)0;
  return shoal_dev_ptr(dest, shoal_team_world_pe(t, pe));
}
#endif
/* On the host, a GPU heap address gives the peer's device address (as
 * shmem_ptr does). */
static inline __host__ __device__ void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
  return SHOAL_GPU_PICK(shoal_gpu_team_ptr(team, dest, pe), shoalh_team_ptr(team, dest, pe));
}

SHOAL_GPU_FN2(void, signal_add, (uint64_t *sig, uint64_t v, int pe), (sig, v, pe),
              (shoal_dev_signal_update(SHOAL_DEV_CTX, sig, v, SHMEM_SIGNAL_ADD, pe)))
SHOAL_GPU_FN2(void, signal_set, (uint64_t *sig, uint64_t v, int pe), (sig, v, pe),
              (shoal_dev_signal_update(SHOAL_DEV_CTX, sig, v, SHMEM_SIGNAL_SET, pe)))

#define SHOAL_GPU_BLOCKED(T, NAME, ES, DEVFN) \
  SHOAL_GPU_FN2(void, NAME, (T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t bs, size_t nb, int pe), \
                (d, s, dst, sst, bs, nb, pe), (DEVFN(SHOAL_DEV_CTX, d, s, dst, sst, bs, nb, ES, pe)))
#define SHOAL_GPU_IBRMA_TYPED(T, N) \
  SHOAL_GPU_BLOCKED(T, N##_ibput, sizeof(T), shoal_dev_ibput) \
  SHOAL_GPU_BLOCKED(T, N##_ibget, sizeof(T), shoal_dev_ibget)
SHOAL_RMA_DEVICE_TYPES(SHOAL_GPU_IBRMA_TYPED)
#define SHOAL_GPU_IBRMA_SIZED(BITS, BYTES) \
  SHOAL_GPU_BLOCKED(void, ibput##BITS, BYTES, shoal_dev_ibput) \
  SHOAL_GPU_BLOCKED(void, ibget##BITS, BYTES, shoal_dev_ibget)
SHOAL_SIZED_RMA(SHOAL_GPU_IBRMA_SIZED)

#endif
