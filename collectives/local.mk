# collectives/: one algorithm per header (device functions), host entry points in api_*.c.
shoalcolldir = $(includedir)/shoal/collectives
shoalcoll_HEADERS = collectives/barrier.h
libshoal_la_SOURCES += collectives/api_barrier.c
