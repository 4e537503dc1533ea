# collectives/: one algorithm per header (device functions), host entry points in api_*.c.
shoalcolldir = $(includedir)/shoal/collectives
shoalcoll_HEADERS = collectives/barrier.h collectives/coll.h collectives/reduce_op.h \
  collectives/broadcast.h collectives/broadcast_push.h collectives/fcollect.h collectives/collect.h collectives/alltoall.h \
  collectives/alltoalls.h collectives/reduce_oneshot.h collectives/reduce_push.h collectives/reduce_twoshot.h \
  collectives/reduce_ring.h collectives/reduce_scatter.h collectives/reduce_select.h
shoalcoll_HEADERS += collectives/scan.h
shoalcoll_HEADERS += collectives/scope.h collectives/push.h
shoalcoll_HEADERS += collectives/hier.h collectives/reduce_combine.h
shoalcoll_HEADERS += collectives/ll.h
libshoal_la_SOURCES += collectives/api_scan.c
libshoal_la_SOURCES += collectives/api_barrier.c collectives/api_coll.c collectives/api_reduce.c \
  collectives/api_active.c collectives/coll_host.h collectives/coll_api.h collectives/coll_lane.h teams/team_host.h
