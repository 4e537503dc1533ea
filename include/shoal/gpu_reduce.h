/* The GPU's element combine of the reduction algorithms (collectives/
 * reduce_combine.h says what a reducer does): elements [lo, hi) of OP
 * over np members' inputs, by threads tid of nt of a lane, in 16-byte
 * vectors (shoal_gpu_reduce_range).  Included by <shoal/gpu_block.h>, which
 * wraps it as the reducer of collectives/.
 *
 * Each thread's work here is its own (no barrier, no shared memory), and
 * the file needs only what it names from the target: __device__,
 * __noinline__, uint4, SHOAL_GPU_LDCG and shoal_gpu_vload.  So
 * tests/unit/test_gpu_reduce compiles it for the CPU and runs a lane's
 * threads one after another, checking every element it writes and every
 * one it must not. */
#ifndef SHOAL_GPU_REDUCE_H
#define SHOAL_GPU_REDUCE_H

template <class T> union shoal_gpu_vec {
  uint4 v;
  T e[sizeof(T) <= 16 ? 16 / sizeof(T) : 1];
};

/* acc = OP over in[0..np) (np >= 4), in team order, of vector i: the
 * first four members' loads out together, then four at a time, then one.
 * On NVLink a load takes a round trip of a microsecond or more, and a
 * thread that waited for one member after another waited np - 1 of them
 * (the grid kernels' mid sizes give a thread one vector or two): at 4
 * H200 the _on_stream all-reduce of 256 KB-4 MB and the reduce-scatter of
 * 1-4 MB got 4-11% faster.  One vector a thread holds its loads in as many
 * registers as the two-vector loop below; two vectors of four members
 * (the grid kernels run 1024 threads: 64 registers) made ptxas spill more,
 * and calls at 2 PEs, which do not take this loop, got 2-5% slower
 * (bench/RESULTS.md, session 25). */
template <class T, class OP>
__device__ inline void shoal_gpu_reduce_vec4(shoal_gpu_vec<T> &acc, const uint4 *const (&p)[4], const T *const *in,
                                             int np, size_t i)
{
  const size_t K = sizeof(shoal_gpu_vec<T>) / sizeof(T);
  shoal_gpu_vec<T> x[4];
#pragma unroll
  for (int q = 0; q < 4; q++) x[q].v = SHOAL_GPU_LDCG(p[q] + i);
  acc.v = x[0].v;
#pragma unroll
  for (int q = 1; q < 4; q++)
    for (size_t k = 0; k < K; k++) acc.e[k] = OP::f(acc.e[k], x[q].e[k]);
  int j = 4;
#pragma unroll 1
  for (; j + 4 <= np; j += 4) {
#pragma unroll
    for (int q = 0; q < 4; q++) x[q].v = SHOAL_GPU_LDCG((const uint4 *)in[j + q] + i);
#pragma unroll
    for (int q = 0; q < 4; q++)
      for (size_t k = 0; k < K; k++) acc.e[k] = OP::f(acc.e[k], x[q].e[k]);
  }
#pragma unroll 1
  for (; j < np; j++) {
    x[0].v = SHOAL_GPU_LDCG((const uint4 *)in[j] + i);
    for (size_t k = 0; k < K; k++) acc.e[k] = OP::f(acc.e[k], x[0].e[k]);
  }
}

/* acc = OP(acc, member j's vector at byte off) for j = 1 .. np - 1, in team
 * order, the members two at a time: their loads go out together with
 * those before the first combine, so that a thread at 3 members waits for
 * one round trip, not two (a load over NVLink takes a microsecond or
 * more).  Where a thread has one vector: the grid kernels' mid sizes, the
 * shifted path below.  4 H200, 3 PEs: the _on_stream all-reduce of 512 KB
 * 14.25 -> 12.91 us (NVSHMEM 12.09), 1-4 MB 6-12% faster, a user's grid
 * all-reduce of 512 KB-4 MB 4-9% (bench/RESULTS.md session 29). */
template <class T, class OP>
__device__ inline void shoal_gpu_reduce_members(shoal_gpu_vec<T> &acc, const T *const *in, int np, size_t off)
{
  const size_t K = sizeof(shoal_gpu_vec<T>) / sizeof(T);
  int j = 1;
  for (; j + 1 < np; j += 2) {
    shoal_gpu_vec<T> x, y;
    x.v = SHOAL_GPU_LDCG((const uint4 *)((const char *)in[j] + off));
    y.v = SHOAL_GPU_LDCG((const uint4 *)((const char *)in[j + 1] + off));
    for (size_t k = 0; k < K; k++) acc.e[k] = OP::f(OP::f(acc.e[k], x.e[k]), y.e[k]);
  }
  if (j < np) {
    shoal_gpu_vec<T> x;
    x.v = SHOAL_GPU_LDCG((const uint4 *)((const char *)in[j] + off));
    for (size_t k = 0; k < K; k++) acc.e[k] = OP::f(acc.e[k], x.e[k]);
  }
}

/* shoal_gpu_reduce_range's case of inputs that all sit db bytes past a
 * vector boundary (0 < db < 16), or of an output that does not sit where
 * they do: as a reduce-scatter's blocks do when a block is not whole
 * vectors.  Vector i is the 16 bytes at 16 i - db of each input, stored
 * whole where o sits at that offset too, else element by element; the
 * elements before the first whole vector and after the last go one by
 * one.  Before, the whole range went element by element (3 PEs under
 * MPS, the reduce-scatter of 2 MB 22.8 -> 17.0 us, 4 MB 34.3 -> 22.1;
 * bench/RESULTS.md session 28).  Out of line: inlined beside the aligned
 * loops, a copy of them made the kernels that hold both 2-12% slower on
 * aligned data (their SASS loops were the same).  One vector a thread:
 * two, with two members' loads out together, took the 4 MB call to 17.8
 * us but made the 1024-thread user kernels that inline the reductions
 * spill more around the call and 3-5% slower everywhere.  The members two
 * at a time (shoal_gpu_reduce_members): 3 PEs on 4 H200, the reduce-
 * scatter of 1-4 MB 4-6% faster (session 29). */
template <class T, class OP>
__device__ __noinline__ void shoal_gpu_reduce_range_shifted(T *o, const T *const *in, int np, size_t lo, size_t hi,
                                                            unsigned tid, unsigned nt)
{
  const size_t K = sizeof(shoal_gpu_vec<T>) / sizeof(T);
  size_t db = (uintptr_t)in[0] & 15, d = db / sizeof(T);
  bool vst = (((uintptr_t)o ^ (uintptr_t)in[0]) & 15) == 0;
  size_t v = (lo + d + K - 1) / K, vhi = (hi + d) / K, head = hi, tail = hi;
  if (v < vhi) {
    head = v * K - d;
    tail = vhi * K - d;
  }
  for (size_t i = v + tid; i < vhi; i += nt) {
    shoal_gpu_vec<T> acc;
    size_t off = i * 16 - db;
    acc.v = SHOAL_GPU_LDCG((const uint4 *)((const char *)in[0] + off));
    shoal_gpu_reduce_members<T, OP>(acc, in, np, off);
    if (vst)
      *(uint4 *)((char *)o + off) = acc.v;
    else
      for (size_t k = 0; k < K; k++) o[i * K - d + k] = acc.e[k];
  }
  /* element by element: [lo, head), then [tail, hi), by the lane's last
   * threads, which hold no vector when the lane's vectors do not fill it:
   * every lane of a shifted reduce-scatter has such elements, and its
   * first threads, which also held a vector, waited for a second round
   * trip for them (3 PEs under MPS: 1.0-2.0% off the reduce-scatter of
   * 512 KB-4 MB, session 31) */
  size_t nh = head - lo;
  for (size_t u = nt - 1 - tid; u < nh + (hi - tail); u += nt) {
    size_t e = u < nh ? lo + u : tail + (u - nh);
    T acc = shoal_gpu_vload(in[0] + e);
    for (int j = 1; j < np; j++) acc = OP::f(acc, shoal_gpu_vload(in[j] + e));
    o[e] = acc;
  }
}

/* Elements [lo, hi) (lo a whole number of vectors: shoal_reduce_share; or
 * lo == hi, an empty range anywhere) of OP over in[0..np), in team order,
 * by threads tid of nt; ALL: stored to every out[(me + k) % np], k =
 * 1..np (staggered), else to out[0].  Nothing outside [lo, hi) is read or
 * written: other lanes own it. */
template <class T, class OP, bool ALL>
__device__ inline void shoal_gpu_reduce_range(T *const *out, int me, const T *const *in, int np, size_t lo,
                                              size_t hi, unsigned tid, unsigned nt)
{
  const size_t K = sizeof(shoal_gpu_vec<T>) / sizeof(T);
  T *o = out[0];
  uintptr_t a = (uintptr_t)o;
  for (int j = 0; j < np; j++) a |= (uintptr_t)in[j] | (ALL ? (uintptr_t)out[j] : 0);
  if (!ALL && sizeof(T) * K == 16 && (a & 15) != 0) {   /* inputs at one offset past a vector boundary */
    uintptr_t rel = (uintptr_t)in[0] % sizeof(T);
    for (int j = 1; j < np; j++) rel |= (uintptr_t)in[j] ^ (uintptr_t)in[0];
    if ((rel & 15) == 0 && hi - lo >= 2 * K) {
      shoal_gpu_reduce_range_shifted<T, OP>(o, in, np, lo, hi, tid, nt);
      return;
    }
  }
  size_t done = lo;
  if (sizeof(T) * K == 16 && (a & 15) == 0) {
    size_t i = lo / K + tid, vhi = hi / K;
    if (np >= 4) {
      const uint4 *p[4] = {(const uint4 *)in[0], (const uint4 *)in[1], (const uint4 *)in[2], (const uint4 *)in[3]};
      for (; i < vhi; i += nt) {
        shoal_gpu_vec<T> acc;
        shoal_gpu_reduce_vec4<T, OP>(acc, p, in, np, i);
        if (ALL)
          for (int k = 1; k <= np; k++) ((uint4 *)out[(me + k) % np])[i] = acc.v;
        else
          ((uint4 *)o)[i] = acc.v;
      }
    }
    /* fewer members: two vectors a thread, the members two at a time, so
     * that at 2 all four loads and at 3 all six are out at once.  Member by
     * member, a thread at 3 waited for two round trips a pair of vectors:
     * 4 H200, 3 PEs, the _on_stream all-reduce of 4 MB 6.5% faster, a
     * block's all-reduce 1-2% (bench/RESULTS.md session 29). */
    for (; i + nt < vhi; i += 2 * (size_t)nt) {
      shoal_gpu_vec<T> a0, a1, x0, x1;
      a0.v = SHOAL_GPU_LDCG((const uint4 *)in[0] + i);
      a1.v = SHOAL_GPU_LDCG((const uint4 *)in[0] + i + nt);
      int j = 1;
      for (; j + 1 < np; j += 2) {
        shoal_gpu_vec<T> y0, y1;
        x0.v = SHOAL_GPU_LDCG((const uint4 *)in[j] + i);
        x1.v = SHOAL_GPU_LDCG((const uint4 *)in[j] + i + nt);
        y0.v = SHOAL_GPU_LDCG((const uint4 *)in[j + 1] + i);
        y1.v = SHOAL_GPU_LDCG((const uint4 *)in[j + 1] + i + nt);
        for (size_t k = 0; k < K; k++) {
          a0.e[k] = OP::f(OP::f(a0.e[k], x0.e[k]), y0.e[k]);
          a1.e[k] = OP::f(OP::f(a1.e[k], x1.e[k]), y1.e[k]);
        }
      }
      if (j < np) {
        x0.v = SHOAL_GPU_LDCG((const uint4 *)in[j] + i);
        x1.v = SHOAL_GPU_LDCG((const uint4 *)in[j] + i + nt);
        for (size_t k = 0; k < K; k++) {
          a0.e[k] = OP::f(a0.e[k], x0.e[k]);
          a1.e[k] = OP::f(a1.e[k], x1.e[k]);
        }
      }
      if (ALL) {
        for (int k = 1; k <= np; k++) {
          uint4 *d = (uint4 *)out[(me + k) % np];
          d[i] = a0.v;
          d[i + nt] = a1.v;
        }
      } else {
        ((uint4 *)o)[i] = a0.v;
        ((uint4 *)o)[i + nt] = a1.v;
      }
    }
    for (; i < vhi; i += nt) {
      shoal_gpu_vec<T> acc;
      acc.v = SHOAL_GPU_LDCG((const uint4 *)in[0] + i);
      shoal_gpu_reduce_members<T, OP>(acc, in, np, i * 16);
      if (ALL)
        for (int k = 1; k <= np; k++) ((uint4 *)out[(me + k) % np])[i] = acc.v;
      else
        ((uint4 *)o)[i] = acc.v;
    }
    /* the tail that is no whole vector: the last share's.  Not below lo:
     * a staged chunk that ends inside a vector before this lane's share
     * begins leaves it lo = hi = the chunk's end (collectives/
     * reduce_oneshot.h), and such a lane once reduced and stored the
     * elements from that vector's start -- another lane's, racing its
     * store: the rare wrong element of test_grid's in-place staged
     * all-reduce of 40961 floats on a grid of 3 (bench/RESULTS.md,
     * sessions 36 and 37) */
    if (vhi * K > done) done = vhi * K;
  }
  for (size_t i = done + tid; i < hi; i += nt) {
    T acc = shoal_gpu_vload(in[0] + i);
    for (int j = 1; j < np; j++) acc = OP::f(acc, shoal_gpu_vload(in[j] + i));
    if (ALL)
      for (int k = 1; k <= np; k++) out[(me + k) % np][i] = acc;
    else
      o[i] = acc;
  }
}

#endif
