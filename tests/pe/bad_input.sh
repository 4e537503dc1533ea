#!/bin/sh
# Bad input (issue 2, item 6): each case of tests/pe/bad_input must end the
# job with a non-zero status -- never a hang, a crash signal or exit 0 --
# and print "error: <call>: ... <argument>" on stderr.
prog=${BAD_INPUT_PROG:-tests/pe/bad_input}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
status=0

# expect NP CASE CALL ARGUMENT-TEXT
expect() {
  out=$(timeout 60 mpirun --oversubscribe --bind-to none -np "$1" "$prog" "$2" 2>&1)
  rc=$?
  line=$(printf '%s\n' "$out" | grep -F "error: $3:" | grep -F -- "$4" | head -1)
  if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -gt 128 ] || [ -z "$line" ]; then
    echo "FAIL: $2 at $1 PEs: exit $rc (0: accepted, 124: hang, >128: crash), wanted \"error: $3: ... $4\""
    printf '%s\n' "$out" | tail -15 | sed 's/^/    /'
    status=1
  else
    echo "ok: $2 at $1 PEs (exit $rc): $line"
  fi
}

for np in 1 2; do
  expect $np put_nonsym_dest shmem_int_put "'dest'"
  expect $np get_nonsym_source shmem_int_get "'source'"
  expect $np amo_nonsym shmem_long_atomic_fetch_add "'dest'"
  expect $np pe_too_big shmem_int_p "'pe' = $np"
  expect $np double_free shmem_free "'ptr'"
done
expect 2 before_init shmem_int_p "before shmem_init"
expect 1 malloc_before_init shmem_malloc "before shmem_init"
expect 2 after_finalize shmem_int_p "after shmem_finalize"
expect 2 put_past_heap_end shmem_putmem "'dest'"
expect 2 fetch_nonsym shmem_long_atomic_fetch "'source'"
expect 2 wait_nonsym shmem_int_wait_until "'ivar' ="
expect 2 waitall_nonsym shmem_int_wait_until_all "'ivars' ="
expect 2 sigwait_nonsym shmem_signal_wait_until "'sig_addr' ="
expect 2 signal_nonsym shmem_putmem_signal "'sig_addr'"
expect 2 lock_nonsym shmem_set_lock "'lock'"
expect 4 pe_too_big shmem_int_p "'pe' = 4"
expect 2 pe_negative shmem_int_g "'pe' = -1"
expect 2 amo_pe shmem_int_atomic_inc "'pe' = 7"
expect 2 count_negative shmem_putmem "'nelems'"
expect 2 count_overflow shmem_long_get "'nelems'"
expect 2 iput_stride shmem_int_iput "'dst'"
expect 2 iput_stride_wraps shmem_int_iput "'dst'"
expect 2 iget_stride_wraps shmem_long_iget "'sst'"
expect 2 foreign_free shmem_free "'ptr'"
expect 2 interior_free shmem_free "'ptr'"
expect 2 realloc_foreign shmem_realloc "'ptr'"
expect 2 align_bad shmem_align "'alignment' = 48"
expect 2 bcast_overlap shmem_broadcast32 "overlap"
expect 2 ctx_options shmem_ctx_create "'options'"
expect 2 ctx_invalid shmem_ctx_int_put "'ctx'"
expect 2 ctx_destroy_default shmem_ctx_destroy "'ctx'"
expect 2 wait_cmp shmem_int_wait_until "'cmp' = 42"
expect 2 test_cmp shmem_long_test "'cmp' = -1"
expect 2 signal_op shmem_putmem_signal "'sig_op' = 7"
# OpenSHMEM 1.6 routines
expect 2 ibput_nonsym shmem_int_ibput "'dest'"
expect 2 ibput_overlap shmem_int_ibput "'dst' = 1"
expect 2 ibget_stride shmem_ibget64 "'sst' = 0"
expect 2 signal_add_nonsym shmem_signal_add "'sig_addr'"
expect 2 signal_set_pe shmem_ctx_signal_set "'pe' = 5"
expect 2 pe_quiet_pe shmem_pe_quiet "'target_pes[0]' = 2"
expect 2 scan_nonsym shmem_int_sum_inscan "'source'"
expect 2 scan_overlap shmem_int_sum_exscan "overlap"
expect 1 session_config shmem_ctx_session_start "'config'"
exit $status
