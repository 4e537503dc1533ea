# Multi-PE tests of the point-to-point API, run at 1, 2 and 4 PEs by
# tests/run-pe.sh; scripts (*.sh) run once and launch their own jobs.
PE_TESTS = tests/pe/test_rma tests/pe/test_amo tests/pe/test_wait tests/pe/test_lock \
	tests/pe/test_ctx tests/pe/test_heap tests/pe/test_setup \
	tests/pe/test_generic tests/pe/test_conf tests/pe/test_generic_coll
check_PROGRAMS += $(PE_TESTS) tests/pe/bad_input tests/pe/lifecycle tests/pe/faults
TESTS += $(PE_TESTS) tests/pe/bad_input.sh tests/pe/lifecycle.sh tests/pe/faults.sh
EXTRA_DIST += tests/pe/bad_input.sh tests/pe/lifecycle.sh tests/pe/faults.sh
tests_pe_faults_SOURCES = tests/pe/faults.c
tests_pe_faults_LDADD = libshoal.la
# The env (torchrun-style) bootstrap and the unique-id start.
check_PROGRAMS += tests/pe/test_uid
TESTS += tests/pe/test_uid tests/pe/env_bootstrap.sh tests/pe/env_bootstrap_port.sh
EXTRA_DIST += tests/pe/env_bootstrap.sh tests/env-run.sh tests/pe/env_bootstrap_port.sh tests/pe/expect_error.sh \
	tests/pe/bootstrap_squat.py
tests_pe_test_uid_SOURCES = tests/pe/test_uid.c
tests_pe_test_uid_LDADD = libshoal.la
tests_pe_test_rma_SOURCES = tests/pe/test_rma.c
tests_pe_test_rma_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_rma_LDADD = $(TEST_LDADD)
tests_pe_bad_input_SOURCES = tests/pe/bad_input.c
tests_pe_bad_input_LDADD = libshoal.la
tests_pe_lifecycle_SOURCES = tests/pe/lifecycle.c
tests_pe_lifecycle_LDADD = libshoal.la
tests_pe_test_amo_SOURCES = tests/pe/test_amo.c
tests_pe_test_amo_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_amo_LDADD = $(TEST_LDADD)
tests_pe_test_wait_SOURCES = tests/pe/test_wait.c
tests_pe_test_wait_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_wait_LDADD = $(TEST_LDADD)
tests_pe_test_lock_SOURCES = tests/pe/test_lock.c
tests_pe_test_lock_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_lock_LDADD = $(TEST_LDADD)
tests_pe_test_ctx_SOURCES = tests/pe/test_ctx.c
tests_pe_test_ctx_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_ctx_LDADD = $(TEST_LDADD)
tests_pe_test_heap_SOURCES = tests/pe/test_heap.c
tests_pe_test_heap_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_heap_LDADD = $(TEST_LDADD)
tests_pe_test_setup_SOURCES = tests/pe/test_setup.c
tests_pe_test_setup_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_setup_LDADD = $(TEST_LDADD)
# Compiled as C11 so that <shmem.h> brings in the _Generic names.
tests_pe_test_generic_SOURCES = tests/pe/test_generic.c
tests_pe_test_generic_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_generic_CFLAGS = $(AM_CFLAGS) -std=c11
tests_pe_test_generic_LDADD = $(TEST_LDADD)
# OpenSHMEM 1.6 additions; C11 for the generic names.
PE_TESTS += tests/pe/test_v16
tests_pe_test_v16_SOURCES = tests/pe/test_v16.c
tests_pe_test_v16_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_v16_CFLAGS = $(AM_CFLAGS) -std=c11
tests_pe_test_v16_LDADD = $(TEST_LDADD)
tests_pe_test_conf_SOURCES = tests/pe/test_conf.c
tests_pe_test_conf_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_conf_LDADD = $(TEST_LDADD)
tests_pe_test_generic_coll_SOURCES = tests/pe/test_generic_coll.c
tests_pe_test_generic_coll_CPPFLAGS = $(TEST_CPPFLAGS)
tests_pe_test_generic_coll_CFLAGS = $(AM_CFLAGS) -std=c11
tests_pe_test_generic_coll_LDADD = $(TEST_LDADD)
# C++ (issue 11): the standard API from C++, complex reductions on std::complex.
check_PROGRAMS += tests/pe/test_cxx
TESTS += tests/pe/test_cxx
tests_pe_test_cxx_SOURCES = tests/pe/test_cxx.cpp
tests_pe_test_cxx_CPPFLAGS = $(AM_CPPFLAGS)
tests_pe_test_cxx_CXXFLAGS = -std=c++17 -Wall -Wextra
tests_pe_test_cxx_LDADD = libshoal.la
