# tests/: Check unit tests (tests/unit) and multi-PE tests (tests/pe, run at
# 1, 2 and 4 PEs by tests/run-pe.sh).  Each area lists its tests in its own
# local.mk.
LOG_COMPILER = $(top_srcdir)/tests/run-pe.sh
EXTRA_DIST += tests/run-pe.sh tests/shoal_test.h
TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests $(CHECK_CFLAGS)
TEST_LDADD = libshoal.la $(CHECK_LIBS)
include tests/install/local.mk
include tests/launch/local.mk
include tests/gpu/isa/local.mk
if HAVE_CHECK
include tests/unit/local.mk
include tests/pe/local.mk
include tests/coll/local.mk
include tests/ofi/local.mk
endif
