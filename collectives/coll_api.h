/* Host side of the reductions, shared by the 1.5 and the deprecated 1.4
 * entry points. */
#ifndef SHOAL_COLL_API_H
#define SHOAL_COLL_API_H

#include "coll_host.h"
#include "reduce_select.h"
#include <string.h>

/* Check, choose the algorithm, all-reduce.  Returns 0, or -1 for an
 * invalid team. */
SHOAL_HIDDEN int shoal_reduce_call(const char *call, shoal_team *team, void *dest,
                                   const void *source, size_t count, int type, int op);

#endif
