# examples/: built with the library, run by 'make demo' and by the tests.
noinst_PROGRAMS += examples/hello
examples_hello_SOURCES = examples/hello.c
examples_hello_LDADD = libshoal.la

.PHONY: demo
demo: examples/hello
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	  mpirun --oversubscribe --bind-to none -np 4 examples/hello
