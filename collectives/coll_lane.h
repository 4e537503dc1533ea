/* Checks shared by the lane entry points for tests/coll/test_lanes
 * (shoalx_coll_*_lane: an algorithm run as one lane of a scope, one CPU
 * thread a lane, the way a GPU grid runs it with a block a lane). */
#ifndef SHOAL_COLL_LANE_H
#define SHOAL_COLL_LANE_H

#include "coll_host.h"
#include "push.h"

/* The team is valid, this PE a member, lane in [0, nlanes) of at most a
 * grid's blocks, and every member reachable by load/store.  false: team
 * is SHMEM_TEAM_INVALID (the call does nothing). */
static inline bool coll_lane_check(const char *call, shmem_team_t team, int lane, int nlanes)
{
  if (!shoal_team_handle_ok(call, team)) return false;
  if (team->my_pe < 0) shoal_error(call, "this PE (%d) is not a member of argument 'team'", shoal_dstate.my_pe);
  if (nlanes < 1 || nlanes > SHOAL_GRID_MAX_BLOCKS)
    shoal_error(call, "argument 'nlanes' = %d must be in [1, %d]", nlanes, SHOAL_GRID_MAX_BLOCKS);
  if (lane < 0 || lane >= nlanes) shoal_error(call, "argument 'lane' = %d must be in [0, %d)", lane, nlanes);
  if (!shoal_push_ok(team))
    shoal_error(call, "argument 'team': every member must be reachable by load/store (at most %d)",
                SHOAL_SCOPE_MAX_PEERS);
  return true;
}

#endif
