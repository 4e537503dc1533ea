#!/bin/sh
# Failures of the libfabric transport are explicit: no provider, a peer that
# stops answering, a peer that dies.  Each must end the job with a non-zero
# status and a clear message, never hang.  Runs from the build directory.
prog=tests/ofi/fail_peer
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export SHOAL_TRANSPORT=ofi SHOAL_OFI_TIMEOUT=5
: "${FI_PROVIDER:=shm}"
export FI_PROVIDER
status=0
expect_fail() {   # expect_fail NAME PATTERN COMMAND...
  name=$1; pattern=$2; shift 2
  out=$(timeout 120 "$@" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then echo "FAIL: $name: exited 0"; status=1
  elif [ $rc -eq 124 ]; then echo "FAIL: $name: hung (killed after 120 s)"; status=1
  elif [ -n "$pattern" ] && ! printf '%s\n' "$out" | grep -q "$pattern"; then
    echo "FAIL: $name: exit $rc without the expected message /$pattern/"; status=1
  else echo "ok: $name (exit $rc)"; fi
  printf '%s\n' "$out" | grep 'shoal' | head -3
}
mpi="mpirun --oversubscribe --bind-to none -np 2"
expect_fail "no such provider" "no libfabric provider" env FI_PROVIDER=no_such_provider $mpi $prog init
expect_fail "peer stops answering" "waited 5 s" $mpi $prog stop
expect_fail "peer killed" "" $mpi $prog kill
exit $status
