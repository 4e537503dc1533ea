# The libfabric transport's tests (only in builds with libfabric).
if HAVE_OFI
check_PROGRAMS += tests/ofi/test_ofi tests/ofi/test_ofi_cas tests/ofi/test_ofi_amo_all
TESTS += tests/ofi/test_ofi tests/ofi/test_ofi_cas tests/ofi/test_ofi_amo_all tests/ofi/test_fail.sh \
	tests/ofi/test_proxy.sh
EXTRA_DIST += tests/ofi/test_fail.sh tests/ofi/test_proxy.sh
tests_ofi_test_ofi_SOURCES = tests/ofi/test_ofi.c
tests_ofi_test_ofi_CPPFLAGS = $(TEST_CPPFLAGS)
tests_ofi_test_ofi_LDADD = $(TEST_LDADD)
tests_ofi_test_ofi_cas_SOURCES = tests/ofi/test_ofi.c
tests_ofi_test_ofi_cas_CPPFLAGS = $(TEST_CPPFLAGS) \
	-DOFI_TEST_ENV_NAME='"SHOAL_OFI_AMO"' -DOFI_TEST_ENV_VALUE='"cas"'
tests_ofi_test_ofi_cas_LDADD = $(TEST_LDADD)
tests_ofi_test_ofi_amo_all_SOURCES = tests/ofi/test_ofi.c
tests_ofi_test_ofi_amo_all_CPPFLAGS = $(TEST_CPPFLAGS) \
	-DOFI_TEST_ENV_NAME='"SHOAL_OFI_AMO_ALL"' -DOFI_TEST_ENV_VALUE='"1"'
tests_ofi_test_ofi_amo_all_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/ofi/fail_peer
tests_ofi_fail_peer_SOURCES = tests/ofi/fail_peer.c
tests_ofi_fail_peer_CPPFLAGS = $(TEST_CPPFLAGS)
tests_ofi_fail_peer_LDADD = libshoal.la
endif
