/* Runtime internals shared by runtime/, teams/ and collectives/ host code.
 * Nothing here is exported: the library is built with -fvisibility=hidden
 * and only SHOAL_API symbols are public. */
#ifndef SHOAL_RUNTIME_INTERNAL_H
#define SHOAL_RUNTIME_INTERNAL_H

#include "config.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Everything the public headers declare is exported; the rest is hidden. */
#pragma GCC visibility push(default)
#include <shmem.h>
#include <shmemx.h>
#pragma GCC visibility pop
#include "../device/state.h"

#define SHOAL_API __attribute__((visibility("default")))
#ifndef SHOAL_HIDDEN
#define SHOAL_HIDDEN __attribute__((visibility("hidden")))
#endif

/* ---- errors ------------------------------------------------------------ */
/* Print "shoal: <call>: <message>" and end the whole job with status 1. */
SHOAL_HIDDEN _Noreturn void shoal_error(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print a diagnostic when SHMEM_DEBUG is set. */
SHOAL_HIDDEN void shoal_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a warning on stderr (always). */
SHOAL_HIDDEN void shoal_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- environment --------------------------------------------------------- */
typedef struct shoal_env {
  size_t symmetric_size;   /* SHMEM_SYMMETRIC_SIZE */
  bool debug;              /* SHMEM_DEBUG */
  bool info;               /* SHMEM_INFO */
  int pes_per_node;        /* SHOAL_PES_PER_NODE, 0 = real nodes */
  int max_teams;           /* SHOAL_MAX_TEAMS */
  size_t team_scratch;     /* SHOAL_TEAM_SCRATCH */
  size_t gpu_ll_bytes;     /* SHOAL_GPU_LL_BYTES */
  const char *allreduce;   /* SHOAL_ALLREDUCE: auto, oneshot, twoshot, ring, push, hier */
  bool coll_hier;          /* SHOAL_COLL_HIER: hierarchical all-reduce, reduce-scatter, fcollect across nodes */
  const char *transport;   /* SHOAL_TRANSPORT: auto, ofi */
  bool symmetric_data;     /* SHOAL_SYMMETRIC_DATA: remap data/bss as symmetric */
  const char *bootstrap;   /* SHOAL_BOOTSTRAP: auto, pmix, env */
  int bootstrap_timeout;   /* SHOAL_BOOTSTRAP_TIMEOUT, seconds */
  double wait_timeout;     /* SHOAL_WAIT_TIMEOUT: seconds a wait may last, 0 = no limit */
  int gpu_fence_system;     /* SHOAL_GPU_FENCE=system: meetings fence at system scope on one GPU too */
  int gpu_stage;            /* SHOAL_GPU_STAGE=on: teams on one GPU get the staged push's buffers */
  double gpu_amo_linger;   /* SHOAL_GPU_AMO_LINGER: seconds the AMO-serving kernel stays idle */
} shoal_env;

typedef struct shoal_env_var {
  const char *name;
  const char *default_value;
  const char *help;
} shoal_env_var;

SHOAL_HIDDEN extern const shoal_env_var shoal_env_vars[];
/* Parse "64M", "2G", "4096", "1.5G".  Returns false on bad syntax. */
SHOAL_HIDDEN bool shoal_parse_size(const char *s, size_t *out);
SHOAL_HIDDEN void shoal_env_load(shoal_env *env);

/* ---- bootstrap (PMIx, or a single PE) ------------------------------------ */
typedef struct shoal_boot {
  int rank, size;
  int local_rank, local_size;   /* on this node (after SHOAL_PES_PER_NODE) */
  int node_id;                  /* node index; PEs of a node share one */
  int *node_of;                 /* [size] node id of each PE */
  char job_id[260];             /* unique per job, names shm segments */
  bool launched;                /* false: started without a launcher */
} shoal_boot;

SHOAL_HIDDEN int shoal_boot_init(shoal_boot *b, int pes_per_node);
/* The bootstrap implementations behind shoal_boot_*: PMIx (bootstrap.c) and
 * the environment torchrun sets plus a TCP rendezvous (bootstrap_env.c).
 * init fills rank, size, job_id and launched. */
typedef struct shoal_boot_ops {
  const char *name;
  int (*init)(shoal_boot *b);
  void (*allgather)(const void *mine, void *out, size_t len);
  void (*barrier)(void);
  void (*abort)(int status, const char *msg);
  void (*fini)(void);
} shoal_boot_ops;
SHOAL_HIDDEN extern const shoal_boot_ops shoal_boot_env_ops;
/* True when the environment names a torchrun-style job (RANK, WORLD_SIZE). */
SHOAL_HIDDEN bool shoal_boot_env_present(void);
/* True while shmemx_init_with_uniqueid runs: the env implementation, always. */
SHOAL_HIDDEN bool shoal_boot_uid_pending(void);
/* All-gather of a fixed-size blob: out[i * len] gets PE i's data. */
SHOAL_HIDDEN void shoal_boot_allgather(const void *mine, void *out, size_t len);
SHOAL_HIDDEN void shoal_boot_barrier(void);
SHOAL_HIDDEN _Noreturn void shoal_boot_abort(int status, const char *msg);
SHOAL_HIDDEN void shoal_boot_fini(void);

/* ---- shared memory segments ---------------------------------------------- */
typedef struct shoal_segment {
  char name[320];
  void *base;
  size_t size;
  int fd;
} shoal_segment;

SHOAL_HIDDEN int shoal_segment_create(shoal_segment *s, const char *name, size_t size);
SHOAL_HIDDEN void *shoal_segment_map_peer(const char *name, size_t size);
SHOAL_HIDDEN void shoal_segment_unlink(shoal_segment *s);
SHOAL_HIDDEN void shoal_segment_destroy(shoal_segment *s);

/* The program's data+bss remapped onto shared memory (CPU target). */
SHOAL_HIDDEN int shoal_dataseg_share(shoal_segment *seg, const char *name, char **base, size_t *size);

/* ---- allocator ----------------------------------------------------------- */
/* A first-fit allocator over [0, size) with free, coalescing and alignment.
 * Metadata lives in private memory, so the heap itself carries only user
 * data and every PE's identical call sequence yields identical offsets. */
typedef struct shoal_allocator shoal_allocator;
SHOAL_HIDDEN shoal_allocator *shoal_alloc_create(size_t size);
SHOAL_HIDDEN void shoal_alloc_destroy(shoal_allocator *a);
/* Returns the offset, or SIZE_MAX when no free block fits. */
SHOAL_HIDDEN size_t shoal_alloc(shoal_allocator *a, size_t size, size_t align);
/* The same, but (offset + phase) % align == 0: aligns addresses in a heap
 * whose base is phase bytes past an align boundary. */
SHOAL_HIDDEN size_t shoal_alloc_phase(shoal_allocator *a, size_t size, size_t align, size_t phase);
/* Returns 0, or -1 if off is not the start of a live block. */
SHOAL_HIDDEN int shoal_alloc_free(shoal_allocator *a, size_t off);
/* Size of the live block at off, or 0 if none. */
SHOAL_HIDDEN size_t shoal_alloc_block_size(shoal_allocator *a, size_t off);
/* Grow or shrink in place if possible; returns off, a new offset (data not
 * moved) or SIZE_MAX. */
SHOAL_HIDDEN size_t shoal_alloc_resize(shoal_allocator *a, size_t off, size_t size, int *moved);
SHOAL_HIDDEN size_t shoal_alloc_free_bytes(shoal_allocator *a);
SHOAL_HIDDEN size_t shoal_alloc_largest_free(shoal_allocator *a);
SHOAL_HIDDEN size_t shoal_alloc_live_blocks(shoal_allocator *a);

/* ---- contexts ------------------------------------------------------------ */
struct shoal_ctx {
  long options;
  shmem_team_t team;
  void *transport;   /* the remote transport's per-context state */
};

/* ---- the runtime --------------------------------------------------------- */
typedef struct shoal_runtime {
  int initialized;   /* 0 before init, 1 running, 2 finalized */
  int thread_level;
  shoal_env env;
  shoal_boot boot;
  shoal_segment heap_seg;        /* my heap: [internal | user] */
  shoal_segment data_seg;        /* my data segment, when shared */
  size_t internal_size;          /* bytes at the front of the heap for teams */
  char *user_heap;               /* heap_seg.base + internal_size */
  size_t user_size;
  shoal_allocator *alloc;
  char **peer_heap;              /* [n_pes] mapped heaps, NULL if remote */
  char **peer_data;
  const struct shoal_transport *transport;  /* for unmapped peers, or NULL */
  int n_remote_peers;
  uint64_t *left;                /* [n_pes] in my heap: PE i left (SHOAL_LEFT_*), 0 while it runs */
  size_t ctl_off;                /* heap offset of the runtime words (left[], heap checks) */
  bool leaving;                  /* this PE is in shmem_finalize */
} shoal_runtime;

SHOAL_HIDDEN extern shoal_runtime shoal_rt;

/* ---- the watchdog (runtime/watchdog.c) -------------------------------------- */
enum { SHOAL_LEFT_FINALIZE = 1, SHOAL_LEFT_EXIT = 2 };
/* Words after left[] for the heap calls' size check (two slots of 4). */
#define SHOAL_HEAP_CHECK_WORDS 8
/* The API call this thread is in, for the watchdog's messages. */
SHOAL_HIDDEN extern __thread const char *shoal_wait_call __attribute__((tls_model("initial-exec")));
/* A collective call: waits in it end when a member of team leaves. */
SHOAL_HIDDEN void shoal_wait_in_team(const char *call, shmem_team_t team);
/* Tell every PE that this one leaves (how: SHOAL_LEFT_*), then wait until
 * all have said so (shmem_finalize's rendezvous). */
SHOAL_HIDDEN void shoal_peers_announce_leaving(uint64_t how);
SHOAL_HIDDEN void shoal_peers_wait_all_leaving(void);
SHOAL_HIDDEN void shoal_launcher_watch_start(void);
SHOAL_HIDDEN _Noreturn void shoal_launcher_gone(const char *how);

/* Every API entry point starts with this (one predictable branch). */
#define SHOAL_REQUIRE_INIT(call) \
  do { if (SHOAL_UNLIKELY(shoal_rt.initialized != 1)) shoal_not_initialized(call); } while (0)
/* The same for calls that may wait: notes the call for the watchdog (kept
 * off the put/get/AMO paths, where it would be the only extra store). */
#define SHOAL_REQUIRE_INIT_WAIT(call) \
  do { \
    if (SHOAL_UNLIKELY(shoal_rt.initialized != 1)) shoal_not_initialized(call); \
    shoal_wait_call = (call); \
  } while (0)
SHOAL_HIDDEN _Noreturn void shoal_not_initialized(const char *call);

#ifdef SHOAL_ARG_CHECKS
/* A PE out of range or a non-symmetric remote address ends the job with a
 * message naming the call and the argument. */
#define SHOAL_CHECK_PE(call, pe) \
  do { if (SHOAL_UNLIKELY((unsigned)(pe) >= (unsigned)shoal_dstate.n_pes)) shoal_bad_pe(call, pe); } while (0)
#define SHOAL_CHECK_SYM(call, arg, addr, bytes) \
  do { if (SHOAL_UNLIKELY(!shoal_is_symmetric_range(addr, bytes))) shoal_bad_sym(call, arg, addr, bytes); } while (0)
#define SHOAL_CHECK_COUNT(call, arg, n) \
  do { if (SHOAL_UNLIKELY((size_t)(n) > (SIZE_MAX >> 4))) shoal_bad_count(call, arg, (size_t)(n)); } while (0)
/* An AMO's target must be aligned to its size (else torn or a fault). */
#define SHOAL_CHECK_ALIGN(call, arg, addr, bytes) \
  do { if (SHOAL_UNLIKELY((uintptr_t)(addr) & ((bytes) - 1))) shoal_bad_align(call, arg, addr, bytes); } while (0)
#else
#define SHOAL_CHECK_ALIGN(call, arg, addr, bytes) ((void)0)
#define SHOAL_CHECK_PE(call, pe) ((void)0)
#define SHOAL_CHECK_SYM(call, arg, addr, bytes) ((void)0)
#define SHOAL_CHECK_COUNT(call, arg, n) ((void)0)
#endif
SHOAL_HIDDEN _Noreturn void shoal_bad_pe(const char *call, int pe);
SHOAL_HIDDEN _Noreturn void shoal_bad_sym(const char *call, const char *arg, const void *addr, size_t bytes);
SHOAL_HIDDEN _Noreturn void shoal_bad_align(const char *call, const char *arg, const void *addr, size_t bytes);
SHOAL_HIDDEN _Noreturn void shoal_bad_count(const char *call, const char *arg, size_t n);
SHOAL_HIDDEN bool shoal_is_symmetric_range(const void *addr, size_t bytes);

/* The context an API call runs on (SHMEM_CTX_DEFAULT resolved). */
SHOAL_HIDDEN extern struct shoal_ctx shoal_ctx_default;
static inline struct shoal_ctx *shoal_ctx_of(shmem_ctx_t ctx) { return (struct shoal_ctx *)ctx; }

/* Drain this PE's outstanding remote operations (quiet on every context). */
SHOAL_HIDDEN void shoal_quiet_all(void);

/* Teams: set up world/shared/node at init, torn down at finalize. */
SHOAL_HIDDEN int shoal_teams_init(void);
SHOAL_HIDDEN void shoal_teams_fini(void);
SHOAL_HIDDEN size_t shoal_teams_internal_size(int n_pes, int max_teams, size_t scratch);

/* GPU builds: the symmetric heap is GPU memory, which host code cannot load
 * or store.  Host entry points route addresses inside it here (copies with
 * the GPU runtime, kernels for AMOs and collectives); CPU builds compile
 * the checks away. */
#ifdef SHOAL_HAVE_GPU
SHOAL_HIDDEN bool shoal_gpu_owns(const void *addr, size_t bytes);
/* PE pe's copy of addr as this PE's GPU addresses it, or NULL. */
SHOAL_HIDDEN void *shoal_gpu_peer(const void *addr, int pe);
/* Synchronous copy between any host or GPU addresses. */
SHOAL_HIDDEN void shoal_gpu_copy(const char *call, void *dest, const void *src, size_t n);
SHOAL_HIDDEN bool shoal_gpu_store_value(const char *call, void *dest, uint64_t v, size_t size);
SHOAL_HIDDEN void shoal_gpu_fill(const char *call, void *dest, int v, size_t n);
/* Is addr device memory (any GPU allocation, symmetric or not)? */
SHOAL_HIDDEN bool shoal_gpu_is_device(const void *addr);
/* The remote seam's put/get/AMO when the remote address is GPU memory. */
SHOAL_HIDDEN void shoal_gpu_rma(int is_put, void *dest, const void *src, size_t n, int pe);
SHOAL_HIDDEN void shoal_gpu_amo(int op, int dtype, void *dest, const void *operand, const void *compare,
                                void *result, int pe);
/* Teams split on the host are entered in (and removed from) the kernels'
 * team table. */
SHOAL_HIDDEN void shoal_gpu_team_created(shmem_team_t team);
SHOAL_HIDDEN void shoal_gpu_team_destroying(shmem_team_t team);
#else
static inline bool shoal_gpu_owns(const void *addr, size_t bytes) { (void)addr; (void)bytes; return false; }
#endif

#endif
