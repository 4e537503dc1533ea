# Install test: installs into a temporary DESTDIR and builds examples/hello.c
# against it with oshcc, pkg-config and CMake (tests/install/run.sh).
TESTS += tests/install/run.sh
EXTRA_DIST += tests/install/run.sh tests/install/CMakeLists.txt tests/install/pshmem_tool.c \
	tests/install/pshmem_prog.c

# The build's settings for the test (sanitizer flags, install dirs).
.PHONY: shoal-print-build-vars
shoal-print-build-vars:
	@echo "CC='$(CC)' CFLAGS='$(CFLAGS)' LDFLAGS='$(LDFLAGS)' VERSION='$(VERSION)'"
	@echo "prefix='$(prefix)' bindir='$(bindir)' libdir='$(libdir)' includedir='$(includedir)' mandir='$(mandir)'"
