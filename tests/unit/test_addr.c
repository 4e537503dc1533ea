/* Address translation: shoal_dev_ptr() and shoal_dev_is_symmetric() over a
 * fake device state (device/state.h is header-only). */
#include "internal.h"

#include <check.h>

shoal_dev_state shoal_dstate;

#define NPES 4
#define HEAP 4096
#define DATA 512
static char heaps[NPES][HEAP], datas[NPES][DATA];
static char *peer_heap[NPES], *peer_data[NPES];

/* PE 1 of 4; PE 3 is "on another node" (not mapped). */
static void fake_state(void)
{
  for (int i = 0; i < NPES; i++) {
    peer_heap[i] = i == 3 ? NULL : heaps[i];
    peer_data[i] = i == 3 ? NULL : datas[i];
  }
  shoal_dstate = (shoal_dev_state){.my_pe = 1, .n_pes = NPES, .heap_base = heaps[1],
                                   .heap_size = HEAP, .peer_heap = peer_heap,
                                   .data_base = datas[1], .data_size = DATA,
                                   .peer_data = peer_data};
}

START_TEST(test_heap_translation)
{
  fake_state();
  size_t offs[] = {0, 1, 100, HEAP - 1};
  for (size_t k = 0; k < sizeof offs / sizeof *offs; k++)
    for (int pe = 0; pe < 3; pe++) {
      ck_assert_ptr_eq(shoal_dev_ptr(heaps[1] + offs[k], pe), heaps[pe] + offs[k]);
      ck_assert(shoal_dev_is_symmetric(heaps[1] + offs[k]));
    }
  /* unmapped peer: NULL, so the caller takes the remote transport */
  ck_assert_ptr_null(shoal_dev_ptr(heaps[1] + 8, 3));
}
END_TEST

START_TEST(test_data_translation)
{
  fake_state();
  for (int pe = 0; pe < 3; pe++) {
    ck_assert_ptr_eq(shoal_dev_ptr(datas[1], pe), datas[pe]);
    ck_assert_ptr_eq(shoal_dev_ptr(datas[1] + DATA - 1, pe), datas[pe] + DATA - 1);
  }
  ck_assert_ptr_null(shoal_dev_ptr(datas[1], 3));
  /* data segment not shared at all */
  shoal_dstate.peer_data = NULL;
  ck_assert_ptr_null(shoal_dev_ptr(datas[1], 0));
}
END_TEST

START_TEST(test_not_symmetric)
{
  fake_state();
  int local = 0;
  const void *outside[] = {heaps[1] + HEAP, heaps[1] - 1, datas[1] + DATA, datas[1] - 1,
                           heaps[0], heaps[2] + 5, &local, NULL};
  for (size_t k = 0; k < sizeof outside / sizeof *outside; k++) {
    if (outside[k] >= (void *)datas[1] && outside[k] < (void *)(datas[1] + DATA)) continue;
    if (outside[k] >= (void *)heaps[1] && outside[k] < (void *)(heaps[1] + HEAP)) continue;
    ck_assert_msg(!shoal_dev_is_symmetric(outside[k]), "case %zu", k);
    for (int pe = 0; pe < NPES; pe++) ck_assert_ptr_null(shoal_dev_ptr(outside[k], pe));
  }
  /* an empty data region matches nothing */
  shoal_dstate.data_base = NULL;
  shoal_dstate.data_size = 0;
  ck_assert_ptr_null(shoal_dev_ptr(NULL, 0));
  ck_assert_ptr_null(shoal_dev_ptr(datas[1], 0));
}
END_TEST

START_TEST(test_region_offset)
{
  char buf[64];
  ck_assert_uint_eq(shoal_region_offset(buf, buf, 64), 0);
  ck_assert_uint_eq(shoal_region_offset(buf + 63, buf, 64), 63);
  ck_assert_uint_eq(shoal_region_offset(buf + 64, buf, 64), SIZE_MAX);
  ck_assert_uint_eq(shoal_region_offset(buf - 1, buf, 64), SIZE_MAX);   /* wraps: huge */
  ck_assert_uint_eq(shoal_region_offset(buf, buf, 0), SIZE_MAX);
}
END_TEST

static Suite *addr_suite(void)
{
  Suite *s = suite_create("addr");
  TCase *tc = tcase_create("addr");
  tcase_add_test(tc, test_heap_translation);
  tcase_add_test(tc, test_data_translation);
  tcase_add_test(tc, test_not_symmetric);
  tcase_add_test(tc, test_region_offset);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(addr_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
