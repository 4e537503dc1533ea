# runtime/: bootstrap, heap, environment and the host API over device/.
libshoal_la_SOURCES += runtime/internal.h \
	runtime/error.c runtime/env.c runtime/bootstrap.c runtime/bootstrap_env.c runtime/segment.c runtime/dataseg.c \
	runtime/alloc.c runtime/heap.c runtime/init.c runtime/ctx.c \
	runtime/api_rma.c runtime/api_amo.c runtime/api_sync.c runtime/lock.c
libshoal_la_SOURCES += runtime/api_v16.c
