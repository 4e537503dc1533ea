/* Teams on the host: the predefined teams, strided and 2-D splits, and the
 * bookkeeping of sync/scratch slots.
 *
 * A split picks a slot free on every member of the parent, by an AND
 * all-reduce of each PE's free-slot mask, so teams that may overlap never
 * share sync words, while disjoint teams made by one split share a slot
 * index harmlessly (their words live on different PEs). */
#include "../runtime/internal.h"
#include "team_host.h"
#include "../collectives/barrier.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

shmem_team_t SHMEM_TEAM_WORLD SHOAL_API = SHMEM_TEAM_INVALID;
shmem_team_t SHMEM_TEAM_SHARED SHOAL_API = SHMEM_TEAM_INVALID;
shmem_team_t SHMEMX_TEAM_NODE SHOAL_API = SHMEM_TEAM_INVALID;

static shoal_team team_world, team_shared, team_node;
static uint64_t *slot_free;   /* bit i set: slot i is free on this PE */
static int n_slots;
static size_t slot_bytes, sync_bytes, active_pushbox_off;

size_t shoal_teams_internal_size(int n_pes, int max_teams, size_t scratch)
{
  sync_bytes = (SHOAL_SYNC_WORDS(n_pes) * sizeof(uint64_t) + 63) & ~(size_t)63;
  slot_bytes = sync_bytes + scratch;
  /* after the team slots: the active sets' pushbox, a ring per world PE */
  active_pushbox_off = slot_bytes * (size_t)max_teams;
  return active_pushbox_off + SHOAL_ACTIVE_PUSHBOX_SLOT * SHOAL_ACTIVE_PUSHBOX_DEPTH * (size_t)n_pes;
}

static void slot_take(int s) { slot_free[s / 64] &= ~(1ull << (s % 64)); }
static void slot_give(int s) { slot_free[s / 64] |= 1ull << (s % 64); }

/* Split a sender's share of the pushbox into a ring: several slots let a
 * sender (a broadcast root above all) run that many collectives ahead of
 * a slow receiver, but only while each slot stays a useful size. */
void shoal_team_pushbox_shape(shoal_team *t, size_t per_sender, int depth)
{
  while (depth > 1 && per_sender / (size_t)depth < SHOAL_PUSHBOX_MIN_SLOT) depth /= 2;
  t->pushbox_depth = depth;
  t->pushbox_slot = (per_sender / (size_t)depth) & ~(size_t)15;
}

/* Team records come from one private pool and are never freed: a handle
 * can be checked without touching memory it does not own (is it inside
 * the pool, on a record boundary?), and a destroyed team's record stays,
 * marked, so a second destroy or a query says so instead of reading freed
 * memory.  Records of destroyed teams are reused only once the pool has
 * been used up (65536 splits). */
#define TEAM_POOL 65536
static shoal_team *team_pool;
static size_t team_pool_used;

static shoal_team *team_record_new(void)
{
  if (!team_pool) {
    void *p = mmap(NULL, TEAM_POOL * sizeof(shoal_team), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return NULL;
    team_pool = p;
  }
  if (team_pool_used < TEAM_POOL) return &team_pool[team_pool_used++];
  for (size_t i = 0; i < TEAM_POOL; i++)
    if (team_pool[i].state == SHOAL_TEAM_DESTROYED) return &team_pool[i];
  return NULL;
}

static bool is_active_set(shmem_team_t team);

bool shoal_team_handle_ok(const char *call, shmem_team_t team)
{
  if (team == SHMEM_TEAM_INVALID) return false;
  if (team == &team_world || team == &team_shared || team == &team_node) return true;
  uintptr_t p = (uintptr_t)team, base = (uintptr_t)team_pool;
  if ((!team_pool || p < base || p >= base + team_pool_used * sizeof(shoal_team) ||
       (p - base) % sizeof(shoal_team)) && !is_active_set(team))
    shoal_error(call, "argument 'team' = %p is not a team handle (not made by "
                "shmem_team_split_strided/split_2d, nor a predefined team)", (void *)team);
  if (team->state != SHOAL_TEAM_LIVE)
    shoal_error(call, "argument 'team' = %p was destroyed by shmem_team_destroy", (void *)team);
  return true;
}

/* The members' node layout (teams/team.h, hier_*): each node a run of
 * consecutive team PEs, in team order, as blocked placement and
 * SHOAL_PES_PER_NODE give; other placements keep the flat algorithms.
 * Node peers are mapped to each other unless SHOAL_TRANSPORT forces the
 * transport for all (runtime/init.c): a setting every PE shares, so every
 * member reaches the same verdict. */
static void hier_layout(shoal_team *t)
{
  const int *node_of = shoal_rt.boot.node_of;
  int k = 0;
  for (int i = 0; i < t->size; i++) {
    int node = node_of[shoal_team_world_pe(t, i)];
    if (i > 0 && node == node_of[shoal_team_world_pe(t, i - 1)]) continue;
    for (int j = 0; j < k; j++)
      if (node_of[shoal_team_world_pe(t, t->hier_first[j])] == node) return;   /* not a run */
    if (k == SHOAL_HIER_MAX_NODES) return;
    t->hier_first[k++] = i;
  }
  t->hier_first[k] = t->size;
  t->hier_equal = 1;
  for (int j = 0; j < k; j++) {
    if (t->hier_first[j + 1] - t->hier_first[j] != t->hier_first[1] - t->hier_first[0]) t->hier_equal = 0;
    if (t->my_pe >= t->hier_first[j] && t->my_pe < t->hier_first[j + 1]) t->hier_node = j;
  }
  t->hier_nodes = k;
  t->hier = shoal_hier_layout_ok(t) && shoal_rt.env.coll_hier && !strcmp(shoal_rt.env.transport, "auto");
}

static void team_setup(shoal_team *t, int start, int stride, int size, int slot)
{
  memset(t, 0, sizeof *t);
  t->state = SHOAL_TEAM_LIVE;
  t->start = start;
  t->stride = stride > 0 ? stride : 1;
  t->size = size;
  t->my_pe = shoal_team_index_of(t, shoal_dstate.my_pe);
  t->slot = slot;
  char *base = shoal_rt.heap_seg.base + (size_t)slot * slot_bytes;
  t->n_world = shoal_dstate.n_pes;
  t->sync = (uint64_t *)base;
  t->chan = t->sync + SHOAL_SYNC_FLAGS;
  t->scratch = base + sync_bytes;
  t->scratch_size = slot_bytes - sync_bytes;
  /* pushbox: the upper half of scratch, a ring of slots per member */
  size_t half = (t->scratch_size / 2) & ~(size_t)15;
  t->pushbox = t->scratch + half;
  shoal_team_pushbox_shape(t, size > 0 ? (t->scratch_size - half) / (size_t)size : 0, SHOAL_PUSHBOX_DEPTH);
  t->pushbox_by_world = 0;
  t->all_mapped = 1;
  for (int i = 0; i < size; i++)
    if (!shoal_rt.peer_heap[shoal_team_world_pe(t, i)]) t->all_mapped = 0;
  hier_layout(t);
}

int shoal_teams_init(void)
{
  n_slots = shoal_rt.env.max_teams;
  size_t words = ((size_t)n_slots + 63) / 64;
  slot_free = calloc(words, sizeof *slot_free);
  if (!slot_free) return -1;
  for (int s = 0; s < n_slots; s++) slot_give(s);

  int me = shoal_dstate.my_pe, n = shoal_dstate.n_pes;
  team_setup(&team_world, 0, 1, n, 0);
  slot_take(0);

  /* The node team: my node's PEs, when they form a strided range and are
   * all mapped here; otherwise just me (the spec allows that). */
  const int *node_of = shoal_rt.boot.node_of;
  int first = -1, last = -1, count = 0;
  for (int i = 0; i < n; i++)
    if (node_of[i] == shoal_rt.boot.node_id) {
      if (first < 0) first = i;
      last = i;
      count++;
    }
  bool contiguous = last - first + 1 == count;
  for (int i = first; contiguous && i <= last; i++)
    if (!shoal_rt.peer_heap[i]) contiguous = false;
  if (contiguous) team_setup(&team_node, first, 1, count, 2);
  else team_setup(&team_node, me, 1, 1, 2);
  slot_take(2);
  /* SHMEM_TEAM_SHARED: PEs whose memory I can load/store, i.e. the node. */
  team_setup(&team_shared, team_node.start, 1, team_node.size, 1);
  slot_take(1);

  SHMEM_TEAM_WORLD = &team_world;
  SHMEM_TEAM_SHARED = &team_shared;
  SHMEMX_TEAM_NODE = &team_node;
  return 0;
}

/* Deprecated 1.4 active sets (PE_start, logPE_stride, PE_size).  Only the
 * members call, so they cannot agree on a slot; instead every active set
 * signals through the second channel bank of the world slot.  Channels are
 * per pair of PEs and counted, and any two PEs meet in their common active
 * sets in the same order, so sets sharing the bank never confuse each
 * other.  They have no scratch (algorithms that need it are not chosen),
 * but share a pushbox with a slot per world PE, behind the same per-pair
 * credits, so small broadcasts and reductions take one round. */
typedef struct active_set {
  shoal_team team;
  int log_stride;
  struct active_set *next;
} active_set;
static active_set *active_sets;

shoal_team *shoal_team_active_set(int start, int log_stride, int size)
{
  for (active_set *a = active_sets; a; a = a->next)
    if (a->team.start == start && a->log_stride == log_stride && a->team.size == size) return &a->team;
  active_set *a = calloc(1, sizeof *a);
  if (!a) shoal_error("shmem_barrier", "out of memory for an active set");
  team_setup(&a->team, start, 1 << log_stride, size, 0);
  a->team.slot = -1;
  a->team.chan = team_world.chan + SHOAL_CHAN_WORDS * (size_t)shoal_dstate.n_pes;
  a->team.scratch = NULL;
  a->team.scratch_size = 0;
  a->team.pushbox = shoal_rt.heap_seg.base + active_pushbox_off;
  shoal_team_pushbox_shape(&a->team, SHOAL_ACTIVE_PUSHBOX_SLOT * SHOAL_ACTIVE_PUSHBOX_DEPTH, SHOAL_ACTIVE_PUSHBOX_DEPTH);
  a->team.pushbox_by_world = 1;
  a->team.hier = 0;   /* the deprecated sets keep the flat algorithms */
  a->log_stride = log_stride;
  a->next = active_sets;
  active_sets = a;
  return &a->team;
}

/* The 1.4 active sets' teams (internal, made by the library itself). */
static bool is_active_set(shmem_team_t team)
{
  for (active_set *a = active_sets; a; a = a->next)
    if (&a->team == team) return true;
  return false;
}

void shoal_teams_fini(void)
{
  while (active_sets) {
    active_set *a = active_sets;
    active_sets = a->next;
    free(a);
  }
  free(slot_free);
  slot_free = NULL;
  SHMEM_TEAM_WORLD = SHMEM_TEAM_SHARED = SHMEMX_TEAM_NODE = SHMEM_TEAM_INVALID;
}

/* Is team a live team this PE belongs to?  Reports a clear error if not. */
static bool team_usable(const char *call, shmem_team_t team)
{
  if (!shoal_team_handle_ok(call, team)) {
    shoal_warn("%s: argument 'team' is SHMEM_TEAM_INVALID", call);
    return false;
  }
  if (team->my_pe < 0) {
    shoal_warn("%s: this PE (%d) is not a member of the team", call, shoal_dstate.my_pe);
    return false;
  }
  return true;
}

int shmem_team_my_pe(shmem_team_t team)
{
  SHOAL_REQUIRE_INIT("shmem_team_my_pe");
  return shoal_team_handle_ok("shmem_team_my_pe", team) ? team->my_pe : -1;
}

int shmem_team_n_pes(shmem_team_t team)
{
  SHOAL_REQUIRE_INIT("shmem_team_n_pes");
  return shoal_team_handle_ok("shmem_team_n_pes", team) ? team->size : -1;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
  SHOAL_REQUIRE_INIT("shmem_team_get_config");
  if (!team_usable("shmem_team_get_config", team)) return -1;
  if (!config) {
    shoal_warn("shmem_team_get_config: argument 'config' is NULL");
    return -1;
  }
  if (config_mask & SHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = team->config.num_contexts;
  return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
  SHOAL_REQUIRE_INIT("shmem_team_translate_pe");
  if (!shoal_team_handle_ok("shmem_team_translate_pe", src_team) ||
      !shoal_team_handle_ok("shmem_team_translate_pe", dest_team))
    return -1;
  if (src_pe < 0 || src_pe >= src_team->size) return -1;
  return shoal_team_index_of(dest_team, shoal_team_world_pe(src_team, src_pe));
}

/* AND of every parent member's free-slot mask; the lowest common bit. */
static int agree_on_slot(shoal_team *parent)
{
  size_t words = ((size_t)n_slots + 63) / 64;
  size_t bytes = words * sizeof(uint64_t);
  if ((size_t)parent->size * bytes > shoal_coll_scratch_size(parent))
    shoal_error("shmem_team_split_strided",
                "the parent team's scratch (%zu bytes) cannot hold %d slot masks: raise "
                "SHOAL_TEAM_SCRATCH or lower SHOAL_MAX_TEAMS", parent->scratch_size, parent->size);
  shoal_coll_barrier(parent);   /* scratch free to overwrite */
  for (int i = 0; i < parent->size; i++)
    shoal_dev_putmem(SHOAL_DEV_CTX, parent->scratch + (size_t)parent->my_pe * bytes, slot_free,
                     bytes, shoal_team_world_pe(parent, i));
  shoal_coll_barrier(parent);
  int found = -1;
  for (size_t w = 0; w < words && found < 0; w++) {
    uint64_t m = ~0ull;
    for (int i = 0; i < parent->size; i++) m &= ((uint64_t *)parent->scratch)[(size_t)i * words + w];
    if (m) found = (int)(w * 64) + __builtin_ctzll(m);
  }
  shoal_coll_barrier(parent);   /* everyone has read the masks */
  return found < n_slots ? found : -1;
}

/* The split every public split uses.  Arguments may differ between PEs as
 * long as the resulting teams are disjoint (split_2d relies on that). */
static int team_split(const char *call, shmem_team_t parent, int start, int stride, int size,
                      const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team)
{
  if (!new_team) shoal_error(call, "argument 'new_team' is NULL");
  *new_team = SHMEM_TEAM_INVALID;
  if (!team_usable(call, parent)) return -1;
  bool bad = false;
  if (size < 1 || size > parent->size) {
    shoal_warn("%s: argument 'size' = %d must be in [1, %d] (the parent team's size)", call, size,
               parent->size);
    bad = true;
  } else if (start < 0 || start >= parent->size) {
    shoal_warn("%s: argument 'start' = %d must be in [0, %d)", call, start, parent->size);
    bad = true;
  } else if (stride < 1 && size > 1) {
    shoal_warn("%s: argument 'stride' = %d must be at least 1", call, stride);
    bad = true;
  } else if (start + (long)(size - 1) * (stride < 1 ? 1 : stride) >= parent->size) {
    shoal_warn("%s: start %d + (size %d - 1) * stride %d = %ld is beyond the parent team "
               "(size %d)", call, start, size, stride,
               start + (long)(size - 1) * stride, parent->size);
    bad = true;
  }
  int slot = agree_on_slot(parent);   /* collective: every parent PE takes part */
  if (bad) return -1;
  if (slot < 0) {
    shoal_warn("%s: no free team slot: %d teams exist on some PE of the parent team; destroy "
               "teams or raise SHOAL_MAX_TEAMS", call, n_slots);
    return -1;
  }
  int wstart = shoal_team_world_pe(parent, start);
  int wstride = parent->stride * (stride < 1 ? 1 : stride);
  shoal_team probe;
  team_setup(&probe, wstart, wstride, size, slot);
  if (probe.my_pe < 0) return 0;   /* not a member: SHMEM_TEAM_INVALID, success */
  shoal_team *t = team_record_new();
  if (!t) shoal_error(call, "out of memory for a team record");
  *t = probe;
  t->parent = parent;
  if (config && (config_mask & SHMEM_TEAM_NUM_CONTEXTS)) t->config.num_contexts = config->num_contexts;
  slot_take(slot);
  *new_team = t;
#ifdef SHOAL_HAVE_GPU
  shoal_gpu_team_created(t);   /* kernels know the team when the split returns */
#endif
  return 0;
}

int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_team_split_strided");
  return team_split("shmem_team_split_strided", parent, start, stride, size, config, config_mask,
                    new_team);
}

int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team,
                        const shmem_team_config_t *yaxis_config, long yaxis_mask,
                        shmem_team_t *yaxis_team)
{
  const char *call = "shmem_team_split_2d";
  SHOAL_REQUIRE_INIT_WAIT(call);
  if (!xaxis_team || !yaxis_team) shoal_error(call, "argument 'xaxis_team'/'yaxis_team' is NULL");
  *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
  if (!team_usable(call, parent)) return -1;
  if (xrange < 1) {
    shoal_warn("%s: argument 'xrange' = %d must be at least 1", call, xrange);
    return -1;
  }
  if (xrange > parent->size) xrange = parent->size;
  int me = parent->my_pe, n = parent->size;
  int row = me / xrange, col = me % xrange;
  int row_start = row * xrange;
  int row_size = n - row_start < xrange ? n - row_start : xrange;
  int col_size = (n - col + xrange - 1) / xrange;
  int rx = team_split(call, parent, row_start, 1, row_size, xaxis_config, xaxis_mask, xaxis_team);
  int ry = team_split(call, parent, col, xrange, col_size, yaxis_config, yaxis_mask, yaxis_team);
  return rx || ry ? -1 : 0;
}

void shmem_team_destroy(shmem_team_t team)
{
  SHOAL_REQUIRE_INIT_WAIT("shmem_team_destroy");
  if (!shoal_team_handle_ok("shmem_team_destroy", team)) return;
  if (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED || team == SHMEMX_TEAM_NODE)
    shoal_error("shmem_team_destroy", "argument 'team' is a predefined team, which cannot be "
                "destroyed");
  /* After a dissemination barrier no member will touch our sync words for
   * this team (a counter barrier gives no such promise: a slow member may
   * still be reading the root's counter): zero them so the slot starts fresh
   * when a later split reuses it. */
#ifdef SHOAL_HAVE_GPU
  shoal_gpu_team_destroying(team);
#endif
  shoal_dev_quiet(SHOAL_DEV_CTX);
  shoal_coll_sync_dissemination(team);
  memset(team->sync, 0, slot_bytes);
  slot_give(team->slot);
  team->state = SHOAL_TEAM_DESTROYED;   /* the record stays: see team_record_new */
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
  SHOAL_REQUIRE_INIT("shmem_team_create_ctx");
  if (!ctx) shoal_error("shmem_team_create_ctx", "argument 'ctx' is NULL");
  *ctx = SHMEM_CTX_INVALID;
  if (!team_usable("shmem_team_create_ctx", team)) return -1;
  int rc = shmem_ctx_create(options, ctx);
  if (rc == 0) (*ctx)->team = team;
  return rc;
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
  SHOAL_REQUIRE_INIT("shmem_ctx_get_team");
  if (!team) return -1;
  if (ctx == SHMEM_CTX_INVALID) {
    *team = SHMEM_TEAM_INVALID;
    return -1;
  }
  *team = ctx->team ? ctx->team : SHMEM_TEAM_WORLD;
  return 0;
}
