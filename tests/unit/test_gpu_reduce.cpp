/* The GPU's element combine (<shoal/gpu_reduce.h>, shoal_gpu_reduce_range)
 * compiled for the CPU: a lane's nt threads run one after another (each
 * thread's work is its own: no barrier, no shared memory), and every
 * element of the output is checked -- [lo, hi) holds the reduction of
 * fresh random inputs in team order, everything else keeps its poison.
 * Every path: whole vectors (one member, two vectors a thread for two or
 * three, four at a time from four), inputs one offset past a vector
 * boundary (the shifted path, the output there too or not), inputs at
 * different offsets (element by element), the store to every member (ALL,
 * two-shot's), and empty ranges anywhere: a staged chunk that ends inside
 * a vector before a lane's share begins leaves the lane lo = hi = the
 * chunk's end, and the lane once wrote the elements from that vector's
 * start (bench/RESULTS.md, session 37): the test then fails.  Elements of
 * 1-8 bytes, the 16-bit floats of <shoal/gpu_f16.h> among them.  ASan (CI's second pass) checks
 * that nothing is read outside the inputs. */
#include <check.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>
#include <vector>

/* What the header takes from the GPU target. */
#define __device__
#define __noinline__ __attribute__((noinline))
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
#define SHOAL_GPU_LDCG(p) (*(p))
template <class T> inline T shoal_gpu_vload(const T *p) { return *p; }

#include <shoal/gpu_reduce.h>
#include <shoal/gpu_f16.h>

struct op_sum {
  template <class T> static T f(T a, T b) { return (T)(a + b); }
};

static uint64_t rng_state;
static uint64_t rng(void)
{
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return rng_state >> 33;
}
/* Small integers (0-30): sums of up to six are exact in every type and
 * never reach the poison, which a stray store would overwrite. */
template <class T> static T value(void) { return (T)(rng() % 31); }
template <class T> static T poison(void) { return (T)200; }
template <> float poison<float>(void) { return -12345.0f; }
template <> double poison<double>(void) { return -12345.0; }
template <> int32_t poison<int32_t>(void) { return -7777; }
/* half and bfloat16 (<shoal/gpu_f16.h>): the same small integers, exact in
 * both; their combine is float's, rounded back each step. */
template <> shoal_gpu_half value<shoal_gpu_half>(void) { return {shoal_float_to_half((float)(rng() % 31))}; }
template <> shoal_gpu_half poison<shoal_gpu_half>(void) { return {shoal_float_to_half(200.0f)}; }
template <> shoal_gpu_bfloat16 value<shoal_gpu_bfloat16>(void) { return {shoal_float_to_bf16((float)(rng() % 31))}; }
template <> shoal_gpu_bfloat16 poison<shoal_gpu_bfloat16>(void) { return {shoal_float_to_bf16(200.0f)}; }
template <> shoal_gpu_bfloat162 value<shoal_gpu_bfloat162>(void)
{
  return {shoal_float_to_bf16((float)(rng() % 31)) | (uint32_t)shoal_float_to_bf16((float)(rng() % 31)) << 16};
}
template <> shoal_gpu_bfloat162 poison<shoal_gpu_bfloat162>(void) { return {0x43484348u}; }   /* 200, 200 */
template <> shoal_gpu_half2 value<shoal_gpu_half2>(void)
{
  return {shoal_float_to_half((float)(rng() % 31)) | (uint32_t)shoal_float_to_half((float)(rng() % 31)) << 16};
}
template <> shoal_gpu_half2 poison<shoal_gpu_half2>(void) { return {0x5a405a40u}; }   /* 200, 200 */

/* Buffers of n elements whose element 0 sits `off` elements past a 16-byte
 * boundary; an arena per call, so ASan sees reads past them. */
struct buf {
  std::vector<unsigned char> mem;
  void *at;
  buf(size_t bytes, size_t off_bytes) : mem(bytes + off_bytes + 16)
  {
    uintptr_t p = ((uintptr_t)mem.data() + 15) & ~(uintptr_t)15;
    at = (void *)(p + off_bytes);
  }
};

static int failures;

/* One call: np inputs of n elements at offsets in_off[q] (elements),
 * outputs (one, or np with ALL) at out_off, range [lo, hi), nt threads. */
template <class T, bool ALL>
static void check_range(int np, int me, size_t n, const size_t *in_off, size_t out_off, size_t lo, size_t hi,
                        unsigned nt)
{
  std::vector<buf> ins, outs;
  const T *in[8];
  T *out[8];
  ins.reserve(np);
  outs.reserve(np);
  for (int q = 0; q < np; q++) {
    ins.emplace_back(n * sizeof(T), in_off[q] * sizeof(T));
    T *p = (T *)ins.back().at;
    for (size_t i = 0; i < n; i++) p[i] = value<T>();
    in[q] = p;
  }
  int nout = ALL ? np : 1;
  for (int q = 0; q < nout; q++) {
    outs.emplace_back(n * sizeof(T), out_off * sizeof(T));
    out[q] = (T *)outs.back().at;
    for (size_t i = 0; i < n; i++) out[q][i] = poison<T>();
  }
  for (unsigned tid = 0; tid < nt; tid++)
    shoal_gpu_reduce_range<T, op_sum, ALL>(out, me, in, np, lo, hi, tid, nt);
  for (int q = 0; q < nout; q++)
    for (size_t i = 0; i < n; i++) {
      T want = poison<T>();
      if (i >= lo && i < hi) {
        want = in[0][i];
        for (int j = 1; j < np; j++) want = op_sum::f(want, in[j][i]);
      }
      if (memcmp(&out[q][i], &want, sizeof(T)) != 0 && failures++ < 20)
        fprintf(stderr, "FAIL: %zu-byte elements, %d members%s (me %d), inputs at +%zu, out at +%zu, "
                        "[%zu, %zu) of %zu, %u threads: output %d element %zu is %s\n",
                sizeof(T), np, ALL ? ", stored to all" : "", me, in_off[0], out_off, lo, hi, n, nt, q, i,
                i >= lo && i < hi ? "wrong" : "written, outside the range");
    }
}

static const unsigned threads[] = {1, 3, 32, 64};

/* Every member's input at offset off and the output at out_off; lo a whole
 * number of vectors (or any, where the inputs are shifted: the shifted
 * path takes any lo), empty ranges anywhere. */
template <class T> static void sweep(size_t off, size_t out_off, bool any_lo)
{
  const size_t K = 16 / sizeof(T), n = 12 * K + 5;
  const size_t offs[8] = {off, off, off, off, off, off, off, off};
  for (int np = 1; np <= 6; np++)
    for (unsigned nt : threads)
      for (size_t lo = 0; lo <= n; lo++)
        for (size_t hi = lo; hi <= n; hi += 1 + (hi > lo + 2 * K ? K - 1 : 0)) {
          if (!any_lo && lo % K != 0 && lo != hi) continue;
          check_range<T, false>(np, 0, n, offs, out_off, lo, hi, nt);
        }
}

START_TEST(test_aligned)
{
  sweep<float>(0, 0, false);
  sweep<double>(0, 0, false);
  sweep<int32_t>(0, 0, false);
  sweep<uint8_t>(0, 0, false);
  sweep<shoal_gpu_half>(0, 0, false);
  sweep<shoal_gpu_bfloat16>(0, 0, false);
  sweep<shoal_gpu_half2>(0, 0, false);
  sweep<shoal_gpu_bfloat162>(0, 0, false);
  ck_assert_int_eq(failures, 0);
}
END_TEST

START_TEST(test_shifted)
{
  for (size_t m = 1; m < 4; m++) {
    sweep<float>(m, m, true);       /* output where the inputs are: whole vector stores */
    sweep<float>(m, 0, true);       /* output elsewhere: element stores */
    sweep<int32_t>(m, (m + 1) % 4, true);
  }
  sweep<double>(1, 1, true);
  for (size_t m = 1; m < 8; m += 3) {   /* 2-byte elements 2, 8 and 14 bytes past a vector */
    sweep<shoal_gpu_half>(m, m, true);
    sweep<shoal_gpu_bfloat16>(m, (m + 1) % 8, true);
  }
  sweep<shoal_gpu_bfloat162>(1, 1, true);
  sweep<shoal_gpu_half2>(3, 2, true);
  ck_assert_int_eq(failures, 0);
}
END_TEST

/* Inputs at offsets that differ: element by element. */
START_TEST(test_mixed_offsets)
{
  const size_t n = 61, offs[8] = {0, 1, 2, 3, 1, 0, 2, 3};
  for (int np = 2; np <= 6; np++)
    for (unsigned nt : threads)
      for (size_t lo = 0; lo <= n; lo += 3)
        for (size_t hi = lo; hi <= n; hi += 5) check_range<float, false>(np, 0, n, offs, 1, lo, hi, nt);
  ck_assert_int_eq(failures, 0);
}
END_TEST

/* Stored to every member (two-shot's all-gather half), staggered from me. */
START_TEST(test_all)
{
  const size_t K = 4, n = 12 * K + 3, offs[8] = {0};
  for (int np = 1; np <= 6; np++)
    for (int me = 0; me < np; me++)
      for (unsigned nt : threads)
        for (size_t lo = 0; lo <= n; lo++)
          for (size_t hi = lo; hi <= n; hi++) {
            if (lo % K != 0 && lo != hi) continue;
            check_range<float, true>(np, me, n, offs, 0, lo, hi, nt);
          }
  ck_assert_int_eq(failures, 0);
}
END_TEST

int main(void)
{
  rng_state = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  printf("test_gpu_reduce: seed %llu\n", (unsigned long long)rng_state);
  Suite *s = suite_create("gpu_reduce");
  TCase *tc = tcase_create("range");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_aligned);
  tcase_add_test(tc, test_shifted);
  tcase_add_test(tc, test_mixed_offsets);
  tcase_add_test(tc, test_all);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf == 0 ? 0 : 1;
}
