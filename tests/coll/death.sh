#!/bin/sh
# Death tests: each case must end the job with a non-zero status and an
# error naming the call and the argument.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
prog=./tests/coll/death_nonsym
status=0
check() {   # check CASE NP EXPECTED-TEXT
  out=$(timeout 60 mpirun --oversubscribe --bind-to none -np "$2" "$prog" "$1" 2>&1)
  rc=$?
  if [ $rc -eq 0 ] || ! printf '%s\n' "$out" | grep -qF -- "$3"; then
    echo "FAIL: $1 at $2 PEs: exit $rc, expected an error containing: $3"
    printf '%s\n' "$out" | tail -20
    status=1
  else
    echo "ok: $1 at $2 PEs: $(printf '%s\n' "$out" | grep -F -- "$3" | head -1)"
  fi
}
check reduce 2 "error: shmem_int_sum_reduce: argument 'source'"
check reduce_dest 3 "error: shmem_int_max_reduce: argument 'dest'"
check fcollect 2 "error: shmem_int_fcollect: argument 'dest'"
check broadcast 1 "error: shmem_int_broadcast: argument 'source'"
check alltoall 2 "error: shmem_int_alltoall: argument 'dest'"
check to_all 2 "error: shmem_long_sum_to_all: argument 'pWrk'"
exit $status
