#!/bin/sh
# The host proxy's active messages as the CPU transport (SHOAL_TRANSPORT=
# proxy): the libfabric tests, the RMA/AMO tests, the waits and the
# collectives (whose waiting threads apply what arrives themselves) through
# it, on shm and on tcp;ofi_rxm (what the GPU proxy uses between nodes); and a provider
# that cannot serve it stops shmem_init with a message naming it.  Runs
# from the build directory.
export SHOAL_TRANSPORT=proxy SHOAL_OFI_TIMEOUT=60
export SHOAL_TEST_NPS="${SHOAL_TEST_NPS:-2 4}"
status=0
for prov in shm "tcp;ofi_rxm"; do
  for t in tests/ofi/test_ofi tests/pe/test_rma tests/pe/test_amo tests/pe/test_wait tests/coll/test_coll; do
    if FI_PROVIDER="$prov" "$(dirname "$0")/../run-pe.sh" $t > /dev/null 2>&1; then
      echo "ok: $t through the proxy on $prov"
    else
      echo "FAIL: $t through the proxy on $prov (rerun: SHOAL_TRANSPORT=proxy FI_PROVIDER=\"$prov\" tests/run-pe.sh $t)"
      status=1
    fi
  done
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(FI_PROVIDER=no_such_provider timeout 120 mpirun --oversubscribe --bind-to none -np 2 tests/ofi/fail_peer init 2>&1)
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && printf '%s\n' "$out" | grep -q "FI_MSG, which the GPU/host proxy needs"; then
  echo "ok: a provider that cannot serve the proxy stops shmem_init (exit $rc)"
else
  echo "FAIL: no provider: exit $rc without the expected message"; printf '%s\n' "$out" | head -5
  status=1
fi
exit $status
