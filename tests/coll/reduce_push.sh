#!/bin/sh
# The reduction tests at 1, 2, 3 and 4 PEs with SHOAL_ALLREDUCE=push (every
# vector through the pushbox, longer ones in slot-sized chunks).
srcdir=$(dirname "$0")
export SHOAL_ALLREDUCE=push
SHOAL_TEST_NPS=${SHOAL_TEST_NPS_COLL:-1 2 3 4} exec "$srcdir/../run-pe.sh" ./tests/coll/test_reduce "$@"
