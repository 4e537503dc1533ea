/* Environment variables: one table, read by the runtime and shoal-info. */
#include "internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const shoal_env_var shoal_env_vars[] = {
    {"SHMEM_SYMMETRIC_SIZE", "256M", "bytes of symmetric heap per PE (K, M, G suffixes)"},
    {"SHMEM_DEBUG", "0", "print diagnostics (allocation failures, transport choice)"},
    {"SHMEM_INFO", "0", "print the library version and settings at shmem_init"},
    {"SHOAL_PES_PER_NODE", "0",
     "treat every k consecutive PEs as one node: load/store inside, libfabric between "
     "(0 = real nodes; 1 = everything through libfabric)"},
    {"SHOAL_MAX_TEAMS", "64", "teams that may exist at once (world and shared included)"},
    {"SHOAL_TEAM_SCRATCH", "256K", "symmetric scratch bytes per team for collectives"},
    {"SHOAL_ALLREDUCE", "auto", "all-reduce algorithm: auto, oneshot, twoshot, ring, push, hier (GPU kernels: ring only)"},
    {"SHOAL_COLL_HIER", "1",
     "1: all-reduce, reduce-scatter and fcollect on a team that spans nodes, with some node holding several "
     "members, go node-wise (inside each node, leaders across nodes, back inside); 0: flat "
     "algorithms"},
    {"SHOAL_TRANSPORT", "auto",
     "auto: libfabric only for PEs on other nodes; ofi: libfabric for every other PE; "
     "proxy: every other PE through the host proxy's active messages"},
    {"SHOAL_SYMMETRIC_DATA", "1", "make global/static variables symmetric (CPU target)"},
    {"FI_PROVIDER", "(best)",
     "libfabric provider for the remote transport, e.g. shm or \"tcp;ofi_rxm\" (unset: the "
     "first with RDM, RMA and atomics)"},
    {"SHOAL_PROXY_HMEM", "1",
     "GPU builds: 1: where the provider offers FI_HMEM with RMA, the host proxy registers every "
     "PE's GPU heap and moves puts and gets between GPU heaps zero-copy; 0: always stage through "
     "pinned host buffers"},
    {"SHOAL_GPU_AMO_LINGER", "0.0001",
     "GPU builds: seconds the kernel that applies host-side AMOs to GPU memory (the proxy's, for "
     "peers on other nodes) stays after its last one: back-to-back AMOs then cost a PCIe round "
     "trip instead of a kernel launch each (0: a launch per AMO)"},
    {"SHOAL_GPU_LL_BYTES", "8M",
     "GPU builds: bytes of GPU memory per team for the kernels' LL (flag-in-data) collectives, a "
     "ring of slots per member (SHOAL_MAX_TEAMS of them: 512 MB at the defaults): a block's calls "
     "of up to 16 KB per PE (to all peers together) go LL, a grid's (and _on_stream's) up to "
     "SHOAL_GPU_LL_BYTES / (4 x team size) per pair and 512 KB of LL words a PE (the grid's "
     "all-reduce 1 MB); a deeper ring returns credits less often and lets a call of several slots "
     "go without waiting for them (0: the team scratch's pushbox, a 32nd of SHOAL_TEAM_SCRATCH per "
     "member: less); on a team whose members share one GPU, its last quarter holds the staged "
     "push's buffers where SHOAL_GPU_STAGE=on"},
    {"SHOAL_GPU_FENCE", "auto",
     "GPU builds: auto: the kernels' collectives on a team whose members all run on one GPU "
     "(several PEs under MPS) order their stores before a meeting at the GPU's scope, elsewhere "
     "at the system's; system: always at the system's"},
    {"SHOAL_GPU_STAGE", "off",
     "GPU builds: on: on a team whose members all run on one GPU (several PEs under MPS), the "
     "last quarter of its LL box holds staging buffers, and _on_stream fcollect and alltoall "
     "past LL's bound store into them and meet once instead of twice, up to "
     "(SHOAL_GPU_LL_BYTES / 8) / team size bytes a member (experimental: on one H200 not yet "
     "faster than the grid push but for alltoall at 2 PEs, and the LL ring half as deep at 2 "
     "PEs); off: the grid push"},
    {"SHOAL_GPU_PDL", "auto",
     "GPU _on_stream collectives (CUDA): auto: where the translation unit was built only for "
     "sm_90 or later (the library's own kernels, a user's built so), each kernel is launched with "
     "programmatic dependent launch and may be scheduled as the one before it on the stream ends "
     "(it waits for that kernel's memory at entry); off: plain launches"},
    {"SHOAL_GPU_STREAM_GRID_MIN", "auto",
     "GPU _on_stream collectives: bytes (per member) from which one kernel over many blocks runs "
     "instead of one block (auto: 128K for fcollect, alltoall and broadcast, 256K for reductions; "
     "tuning; the same on every PE)"},
    {"SHOAL_GPU_STREAM_LL_MAX", "512K",
     "GPU _on_stream collectives: bytes per pair up to which LL's kernel over several blocks runs "
     "where one block's LL does not fit (the data movers from 4 KB; 0: never; tuning; the same on "
     "every PE), within 1 MB of LL words a member sends in one call (512 KB where two or more "
     "PEs share a GPU; there the data movers: up to 128 KB per pair and 1 MB of LL words from "
     "all members together, n(n-1) x 2 x bytes per pair; past LL's bound the grid kernel runs, "
     "from 4 KB)"},
    {"SHOAL_GPU_STREAM_BLOCK_BYTES", "auto",
     "GPU _on_stream collectives: bytes each block of that kernel takes at least (fewer blocks "
     "for medium messages; auto: 16K for reductions, 8K for fcollect, alltoall and broadcast; "
     "0: every block the GPU holds; the same on every PE)"},
    {"SHOAL_OFI_TIMEOUT", "120",
     "seconds a libfabric operation may wait for completion before the job ends with an error"},
    {"SHOAL_OFI_PROGRESS_US", "1000",
     "with a manual-progress provider, a thread drives progress this often (microseconds; 0: "
     "no thread, only calls into the library do)"},
    {"SHOAL_OFI_AMO", "auto",
     "auto: provider atomics where valid, compare-swap loop otherwise; cas: emulate all (testing)"},
    {"SHOAL_OFI_AMO_ALL", "auto",
     "1: every AMO, on mapped PEs too, goes through libfabric (auto: when the provider's "
     "atomics are not CPU atomics)"},
    {"SHOAL_GPU_DEVICE", "(local-rank)",
     "GPU builds: the device this PE uses, among the visible ones (default: the local rank "
     "modulo the number of GPUs)"},
    {"SHOAL_BOOTSTRAP", "auto",
     "how PEs find each other: pmix, env (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT as torchrun "
     "sets them, TCP rendezvous) or auto (PMIx when a PMIx server is present, else env when "
     "RANK and WORLD_SIZE are set, else a single PE)"},
    {"SHOAL_BOOTSTRAP_PORT", "(MASTER_PORT+1)",
     "env bootstrap: the one TCP port rank 0 listens on at MASTER_ADDR (torchrun's own store "
     "has MASTER_PORT).  Unset: MASTER_PORT+1, or when that is taken the first free port of a "
     "fixed sequence of 32 that the other ranks walk too; rank 0 greets with the job's "
     "identity, so a rank never joins another program on these ports"},
    {"SHOAL_BOOTSTRAP_TIMEOUT", "120",
     "env bootstrap and unique-id init: seconds to wait for the rendezvous before failing"},
    {"SHOAL_WAIT_TIMEOUT", "0",
     "seconds any wait of the library (wait_until, signal_wait_until, barriers, collectives, "
     "locks, quiet; CPU and GPU) may last before the job ends with what it waited for (0: no "
     "limit)"},
    {NULL, NULL, NULL},
};

int shmemx_info_env(int i, const char **name, const char **default_value, const char **help)
{
  int n = 0;
  while (shoal_env_vars[n].name) n++;
  if (i < 0 || i >= n) return -1;
  if (name) *name = shoal_env_vars[i].name;
  if (default_value) *default_value = shoal_env_vars[i].default_value;
  if (help) *help = shoal_env_vars[i].help;
  return 0;
}

static const char *env_or_default(const char *name)
{
  const char *v = getenv(name);
  if (v && *v) return v;
  for (const shoal_env_var *e = shoal_env_vars; e->name; e++)
    if (!strcmp(e->name, name)) return e->default_value;
  return NULL;
}

bool shoal_parse_size(const char *s, size_t *out)
{
  if (!s) return false;
  while (isspace((unsigned char)*s)) s++;
  if (!isdigit((unsigned char)*s)) return false;
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (errno || end == s || v < 0) return false;
  double mult = 1;
  switch (toupper((unsigned char)*end)) {
  case 'K': mult = 1024.0; end++; break;
  case 'M': mult = 1024.0 * 1024; end++; break;
  case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
  case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
  default: break;
  }
  if (toupper((unsigned char)*end) == 'B') end++;
  while (isspace((unsigned char)*end)) end++;
  if (*end) return false;
  double bytes = v * mult;
  if (bytes >= (double)(SIZE_MAX / 2)) return false;
  *out = (size_t)bytes;
  return true;
}

static bool parse_bool(const char *v)
{
  return v && (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
               !strcasecmp(v, "on") || !strcasecmp(v, "y"));
}

static size_t size_var(const char *name)
{
  size_t out;
  const char *v = env_or_default(name);
  if (!shoal_parse_size(v, &out)) {
    fprintf(stderr, "shoal: error: shmem_init: environment variable %s=\"%s\" is not a size "
                    "(examples: 64M, 1G, 4096)\n", name, v);
    exit(1);
  }
  return out;
}

static int int_var(const char *name, int lo, int hi)
{
  const char *v = env_or_default(name);
  char *end;
  long x = strtol(v, &end, 10);
  if (*v == '\0' || *end || x < lo || x > hi) {
    fprintf(stderr, "shoal: error: shmem_init: environment variable %s=\"%s\" must be an "
                    "integer in [%d, %d]\n", name, v, lo, hi);
    exit(1);
  }
  return (int)x;
}

static double seconds_var(const char *name)
{
  const char *v = env_or_default(name);
  char *end;
  double x = strtod(v, &end);
  if (*v == '\0' || *end || !(x >= 0) || x > 1e9) {
    fprintf(stderr, "shoal: error: shmem_init: environment variable %s=\"%s\" must be a number "
                    "of seconds >= 0 (0: no limit)\n", name, v);
    exit(1);
  }
  return x;
}

static const char *choice_var(const char *name, const char *const *choices)
{
  const char *v = env_or_default(name);
  for (const char *const *c = choices; *c; c++)
    if (!strcasecmp(v, *c)) return *c;
  fprintf(stderr, "shoal: error: shmem_init: environment variable %s=\"%s\" is not one of:", name, v);
  for (const char *const *c = choices; *c; c++) fprintf(stderr, " %s", *c);
  fprintf(stderr, "\n");
  exit(1);
}

void shoal_env_load(shoal_env *env)
{
  static const char *const algos[] = {"auto", "oneshot", "twoshot", "ring", "push", "hier", NULL};
  static const char *const transports[] = {"auto", "ofi", "proxy", NULL};
  env->symmetric_size = size_var("SHMEM_SYMMETRIC_SIZE");
  env->debug = parse_bool(env_or_default("SHMEM_DEBUG"));
  env->info = parse_bool(env_or_default("SHMEM_INFO"));
  env->pes_per_node = int_var("SHOAL_PES_PER_NODE", 0, 1 << 20);
  env->max_teams = int_var("SHOAL_MAX_TEAMS", 3, 4096);
  env->team_scratch = size_var("SHOAL_TEAM_SCRATCH");
  if (env->team_scratch < 4096) env->team_scratch = 4096;
  env->team_scratch = (env->team_scratch + 63) & ~(size_t)63;
  env->gpu_ll_bytes = size_var("SHOAL_GPU_LL_BYTES") & ~(size_t)63;
  env->allreduce = choice_var("SHOAL_ALLREDUCE", algos);
  env->coll_hier = parse_bool(env_or_default("SHOAL_COLL_HIER"));
  env->transport = choice_var("SHOAL_TRANSPORT", transports);
  env->symmetric_data = parse_bool(env_or_default("SHOAL_SYMMETRIC_DATA"));
  static const char *const boots[] = {"auto", "pmix", "env", NULL};
  env->bootstrap = choice_var("SHOAL_BOOTSTRAP", boots);
  env->bootstrap_timeout = int_var("SHOAL_BOOTSTRAP_TIMEOUT", 1, 1 << 20);
  env->wait_timeout = seconds_var("SHOAL_WAIT_TIMEOUT");
  env->gpu_amo_linger = seconds_var("SHOAL_GPU_AMO_LINGER");
  static const char *const fences[] = {"auto", "system", NULL};
  env->gpu_fence_system = !strcmp(choice_var("SHOAL_GPU_FENCE", fences), "system");
  static const char *const stages[] = {"off", "on", NULL};
  env->gpu_stage = !strcmp(choice_var("SHOAL_GPU_STAGE", stages), "on");
}
