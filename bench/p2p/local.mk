# Point-to-point benchmark; bench/p2p/run.sh also builds the same source
# against Open MPI's OSHMEM (when its oshcc is installed) and compares.
noinst_PROGRAMS += bench/p2p/bench_p2p
bench_p2p_bench_p2p_SOURCES = bench/p2p/bench_p2p.c
bench_p2p_bench_p2p_LDADD = libshoal.la
EXTRA_DIST += bench/p2p/run.sh bench/RESULTS.md

.PHONY: bench-p2p
bench: bench-p2p
bench-p2p: bench/p2p/bench_p2p bench/p2p/shm_floor tools/oshrun
	$(SHELL) $(top_srcdir)/bench/p2p/run.sh
noinst_PROGRAMS += bench/p2p/shm_floor
bench_p2p_shm_floor_SOURCES = bench/p2p/shm_floor.c
