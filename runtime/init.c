/* Library setup: shmem_init builds the heap, maps the node's peers, starts
 * the remote transport for the rest, and sets up the predefined teams. */
#include "internal.h"
#include "../transport/transport.h"
#include "../collectives/barrier.h"
#ifdef SHOAL_HAVE_GPU
#include "../gpu/gpu.h"
#endif

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

shoal_runtime shoal_rt;
shoal_dev_state shoal_dstate;
struct shoal_ctx shoal_ctx_default;
shmem_ctx_t SHMEM_CTX_DEFAULT SHOAL_API = &shoal_ctx_default;
unsigned shoal_spin_limit = 32;

/* More PEs on this node than cores they may run on together (the union of
 * their affinity masks: a launcher that binds each PE to its own core does
 * not oversubscribe): waiters yield at once. */
static void tune_waiting(int local_pes, const cpu_set_t *node_cpus)
{
  int cores = CPU_COUNT(node_cpus);
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0 && online < cores) cores = (int)online;
  if (cores < 1) cores = 1;
  shoal_spin_limit = local_pes > cores ? 0 : 32;
}

/* What each PE tells the others at init. */
typedef struct peer_card {
  int ok;             /* segments created */
  int has_data;       /* data segment shared */
  size_t heap_size;
  size_t data_size;
  cpu_set_t cpus;     /* where this PE may run */
} peer_card;

static void seg_name(char *out, size_t len, const char *kind, int pe)
{
  snprintf(out, len, "/shoal-%s-%d-%s", shoal_rt.boot.job_id, pe, kind);
}

static void finalize_as(uint64_t how, const char *call);

/* Returning from main (or exit(0)) finalizes implicitly, as OpenSHMEM
 * programs expect.  A PE that exits with an error status does not: the
 * finalize barrier would meet whatever collective the other PEs are in
 * and hang them; the launcher sees the status and ends the job instead.
 * Segments were unlinked at init, so nothing is left behind. */
static void finalize_at_exit_status(int status, void *unused)
{
  (void)unused;
  if (shoal_rt.initialized != 1) return;
  if (status != 0) {
    shoal_debug("PE %d exits with status %d: no implicit finalize", shoal_dstate.my_pe, status);
    return;
  }
  /* Peers still waiting for this PE learn that it left (watchdog.c). */
  finalize_as(SHOAL_LEFT_EXIT, "shmem_finalize (implicit, at exit)");
}
#ifndef __GLIBC__
static void finalize_at_exit(void) { finalize_at_exit_status(0, NULL); }
#endif

static void print_info(void)
{
  printf("Shoal %s: %d PEs, %zu bytes of symmetric heap per PE, transport %s\n",
         PACKAGE_VERSION, shoal_dstate.n_pes, shoal_rt.user_size,
         shoal_rt.transport ? shoal_rt.transport->name : "load/store only");
  for (const shoal_env_var *e = shoal_env_vars; e->name; e++) {
    const char *v = getenv(e->name);
    printf("  %-22s = %-10s (default %s) %s\n", e->name, v ? v : e->default_value,
           e->default_value, e->help);
  }
  fflush(stdout);
}

/* Every PE found the same failure (they all see the same cards): each
 * removes its names, and only then may one of them end the job. */
static int init_failed_everywhere(void)
{
  shoal_segment_unlink(&shoal_rt.heap_seg);
  shoal_segment_unlink(&shoal_rt.data_seg);
  shoal_boot_barrier();
  return -1;
}

/* A heap the node cannot back would end in SIGBUS when touched: refuse it.
 * The node's PEs' heaps live in /dev/shm (tmpfs, bounded by its size and
 * by memory); a GPU build keeps the user heap on the GPU but the segment
 * is created alike. */
static bool node_cannot_back(size_t heap_total, int local_pes)
{
  struct statvfs fs;
  unsigned long long need = (unsigned long long)heap_total * (unsigned long long)local_pes;
  unsigned long long shm = 0, mem = 0;
  if (statvfs("/dev/shm", &fs) == 0) shm = (unsigned long long)fs.f_bavail * fs.f_frsize;
  long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
  if (pages > 0 && psize > 0) mem = (unsigned long long)pages * (unsigned long long)psize;
  unsigned long long have = shm && mem ? (shm < mem ? shm : mem) : (shm ? shm : mem);
  if (!have || need <= have) return false;
  fprintf(stderr, "shoal: error: shmem_init: SHMEM_SYMMETRIC_SIZE=%zu asks for %llu bytes of "
                  "symmetric heap on this node (%d PEs of %zu bytes, with the library's part), "
                  "but it can back only %llu (/dev/shm has %llu bytes free, memory %llu): lower "
                  "SHMEM_SYMMETRIC_SIZE\n", shoal_rt.env.symmetric_size, need, local_pes,
          heap_total, have, shm, mem);
  return true;
}

static int runtime_init(void)
{
  shoal_env_load(&shoal_rt.env);
  if (shoal_boot_init(&shoal_rt.boot, shoal_rt.env.pes_per_node) != 0) return -1;
  shoal_launcher_watch_start();
  shoal_boot *b = &shoal_rt.boot;
  shoal_dstate.my_pe = b->rank;
  shoal_dstate.n_pes = b->size;
  int n = b->size;

  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  /* The heap's internal part: the team slots, then the runtime words
   * (left[n] for the watchdog, the heap calls' size checks). */
  size_t teams = shoal_teams_internal_size(n, shoal_rt.env.max_teams, shoal_rt.env.team_scratch);
  shoal_rt.ctl_off = (teams + 63) & ~(size_t)63;
  shoal_rt.internal_size = shoal_rt.ctl_off + ((size_t)n + SHOAL_HEAP_CHECK_WORDS) * sizeof(uint64_t);
  shoal_rt.internal_size = (shoal_rt.internal_size + page - 1) & ~(page - 1);
  shoal_rt.user_size = (shoal_rt.env.symmetric_size + page - 1) & ~(page - 1);
  size_t heap_total = shoal_rt.internal_size + shoal_rt.user_size;

  if (node_cannot_back(heap_total, b->local_size)) return -1;

  char name[320];
  peer_card mine = {0, 0, heap_total, 0, {{0}}};
  if (sched_getaffinity(0, sizeof mine.cpus, &mine.cpus) != 0) CPU_SET(0, &mine.cpus);
  seg_name(name, sizeof name, "heap", b->rank);
  mine.ok = shoal_segment_create(&shoal_rt.heap_seg, name, heap_total) == 0;
  char *data_base = NULL;
  size_t data_size = 0;
  if (mine.ok && shoal_rt.env.symmetric_data) {
    seg_name(name, sizeof name, "data", b->rank);
    mine.has_data = shoal_dataseg_share(&shoal_rt.data_seg, name, &data_base, &data_size) == 0;
    mine.data_size = data_size;
    if (!mine.has_data) shoal_debug("global/static variables are not symmetric on this PE");
  }

  peer_card *cards = calloc((size_t)n, sizeof *cards);
  shoal_rt.peer_heap = calloc((size_t)n, sizeof(char *));
  shoal_rt.peer_data = calloc((size_t)n, sizeof(char *));
  shoal_boot_allgather(&mine, cards, sizeof mine);
  bool all_data = true;
  for (int i = 0; i < n; i++) {
    if (!cards[i].ok) {
      fprintf(stderr, "shoal: error: shmem_init: PE %d could not create its %zu-byte symmetric "
                      "heap (SHMEM_SYMMETRIC_SIZE=%zu); see its warning above\n",
              i, heap_total, shoal_rt.env.symmetric_size);
      return init_failed_everywhere();
    }
    if (cards[i].heap_size != heap_total) {
      fprintf(stderr, "shoal: error: shmem_init: PE %d has a %zu-byte heap, PE %d %zu bytes: "
                      "set SHMEM_SYMMETRIC_SIZE the same on every PE\n",
              i, cards[i].heap_size, b->rank, heap_total);
      return init_failed_everywhere();
    }
    if (!cards[i].has_data || cards[i].data_size != data_size) all_data = false;
  }
  cpu_set_t node_cpus;
  CPU_ZERO(&node_cpus);
  for (int i = 0; i < n; i++)
    if (b->node_of[i] == b->node_id) CPU_OR(&node_cpus, &node_cpus, &cards[i].cpus);
  tune_waiting(b->local_size, &node_cpus);
  free(cards);

  /* Map every peer on my node, unless the transport is forced for all. */
  bool force_remote = strcmp(shoal_rt.env.transport, "auto") != 0;
  bool *is_remote = calloc((size_t)n, sizeof(bool));
  int n_remote = 0, mapped = 1;
  for (int i = 0; i < n; i++) {
    if (i == b->rank) {
      shoal_rt.peer_heap[i] = shoal_rt.heap_seg.base;
      shoal_rt.peer_data[i] = all_data ? data_base : NULL;
      continue;
    }
    if (b->node_of[i] == b->node_id && !force_remote) {
      seg_name(name, sizeof name, "heap", i);
      shoal_rt.peer_heap[i] = shoal_segment_map_peer(name, heap_total);
      if (all_data) {
        seg_name(name, sizeof name, "data", i);
        shoal_rt.peer_data[i] = shoal_segment_map_peer(name, data_size);
      }
      if (!shoal_rt.peer_heap[i] || (all_data && !shoal_rt.peer_data[i])) {
        if (mapped)
          fprintf(stderr, "shoal: error: shmem_init: PE %d could not map the shared memory of PE "
                          "%d on the same node (%zu bytes: SHMEM_SYMMETRIC_SIZE too large for "
                          "the address space?)\n", b->rank, i, heap_total);
        mapped = 0;
        continue;
      }
    }
    if (!shoal_rt.peer_heap[i]) {
      is_remote[i] = true;
      n_remote++;
    }
  }
  /* Everyone has mapped everything (or failed): remove the names now, so
   * nothing is left in /dev/shm however the job ends.  The outcome is
   * shared, so every PE removes its names before any ends the job. */
  int *all_mapped = calloc((size_t)n, sizeof(int));
  shoal_boot_allgather(&mapped, all_mapped, sizeof mapped);
  shoal_segment_unlink(&shoal_rt.heap_seg);
  if (mine.has_data) shoal_segment_unlink(&shoal_rt.data_seg);
  for (int i = 0; i < n; i++)
    if (!all_mapped[i]) {
      if (i != b->rank)
        fprintf(stderr, "shoal: error: shmem_init: PE %d could not map its peers' heaps\n", i);
      free(all_mapped);
      free(is_remote);
      return init_failed_everywhere();
    }
  free(all_mapped);

  shoal_dstate.heap_base = shoal_rt.heap_seg.base;
  shoal_dstate.heap_size = heap_total;
  shoal_dstate.peer_heap = shoal_rt.peer_heap;
  shoal_dstate.data_base = all_data ? data_base : NULL;
  shoal_dstate.data_size = all_data ? data_size : 0;
  shoal_dstate.peer_data = shoal_rt.peer_data;
  shoal_rt.user_heap = shoal_rt.heap_seg.base + shoal_rt.internal_size;
  shoal_rt.left = (uint64_t *)(shoal_rt.heap_seg.base + shoal_rt.ctl_off);
  shoal_rt.alloc = shoal_alloc_create(shoal_rt.user_size);
  if (!shoal_rt.alloc) return -1;

  shoal_rt.n_remote_peers = n_remote;
  int rc = shoal_transport_init(is_remote, n_remote);
  free(is_remote);
  if (rc != 0) return -1;
  if (shoal_teams_init() != 0) return -1;
#ifdef SHOAL_HAVE_GPU
  if (shoal_gpu_init() != 0) return -1;   /* the user heap moves to the GPU */
#endif
  return 0;
}

void shmem_init(void)
{
  int provided;
  shmem_init_thread(SHMEM_THREAD_SINGLE, &provided);
}

int shmem_init_thread(int requested, int *provided)
{
  if (shoal_rt.initialized == 1) {
    if (provided) *provided = shoal_rt.thread_level;
    return 0;
  }
  if (shoal_rt.initialized == 2) {
    /* The job cannot go on: the launcher connection is closed, so end
     * this PE with a failure status (the launcher then ends the job). */
    fprintf(stderr, "shoal: error: shmem_init: the library cannot be initialized again after "
                    "shmem_finalize\n");
    fflush(stdout);
    fflush(stderr);
    _exit(1);
  }
  if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {
    fprintf(stderr, "shoal: error: shmem_init_thread: argument 'requested' = %d is not a "
                    "SHMEM_THREAD_* level\n", requested);
    return -1;
  }
  shoal_ctx_default.options = 0;
  if (runtime_init() != 0) {
    fflush(stderr);
    shoal_boot_abort(1, "shoal: shmem_init failed");
  }
  /* Operations are thread safe: AMOs and waits are atomic, puts are plain
   * copies, and the transport serializes internally. */
  shoal_rt.thread_level = requested;
  if (provided) *provided = requested;
  shoal_rt.initialized = 1;
#ifdef __GLIBC__
  on_exit(finalize_at_exit_status, NULL);   /* sees the exit status */
#else
  atexit(finalize_at_exit);
#endif
  if (shoal_rt.env.info && shoal_dstate.my_pe == 0) print_info();
  shoal_debug("initialized: PE %d of %d, node %d (local %d of %d), %d remote peers",
              shoal_dstate.my_pe, shoal_dstate.n_pes, shoal_rt.boot.node_id,
              shoal_rt.boot.local_rank, shoal_rt.boot.local_size, shoal_rt.n_remote_peers);
  shoal_coll_barrier(SHMEM_TEAM_WORLD);
  return 0;
}

void shmem_query_thread(int *provided)
{
  SHOAL_REQUIRE_INIT("shmem_query_thread");
  if (provided) *provided = shoal_rt.thread_level;
}

void shmem_finalize(void) { finalize_as(SHOAL_LEFT_FINALIZE, "shmem_finalize"); }

static void finalize_as(uint64_t how, const char *call)
{
  if (shoal_rt.initialized != 1) return;   /* a second finalize is harmless */
  shoal_wait_call = call;
  /* Tell everyone this PE left, then meet the others here, and only here:
   * a barrier would also match a barrier the others are in (a PE that
   * exits early), and they would hang in the next one. */
#ifdef SHOAL_HAVE_GPU
  shoal_gpu_finish_kernels(call);
#endif
  shoal_rt.leaving = true;
  shoal_peers_announce_leaving(how);
  shoal_peers_wait_all_leaving();
  shoal_coll_barrier(SHMEM_TEAM_WORLD);
#ifdef SHOAL_HAVE_GPU
  shoal_gpu_fini();
#endif
  shoal_teams_fini();
  shoal_transport_fini();
  int n = shoal_dstate.n_pes;
  for (int i = 0; i < n; i++) {
    if (i == shoal_dstate.my_pe) continue;
    if (shoal_rt.peer_heap[i]) munmap(shoal_rt.peer_heap[i], shoal_dstate.heap_size);
    if (shoal_rt.peer_data[i]) munmap(shoal_rt.peer_data[i], shoal_dstate.data_size);
  }
  shoal_segment_destroy(&shoal_rt.heap_seg);
  /* The data segment stays mapped: it is the program's own globals. */
  shoal_alloc_destroy(shoal_rt.alloc);
  shoal_rt.alloc = NULL;
  shoal_boot_fini();
  free(shoal_rt.peer_heap);
  free(shoal_rt.peer_data);
  shoal_rt.peer_heap = shoal_rt.peer_data = NULL;
  memset(&shoal_dstate, 0, sizeof shoal_dstate);
  shoal_dstate.my_pe = -1;
  shoal_rt.left = NULL;
  shoal_rt.leaving = false;
  shoal_rt.initialized = 2;
}

void shmem_global_exit(int status)
{
  SHOAL_REQUIRE_INIT("shmem_global_exit");
  fflush(stdout);
  fflush(stderr);
  shoal_boot_abort(status, "shmem_global_exit");
}

int shmem_my_pe(void)
{
  SHOAL_REQUIRE_INIT("shmem_my_pe");
  return shoal_dstate.my_pe;
}

int shmem_n_pes(void)
{
  SHOAL_REQUIRE_INIT("shmem_n_pes");
  return shoal_dstate.n_pes;
}

int shmem_pe_accessible(int pe)
{
  SHOAL_REQUIRE_INIT("shmem_pe_accessible");
  if (pe < 0 || pe >= shoal_dstate.n_pes) return 0;
  return shoal_rt.peer_heap[pe] != NULL || shoal_rt.transport != NULL;
}

int shmem_addr_accessible(const void *addr, int pe)
{
  SHOAL_REQUIRE_INIT("shmem_addr_accessible");
  return shmem_pe_accessible(pe) && (shoal_dev_is_symmetric(addr) || shoal_gpu_owns(addr, 1));
}

void *shmem_ptr(const void *dest, int pe)
{
  SHOAL_REQUIRE_INIT("shmem_ptr");
  if (pe < 0 || pe >= shoal_dstate.n_pes) return NULL;
#ifdef SHOAL_HAVE_GPU
  /* the peer's GPU address, for copies and kernels */
  if (shoal_gpu_owns(dest, 1)) return shoal_gpu_peer(dest, pe);
#endif
  return shoal_dev_ptr(dest, pe);
}

void shmem_info_get_version(int *major, int *minor)
{
  if (major) *major = SHMEM_MAJOR_VERSION;
  if (minor) *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name)
{
  if (name) snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}

const char *shmemx_build_config(void)
{
  return "version=" PACKAGE_VERSION
#ifdef SHOAL_HAVE_PMIX
         " pmix=yes"
#else
         " pmix=no"
#endif
#ifdef SHOAL_HAVE_OFI
         " ofi=yes proxy=yes"
#else
         " ofi=no proxy=no"
#endif
#ifdef SHOAL_ARG_CHECKS
         " arg-checks=yes"
#else
         " arg-checks=no"
#endif
      ;
}

/* Deprecated 1.4 names. */
void start_pes(int npes) { (void)npes; shmem_init(); }
int _my_pe(void) { return shmem_my_pe(); }
int _num_pes(void) { return shmem_n_pes(); }
void shmem_clear_cache_inv(void) {}
void shmem_set_cache_inv(void) {}
void shmem_clear_cache_line_inv(void *dest) { (void)dest; }
void shmem_set_cache_line_inv(void *dest) { (void)dest; }
void shmem_udcflush(void) {}
void shmem_udcflush_line(void *dest) { (void)dest; }
