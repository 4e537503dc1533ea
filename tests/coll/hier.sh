#!/bin/sh
# The hierarchical all-reduce and reduce-scatter (tests/coll/test_hier.c) at 4 PEs on "nodes"
# of 2 + 2 PEs (SHOAL_PES_PER_NODE=2) and of 3 + 1 (=3), then once with
# SHOAL_COLL_HIER=0 (flat algorithms, same results).  Each run goes under
# SHMEM_DEBUG, whose lines say which algorithm each team's all-reduce and
# reduce-scatter took: the world team and PEs 1..3 must take hier for
# both, the even PEs must not,
# and with SHOAL_COLL_HIER=0 nobody may.  FI_PROVIDER defaults to shm.
srcdir=$(dirname "$0")
if ! grep -q '^#define SHOAL_HAVE_OFI 1' config.h 2>/dev/null; then
  echo "hier.sh: this build has no libfabric transport (SHOAL_PES_PER_NODE needs it)"
  exit 77
fi
export FI_PROVIDER="${FI_PROVIDER:-shm}" SHMEM_DEBUG=1 SHOAL_TEST_NPS=4
unset SHOAL_ALLREDUCE
log=${TMPDIR:-/tmp}/shoal-hier.$$.log
trap 'rm -f "$log"' EXIT
status=0
took() {   # took TEAM ALGO [KIND]: some PE's KIND (all-reduce) on TEAM ("start + stride i (n PEs") took ALGO
  grep -q "${3:-all-reduce} on the team of world PEs $1 PEs.* takes $2\$" "$log"
}
for k in 2 3 2:flat; do
  case $k in
    *:flat) k=${k%:flat}; flat=1; export SHOAL_COLL_HIER=0 ;;
    *) flat=0; unset SHOAL_COLL_HIER ;;
  esac
  echo "== SHOAL_PES_PER_NODE=$k${SHOAL_COLL_HIER:+ SHOAL_COLL_HIER=$SHOAL_COLL_HIER}"
  SHOAL_PES_PER_NODE=$k "$srcdir/../run-pe.sh" ./tests/coll/test_hier "$@" >"$log" 2>&1
  rc=$?
  grep -v ': debug: ' "$log"
  grep ': debug: .* takes ' "$log" | sed 's/.*debug: [a-z0-9_]*: //' | sort | uniq -c
  if [ $rc -ne 0 ]; then echo "FAIL: test_hier (exit $rc)"; status=1; continue; fi
  if [ $flat = 1 ]; then
    if grep -q ' takes hier$' "$log"; then echo "FAIL: SHOAL_COLL_HIER=0, yet a team took hier"; status=1; fi
    continue
  fi
  for team in "0 + 1 i (4" "1 + 1 i (3"; do
    for kind in all-reduce reduce-scatter; do
      took "$team" hier $kind || { echo "FAIL: the team of world PEs $team PEs) did not take hier ($kind)"; status=1; }
    done
  done
  for kind in all-reduce reduce-scatter; do
    took "0 + 2 i (2" hier $kind && { echo "FAIL: the even PEs (one node, or one PE per node) took hier ($kind)"; status=1; }
  done
  took "0 + 2 i (2" push || { echo "FAIL: the even PEs did not take the flat push"; status=1; }
done
exit $status
