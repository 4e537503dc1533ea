/* Bad input, one case per run: `bad_input CASE`.  Every case must end the
 * job with a non-zero status and a message naming the call and the argument
 * (tests/pe/bad_input.sh checks both).  Reaching the end of main is a
 * failure: the bad call was accepted. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sym_int[16];   /* symmetric global */

int main(int argc, char **argv)
{
  const char *c = argc > 1 ? argv[1] : "";
  int local_int[16] = {0};
  long local_long = 0;
  uint64_t local_sig = 0;

  if (!strcmp(c, "before_init")) shmem_int_p(sym_int, 1, 0);
  if (!strcmp(c, "malloc_before_init")) (void)shmem_malloc(64);

  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes(), last = n - 1;
  int *sym = shmem_malloc(64 * sizeof(int));
  uint64_t *sig = shmem_calloc(1, sizeof *sig);
  shmem_barrier_all();

  if (!strcmp(c, "put_nonsym_dest")) shmem_int_put(local_int, sym, 4, 0);
  if (!strcmp(c, "get_nonsym_source")) shmem_int_get(sym, local_int, 4, 0);
  if (!strcmp(c, "put_past_heap_end")) {   /* starts symmetric, runs off the end */
    char *p = shmem_ptr(sym, me);
    shmem_putmem(p + 64, local_int, (size_t)1 << 40, 0);
  }
  if (!strcmp(c, "amo_nonsym")) shmem_long_atomic_fetch_add(&local_long, 1, 0);
  if (!strcmp(c, "fetch_nonsym")) (void)shmem_long_atomic_fetch(&local_long, 0);
  if (!strcmp(c, "wait_nonsym")) shmem_int_wait_until(local_int, SHMEM_CMP_EQ, 0);
  if (!strcmp(c, "waitall_nonsym")) shmem_int_wait_until_all(local_int, 4, NULL, SHMEM_CMP_EQ, 0);
  if (!strcmp(c, "sigwait_nonsym")) shmem_signal_wait_until(&local_sig, SHMEM_CMP_EQ, 0);
  if (!strcmp(c, "signal_nonsym")) shmem_putmem_signal(sym, local_int, 4, &local_sig, 1, SHMEM_SIGNAL_SET, 0);
  if (!strcmp(c, "lock_nonsym")) shmem_set_lock(&local_long);
  /* only the last PE errs: the others are in a barrier and must not hang */
  if (!strcmp(c, "pe_too_big") && me == last) shmem_int_p(sym, 1, n);
  if (!strcmp(c, "pe_negative")) (void)shmem_int_g(sym, -1);
  if (!strcmp(c, "amo_pe")) shmem_int_atomic_inc(sym, n + 5);
  if (!strcmp(c, "count_negative")) shmem_putmem(sym, local_int, (size_t)-1, 0);
  if (!strcmp(c, "count_overflow")) shmem_long_get((long *)sym, (long *)sym, SIZE_MAX / 4, 0);
  if (!strcmp(c, "iput_stride")) shmem_int_iput(sym, local_int, 0, 1, 4, 0);
  /* the extent (1 * 2^62 + 1) * 4 wraps to 4 bytes */
  if (!strcmp(c, "iput_stride_wraps")) shmem_int_iput(sym, local_int, (ptrdiff_t)1 << 62, 1, 2, 0);
  if (!strcmp(c, "iget_stride_wraps")) shmem_long_iget((long *)local_int, (long *)sym, 1, (ptrdiff_t)1 << 61, 2, 0);
  if (!strcmp(c, "double_free")) {
    shmem_free(sym);
    shmem_free(sym);
  }
  if (!strcmp(c, "foreign_free")) shmem_free(malloc(64));
  if (!strcmp(c, "interior_free")) shmem_free(sym + 1);
  if (!strcmp(c, "realloc_foreign")) (void)shmem_realloc(local_int, 128);
  if (!strcmp(c, "align_bad")) (void)shmem_align(48, 64);
  if (!strcmp(c, "bcast_overlap")) {   /* dest == source is fine; partial overlap is not */
    static long psync[SHMEM_BCAST_SYNC_SIZE];
    shmem_broadcast32(sym + 1, sym, 4, 0, 0, 0, n, psync);
  }
  if (!strcmp(c, "ctx_options")) {
    shmem_ctx_t ctx;
    shmem_ctx_create(1L << 20, &ctx);
  }
  if (!strcmp(c, "ctx_invalid")) shmem_ctx_int_put(SHMEM_CTX_INVALID, sym, local_int, 4, 0);
  if (!strcmp(c, "ctx_destroy_default")) shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
  if (!strcmp(c, "wait_cmp")) shmem_int_wait_until(sym, 42, 0);
  if (!strcmp(c, "test_cmp")) (void)shmem_long_test((long *)sym, -1, 0);
  if (!strcmp(c, "signal_op")) shmem_putmem_signal(sym, local_int, 4, sig, 1, 7, 0);
  /* OpenSHMEM 1.6 routines */
  if (!strcmp(c, "ibput_nonsym")) shmem_int_ibput(local_int, sym, 2, 1, 2, 2, 0);
  if (!strcmp(c, "ibput_overlap")) shmem_int_ibput(sym, local_int, 1, 2, 2, 3, 0);
  if (!strcmp(c, "ibget_stride")) shmem_ibget64(local_int, sym, 2, 0, 1, 2, 0);
  if (!strcmp(c, "signal_add_nonsym")) shmem_signal_add(&local_sig, 1, 0);
  if (!strcmp(c, "signal_set_pe")) shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, sig, 1, n + 3);
  if (!strcmp(c, "pe_quiet_pe")) shmem_pe_quiet(&n, 1);
  if (!strcmp(c, "scan_nonsym")) shmem_int_sum_inscan(SHMEM_TEAM_WORLD, sym, local_int, 4);
  if (!strcmp(c, "scan_overlap")) shmem_int_sum_exscan(SHMEM_TEAM_WORLD, sym + 1, sym, 4);
  if (!strcmp(c, "session_config"))
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL, SHMEM_CTX_SESSION_TOTAL_OPS);
  if (!strcmp(c, "after_finalize")) {
    shmem_finalize();
    shmem_int_p(sym_int, 1, 0);
  }

  shmem_barrier_all();
  printf("bad_input %s: PE %d: the bad call was accepted\n", c, me);
  shmem_finalize();
  return 0;
}
