/* Host-only team helpers shared by teams/ and collectives/ API code. */
#ifndef SHOAL_TEAMS_TEAM_HOST_H
#define SHOAL_TEAMS_TEAM_HOST_H

#include "../runtime/internal.h"
#include "team.h"

/* The cached team of a deprecated 1.4 active set (arguments checked). */
SHOAL_HIDDEN shoal_team *shoal_team_active_set(int start, int log_stride, int size);

/* A team handle the program passes in: SHMEM_TEAM_INVALID gives false; a
 * handle no split made, or a destroyed team, ends the job with a message
 * naming call. */
SHOAL_HIDDEN bool shoal_team_handle_ok(const char *call, shmem_team_t team);

/* A sender's per_sender bytes of t's pushbox as a ring of up to depth
 * slots (t->pushbox_slot, t->pushbox_depth). */
SHOAL_HIDDEN void shoal_team_pushbox_shape(shoal_team *t, size_t per_sender, int depth);

#endif
