/* The GPU side of the host proxy: a thread of this PE that serves its
 * kernels.  Kernels post commands for peers they cannot map into the queue
 * of device/proxy_queue.h (host memory mapped into the GPU); this thread
 * takes them in ticket order and carries them out with the active messages
 * of transport/proxy/am.h, whose target side applies them to the peer's
 * GPU heap.  A command is done (the queue's done counter passes it) when
 * its source has been copied out (put), its data has landed (get), its
 * result is in its result entry (fetching AMO, small get), or every
 * earlier command is applied at its target (quiet). */
#include "../runtime/internal.h"
#include "gpu.h"
#include "gpu_proxy.h"
#include "../transport/proxy/am.h"
#include "gpu_lib.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PROXY_SLOTS = 1024 };
/* After its last command the proxy spins this long before it sleeps: a
 * kernel issuing back to back (each command a few us apart) never finds it
 * asleep. */
#define PROXY_HOT_NS 100000ull

static struct {
  bool on;
  int device;
  char *base;            /* my GPU heap */
  size_t size;
  shoal_pq hq;           /* host view of the queue */
  void *host_block;      /* slots, results, done, quiet_mark */
  uint64_t *dev_words;   /* head and done_seen, in device memory */
  uint64_t head_dummy, done_seen_dummy;   /* the host view's (the host never posts) */
  pthread_t thread;
  int stop;
  /* What SHMEM_DEBUG reports at the end: commands served, and how long the
   * fetching ones (AMOs, small gets) took here, from taking the command to
   * publishing its result (the network's part of the kernel's wait). */
  uint64_t served, fetched, fetch_ns, fetch_min_ns;
} P;

#ifdef SHOAL_HAVE_OFI
static const char *call = "device-initiated operation (GPU proxy)";

static size_t heap_off(uint64_t addr, size_t n, const shoal_pq_cmd *c)
{
  size_t off = shoal_region_offset((const void *)(uintptr_t)addr, P.base, P.size);
  if (off == SIZE_MAX || n > P.size - off)
    shoal_error(call, "a kernel asked for %zu bytes at %p on PE %u, which is not in the symmetric GPU "
                "heap (op %u)", n, (void *)(uintptr_t)addr, c->pe, c->op);
  return off;
}

static size_t dt_bytes(uint32_t dt)
{
  return (dt == SHOAL_DT_I32 || dt == SHOAL_DT_U32 || dt == SHOAL_DT_F32) ? 4 : 8;
}

static uint64_t now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void carry_out(uint64_t t, const shoal_pq_cmd *c)
{
  uint64_t result = 0;
  bool fetches = shoal_pq_fetches(c);   /* the kernel waits for result */
  uint64_t t0 = fetches ? now_ns() : 0;
  switch (c->op) {
  case SHOAL_PQ_PUT:
    shoal_am_put(call, (int)c->pe, SHOAL_AM_GPU_HEAP, heap_off(c->dest, c->n, c),
                 (const void *)(uintptr_t)c->src, c->n);
    break;
  case SHOAL_PQ_PUT_INLINE:
    shoal_am_put(call, (int)c->pe, SHOAL_AM_GPU_HEAP, heap_off(c->dest, c->n, c), &c->operand,
                 c->n <= 8 ? c->n : 8);
    break;
  case SHOAL_PQ_GET_INLINE:
    shoal_am_get(call, (int)c->pe, SHOAL_AM_GPU_HEAP, heap_off(c->src, c->n, c), &result,
                 c->n <= 8 ? c->n : 8);
    break;
  case SHOAL_PQ_GET:
    shoal_am_get(call, (int)c->pe, SHOAL_AM_GPU_HEAP, heap_off(c->src, c->n, c),
                 (void *)(uintptr_t)c->dest, c->n);
    break;
  case SHOAL_PQ_AMO:
    shoal_am_amo(call, (int)c->pe, SHOAL_AM_GPU_HEAP, heap_off(c->dest, dt_bytes(c->dtype), c),
                 (shoal_amo_op)c->amo_op, (shoal_dtype)c->dtype, &c->operand, &c->compare,
                 fetches ? &result : NULL);
    break;
  case SHOAL_PQ_QUIET:
    shoal_am_quiet(call);
    shoal_store_release(P.hq.quiet_mark, t + 1);
    break;
  default:
    shoal_error(call, "the GPU posted a command of unknown kind %u", c->op);
  }
  shoal_pq_complete(&P.hq, t, fetches, result);
  P.served++;
  if (fetches) {
    uint64_t dt = now_ns() - t0;
    P.fetched++;
    P.fetch_ns += dt;
    if (!P.fetch_min_ns || dt < P.fetch_min_ns) P.fetch_min_ns = dt;
  }
}

static void *proxy_main(void *arg)
{
  (void)arg;
  shoal_gpu_v_relax_capture();   /* a user thread may capture a graph meanwhile */
  const char *err = shoal_gpu_v_set_device(P.device);
  if (err) shoal_error(call, "the proxy thread could not select GPU %d: %s", P.device, err);
  uint64_t idle_since = 0;   /* when the queue was last found empty after a command */
  unsigned naps = 0;
  for (uint64_t t = 0; !__atomic_load_n(&P.stop, __ATOMIC_ACQUIRE);) {
    shoal_pq_cmd c;
    if (shoal_pq_peek(&P.hq, t, &c)) {
      carry_out(t, &c);
      t++;
      idle_since = 0;
      naps = 0;
      continue;
    }
    /* Hot for PROXY_HOT_NS of wall time (a clock, not a spin count, so
     * the window does not shrink or grow with the cost of a peek), then
     * sleep in steps growing to 100 us (idle PEs cost little).  Not the
     * library's wait backoff: an idle proxy waits for nothing, so the wait
     * watchdog has nothing to say about it. */
    uint64_t now = now_ns();
    if (!idle_since) idle_since = now;
    if (now - idle_since < PROXY_HOT_NS) {
      shoal_backoff_pause(0);   /* a pause; a yield where more PEs than cores need this one */
      continue;
    }
    struct timespec ts = {0, (long)(naps < 100 ? 1 + naps : 100) * 1000};
    naps++;
    nanosleep(&ts, NULL);
  }
  return NULL;
}

#endif

/* Are there PEs whose GPU heap this PE cannot map?  The same answer on
 * every PE (so starting the proxy is collective). */
bool shoal_gpu_proxy_needed(void)
{
  for (int i = 0; i < shoal_dstate.n_pes; i++)
    if (shoal_rt.boot.node_of[i] != shoal_rt.boot.node_of[0]) return true;
  return false;
}

int shoal_gpu_proxy_start(int device, char *base, size_t size, shoal_pq *dev_q)
{
  memset(dev_q, 0, sizeof *dev_q);
  if (!shoal_gpu_proxy_needed()) return 0;
#ifdef SHOAL_HAVE_OFI
  if (!shoal_am_on() && shoal_am_init() != 0) return -1;
  shoal_am_set_region(SHOAL_AM_GPU_HEAP, base, size);
  shoal_am_set_gpu_device(device);
  shoal_am_register_gpu_heap(device);
  P.device = device;
  P.base = base;
  P.size = size;
  /* Host block: slots, results, then done and quiet_mark on lines of
   * their own.  Device words: head, and done_seen a 128-byte L2 line away
   * (every post reads the one and adds to the other). */
  size_t slots = PROXY_SLOTS * sizeof(shoal_pq_slot);
  size_t results = PROXY_SLOTS * sizeof(shoal_pq_result);
  size_t bytes = slots + results + 2 * 64;
  void *h, *d;
  const char *err = shoal_gpu_v_host_alloc_mapped(&h, &d, bytes);
  if (!err) err = shoal_gpu_v_malloc((void **)&P.dev_words, 256);
  if (!err) err = shoal_gpu_v_memset(P.dev_words, 0, 256);
  if (err) shoal_error("shmem_init", "allocating the GPU proxy's command queue: %s", err);
  P.host_block = h;
  char *hb = h, *db = d;
  P.hq = (shoal_pq){&P.head_dummy, &P.done_seen_dummy, (shoal_pq_slot *)hb,
                    (shoal_pq_result *)(hb + slots), (uint64_t *)(hb + slots + results),
                    (uint64_t *)(hb + slots + results + 64), PROXY_SLOTS};
  shoal_pq_reset(&P.hq);   /* the device's head and done_seen: zeroed above */
  *dev_q = (shoal_pq){P.dev_words, P.dev_words + 16, (shoal_pq_slot *)db,
                      (shoal_pq_result *)(db + slots), (uint64_t *)(db + slots + results),
                      (uint64_t *)(db + slots + results + 64), PROXY_SLOTS};
  /* Load the AMO kernel now: loading a module while a kernel spins waiting
   * for that very AMO (CUDA's lazy loading) would never finish. */
  uint64_t zero = 0, old = 0;
  shoal_gpu_lib_amo(SHOAL_AMO_FETCH, SHOAL_DT_U64, base, &zero, &zero, &old);
  P.stop = 0;
  if (pthread_create(&P.thread, NULL, proxy_main, NULL) != 0)
    shoal_error("shmem_init", "could not start the GPU proxy thread");
  P.on = true;
  const char *zwhy;
  bool zc = shoal_am_zero_copy(&zwhy);
  shoal_debug("GPU proxy: on, %d-slot queue, active messages on provider %s (FI_HMEM %s; data %s%s%s)",
              PROXY_SLOTS, shoal_am_provider(), shoal_am_hmem() ? "offered" : "not offered",
              zc ? "zero-copy between GPU heaps, staged otherwise" : "staged through pinned host buffers",
              zc ? "" : ": ", zwhy);
  return 0;
#else
  (void)device; (void)base; (void)size;
  shoal_warn("PEs on other nodes: this build has no libfabric, so kernels cannot reach them");
  return 0;
#endif
}

bool shoal_gpu_proxy_on(void) { return P.on; }

void shoal_gpu_proxy_drain(void)
{
  if (!P.on) return;
  /* Wait while the ticket the proxy is at has been posted: head itself is
   * in device memory, a copy away (shoal_pq_pending). */
  shoal_backoff bo = SHOAL_BACKOFF_INIT;
  for (;;) {
    uint64_t d = __atomic_load_n(P.hq.done, __ATOMIC_ACQUIRE);
    if (!shoal_pq_pending(&P.hq, d)) return;
    shoal_backoff_wait(&bo);
  }
}

void shoal_gpu_proxy_stop(void)
{
  if (!P.on) return;
  __atomic_store_n(&P.stop, 1, __ATOMIC_RELEASE);
  pthread_join(P.thread, NULL);
  P.on = false;
  if (P.fetched)
    shoal_debug("GPU proxy: served %llu commands; %llu fetching ones took %.2f us each here on average "
                "(least %.2f us), from taking the command to publishing its result",
                (unsigned long long)P.served, (unsigned long long)P.fetched,
                (double)P.fetch_ns / (double)P.fetched / 1e3, (double)P.fetch_min_ns / 1e3);
  else
    shoal_debug("GPU proxy: served %llu commands", (unsigned long long)P.served);
#ifdef SHOAL_HAVE_OFI
  shoal_am_set_region(SHOAL_AM_GPU_HEAP, NULL, 0);
  /* The fabric half stays up when it is the host transport too. */
  if (shoal_rt.transport != &shoal_transport_proxy) shoal_am_fini();
#endif
  shoal_gpu_v_free(P.dev_words);
  shoal_gpu_v_host_free(P.host_block);
}
