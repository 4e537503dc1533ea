# python/: the shoal Python package (a C extension over the public API plus
# shoal/__init__.py), installed under $(libdir)/shoal/python; make install
# prints the PYTHONPATH, shoal-info shows it.  configure --without-python
# skips it.
shoalpythondir = $(libdir)/shoal/python
EXTRA_DIST += python/README.md python/shoal/__init__.py python/shoal/_shoal.c \
	tests/python/run.sh tests/python/test_shoal.py
if HAVE_PYTHON
shoalpkgdir = $(shoalpythondir)/shoal
shoalpkg_LTLIBRARIES = python/shoal/_shoal.la
shoalpkg_DATA = python/shoal/__init__.py
python_shoal__shoal_la_SOURCES = python/shoal/_shoal.c
python_shoal__shoal_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(PYTHON_INCLUDE)
python_shoal__shoal_la_LDFLAGS = -module -avoid-version -shared
python_shoal__shoal_la_LIBADD = libshoal.la
# make check: tests/python/run.sh (mpirun at 1, 2, 4 PEs; torchrun at 2, 4).
TESTS += tests/python/run.sh
shoal_python_note = echo "Shoal's Python package: PYTHONPATH=$(shoalpythondir) $(PYTHON) -c 'import shoal'"
else
shoal_python_note = :
endif
install-data-hook:
	@$(shoal_python_note)
