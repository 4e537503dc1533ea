# Multi-PE tests of the point-to-point API, run at 1, 2 and 4 PEs by
# tests/run-pe.sh; scripts (*.sh) run once and launch their own jobs.
PE_TESTS = tests/pe/test_rma
check_PROGRAMS += $(PE_TESTS) tests/pe/bad_input tests/pe/lifecycle
TESTS += $(PE_TESTS) tests/pe/bad_input.sh tests/pe/lifecycle.sh
EXTRA_DIST += tests/pe/bad_input.sh tests/pe/lifecycle.sh
tests_pe_test_rma_SOURCES = tests/pe/test_rma.c
tests_pe_test_rma_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_rma_LDADD = $(TEST_LDADD)
tests_pe_bad_input_SOURCES = tests/pe/bad_input.c
tests_pe_bad_input_LDADD = libshoal.la
tests_pe_lifecycle_SOURCES = tests/pe/lifecycle.c
tests_pe_lifecycle_LDADD = libshoal.la
