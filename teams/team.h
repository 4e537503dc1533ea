/* A team, as device code sees it: a strided set of world PEs plus its own
 * synchronization words and scratch on the symmetric heap, so concurrent
 * collectives on different teams never share a flag. */
#ifndef SHOAL_TEAMS_TEAM_H
#define SHOAL_TEAMS_TEAM_H

#include "../device/amo.h"
#include "../device/rma.h"
#include "../device/wait.h"
#include <shmem.h>

/* Layout of a slot's sync words (uint64_t each, symmetric; n = world PEs).
 * Collectives signal through per-pair channels (see SHOAL_CHAN_*): a word
 * my peer writes, plus my own counts of signals sent and received, indexed
 * by world PE so one layout serves every team and the active sets. */
enum {
  SHOAL_SYNC_BARRIER = 0,      /* [0, 63): dissemination round counters */
  SHOAL_SYNC_COUNTER = 63,     /* on the team's first PE: counter-barrier arrivals */
  SHOAL_SYNC_EPOCH = 64,       /* local: counter barriers done on this team */
  SHOAL_SYNC_COLL_EPOCH = 65,  /* local: collectives started on this team */
  SHOAL_SYNC_DISS_EPOCH = 66,  /* local: dissemination barriers done on this team */
  SHOAL_SYNC_LL_EPOCH = 67,    /* local: LL calls done on this team (collectives/ll.h) */
  SHOAL_SYNC_FLAGS = 128,      /* [128, 128 + 8 n): two channel banks, below */
};
/* A channel bank: 7 n words.  Bank 0 is the team's own; bank 1 (used only
 * in the world team's slot) carries the deprecated active-set collectives,
 * whose members never agree on a slot of their own. */
enum {
  SHOAL_CHAN_IN = 0,       /* [pe]: signals received from pe (pe writes it) */
  SHOAL_CHAN_SENT = 1,     /* [pe]: signals I sent to pe (local) */
  SHOAL_CHAN_SEEN = 2,     /* [pe]: signals from pe I have waited for (local) */
  SHOAL_CHAN_MAIL = 3,     /* [pe]: a word pe leaves me (collect's counts) */
  SHOAL_CHAN_CREDIT_IN = 4,    /* [pe]: pushbox credits from pe (pe writes it) */
  SHOAL_CHAN_CREDIT_SENT = 5,  /* [pe]: credits I gave pe (local) */
  SHOAL_CHAN_CREDIT_SEEN = 6,  /* [pe]: credits from pe I have used (local) */
  SHOAL_CHAN_WORDS = 7,
};
#define SHOAL_ACTIVE_PUSHBOX_SLOT 4096   /* bytes per slot, for the active sets */
#define SHOAL_PUSHBOX_DEPTH 8             /* slots per sender, where they stay >= the minimum */
#define SHOAL_ACTIVE_PUSHBOX_DEPTH 4      /* the active sets' ring: 16 KB per world PE in all */
#define SHOAL_PUSHBOX_MIN_SLOT 1024
/* After the channel banks: the words of the GPU grid-scope collectives
 * (<shoal/gpu_grid.h>): a grid barrier of this PE's blocks (one word), per
 * block b of the grid an arrival counter its peers' block b add to and the
 * number of its own arrivals, and the members' grid-size tags.  All
 * counted, none reset by the host (a captured graph replays them). */
#define SHOAL_GRID_MAX_BLOCKS 1024
enum {
  SHOAL_GRID_COUNT = 0,     /* local: the grid barrier's arrivals (collectives/scope.h: 0 or 2^63 between barriers) */
  SHOAL_GRID_BLOCK0 = 8,    /* [8 + 2 b]: arrivals of peers' block b; [9 + 2 b]: mine */
  /* [RING0 + b]: ring rounds of the left neighbour's block b (collectives/reduce_ring.h) */
  SHOAL_GRID_RING0 = SHOAL_GRID_BLOCK0 + 2 * SHOAL_GRID_MAX_BLOCKS,
  /* [TAGS0 + q]: team PE q's block 0 tag of its latest meeting, (meeting << 32 | grid size),
   * pushed by q (collectives/scope.h; teams of up to SHOAL_GRID_TAG_PEERS) */
  SHOAL_GRID_TAGS0 = SHOAL_GRID_RING0 + SHOAL_GRID_MAX_BLOCKS,
  SHOAL_GRID_TAG_PEERS = 64,
  SHOAL_GRID_WORDS = SHOAL_GRID_TAGS0 + SHOAL_GRID_TAG_PEERS,
};
#define SHOAL_SYNC_GRID(n_pes) (SHOAL_SYNC_FLAGS + 2 * SHOAL_CHAN_WORDS * (size_t)(n_pes))
#define SHOAL_SYNC_WORDS(n_pes) (SHOAL_SYNC_GRID(n_pes) + SHOAL_GRID_WORDS)

/* Nodes a team may span and still run the hierarchical collectives: the
 * leaders' exchange is all-to-all, so far larger counts want another
 * algorithm across nodes anyway. */
#define SHOAL_HIER_MAX_NODES 64

struct shoal_team {
  int start, stride, size;   /* members are world PEs start + i * stride */
  int my_pe;                 /* my index in the team, -1 if not a member */
  int slot;                  /* which sync/scratch area of the heap, -1: active set */
  int all_mapped;            /* every member reachable by load/store */
  int n_world;               /* world PEs: the channel arrays' length */
  int gpu_local;             /* kernels' copy: every member runs on this very GPU (several PEs
                                under MPS), so the meetings fence at the GPU's scope */
  uint64_t *sync;            /* this team's sync words (symmetric) */
  uint64_t *chan;            /* this team's channel bank (symmetric) */
  char *scratch;             /* symmetric scratch for collectives (NULL: none) */
  size_t scratch_size;
  char *pushbox;             /* symmetric slots one-shot pushes land in */
  size_t pushbox_slot;       /* bytes per slot (0: no pushbox) */
  int pushbox_depth;         /* slots per sender: pushes a sender may have in flight */
  int pushbox_by_world;      /* slots indexed by world PE (active sets), else team PE */
  shmem_team_config_t config;
  struct shoal_team *parent;
  unsigned state;            /* SHOAL_TEAM_LIVE, or SHOAL_TEAM_DESTROYED (the record is kept) */
  int gpu_proxied;           /* kernels' copy: some member is reached only through the host
                                proxy (another node), so GPU collectives run collectives/ */
  /* The members' node layout, for the hierarchical collectives
   * (collectives/hier.h).  Set when the team is made, the same on every
   * member, and kept inside the record so the kernels' copy carries it. */
  int hier;                  /* 1: spans >= 2 nodes, some node holds >= 2 members, each node's
                                members map each other, and SHOAL_COLL_HIER is not 0 */
  int hier_nodes;            /* nodes the members are on (0: more than SHOAL_HIER_MAX_NODES, or
                                a node's members are not consecutive team PEs) */
  int hier_equal;            /* every node holds the same number of members */
  int hier_node;             /* my node's index, 0 .. hier_nodes - 1 */
  int hier_first[SHOAL_HIER_MAX_NODES + 1];   /* node j: team PEs [first[j], first[j + 1]),
                                                 its leader first[j] */
  unsigned coll_logged;      /* host: the reduction algorithms SHMEM_DEBUG has named for this team */
};
enum { SHOAL_TEAM_LIVE = 0x7ea1u, SHOAL_TEAM_DESTROYED = 0xdeadu };
typedef struct shoal_team shoal_team;

/* What the grid push's _on_stream kernel would otherwise look up, found
 * by the host (shoalx_gpu_team_plan) and passed to it by value: the team's
 * device record, and each member's grid words (collectives/scope.h) and
 * dest as this GPU maps them.  Teams of up to SHOAL_GPU_PLAN_PEERS
 * members, every one mapped. */
#define SHOAL_GPU_PLAN_PEERS 8
typedef struct shoal_gpu_plan {
  shoal_team team;
  uint64_t *words_at[SHOAL_GPU_PLAN_PEERS];
  char *dest_at[SHOAL_GPU_PLAN_PEERS];
  /* The staged push's buffers (collectives/push.h: shoal_stage), where the
   * team has them (stage_cap 0: none): each member's as mapped here, mine,
   * and my count of the team's staged calls. */
  char *stage_at[SHOAL_GPU_PLAN_PEERS];
  char *stage;
  uint64_t *stage_calls;
  size_t stage_cap;
} shoal_gpu_plan;

/* The one place a team PE becomes a world PE.  Every remote access a
 * collective makes goes through this, so a team index can never reach the
 * heap translation by mistake (Iris #326). */
SHOAL_SELECT_FN int shoal_team_world_pe(const shoal_team *t, int team_pe)
{
  return t->start + team_pe * t->stride;
}

/* The team PE i steps after me, wrapping: (my_pe + i) % size. */
SHOAL_FN int shoal_team_peer(const shoal_team *t, int i)
{
  int p = t->my_pe + i;
  p %= t->size;
  return shoal_team_world_pe(t, p < 0 ? p + t->size : p);
}

/* World PE -> index in team, or -1. */
SHOAL_FN int shoal_team_index_of(const shoal_team *t, int world_pe)
{
  int d = world_pe - t->start;
  if (d < 0 || d % t->stride) return -1;
  d /= t->stride;
  return d < t->size ? d : -1;
}

/* The node layout allows the hierarchical collectives: >= 2 nodes, and
 * some node holds >= 2 members (else they would only add hops). */
SHOAL_FN int shoal_hier_layout_ok(const shoal_team *t)
{
  if (t->hier_nodes < 2) return 0;
  for (int j = 0; j < t->hier_nodes; j++)
    if (t->hier_first[j + 1] - t->hier_first[j] >= 2) return 1;
  return 0;
}

#endif
