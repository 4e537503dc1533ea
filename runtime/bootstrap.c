/* Bootstrap: who am I, who shares my node, and a way to exchange small
 * blobs before the heap exists.  This file holds the interface (shoal_boot_*)
 * and the PMIx implementation; bootstrap_env.c has the torchrun-style one.
 * Without a launcher (PMIx_Init answers UNREACHABLE) the program runs as a
 * single PE. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SHOAL_HAVE_PMIX
#include <pmix.h>
static pmix_proc_t me;
static bool pmix_up;
#endif
static shoal_boot *boot;
static unsigned exchange_seq;
static const shoal_boot_ops *ops;   /* the implementation in use */

typedef struct host_id {
  char name[128];
} host_id;

static void assign_nodes(shoal_boot *b, const host_id *ids, int pes_per_node)
{
  b->node_of = calloc((size_t)b->size, sizeof(int));
  int nodes = 0;
  for (int i = 0; i < b->size; i++) {
    if (pes_per_node > 0) {
      b->node_of[i] = i / pes_per_node;
      continue;
    }
    b->node_of[i] = -1;
    for (int j = 0; j < i; j++)
      if (!strcmp(ids[i].name, ids[j].name)) { b->node_of[i] = b->node_of[j]; break; }
    if (b->node_of[i] < 0) b->node_of[i] = nodes++;
  }
  b->node_id = b->node_of[b->rank];
  b->local_rank = b->local_size = 0;
  for (int i = 0; i < b->size; i++) {
    if (b->node_of[i] != b->node_id) continue;
    if (i < b->rank) b->local_rank++;
    b->local_size++;
  }
}

#ifdef SHOAL_HAVE_PMIX
/* The PMIx server (the launcher or its daemon) is gone: nobody will end
 * this PE for us (watchdog.c has the parent-process check as well). */
static void lost_server(size_t id, pmix_status_t status, const pmix_proc_t *source,
                        pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                        pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
  (void)id; (void)source; (void)info; (void)ninfo; (void)results; (void)nresults;
  (void)cbfunc; (void)cbdata;
  char how[96];
  snprintf(how, sizeof how, "PMIx reports %s", PMIx_Error_string(status));
  shoal_launcher_gone(how);
}

static void watch_server(void)
{
  pmix_status_t codes[] = {PMIX_ERR_LOST_CONNECTION, PMIX_ERR_UNREACH};
  PMIx_Register_event_handler(codes, 2, NULL, 0, lost_server, NULL, NULL);
}
#endif

static int pmix_init(shoal_boot *b)
{
#ifdef SHOAL_HAVE_PMIX
  pmix_status_t rc = PMIx_Init(&me, NULL, 0);
  if (rc == PMIX_SUCCESS) {
    pmix_up = true;
    b->launched = true;
    watch_server();
    b->rank = (int)me.rank;
    pmix_proc_t wild;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &val) != PMIX_SUCCESS || !val) {
      fprintf(stderr, "shoal: error: shmem_init: PMIx did not report the job size\n");
      return -1;
    }
    b->size = (int)val->data.uint32;
    PMIX_VALUE_RELEASE(val);
    snprintf(b->job_id, sizeof b->job_id, "%s", me.nspace);
  } else if (rc != PMIX_ERR_UNREACH && getenv("PMIX_RANK")) {
    fprintf(stderr, "shoal: error: shmem_init: PMIx_Init failed: %s\n", PMIx_Error_string(rc));
    return -1;
  }
#endif
  if (!b->launched) snprintf(b->job_id, sizeof b->job_id, "single%d", (int)getpid());
  return 0;
}

/* auto: PMIx when a PMIx server is present, else the environment when it
 * names a torchrun-style job, else PMIx (which falls back to one PE). */
static bool pmix_server_present(void)
{
  extern char **environ;
  for (char **e = environ; *e; e++)
    if (!strncmp(*e, "PMIX_SERVER_URI", 15) || !strncmp(*e, "PMIX_NAMESPACE=", 15)) return true;
  return false;
}

static const shoal_boot_ops pmix_ops;

int shoal_boot_init(shoal_boot *b, int pes_per_node)
{
  boot = b;
  memset(b, 0, sizeof *b);
  b->size = 1;
  const char *want = shoal_rt.env.bootstrap;
  if (shoal_boot_uid_pending() || !strcmp(want, "env") ||
      (!strcmp(want, "auto") && shoal_boot_env_present() && !pmix_server_present()))
    ops = &shoal_boot_env_ops;
  else
    ops = &pmix_ops;
  if (ops->init(b) != 0) return -1;
  shoal_debug("bootstrap: %s, rank %d of %d", ops->name, b->rank, b->size);
  /* Shared-memory names may not contain '/'. */
  for (char *c = b->job_id; *c; c++)
    if (*c == '/' || *c == ' ') *c = '_';

  host_id mine, *all = calloc((size_t)b->size, sizeof *all);
  memset(&mine, 0, sizeof mine);
  gethostname(mine.name, sizeof mine.name - 1);
  shoal_boot_allgather(&mine, all, sizeof mine);
  assign_nodes(b, all, pes_per_node);
  free(all);
  return 0;
}

void shoal_boot_allgather(const void *mine, void *out, size_t len) { ops->allgather(mine, out, len); }
void shoal_boot_barrier(void) { ops->barrier(); }
void shoal_boot_abort(int status, const char *msg)
{
  if (ops) ops->abort(status, msg);
  _exit(status);
}
void shoal_boot_fini(void)
{
  ops->fini();
  free(boot->node_of);
  boot->node_of = NULL;
}

static void pmix_allgather(const void *mine, void *out, size_t len)
{
  if (!boot->launched) {
    memcpy(out, mine, len);
    return;
  }
#ifdef SHOAL_HAVE_PMIX
  char key[PMIX_MAX_KEYLEN];
  snprintf(key, sizeof key, "shoal.x%u", exchange_seq++);
  pmix_value_t v;
  PMIX_VALUE_CONSTRUCT(&v);
  v.type = PMIX_BYTE_OBJECT;
  v.data.bo.bytes = (char *)mine;
  v.data.bo.size = len;
  if (PMIx_Put(PMIX_GLOBAL, key, &v) != PMIX_SUCCESS || PMIx_Commit() != PMIX_SUCCESS)
    shoal_boot_abort(1, "shoal: error: shmem_init: PMIx_Put/Commit failed");
  pmix_info_t info;
  bool collect = true;
  PMIX_INFO_CONSTRUCT(&info);
  PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
  pmix_proc_t wild;
  PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
  if (PMIx_Fence(&wild, 1, &info, 1) != PMIX_SUCCESS)
    shoal_boot_abort(1, "shoal: error: shmem_init: PMIx_Fence failed");
  PMIX_INFO_DESTRUCT(&info);
  for (int r = 0; r < boot->size; r++) {
    pmix_proc_t p;
    pmix_value_t *got = NULL;
    PMIX_LOAD_PROCID(&p, me.nspace, (pmix_rank_t)r);
    if (PMIx_Get(&p, key, NULL, 0, &got) != PMIX_SUCCESS || !got ||
        got->type != PMIX_BYTE_OBJECT || got->data.bo.size != len)
      shoal_boot_abort(1, "shoal: error: shmem_init: PMIx_Get of a peer's data failed");
    memcpy((char *)out + (size_t)r * len, got->data.bo.bytes, len);
    PMIX_VALUE_RELEASE(got);
  }
#endif
}

static void pmix_barrier(void)
{
#ifdef SHOAL_HAVE_PMIX
  if (pmix_up) {
    pmix_proc_t wild;
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    PMIx_Fence(&wild, 1, NULL, 0);
  }
#endif
}

static void pmix_abort(int status, const char *msg)
{
#ifdef SHOAL_HAVE_PMIX
  if (pmix_up) {
    PMIx_Abort(status, msg, NULL, 0);
  }
#endif
  (void)msg;
  _exit(status);
}

static void pmix_fini(void)
{
#ifdef SHOAL_HAVE_PMIX
  if (pmix_up) {
    PMIx_Finalize(NULL, 0);
    pmix_up = false;
  }
#endif
}

static const shoal_boot_ops pmix_ops = {"pmix", pmix_init, pmix_allgather, pmix_barrier,
                                        pmix_abort, pmix_fini};
