/* The reduction selection (collectives/reduce_select.h): where
 * shoal_reduce_needs_buffers says the choice does not rest on the buffers,
 * a GPU kernel skips their checks -- so the answer must then be the same
 * for every value of in_place, src_sym and dest_sym; and the shortcut must
 * be taken where LL is the answer (most small calls). */
#include "internal.h"
#include "../collectives/reduce_select.h"

#include <check.h>

shoal_dev_state shoal_dstate;

START_TEST(test_needs_buffers)
{
  const int wheres[] = {SHOAL_AT_CPU, SHOAL_AT_BLOCK, SHOAL_AT_GRID, SHOAL_AT_STREAM};
  const int forced[] = {SHOAL_ALLREDUCE_AUTO, SHOAL_ALLREDUCE_RING};
  const size_t counts[] = {1, 7, 512, 2048, 4096, 1u << 20}, ess[] = {1, 2, 4, 8};
  const int sizes[] = {1, 2, 3, 4, 9};
  const size_t slots[] = {0, 4096, 32768};
  int skipped = 0, ll_skipped = 0;
  for (size_t wi = 0; wi < 4; wi++)
    for (size_t fi = 0; fi < 2; fi++)
      for (int scatter = 0; scatter < 2; scatter++)
        for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++)
          for (size_t ei = 0; ei < 4; ei++)
            for (size_t ni = 0; ni < sizeof sizes / sizeof *sizes; ni++)
              for (size_t si = 0; si < 3; si++)
                for (int direct = 0; direct < 2; direct++) {
                  shoal_reduce_ask a;
                  memset(&a, 0, sizeof a);
                  a.where = wheres[wi];
                  a.forced = forced[fi];
                  a.scatter = scatter;
                  a.count = counts[ci];
                  a.es = ess[ei];
                  a.team_size = sizes[ni];
                  a.direct = direct;
                  a.pushbox_slot = slots[si];
                  a.scratch = 1u << 18;
                  if (shoal_reduce_needs_buffers(&a)) continue;
                  skipped++;
                  int first = -1;
                  for (int b = 0; b < 8; b++) {
                    a.in_place = b & 1;
                    a.src_sym = (b >> 1) & 1;
                    a.dest_sym = (b >> 2) & 1;
                    int algo = shoal_reduce_select(&a);
                    if (first < 0) first = algo;
                    ck_assert_msg(algo == first, "where %d forced %d scatter %d count %zu es %zu n %d slot %zu: "
                                  "the choice changed with the buffers (%d, then %d)", a.where, a.forced, scatter,
                                  a.count, a.es, a.team_size, a.pushbox_slot, first, algo);
                  }
                  ck_assert_int_eq(first, SHOAL_REDUCE_LL);
                  ll_skipped++;
                }
  ck_assert_int_gt(skipped, 0);   /* the shortcut is taken at all */
  ck_assert_int_eq(skipped, ll_skipped);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("reduce_select");
  TCase *tc = tcase_create("needs_buffers");
  tcase_add_test(tc, test_needs_buffers);
  suite_add_tcase(s, tc);
  SRunner *r = srunner_create(s);
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? 1 : 0;
}
