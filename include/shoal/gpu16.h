/* The OpenSHMEM 1.6 point-to-point additions in GPU translation units,
 * included at the end of <shoal/gpu.h>: shmem_team_ptr, shmem_signal_add/
 * set and the blocked strided shmem_ibput/ibget are __host__ __device__
 * like the 1.5 names (kernels run the device/ code on mapped peers' GPU
 * heaps; the host calls the library), and so is shmem_pe_quiet. */
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

/* Completes every operation (a superset of those to target_pes). */
SHOAL_GPU_FN2(void, pe_quiet, (const int *pes, size_t npes), (pes, npes),
              ((void)pes, (void)npes, shoal_dev_quiet(SHOAL_DEV_CTX)))

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

/* Block-scope prefix sums (extensions: shmemx_TYPENAME_sum_inscan_block,
 * _exscan_block): one block on each member calls with all its threads
 * (the _warp forms: one warp, L).
 * Member i adds the sources of members 0..i (0..i-1 for exscan) in team
 * order, element by element, between two team barriers; a source that is
 * not symmetric, or dest == source, goes through the team's scratch chunk
 * by chunk (as the block reductions do). */
template <class T, class L = shoal_gpu_block_scope>
__device__ inline void shoal_gpu_scan_block(const char *call, shoal_team *t, T *dest, const T *src,
                                            size_t n, bool inclusive)
{
  if (SHOAL_UNLIKELY(shoal_gpu_team_proxied(t))) {   /* members behind the host proxy: collectives/scan.h */
    shoal_gpu_rcoll_scan<T, L>(call, t, dest, src, n, inclusive);
    return;
  }
  unsigned tid = L::tid(), nt = L::size();
  bool overlap = !(dest + n <= src || src + n <= dest);
  bool direct = shoal_dev_is_symmetric(src) && shoal_dev_is_symmetric(src + (n ? n - 1 : 0)) && !overlap;
  if (!direct && t->scratch_size < 16 * sizeof(T)) {
    if (tid == 0) shoal_gpu_fail(call, src, -1);
    return;
  }
  size_t chunk = direct ? n : t->scratch_size / sizeof(T);
  int last = inclusive ? t->my_pe : t->my_pe - 1;
  for (size_t off = 0; off < n; off += chunk) {
    size_t m = n - off < chunk ? n - off : chunk;
    const T *mine = src + off;
    if (!direct) {
      shoal_gpu_copy_coop(t->scratch, mine, m * sizeof(T), tid, nt);
      mine = (const T *)t->scratch;
    }
    shoal_gpu_block_barrier<L>(t, call);   /* every member's data is in place */
    for (size_t i = tid; i < m; i += nt) {
      T acc = T();
      for (int j = 0; j <= last; j++)
        acc = shoal_gpu_op_sum::f(acc, shoal_gpu_vload((const T *)shoal_dev_ptr(mine, shoal_team_world_pe(t, j)) + i));
      dest[off + i] = acc;
    }
    shoal_gpu_block_barrier<L>(t, call);   /* nobody changes its data while others read it */
  }
}

template <class T, class L>
__device__ inline int shoal_gpu_scan_call(const char *call, shmem_team_t team, T *dest, const T *src, size_t n,
                                          bool inclusive)
{
  shoal_gpu_lane_check<L>(call);
  shoal_team *t = shoal_gpu_team_or_fail(call, team);
  shoal_gpu_check_overlap<L>(call, dest, src, n * sizeof(T));
  shoal_gpu_scan_block<T, L>(call, t, dest, src, n, inclusive);
  return 0;
}
#define SHOAL_GPU_SCAN_AT(T, N, L, SFX) \
  template <class shoal_unused = void> \
  __device__ inline int shmemx_##N##_sum_inscan##SFX(shmem_team_t team, T *dest, const T *src, size_t nelems) \
  { \
    return shoal_gpu_scan_call<T, L>("shmemx_" #N "_sum_inscan" #SFX, team, dest, src, nelems, true); \
  } \
  template <class shoal_unused = void> \
  __device__ inline int shmemx_##N##_sum_exscan##SFX(shmem_team_t team, T *dest, const T *src, size_t nelems) \
  { \
    return shoal_gpu_scan_call<T, L>("shmemx_" #N "_sum_exscan" #SFX, team, dest, src, nelems, false); \
  }
#define SHOAL_GPU_SCAN(T, N) \
  SHOAL_GPU_SCAN_AT(T, N, shoal_gpu_block_scope, _block) SHOAL_GPU_SCAN_AT(T, N, shoal_gpu_warp_scope, _warp)
SHOAL_REDUCE_MINMAX_DEVICE_TYPES(SHOAL_GPU_SCAN)

#endif
