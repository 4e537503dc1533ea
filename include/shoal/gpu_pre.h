/* GPU translation units (nvcc, hipcc): included by <shmem.h> inside its
 * extern "C" block, before the host declarations.
 *
 * Names that also have a device version are defined in <shoal/gpu.h> as
 * static inline __host__ __device__ functions.  Their host declarations in
 * <shmem.h> are renamed here to shoalh_NAME, whose assembler name is the
 * library's shmem_NAME, so the host branch calls the library directly and
 * nothing needs relocatable device code. */
#ifndef SHOAL_GPU_PRE_H
#define SHOAL_GPU_PRE_H
#define SHOAL_GPU_TU 1

int shoalh_my_pe(void) __asm__("shmem_my_pe");
int shoalh_n_pes(void) __asm__("shmem_n_pes");
void *shoalh_ptr(const void *dest, int pe) __asm__("shmem_ptr");
int shoalh_team_my_pe(shmem_team_t team) __asm__("shmem_team_my_pe");
int shoalh_team_n_pes(shmem_team_t team) __asm__("shmem_team_n_pes");
int shoalh_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
    __asm__("shmem_team_translate_pe");
void *shoalh_team_ptr(shmem_team_t team, const void *dest, int pe) __asm__("shmem_team_ptr");
extern shmem_team_t shoalh_team_world __asm__("SHMEM_TEAM_WORLD");
extern shmem_team_t shoalh_team_shared __asm__("SHMEM_TEAM_SHARED");
extern shmem_ctx_t shoalh_ctx_default __asm__("SHMEM_CTX_DEFAULT");

#define shmem_my_pe shoalh_my_pe
#define shmem_n_pes shoalh_n_pes
#define shmem_ptr shoalh_ptr
#define shmem_team_my_pe shoalh_team_my_pe
#define shmem_team_n_pes shoalh_team_n_pes
#define shmem_team_translate_pe shoalh_team_translate_pe
#define shmem_team_ptr shoalh_team_ptr
#endif
