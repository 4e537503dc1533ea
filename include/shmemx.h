/* Shoal extensions to OpenSHMEM 1.5. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* All PEs of this node (SHMEM_TEAM_SHARED is the same set on the CPU). */
extern shmem_team_t SHMEMX_TEAM_NODE;

/* Library details for tools (shoal-info). */
const char *shmemx_build_config(void);

#ifdef __cplusplus
}
#endif

#endif
