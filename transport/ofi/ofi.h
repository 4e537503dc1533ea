/* The libfabric transport's shared state (transport/ofi/ofi.c sets it
 * up and does RMA; transport/ofi/ofi_amo.c does the atomics). */
#ifndef SHOAL_TRANSPORT_OFI_H
#define SHOAL_TRANSPORT_OFI_H

#include "../transport.h"

#include <pthread.h>
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

/* Registered regions every peer exposes: the heap and the data segment. */
enum { OFI_HEAP, OFI_DATA, OFI_N_REGIONS };

/* How an (AMO type, operation) pair is carried out. */
enum { OFI_AMO_NATIVE, OFI_AMO_CAS, OFI_AMO_NONE };

/* A remote location: address as the provider wants it, and the key. */
typedef struct ofi_target {
  uint64_t addr;
  uint64_t key;
  size_t region_left;   /* bytes from addr to the end of its region */
} ofi_target;

/* Scratch memory registered for local use (FI_MR_LOCAL providers need a
 * descriptor for every local buffer). */
typedef struct ofi_scratch {
  uint64_t operand, compare, result;
  char bounce[];        /* for puts/gets from unregistered user memory */
} ofi_scratch;

typedef struct ofi_state {
  struct fi_info *info;
  struct fid_fabric *fabric;
  struct fid_domain *domain;
  struct fid_ep *ep;
  struct fid_av *av;
  struct fid_cq *cq;
  struct fid_cntr *cntr;            /* completions of every operation posted */
  struct fid_mr *mr[OFI_N_REGIONS], *scratch_mr;
  void *desc[OFI_N_REGIONS], *scratch_desc;
  char *base[OFI_N_REGIONS];        /* my regions */
  size_t size[OFI_N_REGIONS];
  uint64_t *rbase, *rkey;           /* [pe * OFI_N_REGIONS + region] */
  fi_addr_t *addr;                  /* [pe] */
  uint64_t mr_mode;
  bool manual_progress;
  size_t inject_size, max_msg;
  uint64_t issued;                  /* operations posted so far */
  ofi_scratch *scratch;
  size_t bounce_size;
  double timeout_s;                 /* SHOAL_OFI_TIMEOUT */
  pthread_mutex_t lock;             /* taken when threads may share the transport */
  pthread_t progress_thread;        /* drives manual progress while the PE computes */
  bool progress_thread_on;
  int progress_stop;
  unsigned char amo_method[6][12];  /* [shoal_dtype][shoal_amo_op] */
  int cas_width;                    /* 4 or 8: widest native compare-swap, 0 if none */
  bool cas32, cas64;
} ofi_state;

SHOAL_HIDDEN extern ofi_state shoal_ofi;

/* Serialize transport calls when the program runs threads. */
SHOAL_HIDDEN void shoal_ofi_lock(void);
SHOAL_HIDDEN void shoal_ofi_unlock(void);
/* Where symmetric address addr of n bytes lives on pe (error if nowhere). */
SHOAL_HIDDEN ofi_target shoal_ofi_target(const char *call, const void *addr, size_t n, int pe);
/* A bounded wait: each step drives progress and backs off; past
 * SHOAL_OFI_TIMEOUT seconds it ends the job with an error naming call. */
typedef struct ofi_wait {
  double start;
  unsigned steps;
  shoal_backoff backoff;
} ofi_wait;
SHOAL_HIDDEN ofi_wait shoal_ofi_wait_start(void);
SHOAL_HIDDEN void shoal_ofi_wait_step(ofi_wait *w, const char *call, const char *what);
/* Retry a post while the provider says EAGAIN, driving progress. */
#define OFI_POST(call, expr) \
  do { ssize_t rc_; ofi_wait w_ = shoal_ofi_wait_start(); \
       while ((rc_ = (expr)) == -FI_EAGAIN) shoal_ofi_wait_step(&w_, call, "queue space"); \
       if (rc_) shoal_ofi_fail(call, #expr, (int)rc_); } while (0)
SHOAL_HIDDEN _Noreturn void shoal_ofi_fail(const char *call, const char *what, int rc);
/* Wait until every operation posted so far has completed (delivered at
 * the target: operations are posted with FI_DELIVERY_COMPLETE). */
SHOAL_HIDDEN void shoal_ofi_wait_all(const char *call);
/* Local descriptor of registered memory [p, p + n), or NULL. */
SHOAL_HIDDEN void *shoal_ofi_desc(const void *p, size_t n);

/* Atomics (transport/ofi/ofi_amo.c). */
SHOAL_HIDDEN void shoal_ofi_amo_setup(void);
SHOAL_HIDDEN void shoal_ofi_amo(void *tctx, shoal_amo_op op, shoal_dtype dt, void *dest,
                                const void *operand, const void *compare, void *result, int pe);

#endif
