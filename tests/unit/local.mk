# Unit tests: one process, no launcher; they may include runtime internals.
# The runtime sources they test are compiled straight into them.
UNIT_CPPFLAGS = $(TEST_CPPFLAGS) -I$(top_srcdir)/runtime
check_PROGRAMS += tests/unit/test_alloc tests/unit/test_env tests/unit/test_addr
TESTS += tests/unit/test_alloc tests/unit/test_env tests/unit/test_addr
tests_unit_test_alloc_SOURCES = tests/unit/test_alloc.c runtime/alloc.c
tests_unit_test_alloc_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_alloc_LDADD = $(CHECK_LIBS)
tests_unit_test_env_SOURCES = tests/unit/test_env.c runtime/env.c
tests_unit_test_env_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_env_LDADD = $(CHECK_LIBS)
tests_unit_test_addr_SOURCES = tests/unit/test_addr.c
tests_unit_test_addr_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_addr_LDADD = $(CHECK_LIBS)
check_PROGRAMS += tests/unit/test_proxy_queue
TESTS += tests/unit/test_proxy_queue
tests_unit_test_proxy_queue_SOURCES = tests/unit/test_proxy_queue.c device/proxy_queue.h
tests_unit_test_proxy_queue_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_proxy_queue_CFLAGS = $(AM_CFLAGS) -pthread
tests_unit_test_proxy_queue_LDADD = $(CHECK_LIBS) -lpthread
check_PROGRAMS += tests/unit/test_amo_mailbox
TESTS += tests/unit/test_amo_mailbox
tests_unit_test_amo_mailbox_SOURCES = tests/unit/test_amo_mailbox.c gpu/amo_mailbox.h device/proxy_queue.h
tests_unit_test_amo_mailbox_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_amo_mailbox_CFLAGS = $(AM_CFLAGS) -pthread
tests_unit_test_amo_mailbox_LDADD = $(CHECK_LIBS) -lpthread
check_PROGRAMS += tests/unit/test_reduce_select
TESTS += tests/unit/test_reduce_select
tests_unit_test_reduce_select_SOURCES = tests/unit/test_reduce_select.c
tests_unit_test_reduce_select_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_reduce_select_LDADD = $(CHECK_LIBS)
# The GPU's element combine (<shoal/gpu_reduce.h>) compiled for the CPU.
check_PROGRAMS += tests/unit/test_gpu_reduce
TESTS += tests/unit/test_gpu_reduce
tests_unit_test_gpu_reduce_SOURCES = tests/unit/test_gpu_reduce.cpp
tests_unit_test_gpu_reduce_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_test_gpu_reduce_CXXFLAGS = -std=c++17 -Wall -Wextra -Wno-unknown-pragmas
tests_unit_test_gpu_reduce_LDADD = $(CHECK_LIBS)
# The 16-bit float conversions (<shoal/f16.h>) against the compiler's _Float16.
check_PROGRAMS += tests/unit/test_f16
TESTS += tests/unit/test_f16
tests_unit_test_f16_SOURCES = tests/unit/test_f16.c
tests_unit_test_f16_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_test_f16_LDADD = $(CHECK_LIBS) -lm
# Complex pairs (<shoal/cpair.h>) and their type-erased combine against C's complex types.
check_PROGRAMS += tests/unit/test_cpair
TESTS += tests/unit/test_cpair
tests_unit_test_cpair_SOURCES = tests/unit/test_cpair.c
tests_unit_test_cpair_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_cpair_LDADD = $(CHECK_LIBS) -lm
