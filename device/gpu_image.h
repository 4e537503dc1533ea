/* What the runtime hands each GPU translation unit: plain C, shared by
 * device/state_gpu.h (nvcc/hipcc) and gpu/gpu_runtime.c (the C
 * library). */
#ifndef SHOAL_DEVICE_GPU_IMAGE_H
#define SHOAL_DEVICE_GPU_IMAGE_H

#include "proxy_queue.h"

/* Teams a kernel can name: slots [0, SHOAL_GPU_MAX_TEAMS) (a larger
 * SHOAL_MAX_TEAMS is refused at init in a GPU build). */
#define SHOAL_GPU_MAX_TEAMS 64

/* Peers whose heap address sits in constant memory (world PEs below this;
 * the rest are read from peer_heap in device memory).  A constant lookup
 * costs no dependent global load in every put, and the compiler may hoist
 * it out of a loop, since no store can alias constant memory. */
#define SHOAL_GPU_NEAR_PEERS 128

struct shoal_team;

typedef struct shoal_gpu_dstate {
  shoal_dev_state s;        /* heap, peers (peer_heap is device memory) */
  int device;               /* this PE's GPU, as the runtime API numbers it */
  int n_slots;              /* team slots in the table */
  /* Host handle (shmem_team_t) of the team in each slot, and the device
   * copies of the teams (sync words and scratch in the GPU heap). */
  const void *team_key[SHOAL_GPU_MAX_TEAMS];
  struct shoal_team *team_dev;
  char *peer_heap_near[SHOAL_GPU_NEAR_PEERS];
  /* The host proxy's command queue (cap 0: no proxy; unmapped peers are
   * unreachable). */
  shoal_pq pq;
  unsigned long long wait_timeout_ns;   /* SHOAL_WAIT_TIMEOUT, 0: no limit */
  int allreduce_ring;       /* SHOAL_ALLREDUCE=ring: kernels' all-reduces take the ring where it applies */
} shoal_gpu_dstate;

#endif
