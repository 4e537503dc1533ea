/* Host-only team helpers shared by teams/ and collectives/ API code. */
#ifndef SHOAL_TEAMS_TEAM_HOST_H
#define SHOAL_TEAMS_TEAM_HOST_H

#include "../runtime/internal.h"
#include "team.h"

/* The cached team of a deprecated 1.4 active set (arguments checked). */
SHOAL_HIDDEN shoal_team *shoal_team_active_set(int start, int log_stride, int size);

#endif
