/* The libfabric transport: RDM endpoint, heap and data segment registered
 * once, one completion counter for every operation.
 *
 * Completion model: every operation is posted with FI_DELIVERY_COMPLETE and
 * counted in shoal_ofi.issued; the counter says how many completed.  quiet
 * (and fence, which this transport implements as quiet) waits until the
 * counter catches up.  Small puts and non-fetching AMOs are injected, so the
 * source is reusable at once; larger puts wait for their completion.  Reads
 * and fetching AMOs wait for every earlier operation, so a get sees this
 * PE's own earlier puts.  Errors show up on the CQ (bound with selective
 * completion: nothing but errors lands there); every wait is bounded by
 * SHOAL_OFI_TIMEOUT. */
#include "ofi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef SHOAL_HAVE_PMIX
#include <pmix.h>
#endif

ofi_state shoal_ofi;
#define S shoal_ofi

#define OFI_NAME_MAX 256
#define OFI_BOUNCE (256 * 1024)

/* What each PE publishes at init. */
typedef struct ofi_card {
  int ok;
  size_t name_len;
  char name[OFI_NAME_MAX];
  uint64_t base[OFI_N_REGIONS], key[OFI_N_REGIONS];
} ofi_card;

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static bool threaded(void)
{
  return S.progress_thread_on || shoal_rt.thread_level == SHMEM_THREAD_MULTIPLE;
}
void shoal_ofi_lock(void) { if (threaded()) pthread_mutex_lock(&S.lock); }
void shoal_ofi_unlock(void) { if (threaded()) pthread_mutex_unlock(&S.lock); }

static const char *prov_name(void)
{
  return S.info && S.info->fabric_attr ? S.info->fabric_attr->prov_name : "?";
}

_Noreturn void shoal_ofi_fail(const char *call, const char *what, int rc)
{
  shoal_error(call, "libfabric %s failed on provider %s: %s", what, prov_name(), fi_strerror(-rc));
}

/* An error completion: say which peer and why, then end the job. */
static _Noreturn void cq_error(const char *call)
{
  struct fi_cq_err_entry err;
  memset(&err, 0, sizeof err);
  char buf[256] = "";
  if (fi_cq_readerr(S.cq, &err, 0) >= 0) {
    const char *detail = fi_cq_strerror(S.cq, err.prov_errno, err.err_data, buf, sizeof buf);
    shoal_error(call, "a libfabric operation failed on provider %s: %s (%s); a peer may have "
                "exited", prov_name(), fi_strerror(err.err), detail ? detail : "");
  }
  shoal_error(call, "a libfabric operation failed on provider %s (no details); a peer may have "
              "exited", prov_name());
}

/* One round of progress: with FI_PROGRESS_MANUAL this is also what runs
 * the target side of peers' operations on my memory. */
static void drive(const char *call)
{
  struct fi_cq_entry e;
  ssize_t r = fi_cq_read(S.cq, &e, 1);
  if (SHOAL_UNLIKELY(r == -FI_EAVAIL)) cq_error(call);
  if (SHOAL_UNLIKELY(fi_cntr_readerr(S.cntr) != 0)) cq_error(call);
}

ofi_wait shoal_ofi_wait_start(void)
{
  ofi_wait w = {now_s(), 0, SHOAL_BACKOFF_INIT};
  return w;
}

void shoal_ofi_wait_step(ofi_wait *w, const char *call, const char *what)
{
  drive(call);
  if ((++w->steps & 255) == 0 && now_s() - w->start > S.timeout_s)
    shoal_error(call, "PE %d waited %.0f s for %s from libfabric provider %s: a peer may have "
                "exited or stopped calling into the library (SHOAL_OFI_TIMEOUT sets the limit)",
                shoal_dstate.my_pe, S.timeout_s, what, prov_name());
  /* Keep polling hot for short waits; back off for long ones. */
  if (w->steps > 32) shoal_backoff_wait(&w->backoff);
}

void shoal_ofi_wait_all(const char *call)
{
  if (fi_cntr_read(S.cntr) >= S.issued) return;
  ofi_wait w = shoal_ofi_wait_start();
  while (fi_cntr_read(S.cntr) < S.issued) shoal_ofi_wait_step(&w, call, "completions");
}

ofi_target shoal_ofi_target(const char *call, const void *addr, size_t n, int pe)
{
  for (int r = 0; r < OFI_N_REGIONS; r++) {
    size_t off = shoal_region_offset(addr, S.base[r], S.size[r]);
    if (off == SIZE_MAX) continue;
    if (n > S.size[r] - off)
      shoal_error(call, "%zu bytes at %p run past the end of symmetric memory", n, addr);
    size_t i = (size_t)pe * OFI_N_REGIONS + (size_t)r;
    ofi_target t = {S.rbase[i] + off, S.rkey[i], S.size[r] - off};
    return t;
  }
  shoal_error(call, "address %p is not symmetric (not in the heap or global data)", addr);
}

void *shoal_ofi_desc(const void *p, size_t n)
{
  for (int r = 0; r < OFI_N_REGIONS; r++) {
    size_t off = shoal_region_offset(p, S.base[r], S.size[r]);
    if (off != SIZE_MAX && n <= S.size[r] - off) return S.desc[r];
  }
  return NULL;
}

/* ---- RMA ------------------------------------------------------------------ */

static void post_rma(const char *call, bool write, void *buf, void *desc, size_t len, int pe,
                     uint64_t raddr, uint64_t key, uint64_t flags)
{
  struct iovec iov = {buf, len};
  struct fi_rma_iov rma = {raddr, len, key};
  struct fi_msg_rma msg = {
      .msg_iov = &iov, .desc = &desc, .iov_count = 1, .addr = S.addr[pe],
      .rma_iov = &rma, .rma_iov_count = 1, .context = NULL, .data = 0};
  if (write) OFI_POST(call, fi_writemsg(S.ep, &msg, flags | FI_DELIVERY_COMPLETE));
  else OFI_POST(call, fi_readmsg(S.ep, &msg, flags));
  S.issued++;
}

static void ofi_put(void *tctx, void *dest, const void *src, size_t n, int pe)
{
  (void)tctx;
  shoal_ofi_lock();
  ofi_target t = shoal_ofi_target("shmem_put", dest, n, pe);
  if (n <= S.inject_size) {
    post_rma("shmem_put", true, (void *)src, NULL, n, pe, t.addr, t.key, FI_INJECT);
    shoal_ofi_unlock();
    return;
  }
  void *desc = shoal_ofi_desc(src, n);
  bool bounce = (S.mr_mode & FI_MR_LOCAL) && !desc;
  size_t chunk = bounce && S.bounce_size < S.max_msg ? S.bounce_size : S.max_msg;
  for (size_t done = 0; done < n;) {
    size_t c = n - done < chunk ? n - done : chunk;
    void *buf = (char *)src + done, *d = desc;
    if (bounce) {
      memcpy(S.scratch->bounce, buf, c);
      buf = S.scratch->bounce;
      d = S.scratch_desc;
    }
    post_rma("shmem_put", true, buf, d, c, pe, t.addr + done, t.key, 0);
    if (bounce) shoal_ofi_wait_all("shmem_put");
    done += c;
  }
  shoal_ofi_wait_all("shmem_put");   /* the source is reusable on return */
  shoal_ofi_unlock();
}

static void ofi_get(void *tctx, void *dest, const void *src, size_t n, int pe)
{
  (void)tctx;
  shoal_ofi_lock();
  ofi_target t = shoal_ofi_target("shmem_get", src, n, pe);
  void *desc = shoal_ofi_desc(dest, n);
  bool bounce = (S.mr_mode & FI_MR_LOCAL) && !desc;
  size_t chunk = bounce && S.bounce_size < S.max_msg ? S.bounce_size : S.max_msg;
  for (size_t done = 0; done < n;) {
    size_t c = n - done < chunk ? n - done : chunk;
    void *buf = bounce ? S.scratch->bounce : (char *)dest + done;
    post_rma("shmem_get", false, buf, bounce ? S.scratch_desc : desc, c, pe, t.addr + done,
             t.key, 0);
    if (bounce) {
      shoal_ofi_wait_all("shmem_get");
      memcpy((char *)dest + done, buf, c);
    }
    done += c;
  }
  shoal_ofi_wait_all("shmem_get");
  shoal_ofi_unlock();
}

/* Providers may reorder operations to one peer (shm's tx msg_order is
 * only SAS), so fence completes everything posted so far. */
static void ofi_quiet(void *tctx)
{
  (void)tctx;
  shoal_ofi_lock();
  shoal_ofi_wait_all("shmem_quiet");
  shoal_ofi_unlock();
}

static void ofi_progress(void)
{
  if (threaded()) {
    if (pthread_mutex_trylock(&S.lock) != 0) return;   /* someone else is driving */
    drive("shmem progress");
    pthread_mutex_unlock(&S.lock);
  } else {
    drive("shmem progress");
  }
}

/* With manual progress, a peer's operation on my memory advances only
 * while I call into the library.  A PE that computes, or spins on its own
 * memory with plain loads, would stall its peers until it does; this thread
 * drives progress every SHOAL_OFI_PROGRESS_US microseconds meanwhile. */
static void *progress_main(void *arg)
{
  long us = (long)(intptr_t)arg;
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  while (!__atomic_load_n(&S.progress_stop, __ATOMIC_ACQUIRE)) {
    nanosleep(&ts, NULL);
    if (pthread_mutex_trylock(&S.lock) != 0) continue;   /* the PE is in the library */
    drive("shmem progress thread");
    pthread_mutex_unlock(&S.lock);
  }
  return NULL;
}

static void start_progress_thread(void)
{
  const char *v = getenv("SHOAL_OFI_PROGRESS_US");
  long us = v && *v ? strtol(v, NULL, 10) : 1000;
  if (!S.manual_progress || us <= 0) return;
  S.progress_stop = 0;
  if (pthread_create(&S.progress_thread, NULL, progress_main, (void *)(intptr_t)us) == 0)
    S.progress_thread_on = true;
  else
    shoal_warn("libfabric: no progress thread (pthread_create failed): a PE that does not call "
               "the library stalls its peers' operations on its memory");
}

static void stop_progress_thread(void)
{
  if (!S.progress_thread_on) return;
  __atomic_store_n(&S.progress_stop, 1, __ATOMIC_RELEASE);
  pthread_join(S.progress_thread, NULL);
  S.progress_thread_on = false;
}

/* Contexts share the endpoint and its counter: quiet on any context waits
 * for the operations of all, which is more than the spec asks, never less. */
static void *ofi_ctx_create(long options)
{
  (void)options;
  return &shoal_ofi;
}
static void ofi_ctx_destroy(void *tctx) { (void)tctx; }

/* ---- setup ---------------------------------------------------------------- */

static double env_seconds(const char *name, double dflt)
{
  const char *v = getenv(name);
  if (!v || !*v) return dflt;
  char *end;
  double x = strtod(v, &end);
  if (*end || x <= 0) {
    shoal_warn("%s=\"%s\" is not a positive number of seconds; using %.0f", name, v, dflt);
    return dflt;
  }
  return x;
}

static int open_fail(char *why, size_t len, const char *what, int rc)
{
  snprintf(why, len, "%s failed: %s", what, fi_strerror(-rc));
  return 0;
}

static struct fi_info *make_hints(void)
{
  struct fi_info *h = fi_allocinfo();
  if (!h) return NULL;
  h->caps = FI_RMA | FI_ATOMIC;
  h->mode = 0;
  h->ep_attr->type = FI_EP_RDM;
  h->domain_attr->mr_mode =
      FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
  h->domain_attr->av_type = FI_AV_TABLE;
  h->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
  return h;
}

static int reg(char *why, size_t len, void *buf, size_t size, uint64_t access, uint64_t key,
               struct fid_mr **mr, void **desc)
{
  int rc = fi_mr_reg(S.domain, buf, size, access, 0, key, 0, mr, NULL);
  if (rc) {
    snprintf(why, len, "registering %zu bytes at %p (fi_mr_reg) failed: %s", size, buf,
             fi_strerror(-rc));
    return 0;
  }
  if (S.mr_mode & FI_MR_ENDPOINT) {
    if ((rc = fi_mr_bind(*mr, &S.ep->fid, 0)) || (rc = fi_mr_enable(*mr)))
      return open_fail(why, len, "binding a memory registration to the endpoint", rc);
  }
  *desc = fi_mr_desc(*mr);
  return 1;
}

/* Open the endpoint and register memory; fill my card.  Returns 1, or 0
 * with the reason in why. */
static int open_fabric(ofi_card *card, char *why, size_t len)
{
  struct fi_info *hints = make_hints();
  if (!hints) return open_fail(why, len, "fi_allocinfo", -FI_ENOMEM);
  int rc = fi_getinfo(FI_VERSION(1, 10), NULL, NULL, 0, hints, &S.info);
  fi_freeinfo(hints);
  if (rc || !S.info) {
    const char *p = getenv("FI_PROVIDER");
    snprintf(why, len, "no libfabric provider%s%s%s offers RDM endpoints with FI_RMA, FI_ATOMIC "
             "and delivery-complete semantics (fi_getinfo: %s); see fi_info -l",
             p ? " among FI_PROVIDER=\"" : "", p ? p : "", p ? "\"" : "", fi_strerror(-rc));
    S.info = NULL;
    return 0;
  }
  struct fi_info *fi = S.info;
  S.mr_mode = fi->domain_attr->mr_mode;
  S.manual_progress = fi->domain_attr->data_progress == FI_PROGRESS_MANUAL;
  S.inject_size = fi->tx_attr->inject_size;
  S.max_msg = fi->ep_attr->max_msg_size ? fi->ep_attr->max_msg_size : SIZE_MAX;
  if (S.max_msg > ((size_t)1 << 30)) S.max_msg = (size_t)1 << 30;

  if ((rc = fi_fabric(fi->fabric_attr, &S.fabric, NULL))) return open_fail(why, len, "fi_fabric", rc);
  if ((rc = fi_domain(S.fabric, fi, &S.domain, NULL))) return open_fail(why, len, "fi_domain", rc);
  struct fi_av_attr av_attr = {.type = FI_AV_TABLE, .count = (size_t)shoal_dstate.n_pes};
  if ((rc = fi_av_open(S.domain, &av_attr, &S.av, NULL))) return open_fail(why, len, "fi_av_open", rc);
  struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE};
  if ((rc = fi_cq_open(S.domain, &cq_attr, &S.cq, NULL))) return open_fail(why, len, "fi_cq_open", rc);
  struct fi_cntr_attr cntr_attr = {.events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE};
  if ((rc = fi_cntr_open(S.domain, &cntr_attr, &S.cntr, NULL)))
    return open_fail(why, len, "fi_cntr_open", rc);
  if ((rc = fi_endpoint(S.domain, fi, &S.ep, NULL))) return open_fail(why, len, "fi_endpoint", rc);
  if ((rc = fi_ep_bind(S.ep, &S.av->fid, 0)) ||
      (rc = fi_ep_bind(S.ep, &S.cq->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION)) ||
      (rc = fi_ep_bind(S.ep, &S.cntr->fid, FI_READ | FI_WRITE)))
    return open_fail(why, len, "fi_ep_bind", rc);
  /* shm names its region after the pid: a killed job leaves it behind in
   * /dev/shm and a later process with the same pid fails with EBUSY.  A
   * name per job and rank cannot collide. */
  if (!strcmp(fi->fabric_attr->prov_name, "shm")) {
    char name[OFI_NAME_MAX];
    snprintf(name, sizeof name, "shoal-%.180s-%d", shoal_rt.boot.job_id, shoal_dstate.my_pe);   /* unlink_shm_region() */
    if ((rc = fi_setname(&S.ep->fid, name, strlen(name) + 1)))
      return open_fail(why, len, "fi_setname", rc);
  }
  if ((rc = fi_enable(S.ep))) return open_fail(why, len, "fi_enable", rc);

  card->name_len = OFI_NAME_MAX;
  if ((rc = fi_getname(&S.ep->fid, card->name, &card->name_len)))
    return open_fail(why, len, "fi_getname", rc);

  /* The heap and data segment, registered once; keys chosen by us unless
   * the provider picks them (FI_MR_PROV_KEY). */
  uint64_t remote = FI_REMOTE_READ | FI_REMOTE_WRITE | FI_READ | FI_WRITE;
  S.base[OFI_HEAP] = shoal_dstate.heap_base;
  S.size[OFI_HEAP] = shoal_dstate.heap_size;
  S.base[OFI_DATA] = shoal_dstate.data_size ? shoal_dstate.data_base : NULL;
  S.size[OFI_DATA] = shoal_dstate.data_size;
  for (int r = 0; r < OFI_N_REGIONS; r++) {
    if (!S.size[r]) continue;
    if (!reg(why, len, S.base[r], S.size[r], remote, 1 + (uint64_t)r, &S.mr[r], &S.desc[r]))
      return 0;
    card->key[r] = fi_mr_key(S.mr[r]);
    card->base[r] = (S.mr_mode & FI_MR_VIRT_ADDR) ? (uint64_t)(uintptr_t)S.base[r] : 0;
  }
  S.bounce_size = OFI_BOUNCE;
  if (posix_memalign((void **)&S.scratch, 4096, sizeof(ofi_scratch) + S.bounce_size))
    return open_fail(why, len, "allocating scratch memory", -FI_ENOMEM);
  memset(S.scratch, 0, sizeof(ofi_scratch));
  if (!reg(why, len, S.scratch, sizeof(ofi_scratch) + S.bounce_size, FI_READ | FI_WRITE,
           1 + OFI_N_REGIONS, &S.scratch_mr, &S.scratch_desc))
    return 0;
  return 1;
}

/* auto: provider atomics where fi_*atomicvalid says so, else a CAS loop;
 * cas: emulate all (to test the emulation). */
static const char *amo_route_env(void)
{
  const char *v = getenv("SHOAL_OFI_AMO_ALL");
  return v && *v ? v : "auto";
}

/* Providers whose atomics run on the target's CPU with C11 atomics (the
 * util atomic handlers): they are atomic with load/store PEs' CPU atomics.
 * A NIC doing atomics is not, so then every AMO goes through the fabric. */
static bool cpu_coherent_atomics(const char *prov)
{
  static const char *const soft[] = {"shm", "tcp", "sockets", "udp", "net", "ofi_rxm", "ofi_rxd", NULL};
  char buf[128];
  snprintf(buf, sizeof buf, "%s", prov);
  if (strstr(buf, "ofi_rxm") || strstr(buf, "ofi_rxd")) return true;   /* atomics in software */
  for (char *save = NULL, *tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
    bool ok = false;
    for (const char *const *s = soft; *s; s++) ok |= !strcmp(tok, *s);
    if (!ok) return false;
  }
  return true;
}

static void leave_together(void);

/* shm maps a peer's region when they first talk.  One read from every
 * peer maps them all (both ways: the answer comes through mine); then the
 * names can go, so that a killed job leaves nothing in /dev/shm. */
static void unlink_shm_region(void)
{
  int n = shoal_dstate.n_pes, me = shoal_dstate.my_pe;
  for (int i = 0; i < n; i++) {
    if (i == me) continue;
    size_t k = (size_t)i * OFI_N_REGIONS + OFI_HEAP;
    post_rma("shmem_init", false, &S.scratch->result, S.scratch_desc, sizeof(uint64_t), i,
             S.rbase[k], S.rkey[k], 0);
    shoal_ofi_wait_all("shmem_init");
  }
  leave_together();   /* every PE has mapped every other */
  char name[OFI_NAME_MAX];
  snprintf(name, sizeof name, "/shoal-%.180s-%d", shoal_rt.boot.job_id, me);
  if (shm_unlink(name) != 0) shoal_debug("libfabric: shm_unlink(%s): %s", name, strerror(errno));
}

static int ofi_init(const bool *is_remote)
{
  (void)is_remote;   /* every peer gets an address: AMOs may need them all */
  int n = shoal_dstate.n_pes, me = shoal_dstate.my_pe;
  pthread_mutex_init(&S.lock, NULL);
  S.timeout_s = env_seconds("SHOAL_OFI_TIMEOUT", 120);

  ofi_card *cards = calloc((size_t)n, sizeof *cards), mine;
  memset(&mine, 0, sizeof mine);
  char why[512] = "";
  mine.ok = open_fabric(&mine, why, sizeof why);
  shoal_boot_allgather(&mine, cards, sizeof mine);
  int bad = -1;
  for (int i = 0; i < n && bad < 0; i++)
    if (!cards[i].ok) bad = i;
  if (bad >= 0) {
    if (!mine.ok)
      fprintf(stderr, "shoal: PE %d: error: shmem_init: libfabric transport: %s\n", me, why);
    else if (me == 0)
      fprintf(stderr, "shoal: PE %d: error: shmem_init: PE %d could not start the libfabric "
                      "transport (see its message)\n", me, bad);
    free(cards);
    return -1;
  }

  S.addr = calloc((size_t)n, sizeof *S.addr);
  S.rbase = calloc((size_t)n * OFI_N_REGIONS, sizeof *S.rbase);
  S.rkey = calloc((size_t)n * OFI_N_REGIONS, sizeof *S.rkey);
  for (int i = 0; i < n; i++) {
    int rc = fi_av_insert(S.av, cards[i].name, 1, &S.addr[i], 0, NULL);
    if (rc != 1) {
      fprintf(stderr, "shoal: PE %d: error: shmem_init: libfabric could not resolve the address "
                      "of PE %d (fi_av_insert: %s)\n", me, i, rc < 0 ? fi_strerror(-rc) : "0 inserted");
      free(cards);
      return -1;
    }
    for (int r = 0; r < OFI_N_REGIONS; r++) {
      S.rbase[(size_t)i * OFI_N_REGIONS + r] = cards[i].base[r];
      S.rkey[(size_t)i * OFI_N_REGIONS + r] = cards[i].key[r];
    }
  }
  free(cards);
  shoal_ofi_amo_setup();
  if (!strcmp(prov_name(), "shm")) unlink_shm_region();

  const char *route = amo_route_env();
  bool all = !strcmp(route, "1") || !strcasecmp(route, "yes");
  if (!all && strcasecmp(route, "auto") && strcmp(route, "0") && strcasecmp(route, "no"))
    shoal_warn("SHOAL_OFI_AMO_ALL=\"%s\" is not auto, 0 or 1; using auto", route);
  if (!strcasecmp(route, "auto")) all = !cpu_coherent_atomics(prov_name());
  shoal_dstate.amo_remote = all;
  start_progress_thread();
  shoal_debug("libfabric: provider %s, mr_mode %#llx, %s progress, inject %zu, AMOs on %s",
              prov_name(), (unsigned long long)S.mr_mode, S.manual_progress ? "manual" : "auto",
              S.inject_size, all ? "every PE through the fabric" : "unmapped PEs only");
  return 0;
}

/* Leave together: a peer may still need my progress to answer its last
 * operations, so wait for everyone while driving it. */
#ifdef SHOAL_HAVE_PMIX
static void fence_done(pmix_status_t status, void *arg)
{
  (void)status;
  __atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE);
}
#endif

static void leave_together(void)
{
#ifdef SHOAL_HAVE_PMIX
  if (!shoal_rt.boot.launched) return;
  static int done;
  done = 0;
  if (PMIx_Fence_nb(NULL, 0, NULL, 0, fence_done, &done) != PMIX_SUCCESS) return;
  ofi_wait w = shoal_ofi_wait_start();
  while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
    shoal_ofi_wait_step(&w, "shmem_finalize", "the other PEs");
#endif
}

static void ofi_fini(void)
{
  if (S.ep) {
    shoal_ofi_lock();
    shoal_ofi_wait_all("shmem_finalize");
    shoal_ofi_unlock();
    stop_progress_thread();   /* leave_together drives progress itself */
    leave_together();
  }
  stop_progress_thread();
  for (int r = 0; r < OFI_N_REGIONS; r++)
    if (S.mr[r]) fi_close(&S.mr[r]->fid);
  if (S.scratch_mr) fi_close(&S.scratch_mr->fid);
  if (S.ep) fi_close(&S.ep->fid);
  if (S.cntr) fi_close(&S.cntr->fid);
  if (S.cq) fi_close(&S.cq->fid);
  if (S.av) fi_close(&S.av->fid);
  if (S.domain) fi_close(&S.domain->fid);
  if (S.fabric) fi_close(&S.fabric->fid);
  if (S.info) fi_freeinfo(S.info);
  free(S.scratch);
  free(S.addr);
  free(S.rbase);
  free(S.rkey);
  pthread_mutex_destroy(&S.lock);
  memset(&S, 0, sizeof S);
  shoal_dstate.amo_remote = 0;
}

const shoal_transport shoal_transport_ofi = {
    .name = "ofi",
    .init = ofi_init,
    .fini = ofi_fini,
    .ctx_create = ofi_ctx_create,
    .ctx_destroy = ofi_ctx_destroy,
    .put = ofi_put,
    .get = ofi_get,
    .amo = shoal_ofi_amo,
    .fence = ofi_quiet,
    .quiet = ofi_quiet,
    .progress = ofi_progress,
};
