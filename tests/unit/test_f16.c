/* 16-bit float conversions (<shoal/f16.h>), which the CPU's bfloat16
 * reductions and the GPU's half and bfloat16 elements run:
 *  - half -> float on all 65536 halves, against the compiler's _Float16;
 *  - float -> half on every half, the floats one ulp either side of it,
 *    the midpoints to both neighbours and one ulp either side of those
 *    (every rounding edge, ties included, subnormals, overflow to inf),
 *    and a million random floats, against _Float16;
 *  - bfloat16: every pattern back and forth, and float -> bfloat16 on the
 *    same kinds of edges and random floats against the nearest of the two
 *    neighbours, ties to even;
 *  - NaN stays NaN both ways. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shoal/f16.h>

static uint32_t bits_of(float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static float float_of(uint32_t u)
{
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static uint64_t rng_state;
static uint32_t rng32(void)
{
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 32);
}

#ifdef __FLT16_MAX__
static uint16_t ref_half(float f)
{
  _Float16 h = (_Float16)f;
  uint16_t b;
  memcpy(&b, &h, sizeof b);
  return b;
}
static int failures;
static void check_to_half(float f)
{
  uint16_t got = shoal_float_to_half(f), want = ref_half(f);
  if (isnan(f)) {
    if ((got & 0x7c00) != 0x7c00 || !(got & 0x3ff)) {
      if (failures++ < 10) fprintf(stderr, "float %08x (NaN) -> half %04x, not a NaN\n", bits_of(f), got);
    }
    return;
  }
  if (got != want && failures++ < 10) fprintf(stderr, "float %08x (%g) -> half %04x, want %04x\n", bits_of(f), f, got, want);
}

START_TEST(test_half_to_float)
{
  for (uint32_t h = 0; h < 65536; h++) {
    _Float16 x;
    uint16_t b = (uint16_t)h;
    memcpy(&x, &b, sizeof x);
    float want = (float)x, got = shoal_half_to_float(b);
    if (isnan(want)) ck_assert_msg(isnan(got), "half %04x: NaN -> %g", h, got);
    else ck_assert_msg(bits_of(got) == bits_of(want), "half %04x -> %08x, want %08x", h, bits_of(got), bits_of(want));
  }
}
END_TEST

START_TEST(test_float_to_half)
{
  failures = 0;
  for (uint32_t h = 0; h < 65536; h++) {
    uint16_t b = (uint16_t)h;
    float x = shoal_half_to_float(b);
    uint32_t u = bits_of(x);
    for (int d = -1; d <= 1; d++) check_to_half(float_of(u + (uint32_t)d));
    if ((h & 0x7c00) == 0x7c00) continue;
    /* midpoints to both neighbours (as doubles: exact), one float ulp around */
    double lo = shoal_half_to_float((uint16_t)(h - 1)), hi = shoal_half_to_float((uint16_t)(h + 1));
    double mids[2] = {((double)x + lo) / 2, ((double)x + hi) / 2};
    for (int k = 0; k < 2; k++) {
      if (h == 0 || h == 0x8000) continue;   /* h - 1 wraps */
      float m = (float)mids[k];
      for (int d = -1; d <= 1; d++) check_to_half(float_of(bits_of(m) + (uint32_t)d));
    }
  }
  for (int i = 0; i < 1000000; i++) check_to_half(float_of(rng32()));
  check_to_half(65504.0f);
  check_to_half(65519.99f);
  check_to_half(65520.0f);
  check_to_half(1e30f);
  check_to_half(-INFINITY);
  check_to_half(NAN);
  ck_assert_int_eq(failures, 0);
}
END_TEST
#endif

/* The nearest bfloat16 to f, ties to even, by comparing both neighbours. */
static uint16_t ref_bf16(float f)
{
  uint32_t u = bits_of(f);
  uint16_t down = (uint16_t)(u >> 16), up = (uint16_t)(down + 1);
  if ((u & 0xffff) == 0) return down;
  double dd = fabs((double)f - shoal_bf16_to_float(down)), du = fabs((double)shoal_bf16_to_float(up) - f);
  if (isinf(shoal_bf16_to_float(up)) && !isinf(f)) du = fabs(ldexp(1.0, 128) - fabs((double)f));   /* inf as 2^128 */
  if (dd < du) return down;
  if (du < dd) return up;
  return (down & 1) ? up : down;
}

START_TEST(test_bf16)
{
  for (uint32_t h = 0; h < 65536; h++) {
    float x = shoal_bf16_to_float((uint16_t)h);
    ck_assert_msg(bits_of(x) == h << 16, "bf16 %04x -> %08x", h, bits_of(x));
    uint16_t back = shoal_float_to_bf16(x);
    if (isnan(x)) ck_assert_msg(isnan(shoal_bf16_to_float(back)), "bf16 NaN %04x -> %04x", h, back);
    else ck_assert_msg(back == h, "bf16 %04x -> float -> %04x", h, back);
    if (isnan(x) || isinf(x)) continue;
    for (uint32_t d = 1; d < 0x10000; d += 0x3fff) {   /* inside the 2^16 floats above it, the tie included */
      float f = float_of((h << 16) + d);
      if (isnan(f)) continue;
      ck_assert_msg(shoal_float_to_bf16(f) == ref_bf16(f), "float %08x -> bf16 %04x, want %04x", bits_of(f),
                    shoal_float_to_bf16(f), ref_bf16(f));
    }
    float tie = float_of((h << 16) + 0x8000);
    ck_assert_msg(shoal_float_to_bf16(tie) == ref_bf16(tie), "tie %08x -> %04x, want %04x", bits_of(tie),
                  shoal_float_to_bf16(tie), ref_bf16(tie));
  }
  for (int i = 0; i < 1000000; i++) {
    float f = float_of(rng32());
    if (isnan(f)) ck_assert(isnan(shoal_bf16_to_float(shoal_float_to_bf16(f))));
    else ck_assert_msg(shoal_float_to_bf16(f) == ref_bf16(f), "float %08x -> bf16 %04x, want %04x", bits_of(f),
                       shoal_float_to_bf16(f), ref_bf16(f));
  }
}
END_TEST

int main(void)
{
  rng_state = (uint64_t)time(NULL) * 2654435761u;
  printf("test_f16: seed %llu\n", (unsigned long long)rng_state);
  Suite *s = suite_create("f16");
  TCase *tc = tcase_create("convert");
  tcase_set_timeout(tc, 120);
#ifdef __FLT16_MAX__
  tcase_add_test(tc, test_half_to_float);
  tcase_add_test(tc, test_float_to_half);
#else
  printf("test_f16: no _Float16 in this compiler: half not compared\n");
#endif
  tcase_add_test(tc, test_bf16);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf == 0 ? 0 : 1;
}
