# examples/: built with the library, run by 'make demo' and, at 1, 2 and 4
# PEs, by 'make check' (each example checks its own result).
noinst_PROGRAMS += examples/hello examples/ring_signal examples/atomic_counter
examples_hello_SOURCES = examples/hello.c
examples_hello_LDADD = libshoal.la
examples_ring_signal_SOURCES = examples/ring_signal.c
examples_ring_signal_LDADD = libshoal.la
examples_atomic_counter_SOURCES = examples/atomic_counter.c
examples_atomic_counter_LDADD = libshoal.la
TESTS += examples/hello examples/ring_signal examples/atomic_counter

# 'make demo': GPUs when present (a GPU build beside this one), else 4 CPU PEs.
.PHONY: demo
demo: examples/hello tools/oshrun
	$(top_srcdir)/tools/demo.sh $(top_srcdir) $(abs_top_builddir)
