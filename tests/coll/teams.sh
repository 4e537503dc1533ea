#!/bin/sh
# The team tests at 1, 2, 3 and 4 PEs.  Run from the build tree's top
# (as make check does); the driver lives next to this script's source.
srcdir=$(dirname "$0")
SHOAL_TEST_NPS=${SHOAL_TEST_NPS_COLL:-1 2 3 4} exec "$srcdir/../run-pe.sh" ./tests/coll/test_teams "$@"
