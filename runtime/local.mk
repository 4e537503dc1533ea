# runtime/: bootstrap, heap, environment and the host API over device/.
libshoal_la_SOURCES += runtime/internal.h \
	runtime/error.c runtime/env.c runtime/bootstrap.c runtime/bootstrap_env.c runtime/segment.c runtime/dataseg.c \
	runtime/alloc.c runtime/heap.c runtime/init.c runtime/ctx.c \
	runtime/api_rma.c runtime/api_amo.c runtime/api_sync.c runtime/lock.c runtime/watchdog.c
libshoal_la_SOURCES += runtime/api_v16.c

# Profiling interface (OpenSHMEM 1.5 section 10): every library unit is
# compiled with runtime/pshmem_alias.h, which renames each routine shmem_X
# to pshmem_X (strong) and exports shmem_X as its weak alias; pshmem.h is
# installed.
# tools/gen-pshmem.sh writes both from what <shmem.h> declares.
libshoal_la_SOURCES += runtime/profiling.c
libshoal_la_CPPFLAGS += -include $(top_builddir)/runtime/pshmem_alias.h
nodist_include_HEADERS = include/pshmem.h
PSHMEM_DEPS = $(top_srcdir)/tools/gen-pshmem.sh $(top_srcdir)/include/shmem.h \
	$(top_srcdir)/include/shoal/types.h $(top_srcdir)/include/shoal/constants.h
runtime/pshmem_alias.h: $(PSHMEM_DEPS)
	@$(MKDIR_P) runtime
	$(AM_V_GEN)$(SHELL) $(top_srcdir)/tools/gen-pshmem.sh alias "$(CC) -E" $(top_srcdir)/include $@
include/pshmem.h: $(PSHMEM_DEPS)
	@$(MKDIR_P) include
	$(AM_V_GEN)$(SHELL) $(top_srcdir)/tools/gen-pshmem.sh header "$(CC) -E" $(top_srcdir)/include $@
$(libshoal_la_OBJECTS): runtime/pshmem_alias.h
CLEANFILES += include/pshmem.h runtime/pshmem_alias.h
EXTRA_DIST += tools/gen-pshmem.sh
