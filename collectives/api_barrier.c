/* Host entry points of the barrier family. */
#include "../runtime/internal.h"
#include "barrier.h"
#include "../teams/team_host.h"

void shmem_barrier_all(void)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_barrier_all");
  shoal_wait_in_team(shoal_wait_call, SHMEM_TEAM_WORLD);
  shoal_coll_barrier(SHMEM_TEAM_WORLD);
}

void shmem_sync_all(void)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_sync_all");
  shoal_wait_in_team(shoal_wait_call, SHMEM_TEAM_WORLD);
  shoal_fence_system();
  shoal_coll_sync(SHMEM_TEAM_WORLD);
}

int shmem_team_sync(shmem_team_t team)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_team_sync");
  if (!shoal_team_handle_ok("shmem_team_sync", team)) {
    shoal_warn("shmem_team_sync: argument 'team' is SHMEM_TEAM_INVALID");
    return -1;
  }
  if (team->my_pe < 0) shoal_error("shmem_team_sync", "this PE is not a member of 'team'");
  shoal_wait_in_team(shoal_wait_call, team);
  shoal_fence_system();
  shoal_coll_sync(team);
  return 0;
}
