#!/bin/sh
# Setup and teardown: finalize idempotence, clean exits, shmem_global_exit's
# status reaching the launcher, and nothing left behind in /dev/shm.
prog=${LIFECYCLE_PROG:-tests/pe/lifecycle}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
status=0

# expect NP WANTED-STATUS TEXT CASE [ARG]
expect() {
  np=$1 want=$2 text=$3; shift 3
  out=$(timeout 60 mpirun --oversubscribe --bind-to none -np "$np" "$prog" "$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ] || ! printf '%s\n' "$out" | grep -F -q -- "$text"; then
    echo "FAIL: $* at $np PEs: exit $rc (wanted $want), output should contain \"$text\""
    printf '%s\n' "$out" | tail -15 | sed 's/^/    /'
    status=1
  else
    echo "ok: $* at $np PEs (exit $rc)"
  fi
}

# refuse NP WANTED-STATUS TEXT CASE [ARG]: the output must not contain TEXT
refuse() {
  np=$1 want=$2 text=$3; shift 3
  out=$(timeout 60 mpirun --oversubscribe --bind-to none -np "$np" "$prog" "$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ] || printf '%s\n' "$out" | grep -F -q -- "$text"; then
    echo "FAIL: $* at $np PEs: exit $rc (wanted $want), output must not contain \"$text\""
    printf '%s\n' "$out" | tail -15 | sed 's/^/    /'
    status=1
  else
    echo "ok: $* at $np PEs (exit $rc)"
  fi
}

for np in 1 2 4; do
  expect $np 0 "finalize_twice: ok" finalize_twice
  expect $np 0 "no_finalize: ok" no_finalize
  expect $np 0 "start_pes: ok" start_pes
  expect $np 7 "" global_exit 7
done
expect 2 1 "cannot be initialized again after shmem_finalize" init_after_finalize
expect 2 42 "" global_exit_all 42
refuse 2 6 "passed a barrier" error_exit 6
refuse 4 6 "passed a barrier" error_exit 6
expect 1 5 "" global_exit 5
exit $status
