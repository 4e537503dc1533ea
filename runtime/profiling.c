/* The profiling interface (OpenSHMEM 1.5 section 10).  Every routine is
 * also exported as pshmem_X (runtime/pshmem_alias.h, generated); a tool
 * defines shmem_X, measures, and calls pshmem_X. */
#include "internal.h"

/* Levels are the tool's business (0 off, 1 on, 2 flush, others its own):
 * the library records nothing, and a tool interposes this call to see them. */
void shmem_pcontrol(const int level, ...)
{
  (void)level;
}
