# bench/: benchmarks, built with the library, run by 'make bench'.  Each
# area has its own local.mk and adds its run target to 'bench'.
.PHONY: bench
include bench/p2p/local.mk
include bench/ofi/local.mk
include bench/coll/local.mk
