# runtime/: bootstrap, heap, transports and the host API over device/.
libshoal_la_SOURCES += runtime/internal.h runtime/transport.h \
	runtime/error.c runtime/env.c runtime/bootstrap.c runtime/segment.c runtime/dataseg.c \
	runtime/alloc.c runtime/heap.c runtime/init.c runtime/transport.c runtime/ctx.c \
	runtime/api_rma.c runtime/api_amo.c runtime/api_sync.c runtime/lock.c runtime/watchdog.c
if HAVE_OFI
libshoal_la_SOURCES += runtime/ofi.h runtime/transport_ofi.c runtime/ofi_amo.c
endif
