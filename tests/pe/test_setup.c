/* Setup and query: init_thread/query_thread, my_pe/n_pes, pe_accessible,
 * addr_accessible, shmem_ptr, info_get_version/name, and global and static
 * variables as symmetric objects. */
#include "shoal_test.h"

int global_ints[100];               /* .bss */
long global_init[4] = {1, 2, 3, 4}; /* .data */
static double static_d[10];

START_TEST(test_query)
{
  int provided = -1;
  shmem_query_thread(&provided);
  ck_assert_int_eq(provided, SHMEM_THREAD_MULTIPLE);   /* as main requested */
  int me = shmem_my_pe(), np = shmem_n_pes();
  ck_assert(me >= 0 && me < np);
  ck_assert_int_eq(_my_pe(), me);
  ck_assert_int_eq(_num_pes(), np);
  int major = 0, minor = -1;
  shmem_info_get_version(&major, &minor);
  ck_assert_int_eq(major, 1);
  ck_assert_int_eq(minor, 6);   /* OpenSHMEM 1.6 */
  ck_assert_int_eq(SHMEM_MAJOR_VERSION, 1);
  ck_assert_int_eq(SHMEM_MINOR_VERSION, 6);
  char name[SHMEM_MAX_NAME_LEN];
  memset(name, 'x', sizeof name);
  shmem_info_get_name(name);
  ck_assert(memchr(name, '\0', sizeof name) != NULL);
  ck_assert_str_eq(name, SHMEM_VENDOR_STRING);
  ck_assert_uint_gt(strlen(name), 0);
}
END_TEST

START_TEST(test_accessible)
{
  int np = shmem_n_pes(), local = 0;
  int *heap = shmem_malloc(sizeof(int));
  for (int p = 0; p < np; p++) {
    ck_assert_int_eq(shmem_pe_accessible(p), 1);
    ck_assert_int_eq(shmem_addr_accessible(heap, p), 1);
    ck_assert_int_eq(shmem_addr_accessible(global_ints, p), 1);
    ck_assert_int_eq(shmem_addr_accessible(&static_d[9], p), 1);
    ck_assert_int_eq(shmem_addr_accessible(&local, p), 0);
  }
  ck_assert_int_eq(shmem_pe_accessible(-1), 0);
  ck_assert_int_eq(shmem_pe_accessible(np), 0);
  ck_assert_int_eq(shmem_addr_accessible(heap, np), 0);
  ck_assert_int_eq(shmem_addr_accessible(heap, -1), 0);
  shmem_free(heap);
}
END_TEST

/* Is world PE pe on my node (in SHMEM_TEAM_SHARED)? */
static int on_my_node(int pe)
{
  return shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0;
}

/* shmem_ptr gives a load/store address for exactly the PEs of this node
 * (all of them, unless SHOAL_PES_PER_NODE splits the job); stores through
 * it are seen by the owner, loads see the owner's data. */
START_TEST(test_shmem_ptr)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  long *heap = shmem_calloc(4, sizeof(long));
  int local = 0;
  ck_assert_ptr_eq(shmem_ptr(heap, me), heap);
  ck_assert_ptr_eq(shmem_ptr(global_ints, me), global_ints);
  ck_assert_ptr_null(shmem_ptr(&local, me));
  ck_assert_ptr_null(shmem_ptr(heap, np));
  ck_assert_ptr_null(shmem_ptr(heap, -1));
  for (int p = 0; p < np; p++) {
    ck_assert_int_eq(shmem_ptr(heap, p) != NULL, on_my_node(p));
    ck_assert_int_eq(shmem_ptr(&global_ints[3], p) != NULL, on_my_node(p));
  }
  long *r = shmem_ptr(heap, right);
  int *g = shmem_ptr(&global_ints[7], right);
  shmem_barrier_all();
  if (r) r[1] = 1000 + me;   /* plain stores */
  if (g) *g = 2000 + me;
  shmem_barrier_all();
  if (on_my_node(left)) {
    ck_assert_int_eq(heap[1], 1000 + left);
    ck_assert_int_eq(global_ints[7], 2000 + left);
  }
  heap[2] = 3000 + me;
  shmem_barrier_all();
  if (r) ck_assert_int_eq(r[2], 3000 + right);
  shmem_barrier_all();
  shmem_free(heap);
}
END_TEST

/* Globals and statics (.data and .bss) are symmetric: put, get and AMOs. */
START_TEST(test_global_static)
{
  int me = shmem_my_pe(), np = shmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  ck_assert_int_eq(global_init[2], 3);   /* initialized data survives the remap */
  int src[100];
  for (int i = 0; i < 100; i++) src[i] = (int)shoal_test_val(me, (size_t)i, 60);
  shoal_test_poison(global_ints, sizeof global_ints);
  shoal_test_poison(static_d, sizeof static_d);
  shmem_barrier_all();
  shmem_int_put(global_ints, src, 100, right);
  shmem_double_p(&static_d[me % 10], (double)me + 0.5, right);
  shmem_long_atomic_add(&global_init[0], 10, right);
  shmem_barrier_all();
  for (int i = 0; i < 100; i++) ck_assert_int_eq(global_ints[i], (int)shoal_test_val(left, (size_t)i, 60));
  ck_assert(static_d[left % 10] == (double)left + 0.5);
  ck_assert_int_eq(global_init[0], 11);
  int back[100];
  shmem_int_get(back, global_ints, 100, left);
  for (int i = 0; i < 100; i++)
    ck_assert_int_eq(back[i], (int)shoal_test_val((left + np - 1) % np, (size_t)i, 60));
  shmem_barrier_all();
  global_init[0] = 1;
  shmem_barrier_all();
}
END_TEST

static Suite *setup_suite(void)
{
  Suite *s = suite_create("setup");
  TCase *tc = tcase_create("setup");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_query);
  tcase_add_test(tc, test_accessible);
  tcase_add_test(tc, test_shmem_ptr);
  tcase_add_test(tc, test_global_static);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  /* init_thread first; shoal_test_run's shmem_init is then a no-op */
  int provided = -1;
  if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0 || provided != SHMEM_THREAD_MULTIPLE) {
    fprintf(stderr, "shmem_init_thread: rc or provided (%d) wrong\n", provided);
    return 1;
  }
  return shoal_test_run(setup_suite());
}
