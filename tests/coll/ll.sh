#!/bin/sh
# The LL collectives (collectives/ll.h) with 1, 2 and 3 threads per PE, at
# 1, 2, 3 and 4 PEs, with the default pushbox (lanes.sh runs them too, with
# a small one).
srcdir=$(dirname "$0")
export SHOAL_TEST_LANES_ONLY_LL=1
SHOAL_TEST_NPS=${SHOAL_TEST_NPS_COLL:-1 2 3 4} exec "$srcdir/../run-pe.sh" ./tests/coll/test_lanes "$@"
