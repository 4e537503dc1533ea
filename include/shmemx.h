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
/* Environment variable i (0, 1, ...) the library reads: its name, default
 * and a one-line help.  Returns 0, or -1 past the last one.  Needs no
 * shmem_init. */
int shmemx_info_env(int i, const char **name, const char **default_value, const char **help);

#ifdef __cplusplus
}
#endif

#endif
