/* Put, get and put-with-signal: the public names, generated from the type
 * tables.  Each checks its arguments (cheap; --disable-arg-checks removes
 * them) and then runs the device/ code that GPU kernels run too. */
#include "internal.h"
#include "../device/rma.h"
#include "../device/signal.h"

static inline struct shoal_ctx *ctx_arg(const char *call, shmem_ctx_t ctx)
{
  if (SHOAL_UNLIKELY(ctx == SHMEM_CTX_INVALID))
    shoal_error(call, "argument 'ctx' is SHMEM_CTX_INVALID");
  return ctx;
}

static inline void rma_put(const char *call, shmem_ctx_t ctx, void *dest, const void *src,
                           size_t n, size_t es, int pe)
{
  SHOAL_REQUIRE_INIT(call);
  struct shoal_ctx *c = ctx_arg(call, ctx);
  SHOAL_CHECK_PE(call, pe);
  SHOAL_CHECK_COUNT(call, "nelems", n);
  if (n == 0) return;   /* 1.5 annex: NULL pointers are valid with a zero length */
  SHOAL_CHECK_SYM(call, "dest", dest, n * es);
  shoal_dev_putmem(c, dest, src, n * es, pe);
}

static inline void rma_get(const char *call, shmem_ctx_t ctx, void *dest, const void *src,
                           size_t n, size_t es, int pe)
{
  SHOAL_REQUIRE_INIT(call);
  struct shoal_ctx *c = ctx_arg(call, ctx);
  SHOAL_CHECK_PE(call, pe);
  SHOAL_CHECK_COUNT(call, "nelems", n);
  if (n == 0) return;
  SHOAL_CHECK_SYM(call, "source", src, n * es);
  shoal_dev_getmem(c, dest, src, n * es, pe);
}

/* Bytes spanned by n elements of size es at stride st (elements). */
static inline size_t strided_extent(const char *call, const char *arg, ptrdiff_t st, size_t n,
                                    size_t es)
{
  if (st < 1) shoal_error(call, "argument '%s' = %td must be at least 1", arg, st);
  if (n == 0) return 0;
  /* ((n - 1) * st + 1) * es must not wrap: a wrapped extent would pass the
   * symmetric check and write far outside the heap */
  if ((n - 1) > (SIZE_MAX / es - 1) / (size_t)st)
    shoal_error(call, "argument '%s' = %td with nelems = %zu spans more than the address space",
                arg, st, n);
  return ((n - 1) * (size_t)st + 1) * es;
}

static inline void rma_iput(const char *call, shmem_ctx_t ctx, void *dest, const void *src,
                            ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t es, int pe)
{
  SHOAL_REQUIRE_INIT(call);
  struct shoal_ctx *c = ctx_arg(call, ctx);
  SHOAL_CHECK_PE(call, pe);
  SHOAL_CHECK_COUNT(call, "nelems", n);
  if (n == 0) return;
  SHOAL_CHECK_SYM(call, "dest", dest, strided_extent(call, "dst", dst, n, es));
  (void)strided_extent(call, "sst", sst, n, es);
  shoal_dev_iput(c, dest, src, dst, sst, n, es, pe);
}

static inline void rma_iget(const char *call, shmem_ctx_t ctx, void *dest, const void *src,
                            ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t es, int pe)
{
  SHOAL_REQUIRE_INIT(call);
  struct shoal_ctx *c = ctx_arg(call, ctx);
  SHOAL_CHECK_PE(call, pe);
  SHOAL_CHECK_COUNT(call, "nelems", n);
  if (n == 0) return;
  SHOAL_CHECK_SYM(call, "source", src, strided_extent(call, "sst", sst, n, es));
  (void)strided_extent(call, "dst", dst, n, es);
  shoal_dev_iget(c, dest, src, dst, sst, n, es, pe);
}

static inline void rma_put_signal(const char *call, shmem_ctx_t ctx, void *dest, const void *src,
                                  size_t n, size_t es, uint64_t *sig, uint64_t signal, int op,
                                  int pe)
{
  SHOAL_REQUIRE_INIT(call);
  struct shoal_ctx *c = ctx_arg(call, ctx);
  SHOAL_CHECK_PE(call, pe);
  SHOAL_CHECK_COUNT(call, "nelems", n);
  if (n) SHOAL_CHECK_SYM(call, "dest", dest, n * es);
  SHOAL_CHECK_SYM(call, "sig_addr", sig, sizeof *sig);
  SHOAL_CHECK_ALIGN(call, "sig_addr", sig, sizeof *sig);
  if (SHOAL_UNLIKELY(op != SHMEM_SIGNAL_SET && op != SHMEM_SIGNAL_ADD))
    shoal_error(call, "argument 'sig_op' = %d is not SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD", op);
  if (n == 0) {   /* no data (dest may be NULL): the signal alone, still ordered after earlier puts */
    shoal_dev_signal_update(c, sig, signal, op, pe);
    return;
  }
  shoal_dev_put_signal(c, dest, src, n * es, sig, signal, op, pe);
}

/* One set of entry points per element size and name. */
#define SHOAL_RMA_FAMILY(T, PFX, SFX, ES) \
  void shmem_##PFX##put##SFX(T *d, const T *s, size_t n, int pe) \
  { rma_put("shmem_" #PFX "put" #SFX, SHMEM_CTX_DEFAULT, d, s, n, ES, pe); } \
  void shmem_ctx_##PFX##put##SFX(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) \
  { rma_put("shmem_ctx_" #PFX "put" #SFX, c, d, s, n, ES, pe); } \
  void shmem_##PFX##get##SFX(T *d, const T *s, size_t n, int pe) \
  { rma_get("shmem_" #PFX "get" #SFX, SHMEM_CTX_DEFAULT, d, s, n, ES, pe); } \
  void shmem_ctx_##PFX##get##SFX(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) \
  { rma_get("shmem_ctx_" #PFX "get" #SFX, c, d, s, n, ES, pe); } \
  void shmem_##PFX##put##SFX##_nbi(T *d, const T *s, size_t n, int pe) \
  { rma_put("shmem_" #PFX "put" #SFX "_nbi", SHMEM_CTX_DEFAULT, d, s, n, ES, pe); } \
  void shmem_ctx_##PFX##put##SFX##_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) \
  { rma_put("shmem_ctx_" #PFX "put" #SFX "_nbi", c, d, s, n, ES, pe); } \
  void shmem_##PFX##get##SFX##_nbi(T *d, const T *s, size_t n, int pe) \
  { rma_get("shmem_" #PFX "get" #SFX "_nbi", SHMEM_CTX_DEFAULT, d, s, n, ES, pe); } \
  void shmem_ctx_##PFX##get##SFX##_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) \
  { rma_get("shmem_ctx_" #PFX "get" #SFX "_nbi", c, d, s, n, ES, pe); }

#define SHOAL_RMA_STRIDED(T, PFX, SFX, ES) \
  void shmem_##PFX##iput##SFX(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) \
  { rma_iput("shmem_" #PFX "iput" #SFX, SHMEM_CTX_DEFAULT, d, s, dst, sst, n, ES, pe); } \
  void shmem_ctx_##PFX##iput##SFX(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                                  size_t n, int pe) \
  { rma_iput("shmem_ctx_" #PFX "iput" #SFX, c, d, s, dst, sst, n, ES, pe); } \
  void shmem_##PFX##iget##SFX(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) \
  { rma_iget("shmem_" #PFX "iget" #SFX, SHMEM_CTX_DEFAULT, d, s, dst, sst, n, ES, pe); } \
  void shmem_ctx_##PFX##iget##SFX(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                                  size_t n, int pe) \
  { rma_iget("shmem_ctx_" #PFX "iget" #SFX, c, d, s, dst, sst, n, ES, pe); }

#define SHOAL_RMA_SIGNAL(T, PFX, SFX, ES) \
  void shmem_##PFX##put_signal##SFX(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, \
                                    int op, int pe) \
  { rma_put_signal("shmem_" #PFX "put_signal" #SFX, SHMEM_CTX_DEFAULT, d, s, n, ES, sig, v, op, pe); } \
  void shmem_ctx_##PFX##put_signal##SFX(shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sig, \
                                        uint64_t v, int op, int pe) \
  { rma_put_signal("shmem_ctx_" #PFX "put_signal" #SFX, c, d, s, n, ES, sig, v, op, pe); } \
  void shmem_##PFX##put_signal##SFX##_nbi(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, \
                                          int op, int pe) \
  { rma_put_signal("shmem_" #PFX "put_signal" #SFX "_nbi", SHMEM_CTX_DEFAULT, d, s, n, ES, sig, v, \
                   op, pe); } \
  void shmem_ctx_##PFX##put_signal##SFX##_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, \
                                              uint64_t *sig, uint64_t v, int op, int pe) \
  { rma_put_signal("shmem_ctx_" #PFX "put_signal" #SFX "_nbi", c, d, s, n, ES, sig, v, op, pe); }

/* Typed: shmem_int_put, ...; plus the single-element p and g. */
#define SHOAL_RMA_ALL(T, PFX, SFX, ES) \
  SHOAL_RMA_FAMILY(T, PFX, SFX, ES) SHOAL_RMA_STRIDED(T, PFX, SFX, ES) SHOAL_RMA_SIGNAL(T, PFX, SFX, ES)

#define SHOAL_RMA_TYPED(T, N) \
  SHOAL_RMA_ALL(T, N##_, , sizeof(T)) \
  void shmem_##N##_p(T *d, T v, int pe) { rma_put("shmem_" #N "_p", SHMEM_CTX_DEFAULT, d, &v, 1, sizeof(T), pe); } \
  void shmem_ctx_##N##_p(shmem_ctx_t c, T *d, T v, int pe) { rma_put("shmem_ctx_" #N "_p", c, d, &v, 1, sizeof(T), pe); } \
  T shmem_##N##_g(const T *s, int pe) { T v; rma_get("shmem_" #N "_g", SHMEM_CTX_DEFAULT, &v, s, 1, sizeof(T), pe); return v; } \
  T shmem_ctx_##N##_g(shmem_ctx_t c, const T *s, int pe) { T v; rma_get("shmem_ctx_" #N "_g", c, &v, s, 1, sizeof(T), pe); return v; }
SHOAL_RMA_TYPES(SHOAL_RMA_TYPED)

/* Sized: shmem_put32, shmem_iget64, shmem_put_signal128_nbi, ... */
#define SHOAL_RMA_SIZED(BITS, BYTES) SHOAL_RMA_ALL(void, , BITS, BYTES)
SHOAL_SIZED_RMA(SHOAL_RMA_SIZED)

/* Bytes: shmem_putmem, shmem_getmem_nbi, shmem_putmem_signal, ... */
SHOAL_RMA_FAMILY(void, , mem, 1)
void shmem_putmem_signal(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe)
{ rma_put_signal("shmem_putmem_signal", SHMEM_CTX_DEFAULT, d, s, n, 1, sig, v, op, pe); }
void shmem_ctx_putmem_signal(shmem_ctx_t c, void *d, const void *s, size_t n, uint64_t *sig,
                             uint64_t v, int op, int pe)
{ rma_put_signal("shmem_ctx_putmem_signal", c, d, s, n, 1, sig, v, op, pe); }
void shmem_putmem_signal_nbi(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op,
                             int pe)
{ rma_put_signal("shmem_putmem_signal_nbi", SHMEM_CTX_DEFAULT, d, s, n, 1, sig, v, op, pe); }
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t c, void *d, const void *s, size_t n, uint64_t *sig,
                                 uint64_t v, int op, int pe)
{ rma_put_signal("shmem_ctx_putmem_signal_nbi", c, d, s, n, 1, sig, v, op, pe); }

uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
  SHOAL_REQUIRE_INIT("shmem_signal_fetch");
  SHOAL_CHECK_SYM("shmem_signal_fetch", "sig_addr", sig_addr, sizeof *sig_addr);
#ifdef SHOAL_HAVE_GPU
  if (shoal_gpu_owns(sig_addr, sizeof *sig_addr)) {
    uint64_t v;
    shoal_gpu_copy("shmem_signal_fetch", &v, sig_addr, sizeof v);
    return v;
  }
#endif
  return shoal_load_acquire(sig_addr);
}
