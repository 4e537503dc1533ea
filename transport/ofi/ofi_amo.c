/* Atomics over libfabric: the provider's own where fi_atomicvalid,
 * fi_fetch_atomicvalid or fi_compare_atomicvalid accept the type and
 * operation, otherwise a compare-and-swap loop over the provider's native
 * 32- or 64-bit compare-swap (never a plain read-modify-write).  Every AMO
 * on one location then goes through the provider's atomics, so they are
 * atomic with respect to each other. */
#include "ofi.h"

#include <stdlib.h>
#include <string.h>

#define S shoal_ofi

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the CAS emulation of 4-byte AMOs in a 64-bit word assumes little-endian"
#endif

static const enum fi_datatype fi_type[] = {
    [SHOAL_DT_I32] = FI_INT32, [SHOAL_DT_I64] = FI_INT64, [SHOAL_DT_U32] = FI_UINT32,
    [SHOAL_DT_U64] = FI_UINT64, [SHOAL_DT_F32] = FI_FLOAT, [SHOAL_DT_F64] = FI_DOUBLE,
};

enum amo_kind { K_WRITE, K_FETCH, K_COMPARE };
static const struct { enum amo_kind kind; enum fi_op op; const char *call; } amo_map[] = {
    [SHOAL_AMO_FETCH] = {K_FETCH, FI_ATOMIC_READ, "shmem_atomic_fetch"},
    [SHOAL_AMO_SET] = {K_WRITE, FI_ATOMIC_WRITE, "shmem_atomic_set"},
    [SHOAL_AMO_SWAP] = {K_FETCH, FI_ATOMIC_WRITE, "shmem_atomic_swap"},
    [SHOAL_AMO_CSWAP] = {K_COMPARE, FI_CSWAP, "shmem_atomic_compare_swap"},
    [SHOAL_AMO_FETCH_ADD] = {K_FETCH, FI_SUM, "shmem_atomic_fetch_add"},
    [SHOAL_AMO_FETCH_AND] = {K_FETCH, FI_BAND, "shmem_atomic_fetch_and"},
    [SHOAL_AMO_FETCH_OR] = {K_FETCH, FI_BOR, "shmem_atomic_fetch_or"},
    [SHOAL_AMO_FETCH_XOR] = {K_FETCH, FI_BXOR, "shmem_atomic_fetch_xor"},
    [SHOAL_AMO_ADD] = {K_WRITE, FI_SUM, "shmem_atomic_add"},
    [SHOAL_AMO_AND] = {K_WRITE, FI_BAND, "shmem_atomic_and"},
    [SHOAL_AMO_OR] = {K_WRITE, FI_BOR, "shmem_atomic_or"},
    [SHOAL_AMO_XOR] = {K_WRITE, FI_BXOR, "shmem_atomic_xor"},
};
#define N_DT 6
#define N_OP 12

static size_t dt_size(shoal_dtype dt)
{
  return dt == SHOAL_DT_I64 || dt == SHOAL_DT_U64 || dt == SHOAL_DT_F64 ? 8 : 4;
}

static bool valid(enum amo_kind kind, enum fi_datatype type, enum fi_op op)
{
  size_t count = 0;
  int rc = kind == K_WRITE ? fi_atomicvalid(S.ep, type, op, &count)
           : kind == K_FETCH ? fi_fetch_atomicvalid(S.ep, type, op, &count)
                             : fi_compare_atomicvalid(S.ep, type, op, &count);
  return rc == 0 && count >= 1;
}

void shoal_ofi_amo_setup(void)
{
  const char *mode = getenv("SHOAL_OFI_AMO");
  bool force_cas = mode && !strcasecmp(mode, "cas");
  if (mode && *mode && !force_cas && strcasecmp(mode, "auto"))
    shoal_warn("SHOAL_OFI_AMO=\"%s\" is not auto or cas; using auto", mode);
  S.cas32 = valid(K_COMPARE, FI_UINT32, FI_CSWAP);
  S.cas64 = valid(K_COMPARE, FI_UINT64, FI_CSWAP);
  int counts[3] = {0, 0, 0};
  for (int dt = 0; dt < N_DT; dt++) {
    bool cas_ok = dt_size((shoal_dtype)dt) == 4 ? (S.cas32 || S.cas64) : S.cas64;
    for (int op = 0; op < N_OP; op++) {
      enum amo_kind k = amo_map[op].kind == K_WRITE ? K_FETCH : amo_map[op].kind;  /* see native() */
      bool native = !force_cas && valid(k, fi_type[dt], amo_map[op].op);
      S.amo_method[dt][op] = native ? OFI_AMO_NATIVE : cas_ok ? OFI_AMO_CAS : OFI_AMO_NONE;
      counts[S.amo_method[dt][op]]++;
    }
  }
  shoal_debug("libfabric atomics: %d type/op pairs native, %d emulated by compare-swap, %d "
              "unavailable", counts[OFI_AMO_NATIVE], counts[OFI_AMO_CAS], counts[OFI_AMO_NONE]);
}

static struct fi_msg_atomic amo_msg(struct fi_ioc *ioc, void **desc, struct fi_rma_ioc *rma,
                                    enum fi_datatype type, enum fi_op op, int pe)
{
  struct fi_msg_atomic m = {
      .msg_iov = ioc, .desc = desc, .iov_count = 1, .addr = S.addr[pe], .rma_iov = rma,
      .rma_iov_count = 1, .datatype = type, .op = op, .context = NULL, .data = 0};
  return m;
}

/* One native operation on 'size' bytes at t; operand/compare/result are
 * copied through the registered scratch words. */
static void native(const char *call, enum amo_kind kind, enum fi_datatype type, enum fi_op op,
                   size_t size, ofi_target t, const void *operand, const void *compare,
                   void *result, int pe)
{
  ofi_scratch *sc = S.scratch;
  memcpy(&sc->operand, operand, size);
  struct fi_ioc ioc = {&sc->operand, 1}, cmp = {&sc->compare, 1}, res = {&sc->result, 1};
  struct fi_rma_ioc rma = {t.addr, 1, t.key};
  void *desc = S.scratch_desc, *cdesc = S.scratch_desc, *rdesc = S.scratch_desc;
  struct fi_msg_atomic m = amo_msg(&ioc, &desc, &rma, type, op, pe);
  switch (kind) {
  case K_WRITE:
    /* As a fetching atomic with the result dropped: shm 1.17 loses or
     * garbles non-fetching atomics posted with FI_DELIVERY_COMPLETE under
     * load, and without it quiet could not promise they have landed. */
  case K_FETCH:
    OFI_POST(call, fi_fetch_atomicmsg(S.ep, &m, &res, &rdesc, 1, 0));
    break;
  case K_COMPARE:
    memcpy(&sc->compare, compare, size);
    OFI_POST(call, fi_compare_atomicmsg(S.ep, &m, &cmp, &cdesc, 1, &res, &rdesc, 1, 0));
    break;
  }
  S.issued++;
  shoal_ofi_wait_all(call);
  if (result) memcpy(result, &sc->result, size);
}

/* The new value of a 'size'-byte object holding bits 'old' after op. */
static uint64_t apply(shoal_amo_op op, shoal_dtype dt, uint64_t old, uint64_t val)
{
  switch (op) {
  case SHOAL_AMO_SET: case SHOAL_AMO_SWAP: return val;
  case SHOAL_AMO_FETCH_AND: case SHOAL_AMO_AND: return old & val;
  case SHOAL_AMO_FETCH_OR: case SHOAL_AMO_OR: return old | val;
  case SHOAL_AMO_FETCH_XOR: case SHOAL_AMO_XOR: return old ^ val;
  case SHOAL_AMO_FETCH_ADD: case SHOAL_AMO_ADD:
    if (dt == SHOAL_DT_F32) {
      float a, b;
      uint32_t o = (uint32_t)old, v = (uint32_t)val, r;
      memcpy(&a, &o, 4); memcpy(&b, &v, 4);
      a += b;
      memcpy(&r, &a, 4);
      return r;
    }
    if (dt == SHOAL_DT_F64) {
      double a, b;
      memcpy(&a, &old, 8); memcpy(&b, &val, 8);
      a += b;
      uint64_t r;
      memcpy(&r, &a, 8);
      return r;
    }
    return old + val;   /* two's complement: the same bits for signed types */
  default: return old;
  }
}

/* The emulation: CAS the containing word until nobody raced us. */
static void emulate(const char *call, shoal_amo_op op, shoal_dtype dt, ofi_target t,
                    const void *operand, const void *compare, void *result, int pe)
{
  size_t size = dt_size(dt), width = size == 4 && S.cas32 ? 4 : 8;
  uint64_t waddr = t.addr & ~(uint64_t)(width - 1);
  unsigned shift = (unsigned)(t.addr - waddr) * 8;
  if (t.region_left + (t.addr - waddr) < width)
    shoal_error(call, "cannot emulate an atomic at the very end of symmetric memory");
  enum fi_datatype wtype = width == 4 ? FI_UINT32 : FI_UINT64;
  uint64_t mask = size == 8 ? ~(uint64_t)0 : 0xffffffffu;
  uint64_t val = 0, cmp = 0;
  memcpy(&val, operand, size);
  memcpy(&cmp, compare, size);
  ofi_target w = {waddr, t.key, 0};
  uint64_t guess = 0;   /* a wrong guess costs one round: the CAS returns the truth */
  for (;;) {
    uint64_t old = (guess >> shift) & mask, next_sub;
    if (op == SHOAL_AMO_FETCH) next_sub = old;
    else if (op == SHOAL_AMO_CSWAP) next_sub = old == cmp ? val : old;
    else next_sub = apply(op, dt, old, val) & mask;
    uint64_t next = (guess & ~(mask << shift)) | (next_sub << shift), seen = 0;
    if (width == 4) {
      uint32_t g = (uint32_t)guess, nx = (uint32_t)next, s32;
      native(call, K_COMPARE, wtype, FI_CSWAP, 4, w, &nx, &g, &s32, pe);
      seen = s32;
    } else {
      native(call, K_COMPARE, wtype, FI_CSWAP, 8, w, &next, &guess, &seen, pe);
    }
    if (seen == guess) {
      memcpy(result, &old, size);
      return;
    }
    guess = seen;
  }
}

void shoal_ofi_amo(void *tctx, shoal_amo_op op, shoal_dtype dt, void *dest, const void *operand,
                   const void *compare, void *result, int pe)
{
  (void)tctx;
  const char *call = amo_map[op].call;
  size_t size = dt_size(dt);
  shoal_ofi_lock();
  ofi_target t = shoal_ofi_target(call, dest, size, pe);
  switch (S.amo_method[dt][op]) {
  case OFI_AMO_NATIVE:
    native(call, amo_map[op].kind, fi_type[dt], amo_map[op].op, size, t, operand, compare,
           result, pe);
    break;
  case OFI_AMO_CAS:
    emulate(call, op, dt, t, operand, compare, result, pe);
    break;
  default:
    shoal_error(call, "libfabric provider %s supports neither this atomic on %zu-byte objects "
                "nor a compare-and-swap to emulate it", S.info->fabric_attr->prov_name, size);
  }
  shoal_ofi_unlock();
}
