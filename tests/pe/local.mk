# Multi-PE tests of the point-to-point API.
check_PROGRAMS += tests/pe/test_rma
TESTS += tests/pe/test_rma
tests_pe_test_rma_SOURCES = tests/pe/test_rma.c
tests_pe_test_rma_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_rma_LDADD = $(TEST_LDADD)
