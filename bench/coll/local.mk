# Collective benchmark; bench/coll/run.sh also builds the same source
# against Open MPI's OSHMEM (when its oshcc is installed) and compares.
noinst_PROGRAMS += bench/coll/bench_coll
bench_coll_bench_coll_SOURCES = bench/coll/bench_coll.c
bench_coll_bench_coll_LDADD = libshoal.la
EXTRA_DIST += bench/coll/run.sh bench/coll/hier.sh

.PHONY: bench-coll
bench: bench-coll
bench-coll: bench/coll/bench_coll tools/oshrun
	$(SHELL) $(top_srcdir)/bench/coll/run.sh
