# man/: man3 pages for the API (one page per family, an alias page per typed
# name) and man1 pages for the tools.  The foundation's man3 pages are made
# by man/gen-man.py and committed; man/pages.mk lists them.
include %D%/pages.mk
dist_man3_MANS += $(shoal_man3_pages)
dist_man1_MANS += man/man1/oshcc.1 man/man1/oshc++.1 man/man1/oshrun.1 man/man1/shoal-info.1
EXTRA_DIST += man/gen-man.py
include man/coll.mk
include man/gpu.mk
