#!/bin/sh
# The reduction tests at 1, 2, 3 and 4 PEs with SHOAL_ALLREDUCE=ring.  On
# one node every team is load/store, so the all-reduces run the ring at a
# scope (collectives/reduce_ring.h): SHMEM_DEBUG's lines must say so
# (teams spanning "nodes", SHOAL_PES_PER_NODE, run the channel ring).
srcdir=$(dirname "$0")
export SHOAL_ALLREDUCE=ring SHMEM_DEBUG=1
log=${TMPDIR:-/tmp}/shoal-reduce-ring.$$.log
trap 'rm -f "$log"' EXIT
SHOAL_TEST_NPS=${SHOAL_TEST_NPS_COLL:-1 2 3 4} "$srcdir/../run-pe.sh" ./tests/coll/test_reduce "$@" >"$log" 2>&1
rc=$?
grep -v ': debug: ' "$log"
grep ': debug: .* takes ' "$log" | sed 's/.*debug: [a-z0-9_]*: //; s/ on the team .* takes / takes /' | sort | uniq -c
[ $rc -eq 0 ] || exit $rc
if [ -z "${SHOAL_PES_PER_NODE:-}" ] && [ "${SHOAL_TRANSPORT:-auto}" = auto ] &&
   ! grep -q ' takes ring-scope$' "$log"; then
  echo "FAIL: SHOAL_ALLREDUCE=ring, yet no all-reduce took the ring at a scope"
  exit 1
fi
exit 0
