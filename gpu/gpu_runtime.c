/* The GPU runtime: one GPU per PE, the symmetric heap in its memory, peers
 * mapped through IPC handles, and the device state every GPU translation
 * unit keeps in __constant__ memory (device/state_gpu.h).
 *
 * The heap is [internal | user] like the CPU heap: the internal part holds
 * each team slot's sync words and scratch for the collectives kernels run,
 * at the same offsets as in the host heap, so a team's device copy differs
 * from the host one only in where sync and scratch point. */
#include "../runtime/internal.h"
#include "gpu.h"
#include "gpu_lib.h"
#include "gpu_proxy.h"
#ifdef SHOAL_HAVE_OFI
#include "../transport/proxy/am.h"
#endif
#include "../teams/team.h"
#include "../teams/team_host.h"
#include "../collectives/ll.h"
#include "../device/gpu_image.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef const char *(*shoal_gpu_load_fn)(const shoal_gpu_dstate *img);

static struct {
  int on;
  int device;
  char *base;          /* my GPU heap: [internal | user | LL boxes] */
  size_t size, internal;
  char *llbox;         /* a pushbox per team slot for the kernels' LL collectives */
  size_t llbox_bytes;  /* per team slot (SHOAL_GPU_LL_BYTES; 0: the team scratch's) */
  size_t ll_slot[SHOAL_GPU_MAX_TEAMS];   /* each device team's LL slot (shoalx_gpu_team_ll_slot) */
  size_t ll_span[SHOAL_GPU_MAX_TEAMS];   /* and the most slots an LL call may take (shoalx_gpu_team_ll_span) */
  size_t stage_bytes;  /* the staged push's part at the end of a team's LL box (team_to_device) */
  size_t stage_cap[SHOAL_GPU_MAX_TEAMS]; /* a member's slot in a half of it (0: the team has none) */
  int shared;          /* some GPU runs two or more PEs (shoalx_gpu_shared) */
  unsigned char *mine; /* [n_pes] 1: that PE runs on this GPU (team_to_device: gpu_local) */
  char **peer;         /* [n_pes] peers' heaps as mapped here (host copy) */
  char **peer_dev;     /* the same table in device memory */
  shoal_team *team_dev;
  shoal_team team_img[SHOAL_GPU_MAX_TEAMS];   /* what team_dev holds, for the kernels' plans */
  shoal_gpu_dstate img;
  pthread_mutex_t lock;
  shoal_gpu_load_fn *loaders;
  int n_loaders, cap_loaders;
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static _Noreturn void gpu_fail(const char *call, const char *what, const char *err)
{
  /* A kernel that trapped (the wait watchdog, a device-side argument
   * check) leaves every later call failing with this error. */
  bool trapped = strstr(err, "launch failure") || strstr(err, "illegal instruction") ||
                 strstr(err, "assert");
  shoal_error(call, "%s: %s (%s)%s", what, err, shoal_gpu_v_name(),
              trapped ? ": a kernel of this PE stopped; its message is above (wait watchdog: "
                        "SHOAL_WAIT_TIMEOUT; or a device-side argument check)" : "");
}
#define GPU_CK(call, what, expr) do { const char *e_ = (expr); if (e_) gpu_fail(call, what, e_); } while (0)

/* Where a PE's GPU is: its node and its PCI bus id. */
typedef struct gpu_place {
  int node;
  const char *bus;
} gpu_place;
static int gpu_place_cmp(const void *a, const void *b)
{
  const gpu_place *x = a, *y = b;
  return x->node != y->node ? (x->node < y->node ? -1 : 1) : strcmp(x->bus, y->bus);
}
/* Does some GPU run two or more of the n PEs?  Sorted, two PEs on one GPU
 * are neighbours: O(n log n) at start-up, for thousands of PEs too. */
static int gpu_places_shared(gpu_place *p, int n)
{
  qsort(p, (size_t)n, sizeof *p, gpu_place_cmp);
  for (int i = 1; i < n; i++)
    if (gpu_place_cmp(&p[i - 1], &p[i]) == 0) return 1;
  return 0;
}

/* Fill one unit's state, or stop the job naming the failure. */
static void load_unit(shoal_gpu_load_fn fn)
{
  const char *err = fn(&g.img);
  if (err)
    shoal_error("shmem_init", "loading the device state into a GPU translation unit failed: %s "
                "(is the unit built for this GPU's architecture?)", err);
}

static void load_all_units(void)
{
  pthread_mutex_lock(&g.lock);
  for (int i = 0; i < g.n_loaders; i++) load_unit(g.loaders[i]);
  pthread_mutex_unlock(&g.lock);
}

SHOAL_API void shoalx_gpu_register_tu(shoal_gpu_load_fn fn)
{
  pthread_mutex_lock(&g.lock);
  if (g.n_loaders == g.cap_loaders) {
    int cap = g.cap_loaders ? 2 * g.cap_loaders : 16;
    shoal_gpu_load_fn *n = realloc(g.loaders, (size_t)cap * sizeof *n);
    if (!n) {
      pthread_mutex_unlock(&g.lock);
      fprintf(stderr, "shoal: error: out of memory registering a GPU translation unit\n");
      abort();
    }
    g.loaders = n;
    g.cap_loaders = cap;
  }
  g.loaders[g.n_loaders++] = fn;
  /* A unit loaded after shmem_init (dlopen) gets the state at once. */
  if (g.on) load_unit(fn);
  pthread_mutex_unlock(&g.lock);
}

SHOAL_API void shoalx_gpu_unregister_tu(shoal_gpu_load_fn fn)
{
  pthread_mutex_lock(&g.lock);
  for (int i = 0; i < g.n_loaders; i++)
    if (g.loaders[i] == fn) {
      g.loaders[i] = g.loaders[--g.n_loaders];
      break;
    }
  pthread_mutex_unlock(&g.lock);
}

/* The most bytes one PE pushes through LL in one call, to all its peers
 * together: on one H100 (2 and 4 PEs, bench/RESULTS.md session 8) LL beat
 * the one-block push up to 16 KB (8-16 KB to one peer, 4 KB to each of 3)
 * and lost beyond (32 KB to one peer, 16 KB to each of 3). */
#define SHOAL_GPU_LL_PUSH_MAX (16u << 10)

/* The device copy of a host team: same members, sync, scratch and pushbox
 * moved to the GPU heap.  all_mapped is 0 there: where a kernel's barrier
 * does not meet as the collectives do (members behind the proxy), it takes
 * the dissemination barrier (each PE polls only its own memory; the
 * counter barrier would poll one GPU over the link). */
static void team_to_device(const shoal_team *t)
{
  if (t->slot < 0 || t->slot >= g.img.n_slots)
    shoal_error("shmem_team_split_strided", "team slot %d has no place in the kernels' team table "
                "(at most %d teams in a GPU build: lower SHOAL_MAX_TEAMS)", t->slot, g.img.n_slots);
  shoal_team d = *t;
  size_t sync_off = (size_t)((char *)t->sync - (char *)shoal_rt.heap_seg.base);
  size_t scratch_off = (size_t)(t->scratch - (char *)shoal_rt.heap_seg.base);
  size_t chan_off = (size_t)((char *)t->chan - (char *)shoal_rt.heap_seg.base);
  d.sync = (uint64_t *)(g.base + sync_off);
  d.chan = (uint64_t *)(g.base + chan_off);
  d.scratch = t->scratch ? g.base + scratch_off : NULL;
  d.pushbox = t->pushbox ? g.base + (size_t)(t->pushbox - (char *)shoal_rt.heap_seg.base) : NULL;
  d.all_mapped = 0;
  /* Mapping is per node, so every member of a team that spans nodes sees
   * an unmapped member: all of them take the same (proxied) path. */
  d.gpu_proxied = 0;
  bool all_mine = true;
  for (int i = 0; i < t->size; i++) {
    if (!g.peer[shoal_team_world_pe(t, i)]) d.gpu_proxied = 1;
    if (!g.mine[shoal_team_world_pe(t, i)]) all_mine = false;
  }
  d.gpu_local = all_mine && !shoal_rt.env.gpu_fence_system;
  /* With SHOAL_GPU_STAGE=on, where every member shares this GPU, the last
   * quarter of the team's LL box holds the staged push's buffers
   * (collectives/push.h: a word whose top bit is the parity of the team's
   * staged calls, then two halves of a slot per member): the _on_stream
   * fcollect and alltoall take it in place of the grid push up to a slot a
   * member (bench/RESULTS.md session 34).  LL keeps the rest: at 2-8 PEs
   * it still carries every size its bounds give it (reduce_select.h), but
   * at 2 PEs its ring is half as deep (its grid all-reduce of 512 KB 4.7%
   * slower, when it waited for credits), one reason it is not the default. */
  size_t ll_bytes = g.llbox_bytes;
  g.stage_cap[t->slot] = 0;
  if (g.llbox && t->size > 1 && !d.gpu_proxied && all_mine && shoal_rt.env.gpu_stage && g.stage_bytes > 64) {
    g.stage_cap[t->slot] = ((g.stage_bytes - 64) / (2 * (size_t)t->size)) & ~(size_t)15;
    if (g.stage_cap[t->slot]) ll_bytes -= g.stage_bytes;
  }
  /* Kernels' LL collectives carry up to half a slot per pair in a block,
   * up to half a sender's ring in a grid (collectives/ll.h).  A box of
   * its own per team, larger than the team scratch's pushbox: slots that
   * take messages up to SHOAL_GPU_LL_PUSH_MAX bytes per PE (to all peers
   * together), as many per sender as the box holds (a power of two, at
   * least SHOAL_PUSHBOX_DEPTH): one one-way latency instead of the push's
   * two meetings.  Teams behind the proxy keep the scratch's pushbox (no LL
   * there). */
  if (g.llbox && t->size > 1 && !d.gpu_proxied) {
    size_t per_sender = (ll_bytes / (size_t)t->size) & ~(size_t)15;
    size_t ll_cap = 2 * SHOAL_GPU_LL_PUSH_MAX / (size_t)(t->size - 1);
    size_t slot = per_sender / SHOAL_PUSHBOX_DEPTH < ll_cap ? per_sender / SHOAL_PUSHBOX_DEPTH : ll_cap;
    int depth = SHOAL_PUSHBOX_DEPTH;   /* even: LL's calls write the ring's two halves in turn (ll.h) */
    slot &= ~(size_t)15;
    while (slot && per_sender / (size_t)(2 * depth) >= slot) depth *= 2;
    d.pushbox = g.llbox + (size_t)t->slot * g.llbox_bytes;
    shoal_team_pushbox_shape(&d, slot ? slot * (size_t)depth : per_sender, depth);
  }
  /* GPU heaps of a node are always mapped to each other (else shmem_init
   * failed), whatever SHOAL_TRANSPORT says for the host heaps: the layout
   * and the switch decide, the same on every member. */
  d.hier = shoal_hier_layout_ok(t) && shoal_rt.env.coll_hier;
  if (d.gpu_proxied && t->my_pe >= 0)
    shoal_debug("GPU runtime: team of world PEs %d + %d i (%d PEs): collectives through the host proxy; "
                "all-reduce %s, reduce-scatter %s, fcollect %s", t->start, t->stride, t->size,
                d.hier ? "hierarchical" : "flat", d.hier ? "hierarchical" : "flat", d.hier ? "hierarchical" : "flat");
  d.parent = NULL;
  g.ll_slot[t->slot] = d.pushbox && !d.gpu_proxied ? d.pushbox_slot : 0;
  g.ll_span[t->slot] = g.ll_slot[t->slot] ? shoal_ll_span_max(d.pushbox_depth) : 0;
  GPU_CK("shmem_init", "copying a team to the GPU",
         shoal_gpu_v_memcpy(&g.team_dev[t->slot], &d, sizeof d));
  g.team_img[t->slot] = d;
  g.img.team_key[t->slot] = t;
}

int shoal_gpu_init(void)
{
  const char *call = "shmem_init";
  int me = shoal_dstate.my_pe, n = shoal_dstate.n_pes;
  int count = 0;
  bool proxied = shoal_gpu_proxy_needed();
  if (proxied) shoal_gpu_v_prefer_eager_loading();   /* before the first runtime call: gpu.h */
  const char *err = shoal_gpu_v_count(&count);
  if (err || count < 1) {
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (!vis) vis = getenv("HIP_VISIBLE_DEVICES");
    shoal_error(call, "this is a GPU build of Shoal (%s) and PE %d sees no GPU (%s; visible devices: "
                "%s)", shoal_gpu_v_name(), me, err ? err : "0 devices", vis ? vis : "all");
  }
  /* One GPU per PE: the local rank picks it, SHOAL_GPU_DEVICE overrides. */
  int dev = shoal_rt.boot.local_rank % count;
  const char *envdev = getenv("SHOAL_GPU_DEVICE");
  if (envdev && *envdev) {
    char *end;
    long v = strtol(envdev, &end, 10);
    if (*end || v < 0 || v >= count)
      shoal_error(call, "SHOAL_GPU_DEVICE=%s is not a device number in [0, %d)", envdev, count);
    dev = (int)v;
  }
  if (shoal_rt.boot.local_size > count && !envdev)
    shoal_warn("%d PEs on this node share %d GPUs", shoal_rt.boot.local_size, count);
  GPU_CK(call, "selecting the GPU", shoal_gpu_v_set_device(dev));
  g.device = dev;
  if (shoal_rt.env.max_teams > SHOAL_GPU_MAX_TEAMS)
    shoal_error(call, "SHOAL_MAX_TEAMS=%d: a GPU build allows at most %d teams", shoal_rt.env.max_teams,
                SHOAL_GPU_MAX_TEAMS);

  g.internal = shoal_rt.internal_size;
  g.llbox_bytes = shoal_rt.env.gpu_ll_bytes;
  g.stage_bytes = (g.llbox_bytes / 4) & ~(size_t)255;
  g.size = shoal_rt.internal_size + shoal_rt.user_size + (size_t)shoal_rt.env.max_teams * g.llbox_bytes;
  void *base;
  err = shoal_gpu_v_malloc(&base, g.size);
  if (err)
    shoal_error(call, "PE %d cannot allocate its %zu-byte symmetric heap on the GPU: %s (lower "
                "SHMEM_SYMMETRIC_SIZE)", me, g.size, err);
  g.base = base;
  g.llbox = g.llbox_bytes ? g.base + g.internal + shoal_rt.user_size : NULL;
  GPU_CK(call, "clearing the GPU heap", shoal_gpu_v_memset(g.base, 0, g.size));

  /* Exchange IPC handles; map every peer of my node. */
  struct card { int ok; int dev; size_t size; shoal_gpu_ipc h; char bus[32]; } mine, *cards;
  memset(&mine, 0, sizeof mine);
  mine.dev = dev;
  mine.size = g.size;
  mine.ok = shoal_gpu_v_ipc_get(g.base, &mine.h) == NULL;
  shoal_gpu_v_bus_id(dev, mine.bus, sizeof mine.bus);
  cards = calloc((size_t)n, sizeof *cards);
  g.peer = calloc((size_t)n, sizeof *g.peer);
  if (!cards || !g.peer) shoal_error(call, "out of memory");
  shoal_boot_allgather(&mine, cards, sizeof mine);
  /* every PE sees every card, so every PE finds the same answer */
  gpu_place *places = malloc((size_t)n * sizeof *places);
  if (!places) shoal_error(call, "out of memory");
  for (int i = 0; i < n; i++) places[i] = (gpu_place){shoal_rt.boot.node_of[i], cards[i].bus};
  g.shared = gpu_places_shared(places, n);
  free(places);
  g.mine = calloc((size_t)n, 1);
  if (!g.mine) shoal_error(call, "out of memory");
  for (int i = 0; i < n; i++)
    g.mine[i] = shoal_rt.boot.node_of[i] == shoal_rt.boot.node_id && !strcmp(cards[i].bus, mine.bus);
  for (int i = 0; i < n; i++) {
    if (i == me) { g.peer[i] = g.base; continue; }
    if (shoal_rt.boot.node_of[i] != shoal_rt.boot.node_id) continue;   /* not reachable yet */
    if (!cards[i].ok) shoal_error(call, "PE %d could not export its GPU heap", i);
    if (cards[i].size != g.size)
      shoal_error(call, "PE %d has a %zu-byte GPU heap, PE %d %zu bytes: set SHMEM_SYMMETRIC_SIZE the "
                  "same on every PE", i, cards[i].size, me, g.size);
    void *p = NULL;
    err = shoal_gpu_v_ipc_open(&cards[i].h, &p);
    if (err)
      shoal_error(call, "PE %d (GPU %s) cannot map the GPU heap of PE %d (GPU %s): %s; device-initiated "
                  "communication needs peer access between the GPUs (NVLink or PCIe P2P)", me, mine.bus,
                  i, cards[i].bus, err);
    g.peer[i] = p;
  }
  free(cards);

  GPU_CK(call, "allocating the peer table", shoal_gpu_v_malloc((void **)&g.peer_dev, (size_t)n * sizeof(char *)));
  GPU_CK(call, "copying the peer table", shoal_gpu_v_memcpy(g.peer_dev, g.peer, (size_t)n * sizeof(char *)));
  g.img.n_slots = shoal_rt.env.max_teams;
  GPU_CK(call, "allocating the team table",
         shoal_gpu_v_malloc((void **)&g.team_dev, (size_t)g.img.n_slots * sizeof(shoal_team)));
  GPU_CK(call, "clearing the team table", shoal_gpu_v_memset(g.team_dev, 0, (size_t)g.img.n_slots * sizeof(shoal_team)));

  g.img.s.my_pe = me;
  g.img.s.n_pes = n;
  g.img.s.heap_base = g.base;
  g.img.s.heap_size = g.size;
  g.img.s.peer_heap = g.peer_dev;
  for (int i = 0; i < n && i < SHOAL_GPU_NEAR_PEERS; i++) g.img.peer_heap_near[i] = g.peer[i];
  g.img.device = dev;
  g.img.wait_timeout_ns = (unsigned long long)(shoal_rt.env.wait_timeout * 1e9);
  shoal_gpu_lib_amo_setup(shoal_rt.env.gpu_amo_linger);
  g.img.allreduce_ring = shoal_rt.env.allreduce && !strcmp(shoal_rt.env.allreduce, "ring");
  g.img.team_dev = g.team_dev;
  team_to_device(SHMEM_TEAM_WORLD);
  team_to_device(SHMEM_TEAM_SHARED);
  team_to_device(SHMEMX_TEAM_NODE);
  if (shoal_gpu_proxy_start(dev, g.base, g.size, &g.img.pq) != 0) return -1;
  int lazy = proxied && shoal_gpu_proxy_on() ? shoal_gpu_v_lazy_loading() : -1;
  if (proxied) shoal_debug("GPU runtime: kernels load %s", lazy == 1 ? "lazily" : lazy == 0 ? "eagerly" : "(mode unknown)");
  if (lazy == 1 && me == 0)
    shoal_warn("CUDA loads kernels lazily here (CUDA was started before shmem_init, or "
               "CUDA_MODULE_LOADING=LAZY): a kernel's first launch waits for the GPU to drain and holds "
               "every CUDA call of the process meanwhile, the GPU proxy's included, so a kernel "
               "launched while another waits for the proxy can hang the job.  Set "
               "CUDA_MODULE_LOADING=EAGER, or load each kernel before (cudaFuncGetAttributes)");
  if (shoal_rt.env.debug)
    for (int i = 0; i < n; i++)
      shoal_debug("GPU runtime: PE %d -> PE %d: %s", me, i, i == me ? "self" : g.peer[i] ? "load/store (IPC mapping)"
                  : shoal_gpu_proxy_on() ? "host proxy (active messages over libfabric)" : "unreachable");

  /* shmem_malloc now hands out GPU memory. */
  shoal_rt.user_heap = g.base + g.internal;
  g.on = 1;
  load_all_units();
  shoal_debug("GPU runtime: PE %d on %s device %d (%s), %zu-byte GPU heap, %d units", me,
              shoal_gpu_v_name(), dev, mine.bus, g.size, g.n_loaders);
  return 0;
}

/* Before the other PEs are waited for: a PE whose kernel trapped says so
 * at once, rather than a leave or barrier timeout caused by a peer that
 * is still in its own GPU's recovery (bench/RESULTS.md, session 10).  Its
 * kernels wait only for peers' kernels and proxies, which all still run. */
void shoal_gpu_finish_kernels(const char *call)
{
  if (g.on) GPU_CK(call, "waiting for this PE's kernels", shoal_gpu_v_sync());
}

void shoal_gpu_fini(void)
{
  if (!g.on) return;   /* (finalize waited for this PE's kernels first) */
  shoal_gpu_proxy_stop();
  shoal_gpu_lib_amo_stop();   /* no more peers' AMOs to apply */
  g.on = 0;
  int n = shoal_dstate.n_pes;
  for (int i = 0; i < n; i++)
    if (g.peer[i] && g.peer[i] != g.base) shoal_gpu_v_ipc_close(g.peer[i]);
  shoal_boot_barrier();   /* nobody maps my heap any more */
  shoal_gpu_v_free(g.peer_dev);
  shoal_gpu_v_free(g.team_dev);
  shoal_gpu_v_free(g.base);
  free(g.peer);
  free(g.mine);
  memset(&g.img, 0, sizeof g.img);
  g.peer = NULL;
  g.mine = NULL;
  g.base = NULL;
}

/* ---- entry points for GPU translation units ------------------------------ */
SHOAL_API int shoalx_gpu_heap_has(const void *addr)
{
  return g.on && shoal_region_offset(addr, g.base, g.size) != SIZE_MAX;
}

SHOAL_API void *shoalx_gpu_peer_ptr(const void *addr, int pe)
{
  return shoal_gpu_peer(addr, pe);
}

/* The _on_stream launches size their kernel by it (collectives/
 * reduce_select.h: shoal_move_select_launch). */
SHOAL_API size_t shoalx_gpu_team_ll_slot(shmem_team_t team)
{
  const shoal_team *t = (const shoal_team *)team;
  if (!g.on || !t || t->slot < 0 || t->slot >= g.img.n_slots || g.img.team_key[t->slot] != t) return 0;
  return g.ll_slot[t->slot];
}
/* The most slots of the ring one LL call may take on team (0: no LL). */
SHOAL_API size_t shoalx_gpu_team_ll_span(shmem_team_t team)
{
  const shoal_team *t = (const shoal_team *)team;
  if (!g.on || !t || t->slot < 0 || t->slot >= g.img.n_slots || g.img.team_key[t->slot] != t) return 0;
  return g.ll_span[t->slot];
}
SHOAL_API int shoalx_gpu_shared(void) { return g.on && g.shared; }
/* The kernels' record of team as team_to_device copied it to the GPU, for
 * LL's _on_stream kernels, which take it by value. */
SHOAL_API int shoalx_gpu_team_record(shmem_team_t team, shoal_team *rec)
{
  const shoal_team *t = (const shoal_team *)team;
  if (!g.on || !t || t->slot < 0 || t->slot >= g.img.n_slots || g.img.team_key[t->slot] != t || t->my_pe < 0)
    return 0;
  *rec = g.team_img[t->slot];
  return 1;
}
/* The grid push's plan (teams/team.h): every pointer its kernel's
 * meetings and stores need, from the host's copies of the tables. */
SHOAL_API int shoalx_gpu_team_plan(shmem_team_t team, void *dest, shoal_gpu_plan *plan)
{
  const shoal_team *t = (const shoal_team *)team;
  memset(plan, 0, sizeof *plan);
  if (!shoalx_gpu_team_record(team, &plan->team) || plan->team.gpu_proxied || t->size > SHOAL_GPU_PLAN_PEERS ||
      !shoalx_gpu_heap_has(dest))
    return 0;
  /* the device record's grid words (team_to_device put its sync words in the GPU heap) */
  uint64_t *words = plan->team.sync + SHOAL_SYNC_GRID(t->n_world);
  for (int q = 0; q < t->size; q++) {
    int pe = shoal_team_world_pe(t, q);
    plan->words_at[q] = (uint64_t *)shoal_gpu_peer(words, pe);
    plan->dest_at[q] = (char *)shoal_gpu_peer(dest, pe);
    if (!plan->words_at[q] || !plan->dest_at[q]) return 0;
  }
  /* the staged push's buffers (team_to_device), where the team has them */
  if (g.stage_cap[t->slot]) {
    char *box = g.llbox + (size_t)t->slot * g.llbox_bytes + g.llbox_bytes - g.stage_bytes;
    plan->stage_calls = (uint64_t *)box;
    plan->stage = box + 64;
    plan->stage_cap = g.stage_cap[t->slot];
    for (int q = 0; q < t->size; q++)
      if (!(plan->stage_at[q] = (char *)shoal_gpu_peer(plan->stage, shoal_team_world_pe(t, q)))) plan->stage_cap = 0;
  }
  return 1;
}

/* ---- host calls on GPU memory (runtime/internal.h) ----------------------- */
bool shoal_gpu_owns(const void *addr, size_t bytes)
{
  if (!g.on) return false;
  size_t off = shoal_region_offset(addr, g.base, g.size);
  return off != SIZE_MAX && bytes <= g.size - off;
}

void *shoal_gpu_peer(const void *addr, int pe)
{
  if (!g.on || (unsigned)pe >= (unsigned)shoal_dstate.n_pes) return NULL;
  size_t off = shoal_region_offset(addr, g.base, g.size);
  if (off == SIZE_MAX || !g.peer[pe]) return NULL;
  return g.peer[pe] + off;
}

void shoal_gpu_copy(const char *call, void *dest, const void *src, size_t n)
{
  if (n) GPU_CK(call, "copy", shoal_gpu_v_memcpy(dest, src, n));
}

/* A peer's signal or flag (an atomic set) stored by the GPU runtime
 * without a kernel launch; false where it cannot (the caller launches one). */
bool shoal_gpu_store_value(const char *call, void *dest, uint64_t v, size_t size)
{
  int done = 0;
  GPU_CK(call, "store of a signal or flag", shoal_gpu_v_write_value(dest, v, size, &done));
  return done != 0;
}

bool shoal_gpu_is_device(const void *addr) { return shoal_gpu_v_is_device(addr) != 0; }

void shoal_gpu_fill(const char *call, void *dest, int v, size_t n)
{
  if (n) GPU_CK(call, "fill", shoal_gpu_v_memset(dest, v, n));
}

static void *peer_or_fail(const char *what, const void *addr, size_t n, int pe)
{
  void *r = shoal_gpu_peer(addr, pe);
  if (!r)
    shoal_error(what, "PE %d's GPU heap is not mapped into this PE's GPU (PE %d is on another node); "
                "transfers to it need the fabric proxy, which this build does not have", pe, pe);
  if (!shoal_gpu_owns(addr, n))
    shoal_error(what, "%zu bytes from %p run past the end of the symmetric GPU heap", n, addr);
  return r;
}

void shoal_gpu_rma(int is_put, void *dest, const void *src, size_t n, int pe)
{
  const char *what = is_put ? "put to GPU memory" : "get from GPU memory";
#ifdef SHOAL_HAVE_OFI
  if (shoal_gpu_proxy_on() && (unsigned)pe < (unsigned)shoal_dstate.n_pes && !g.peer[pe]) {
    const void *sym = is_put ? dest : src;
    if (!shoal_gpu_owns(sym, n))
      shoal_error(what, "%zu bytes from %p run past the end of the symmetric GPU heap", n, sym);
    size_t off = (size_t)((const char *)sym - g.base);
    if (is_put) shoal_am_put(what, pe, SHOAL_AM_GPU_HEAP, off, src, n);
    else shoal_am_get(what, pe, SHOAL_AM_GPU_HEAP, off, dest, n);
    return;
  }
#endif
  if (is_put) shoal_gpu_copy(what, peer_or_fail(what, dest, n, pe), src, n);
  else shoal_gpu_copy(what, dest, peer_or_fail(what, src, n, pe), n);
}

void shoal_gpu_amo(int op, int dtype, void *dest, const void *operand, const void *compare, void *result, int pe)
{
  size_t size = (dtype == SHOAL_DT_I32 || dtype == SHOAL_DT_U32 || dtype == SHOAL_DT_F32) ? 4 : 8;
#ifdef SHOAL_HAVE_OFI
  if (shoal_gpu_proxy_on() && (unsigned)pe < (unsigned)shoal_dstate.n_pes && !g.peer[pe]) {
    if (!shoal_gpu_owns(dest, size))
      shoal_error("atomic on GPU memory", "address %p is not in the symmetric GPU heap", dest);
    shoal_am_amo("atomic on GPU memory", pe, SHOAL_AM_GPU_HEAP, (size_t)((char *)dest - g.base),
                 (shoal_amo_op)op, (shoal_dtype)dtype, operand, compare, result);
    return;
  }
#endif
  shoal_gpu_lib_amo(op, dtype, peer_or_fail("atomic on GPU memory", dest, size, pe), operand, compare, result);
}

void shoal_gpu_team_created(shmem_team_t team)
{
  if (team == SHMEM_TEAM_INVALID || !g.on || team->slot < 0) return;
  shoal_team *t = team;
  size_t slot_bytes = (size_t)(t->scratch - (char *)t->sync) + t->scratch_size;
  size_t sync_off = (size_t)((char *)t->sync - (char *)shoal_rt.heap_seg.base);
  /* Fresh sync words and scratch on every member before any kernel uses
   * the team: the small all-reduce polls its pushbox for flags, which a
   * leftover of an earlier team in this slot must not hold. */
  GPU_CK("shmem_team_split_strided", "clearing the team's GPU sync words and scratch",
         shoal_gpu_v_memset(g.base + sync_off, 0, slot_bytes));
  if (g.llbox)
    GPU_CK("shmem_team_split_strided", "clearing the team's LL box",
           shoal_gpu_v_memset(g.llbox + (size_t)t->slot * g.llbox_bytes, 0, g.llbox_bytes));
  pthread_mutex_lock(&g.lock);
  team_to_device(t);
  pthread_mutex_unlock(&g.lock);
  load_all_units();
  shmem_team_sync(team);
}

void shoal_gpu_team_destroying(shmem_team_t team)
{
  if (team == SHMEM_TEAM_INVALID || !g.on) return;
  if (team->slot >= 0 && team->slot < g.img.n_slots && g.img.team_key[team->slot] == team) {
    g.img.team_key[team->slot] = NULL;
    load_all_units();
  }
}
