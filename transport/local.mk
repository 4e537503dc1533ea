# transport/: how a PE reaches peers it cannot load/store, behind one table
# of operations (transport.h); one folder per transport.
libshoal_la_SOURCES += transport/transport.h transport/transport.c
if HAVE_OFI
libshoal_la_SOURCES += transport/ofi/ofi.h transport/ofi/ofi.c transport/ofi/ofi_amo.c
endif
# The host proxy: active messages over libfabric for GPU heaps of peers
# that are not mapped (and SHOAL_TRANSPORT=proxy for the CPU API).
if HAVE_OFI
libshoal_la_SOURCES += transport/proxy/am.h transport/proxy/am.c
endif
