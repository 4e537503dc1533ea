/* What the runtime hands each GPU translation unit: plain C, shared by
 * device/state_gpu.h (nvcc/hipcc) and runtime/gpu_runtime.c (the C
 * library). */
#ifndef SHOAL_DEVICE_GPU_IMAGE_H
#define SHOAL_DEVICE_GPU_IMAGE_H

/* Teams a kernel can name: slots [0, SHOAL_GPU_MAX_TEAMS) (a larger
 * SHOAL_MAX_TEAMS is refused at init in a GPU build). */
#define SHOAL_GPU_MAX_TEAMS 64

struct shoal_team;

typedef struct shoal_gpu_dstate {
  shoal_dev_state s;        /* heap, peers (peer_heap is device memory) */
  int device;               /* this PE's GPU, as the runtime API numbers it */
  int n_slots;              /* team slots in the table */
  /* Host handle (shmem_team_t) of the team in each slot, and the device
   * copies of the teams (sync words and scratch in the GPU heap). */
  const void *team_key[SHOAL_GPU_MAX_TEAMS];
  struct shoal_team *team_dev;
} shoal_gpu_dstate;

#endif
