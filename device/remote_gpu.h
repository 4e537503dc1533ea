/* GPU half of device/remote.h.  A kernel reaches peers whose heap is mapped
 * into its GPU (NVLink/PCIe P2P through IPC handles) by load/store; every
 * other peer through this PE's host proxy (gpu/gpu_proxy.c): the command
 * is posted to the queue of device/proxy_queue.h and the proxy carries it
 * out over libfabric.  Without a proxy (all PEs on one node, or no
 * libfabric) an unmapped peer or a non-symmetric address stops the kernel
 * with a message naming the operation. */
#ifndef SHOAL_DEVICE_REMOTE_GPU_H
#define SHOAL_DEVICE_REMOTE_GPU_H

#include <stdio.h>

#define SHOAL_DEV_CTX ((struct shoal_ctx *)0)

SHOAL_COLD_FN void shoal_gpu_fail(const char *what, const void *addr, int pe)
{
  printf("shoal: PE %d: error: %s: address %p is not in the symmetric heap, or PE %d is not "
         "mapped into this GPU and no host proxy serves it (device-initiated operations need peer "
         "access, or a job over libfabric)\n",
         SHOAL_STATE->my_pe, what, addr, pe);
#if defined(__CUDACC__)
  __trap();
#else
  abort();
#endif
}

/* Post one command for the proxy; the kernel stops if there is none or the
 * symmetric address is not in the GPU heap. */
SHOAL_FN uint64_t shoal_gpu_proxy_post(const char *what, uint32_t op, int pe, const void *sym,
                                       const void *dest, const void *src, size_t n, uint32_t amo_op,
                                       uint32_t dtype, uint64_t operand, uint64_t compare)
{
  const shoal_pq *q = &shoal_dgpu.pq;
  const shoal_dev_state *s = SHOAL_STATE;
  if (!q->cap || (unsigned)pe >= (unsigned)s->n_pes ||
      shoal_region_offset(sym, s->heap_base, s->heap_size) == SIZE_MAX)
    shoal_gpu_fail(what, sym, pe);
  shoal_pq_cmd c;
  c.op = op;
  c.pe = (uint32_t)pe;
  c.amo_op = amo_op;
  c.dtype = dtype;
  c.dest = (uint64_t)(uintptr_t)dest;
  c.src = (uint64_t)(uintptr_t)src;
  c.n = n;
  c.operand = operand;
  c.compare = compare;
  return shoal_pq_post(q, &c);
}

/* Blocking: the source is copied out (reusable) when the proxy is done.
 * Up to 8 bytes travel in the command itself: the source may then be a
 * thread's local memory (a stack variable), which the proxy cannot read;
 * likewise a get of up to 8 bytes comes back in the command's result
 * entry.  Neither fences or reads host memory to post. */
SHOAL_FN void shoal_remote_put(struct shoal_ctx *ctx, void *dest, const void *src, size_t n, int pe)
{
  if (!n) return;
  if (n <= 8) {
    uint64_t v = 0;
    memcpy(&v, src, n);
    uint64_t t = shoal_gpu_proxy_post("put", SHOAL_PQ_PUT_INLINE, pe, dest, dest, 0, n, 0, 0, v, 0);
    (void)t;   /* nothing to wait for: the data is in the slot */
    return;
  }
  uint64_t t = shoal_gpu_proxy_post("put", SHOAL_PQ_PUT, pe, dest, dest, src, n, 0, 0, 0, 0);
  shoal_pq_wait(&shoal_dgpu.pq, t);
}
SHOAL_FN void shoal_remote_get(struct shoal_ctx *ctx, void *dest, const void *src, size_t n, int pe)
{
  if (!n) return;
  if (n <= 8) {
    uint64_t t = shoal_gpu_proxy_post("get", SHOAL_PQ_GET_INLINE, pe, src, 0, src, n, 0, 0, 0, 0);
    uint64_t r = shoal_pq_take_result(&shoal_dgpu.pq, t);
    memcpy(dest, &r, n);
    return;
  }
  uint64_t t = shoal_gpu_proxy_post("get", SHOAL_PQ_GET, pe, src, dest, src, n, 0, 0, 0, 0);
  shoal_pq_wait(&shoal_dgpu.pq, t);
}
/* Non-fetching AMOs only post (their operands travel in the slot); the
 * fetching ones wait for their result (one PCIe read per poll). */
SHOAL_FN void shoal_remote_amo(struct shoal_ctx *ctx, shoal_amo_op op, shoal_dtype dt, void *dest,
                               const void *operand, const void *compare, void *result, int pe)
{
  size_t size = (dt == SHOAL_DT_I32 || dt == SHOAL_DT_U32 || dt == SHOAL_DT_F32) ? 4 : 8;
  uint64_t a = 0, b = 0;
  memcpy(&a, operand, size);
  if (compare) memcpy(&b, compare, size);
  bool fetch = result && op != SHOAL_AMO_SET && op < SHOAL_AMO_ADD;
  uint64_t t = shoal_gpu_proxy_post("atomic", SHOAL_PQ_AMO, pe, dest, dest, 0, fetch ? 1 : 0,
                                    (uint32_t)op, (uint32_t)dt, a, b);
  if (fetch) {
    uint64_t r = shoal_pq_take_result(&shoal_dgpu.pq, t);
    memcpy(result, &r, size);
  }
}
/* The proxy carries commands out in order and its messages are applied in
 * order: a fence has nothing left to do. */
SHOAL_FN void shoal_remote_fence(struct shoal_ctx *ctx) {}
SHOAL_FN void shoal_remote_quiet(struct shoal_ctx *ctx)
{
  const shoal_pq *q = &shoal_dgpu.pq;
  if (!q->cap) return;
  /* Nothing posted since the last quiet the proxy carried out. */
  if (shoal_load_acquire(q->head) == shoal_load_acquire(q->quiet_mark)) return;
  shoal_pq_cmd c;
  memset(&c, 0, sizeof c);
  c.op = SHOAL_PQ_QUIET;
  uint64_t t = shoal_pq_post(q, &c);
  shoal_pq_wait(q, t);
}

#endif
