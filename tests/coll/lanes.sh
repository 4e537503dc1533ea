#!/bin/sh
# The lane algorithms (data movers and reductions) with 1, 2 and 3 threads
# per PE, at 1, 2, 3 and 4 PEs.
srcdir=$(dirname "$0")
# a small scratch: the staged reductions take many chunks
export SHOAL_TEAM_SCRATCH=${SHOAL_TEAM_SCRATCH:-16K}
SHOAL_TEST_NPS=${SHOAL_TEST_NPS_COLL:-1 2 3 4} exec "$srcdir/../run-pe.sh" ./tests/coll/test_lanes "$@"
