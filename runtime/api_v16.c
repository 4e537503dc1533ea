/* The point-to-point additions of OpenSHMEM 1.6: blocked strided put/get
 * (ibput, ibget), signal_add/signal_set, shmem_pe_quiet, shmem_team_ptr
 * and the session hints.  Like api_rma.c: check the arguments, then run the device/ code
 * that kernels run too (GPU heap addresses reach the GPU through the same
 * remote seam as put and the AMOs). */
#include "internal.h"
#include "../device/rma.h"
#include "../device/signal.h"
#include "../teams/team.h"

static inline struct shoal_ctx *ctx_arg(const char *call, shmem_ctx_t ctx)
{
  if (SHOAL_UNLIKELY(ctx == SHMEM_CTX_INVALID))
    shoal_error(call, "argument 'ctx' is SHMEM_CTX_INVALID");
  return ctx;
}

/* Bytes spanned by nblocks blocks of bsize elements (es bytes) whose starts
 * are st elements apart.  The written side's blocks may not overlap. */
static size_t blocked_extent(const char *call, const char *arg, ptrdiff_t st, size_t bsize,
                             size_t nblocks, size_t es, bool written)
{
  if (st < 1) shoal_error(call, "argument '%s' = %td must be at least 1", arg, st);
  if (nblocks == 0 || bsize == 0) return 0;
  if (written && nblocks > 1 && (size_t)st < bsize)
    shoal_error(call, "argument '%s' = %td is less than 'bsize' = %zu: the blocks would overlap",
                arg, st, bsize);
  if (bsize > SIZE_MAX / 16 / es ||
      (nblocks - 1) > (SIZE_MAX / 16 / es - bsize) / (size_t)st)
    shoal_error(call, "arguments '%s' = %td, 'bsize' = %zu, 'nblocks' = %zu span more than the "
                "address space", arg, st, bsize, nblocks);
  return ((nblocks - 1) * (size_t)st + bsize) * es;
}

static void rma_ibput(const char *call, shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
                      ptrdiff_t sst, size_t bsize, size_t nblocks, size_t es, int pe)
{
  SHOAL_REQUIRE_INIT(call);
  struct shoal_ctx *c = ctx_arg(call, ctx);
  SHOAL_CHECK_PE(call, pe);
  size_t dbytes = blocked_extent(call, "dst", dst, bsize, nblocks, es, true);
  (void)blocked_extent(call, "sst", sst, bsize, nblocks, es, false);
  if (dbytes == 0) return;   /* nothing to move: NULL buffers are fine */
  SHOAL_CHECK_SYM(call, "dest", dest, dbytes);
  shoal_dev_ibput(c, dest, src, dst, sst, bsize, nblocks, es, pe);
}

static void rma_ibget(const char *call, shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
                      ptrdiff_t sst, size_t bsize, size_t nblocks, size_t es, int pe)
{
  SHOAL_REQUIRE_INIT(call);
  struct shoal_ctx *c = ctx_arg(call, ctx);
  SHOAL_CHECK_PE(call, pe);
  (void)blocked_extent(call, "dst", dst, bsize, nblocks, es, true);
  size_t sbytes = blocked_extent(call, "sst", sst, bsize, nblocks, es, false);
  if (sbytes == 0) return;
  SHOAL_CHECK_SYM(call, "source", src, sbytes);
  shoal_dev_ibget(c, dest, src, dst, sst, bsize, nblocks, es, pe);
}

#define SHOAL_IBRMA(T, PFX, SFX, ES) \
  void shmem_##PFX##ibput##SFX(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t bs, \
                               size_t nb, int pe) \
  { rma_ibput("shmem_" #PFX "ibput" #SFX, SHMEM_CTX_DEFAULT, d, s, dst, sst, bs, nb, ES, pe); } \
  void shmem_ctx_##PFX##ibput##SFX(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                                   size_t bs, size_t nb, int pe) \
  { rma_ibput("shmem_ctx_" #PFX "ibput" #SFX, c, d, s, dst, sst, bs, nb, ES, pe); } \
  void shmem_##PFX##ibget##SFX(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t bs, \
                               size_t nb, int pe) \
  { rma_ibget("shmem_" #PFX "ibget" #SFX, SHMEM_CTX_DEFAULT, d, s, dst, sst, bs, nb, ES, pe); } \
  void shmem_ctx_##PFX##ibget##SFX(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                                   size_t bs, size_t nb, int pe) \
  { rma_ibget("shmem_ctx_" #PFX "ibget" #SFX, c, d, s, dst, sst, bs, nb, ES, pe); }
#define SHOAL_IBRMA_TYPED(T, N) SHOAL_IBRMA(T, N##_, , sizeof(T))
#define SHOAL_IBRMA_SIZED(BITS, BYTES) SHOAL_IBRMA(void, , BITS, BYTES)
SHOAL_RMA_TYPES(SHOAL_IBRMA_TYPED)
SHOAL_SIZED_RMA(SHOAL_IBRMA_SIZED)

/* ---- signal_add, signal_set ---------------------------------------------- */
static void signal_op(const char *call, shmem_ctx_t ctx, uint64_t *sig, uint64_t v, int op, int pe)
{
  SHOAL_REQUIRE_INIT(call);
  struct shoal_ctx *c = ctx_arg(call, ctx);
  SHOAL_CHECK_PE(call, pe);
  SHOAL_CHECK_SYM(call, "sig_addr", sig, sizeof *sig);
  shoal_dev_signal_update(c, sig, v, op, pe);
}

/* Parenthesized: <shoal/generic16.h> makes these names macros. */
void (shmem_signal_add)(uint64_t *sig, uint64_t v, int pe)
{ signal_op("shmem_signal_add", SHMEM_CTX_DEFAULT, sig, v, SHMEM_SIGNAL_ADD, pe); }
void shmem_ctx_signal_add(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe)
{ signal_op("shmem_ctx_signal_add", c, sig, v, SHMEM_SIGNAL_ADD, pe); }
void (shmem_signal_set)(uint64_t *sig, uint64_t v, int pe)
{ signal_op("shmem_signal_set", SHMEM_CTX_DEFAULT, sig, v, SHMEM_SIGNAL_SET, pe); }
void shmem_ctx_signal_set(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe)
{ signal_op("shmem_ctx_signal_set", c, sig, v, SHMEM_SIGNAL_SET, pe); }

/* ---- shmem_pe_quiet ------------------------------------------------------ */
/* Completes ctx's operations to the listed PEs.  Shoal completes them all
 * (what shmem_ctx_quiet does): the same guarantee for those PEs, and no
 * per-PE bookkeeping on the put path. */
static void pe_quiet(const char *call, shmem_ctx_t ctx, const int *pes, size_t npes)
{
  SHOAL_REQUIRE_INIT(call);
  if (ctx == SHMEM_CTX_INVALID || npes == 0) return;   /* as shmem_ctx_quiet: no operation */
  if (!pes) shoal_error(call, "argument 'target_pes' is NULL with npes = %zu", npes);
  for (size_t i = 0; i < npes; i++)
    if ((unsigned)pes[i] >= (unsigned)shoal_dstate.n_pes)
      shoal_error(call, "argument 'target_pes[%zu]' = %d is out of range: valid PEs are 0..%d", i,
                  pes[i], shoal_dstate.n_pes - 1);
  shoal_dev_quiet(ctx);
}
void shmem_pe_quiet(const int *pes, size_t npes) { pe_quiet("shmem_pe_quiet", SHMEM_CTX_DEFAULT, pes, npes); }
void shmem_ctx_pe_quiet(shmem_ctx_t c, const int *pes, size_t npes) { pe_quiet("shmem_ctx_pe_quiet", c, pes, npes); }

/* ---- shmem_team_ptr ------------------------------------------------------ */
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
  SHOAL_REQUIRE_INIT("shmem_team_ptr");
  if (team == SHMEM_TEAM_INVALID) return NULL;
  if (pe < 0 || pe >= team->size) return NULL;
  return shmem_ptr(dest, shoal_team_world_pe(team, pe));
}

/* ---- sessions ------------------------------------------------------------ */
/* Sessions are performance hints that change no result (1.6 §9.x): Shoal's
 * load/store and libfabric paths already issue small operations without
 * per-call completion, so it accepts and checks them and applies nothing. */
#define SHOAL_SESSION_OPTIONS SHMEM_CTX_SESSION_BATCH
#define SHOAL_SESSION_MASK SHMEM_CTX_SESSION_TOTAL_OPS

void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config,
                             long config_mask)
{
  const char *call = "shmem_ctx_session_start";
  SHOAL_REQUIRE_INIT(call);
  if (ctx == SHMEM_CTX_INVALID) return;   /* the spec: no action */
  if (options & ~SHOAL_SESSION_OPTIONS)
    shoal_debug("%s: ignoring unknown option bits %#lx", call, options & ~SHOAL_SESSION_OPTIONS);
  if (config_mask & ~SHOAL_SESSION_MASK)
    shoal_debug("%s: ignoring unknown config_mask bits %#lx", call,
                config_mask & ~SHOAL_SESSION_MASK);
  if ((config_mask & SHOAL_SESSION_MASK) && !config)
    shoal_error(call, "argument 'config' is NULL but 'config_mask' = %#lx selects its fields",
                config_mask);
  if (config && (config_mask & SHMEM_CTX_SESSION_TOTAL_OPS))
    shoal_debug("%s: batch session, total_ops hint %zu", call, config->total_ops);
}

void shmem_ctx_session_stop(shmem_ctx_t ctx)
{
  SHOAL_REQUIRE_INIT("shmem_ctx_session_stop");
  (void)ctx;   /* no session state: nothing was deferred */
}
