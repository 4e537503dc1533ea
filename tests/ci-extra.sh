#!/bin/sh
# CI's extra passes (run by .ci/run after the README's make check, in the
# repository root): the whole test suite again through the libfabric
# transport.  Pass 2: every peer through the shm provider
# (SHOAL_PES_PER_NODE=1).  Pass 3: pairs of PEs share memory, pairs talk
# over tcp;ofi_rxm on the loopback interface (SHOAL_PES_PER_NODE=2).
# PE counts at which no PE has a peer on another node would only repeat
# the direct path of the first pass, so each pass skips them (1 PE for
# k=1; 1 and 2 PEs for k=2): that halves CI time on 2 cores.
cd "$(dirname "$0")/.." || exit 1
# srun --mpi=pmix on a one-node Slurm started here (installs Debian's
# slurmctld/slurmd first; skips, saying why, where that cannot be done).
echo "::: ci-extra: srun --mpi=pmix (tests/launch/slurm.sh)"
slurm_status=0
SHOAL_CI_SLURM=1 timeout 900 tests/launch/slurm.sh . || slurm_status=1
if ! grep -q '^#define SHOAL_HAVE_OFI 1' config.h 2>/dev/null; then
  echo "ci-extra: this build has no libfabric transport; nothing to do"
  exit $slurm_status
fi
status=$slurm_status
show_failures() {
  for f in $(grep -l '^:test-result: FAIL\|^:test-result: ERROR' tests/*/*.trs 2>/dev/null); do
    echo "----- ${f%.trs}.log"; tail -60 "${f%.trs}.log"
  done
}
pass() {   # pass NAME VAR=VALUE...
  name=$1; shift
  echo "::: ci-extra: $name"
  t0=$(date +%s)
  if env "$@" make -j2 check; then
    echo "::: ci-extra: $name: ok ($(( $(date +%s) - t0 ))s)"
  else
    show_failures
    echo "::: ci-extra: $name: FAILED ($(( $(date +%s) - t0 ))s)"
    status=1
  fi
}
pass "all peers over libfabric shm" SHOAL_PES_PER_NODE=1 FI_PROVIDER=shm \
  SHOAL_TEST_NPS="2 4" SHOAL_TEST_NPS_COLL="2 3 4"
pass "pairs over libfabric tcp;ofi_rxm (loopback)" SHOAL_PES_PER_NODE=2 \
  FI_PROVIDER="tcp;ofi_rxm" FI_TCP_IFACE=lo FI_SOCKETS_IFACE=lo \
  SHOAL_TEST_NPS="4" SHOAL_TEST_NPS_COLL="3 4"
exit $status
