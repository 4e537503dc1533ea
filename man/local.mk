# man/: man3 pages for the API (one page per family, an alias page per typed
# name) and man1 pages for the tools.  The foundation's man3 pages are made
# by man/gen-man.py and committed; man/pages.mk lists them.
include %D%/pages.mk
dist_man3_MANS += $(shoal_man3_pages)
dist_man1_MANS += man/man1/oshcc.1 man/man1/oshc++.1 man/man1/oshrun.1 man/man1/shoal-info.1
EXTRA_DIST += man/gen-man.py
include man/coll.mk
include man/gpu.mk
# The GPU extensions' pages (man/gpu.mk) go in by a rule of their own:
# in dist_man3_MANS with the others, automake's install-man3 became one
# shell command longer than one argument may be (128 KB; make install
# failed "Argument list too long").
install-data-local: install-gpu-man3
install-gpu-man3:
	$(MKDIR_P) '$(DESTDIR)$(man3dir)'
	@cd $(srcdir) && printf '%s\n' $(shoal_gpu_man3_pages) | xargs $(INSTALL_DATA) -t '$(DESTDIR)$(man3dir)'
uninstall-local: uninstall-gpu-man3
uninstall-gpu-man3:
	@printf '%s\n' $(shoal_gpu_man3_pages) | sed 's|^man/man3/||' | (cd '$(DESTDIR)$(man3dir)' && xargs rm -f)
.PHONY: install-gpu-man3 uninstall-gpu-man3
