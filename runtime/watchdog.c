/* A job ends, and says why, whatever happens to it:
 *
 *  - every spin-wait of the library (device/arch.h shoal_backoff_wait)
 *    looks here every SHOAL_WATCH_SPINS spins: a wait longer than
 *    SHOAL_WAIT_TIMEOUT seconds ends the job with what it waited for, and a
 *    wait that can no longer end because a PE has left (entered
 *    shmem_finalize, or exited without it) ends the job naming that PE;
 *  - a thread notices when the launcher is gone (the parent process
 *    changes) and ends this PE; bootstrap.c does the same on PMIx's
 *    lost-connection event.
 *
 * Each PE's "left" word for every PE lives in its own heap (the runtime
 * words after the team slots): a PE that leaves writes its word on every
 * PE, through the transport for unmapped ones, so waiters read only local
 * memory. */
#include "internal.h"
#include "../device/amo.h"
#include "../teams/team.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define TLS __thread __attribute__((tls_model("initial-exec")))
TLS const char *shoal_wait_call;            /* the API call this thread is in */
static TLS const char *wait_team_call;      /* the collective call wait_team belongs to */
static TLS shmem_team_t wait_team;
static TLS const shoal_backoff *suspect;    /* a wait that saw a PE leave, last look */
static TLS unsigned suspect_spins;
static TLS double suspect_t0;             /* when the suspect wait first saw a PE leave */
/* How long a collective wait may go on after a member left while other
 * members have not: a late member may still end it. */
#define SHOAL_LEFT_GRACE_S 3.0

void shoal_wait_in_team(const char *call, shmem_team_t team)
{
  shoal_wait_call = call;
  wait_team_call = call;
  wait_team = team;
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- PEs that left --------------------------------------------------------- */

static const char *left_how(uint64_t w)
{
  return w == SHOAL_LEFT_EXIT ? "exited without shmem_finalize"
                              : "called shmem_finalize";
}

void shoal_peers_announce_leaving(uint64_t how)
{
  int me = shoal_dstate.my_pe, n = shoal_dstate.n_pes;
  if (!shoal_rt.left) return;
  shoal_dev_quiet(SHOAL_DEV_CTX);   /* what I wrote lands before peers see me leave */
  for (int i = 0; i < n; i++) {
    int pe = (me + i) % n;
    shoal_dev_uint64_set(SHOAL_DEV_CTX, &shoal_rt.left[me], how, pe);
  }
  shoal_dev_quiet(SHOAL_DEV_CTX);
}

void shoal_peers_wait_all_leaving(void)
{
  int n = shoal_dstate.n_pes;
  if (!shoal_rt.left) return;
  for (int i = 0; i < n; i++) {
    shoal_backoff b = SHOAL_BACKOFF_WATCH(&shoal_rt.left[i], SHMEM_CMP_NE, 0);
    while (shoal_load_acquire(&shoal_rt.left[i]) == 0) {
      shoal_wait_progress();
      shoal_backoff_wait(&b);
    }
  }
}

static void team_name(char *out, size_t len, shmem_team_t t)
{
  if (!t) snprintf(out, len, "none");
  else if (t == SHMEM_TEAM_WORLD) snprintf(out, len, "SHMEM_TEAM_WORLD (%d PEs)", t->size);
  else if (t == SHMEM_TEAM_SHARED) snprintf(out, len, "SHMEM_TEAM_SHARED (%d PEs)", t->size);
  else
    snprintf(out, len, "the team of world PEs %d, %d, ... (start %d, stride %d, size %d)", t->start,
             t->start + t->stride, t->start, t->stride, t->size);
}

/* The PE whose leaving means this wait can never end, or -1; *sure when
 * nobody else is left to end it.  In a collective, any member that left
 * (sure once every other member has left: until then a member that is
 * merely late may still end it, so the caller gives it time); elsewhere
 * (wait_until, locks, quiet), only when every other PE has left, since any
 * of them might still write. */
static int blocking_leaver(const shoal_backoff *b, bool *sure)
{
  int me = shoal_dstate.my_pe, n = shoal_dstate.n_pes;
  const uint64_t *left = shoal_rt.left;
  /* (a transport completion wait, with no word, may be any put's) */
  bool collective = b->addr && wait_team_call && wait_team_call == shoal_wait_call && wait_team;
  int any = -1, member = -1, others_left = 0, members_left = 0;
  for (int i = 0; i < n; i++) {
    if (i == me || shoal_load_acquire(&left[i]) == 0) continue;
    others_left++;
    if (any < 0) any = i;
    if (collective && shoal_team_index_of(wait_team, i) >= 0) {
      members_left++;
      if (member < 0) member = i;
    }
  }
  if (collective) {
    *sure = members_left == wait_team->size - 1;
    return member;
  }
  *sure = true;
  return others_left == n - 1 ? any : -1;
}

/* ---- the message ----------------------------------------------------------- */

static const char *cmp_name(int cmp)
{
  switch (cmp) {
  case SHMEM_CMP_EQ: return "==";
  case SHMEM_CMP_NE: return "!=";
  case SHMEM_CMP_GT: return ">";
  case SHMEM_CMP_GE: return ">=";
  case SHMEM_CMP_LT: return "<";
  default: return "<=";
  }
}

/* "the word at heap offset 0x40 to be >= 3 (last seen: 2)" */
static void describe_wait(char *out, size_t len, const shoal_backoff *b)
{
  if (!b->addr) {
    snprintf(out, len, "libfabric completions (SHOAL_OFI_TIMEOUT bounds each as well)");
    return;
  }
  char where[160];
  snprintf(where, sizeof where, "the word at address %p", b->addr);
  const shoal_dev_state *s = &shoal_dstate;
  for (int i = -1; i < s->n_pes; i++) {   /* mine first, then the mapped peers' heaps */
    int pe = i < 0 ? s->my_pe : i;
    const char *base = i < 0 ? s->heap_base : s->peer_heap ? s->peer_heap[i] : NULL;
    if (!base || (i >= 0 && i == s->my_pe)) continue;
    size_t off = shoal_region_offset(b->addr, base, s->heap_size);
    if (off == SIZE_MAX) continue;
    char owner[32] = "the ";
    if (pe != s->my_pe) snprintf(owner, sizeof owner, "PE %d's ", pe);
    if (off >= shoal_rt.internal_size)
      snprintf(where, sizeof where, "%sword at heap offset %#zx", owner, off - shoal_rt.internal_size);
    else
      snprintf(where, sizeof where, "%slibrary word at internal offset %#zx (team sync)", owner, off);
    break;
  }
  size_t doff = shoal_region_offset(b->addr, s->data_base, s->data_size);
  if (doff != SIZE_MAX)
    snprintf(where, sizeof where, "the global variable at data offset %#zx", doff);
  if (b->size == 4 || b->size == 8) {
    uint64_t v8 = 0;
    uint32_t v4 = 0;
    if (shoal_gpu_owns(b->addr, (size_t)b->size)) {
#ifdef SHOAL_HAVE_GPU
      shoal_gpu_copy("watchdog", b->size == 8 ? (void *)&v8 : (void *)&v4, b->addr, (size_t)b->size);
#endif
    } else {
      if (b->size == 8) v8 = __atomic_load_n((const uint64_t *)b->addr, __ATOMIC_ACQUIRE);
      else v4 = __atomic_load_n((const uint32_t *)b->addr, __ATOMIC_ACQUIRE);
    }
    long long now = b->size == 8 ? (long long)v8 : (long long)(int32_t)v4;
    long long want = b->size == 8 ? (long long)b->value : (long long)(int32_t)(uint32_t)b->value;
    snprintf(out, len, "%s to be %s %lld (last seen: %lld)", where, cmp_name(b->cmp),
             want, now);
    return;
  }
  snprintf(out, len, "%s to be %s %lld", where, cmp_name(b->cmp), (long long)b->value);
}

static _Noreturn void end_wait(const shoal_backoff *b, const char *why)
{
  char what[320], team[160];
  describe_wait(what, sizeof what, b);
  bool has_team = b->addr && wait_team_call && wait_team_call == shoal_wait_call && wait_team;
  if (has_team) team_name(team, sizeof team, wait_team);
  else snprintf(team, sizeof team, "none (a point-to-point wait)");
  /* A wait with no word is the transport's completion wait, which any
   * put/get/AMO may do: the noted call may be an older one. */
  const char *call = !b->addr ? "a libfabric operation or shmem_quiet"
                     : shoal_wait_call ? shoal_wait_call : "a library call";
  shoal_error(call, "%s; it waited for %s; team: %s", why, what, team);
}

void shoal_wait_check(shoal_backoff *b)
{
  if (shoal_rt.initialized != 1 || !shoal_rt.left) return;
  double now = now_s();
  if (b->t0 == 0) b->t0 = now;
  if (!shoal_rt.leaving) {
    bool sure = false;
    int pe = blocking_leaver(b, &sure);
    if (pe < 0) {
      if (suspect == b) suspect = NULL;
    } else if (suspect != b || suspect_t0 < b->t0) {
      /* Look again after one more test of the condition: what the PE did
       * before leaving may have ended the wait.  (A later wait at the same
       * address, t0 newer, gets its own look and grace.) */
      suspect = b;
      suspect_spins = b->spins;
      suspect_t0 = now;
    } else if (suspect_spins != b->spins && (sure || now - suspect_t0 >= SHOAL_LEFT_GRACE_S)) {
      /* A member that finished the collective may leave while another
       * member's last signal to us is still on its way (a PE descheduled on
       * a loaded node, a provider that needs our progress): only a wait
       * that outlasts the grace, or that nobody is left to end, is dead. */
      char why[200];
      snprintf(why, sizeof why, "PE %d %s while PE %d waits in %s", pe,
               left_how(shoal_load_acquire(&shoal_rt.left[pe])), shoal_dstate.my_pe,
               shoal_wait_call ? shoal_wait_call : "a library call");
      end_wait(b, why);
    }
  }
  double limit = shoal_rt.env.wait_timeout;
  if (limit > 0 && now - b->t0 > limit) {
    char why[200];
    snprintf(why, sizeof why, "wait watchdog: waited %.0f s (SHOAL_WAIT_TIMEOUT=%g)", now - b->t0,
             limit);
    end_wait(b, why);
  }
}

/* ---- the launcher ---------------------------------------------------------- */

static pid_t launcher_pid;

_Noreturn void shoal_launcher_gone(const char *how)
{
  fprintf(stderr, "shoal: PE %d: error: %s: the launcher is gone; this PE ends\n",
          shoal_dstate.my_pe, how);
  fflush(stderr);
  /* Names not yet removed (start-up) go with us. */
  if (shoal_rt.heap_seg.name[0]) shm_unlink(shoal_rt.heap_seg.name);
  if (shoal_rt.data_seg.name[0]) shm_unlink(shoal_rt.data_seg.name);
  _exit(1);
}

static void *launcher_watch(void *unused)
{
  (void)unused;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);   /* the program's signals go to its threads */
  for (;;) {
    struct timespec ts = {0, 500 * 1000 * 1000};
    nanosleep(&ts, NULL);
    if (getppid() != launcher_pid) {
      char how[64];
      snprintf(how, sizeof how, "parent process %d exited", (int)launcher_pid);
      shoal_launcher_gone(how);
    }
  }
  return NULL;
}

void shoal_launcher_watch_start(void)
{
  static bool started;
  if (started || !shoal_rt.boot.launched) return;
  started = true;
  launcher_pid = getppid();
  pthread_t t;
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&a, 64 * 1024);
  if (pthread_create(&t, &a, launcher_watch, NULL) != 0)
    shoal_debug("could not start the launcher watch thread");
  pthread_attr_destroy(&a);
}
