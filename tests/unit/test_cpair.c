/* Complex numbers as (re, im) pairs (<shoal/cpair.h>), which the GPU's
 * complex products run, and their type-erased combine
 * (collectives/reduce_op.h: SHOAL_RT_cpairf, SHOAL_RT_cpaird, which a GPU
 * team behind the host proxy reduces with):
 *  - a million random products of float and of double pairs, of
 *    magnitudes 2^-30 .. 2^30 and either sign, against C's float _Complex
 *    and double _Complex multiplication: the same bits;
 *  - the combine's sum and prod over arrays of odd length, against the
 *    same loops in C's complex types, every element; min and max refused. */
#include "internal.h"
#include "../collectives/reduce_op.h"

#include <check.h>
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

shoal_dev_state shoal_dstate;

static uint64_t rng_state;
static uint64_t rng64(void)
{
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return rng_state ^ (rng_state >> 29);
}
/* +-m * 2^e, m in [1, 2), e in [-30, 30] */
static double rnd(void)
{
  uint64_t r = rng64();
  double m = 1.0 + (double)(r >> 12) / 4503599627370496.0;
  return ldexp(r & 1 ? -m : m, (int)((r >> 1) % 61) - 30);
}

START_TEST(products_match_c)
{
  size_t bad = 0;
  for (int i = 0; i < 1000000; i++) {
    double a = rnd(), b = rnd(), c = rnd(), d = rnd();
    float re, im;
    shoal_cpairf_mul((float)a, (float)b, (float)c, (float)d, &re, &im);
    float _Complex w = ((float)a + (float)b * I) * ((float)c + (float)d * I);
    if (memcmp(&re, &(float){crealf(w)}, sizeof re) || memcmp(&im, &(float){cimagf(w)}, sizeof im)) {
      if (bad++ < 5)
        fprintf(stderr, "float (%a, %a) * (%a, %a): (%a, %a), C says (%a, %a)\n", (float)a, (float)b, (float)c,
                (float)d, re, im, crealf(w), cimagf(w));
    }
    double dre, dim;
    shoal_cpaird_mul(a, b, c, d, &dre, &dim);
    double _Complex dw = (a + b * I) * (c + d * I);
    if (dre != creal(dw) || dim != cimag(dw)) {
      if (bad++ < 5) fprintf(stderr, "double (%a, %a) * (%a, %a): (%a, %a), C says (%a, %a)\n", a, b, c, d, dre, dim,
                             creal(dw), cimag(dw));
    }
  }
  ck_assert_msg(bad == 0, "%zu products differ from C's", bad);
}
END_TEST

START_TEST(combine_matches_c)
{
  enum { N = 1001 };
  static float fa[2 * N], fb[2 * N];
  static double da[2 * N], db[2 * N];
  static float _Complex fw[N];
  static double _Complex dw[N];
  for (int op = SHOAL_OP_sum; op <= SHOAL_OP_prod; op++) {
    for (int i = 0; i < N; i++) {
      da[2 * i] = rnd(), da[2 * i + 1] = rnd(), db[2 * i] = rnd(), db[2 * i + 1] = rnd();
      for (int k = 0; k < 2; k++) fa[2 * i + k] = (float)da[2 * i + k], fb[2 * i + k] = (float)db[2 * i + k];
      float _Complex x = fa[2 * i] + fa[2 * i + 1] * I, y = fb[2 * i] + fb[2 * i + 1] * I;
      double _Complex dx = da[2 * i] + da[2 * i + 1] * I, dy = db[2 * i] + db[2 * i + 1] * I;
      fw[i] = op == SHOAL_OP_sum ? x + y : x * y;
      dw[i] = op == SHOAL_OP_sum ? dx + dy : dx * dy;
    }
    ck_assert_int_eq(shoal_reduce_combine(SHOAL_RT_cpairf, op, fa, fb, N), 1);
    ck_assert_int_eq(shoal_reduce_combine(SHOAL_RT_cpaird, op, da, db, N), 1);
    size_t bad = 0;
    for (int i = 0; i < N; i++)
      bad += fa[2 * i] != crealf(fw[i]) || fa[2 * i + 1] != cimagf(fw[i]) || da[2 * i] != creal(dw[i]) ||
             da[2 * i + 1] != cimag(dw[i]);
    ck_assert_msg(bad == 0, "op %d: %zu of %d elements differ from C's", op, bad, N);
  }
  ck_assert_uint_eq(shoal_reduce_size(SHOAL_RT_cpairf), 8);
  ck_assert_uint_eq(shoal_reduce_size(SHOAL_RT_cpaird), 16);
  ck_assert_int_eq(shoal_reduce_combine(SHOAL_RT_cpairf, SHOAL_OP_max, fa, fb, N), 0);
  ck_assert_int_eq(shoal_reduce_combine(SHOAL_RT_cpaird, SHOAL_OP_min, da, db, N), 0);
}
END_TEST

int main(void)
{
  rng_state = (uint64_t)time(NULL) * 2654435761u + 1;
  fprintf(stderr, "test_cpair: seed %llu\n", (unsigned long long)rng_state);
  Suite *s = suite_create("cpair");
  TCase *tc = tcase_create("cpair");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, products_match_c);
  tcase_add_test(tc, combine_matches_c);
  suite_add_tcase(s, tc);
  SRunner *r = srunner_create(s);
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? 1 : 0;
}
