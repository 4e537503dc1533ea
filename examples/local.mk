# examples/: built with the library, run by 'make demo' and by the tests.
noinst_PROGRAMS += examples/hello
examples_hello_SOURCES = examples/hello.c
examples_hello_LDADD = libshoal.la

.PHONY: demo
demo: examples/hello tools/oshrun
	tools/oshrun -np 4 examples/hello
