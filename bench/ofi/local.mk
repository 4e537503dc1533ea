# libfabric transport benchmark: bench/p2p's program with every operation
# through libfabric (shm and tcp;ofi_rxm), beside OSHMEM.  The script skips
# itself in builds without libfabric.
EXTRA_DIST += bench/ofi/run.sh
.PHONY: bench-ofi
bench: bench-ofi
bench-ofi: bench/p2p/bench_p2p tools/oshrun
	$(SHELL) $(top_srcdir)/bench/ofi/run.sh
