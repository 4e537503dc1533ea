# Collectives and teams, run at 1, 2, 3 and 4 PEs (odd counts matter for
# ring and two-shot).  Reductions run once per all-reduce algorithm.
COLL_TEST_ENV = SHOAL_TEST_NPS="1 2 3 4"
check_PROGRAMS += tests/coll/test_coll
tests_coll_test_coll_SOURCES = tests/coll/test_coll.c tests/coll/coll_test.h
tests_coll_test_coll_CPPFLAGS = $(TEST_CPPFLAGS)
tests_coll_test_coll_LDADD = $(TEST_LDADD)
TESTS += tests/coll/coll.sh
EXTRA_DIST += tests/coll/coll.sh
check_PROGRAMS += tests/coll/test_reduce
tests_coll_test_reduce_SOURCES = tests/coll/test_reduce.c tests/coll/coll_test.h
tests_coll_test_reduce_CPPFLAGS = $(TEST_CPPFLAGS)
tests_coll_test_reduce_LDADD = $(TEST_LDADD)
TESTS += tests/coll/reduce_auto.sh tests/coll/reduce_oneshot.sh tests/coll/reduce_twoshot.sh \
  tests/coll/reduce_ring.sh tests/coll/reduce_push.sh
EXTRA_DIST += tests/coll/reduce_auto.sh tests/coll/reduce_oneshot.sh tests/coll/reduce_twoshot.sh \
  tests/coll/reduce_ring.sh tests/coll/reduce_push.sh
check_PROGRAMS += tests/coll/death_nonsym
tests_coll_death_nonsym_SOURCES = tests/coll/death_nonsym.c
tests_coll_death_nonsym_LDADD = libshoal.la
TESTS += tests/coll/death.sh
EXTRA_DIST += tests/coll/death.sh
check_PROGRAMS += tests/coll/test_teams
tests_coll_test_teams_SOURCES = tests/coll/test_teams.c tests/coll/coll_test.h
tests_coll_test_teams_CPPFLAGS = $(TEST_CPPFLAGS)
tests_coll_test_teams_LDADD = $(TEST_LDADD)
TESTS += tests/coll/teams.sh
EXTRA_DIST += tests/coll/teams.sh
check_PROGRAMS += tests/coll/test_active
tests_coll_test_active_SOURCES = tests/coll/test_active.c
tests_coll_test_active_CPPFLAGS = $(TEST_CPPFLAGS)
tests_coll_test_active_LDADD = $(TEST_LDADD)
TESTS += tests/coll/active.sh
EXTRA_DIST += tests/coll/active.sh
TESTS += tests/coll/man.sh
EXTRA_DIST += tests/coll/man.sh
# The lane algorithms (collectives/push.h) with k CPU threads per PE as k
# lanes, like a GPU grid of k blocks.
check_PROGRAMS += tests/coll/test_lanes
tests_coll_test_lanes_SOURCES = tests/coll/test_lanes.c tests/coll/coll_test.h
tests_coll_test_lanes_CPPFLAGS = $(TEST_CPPFLAGS)
tests_coll_test_lanes_CFLAGS = $(AM_CFLAGS) -pthread
tests_coll_test_lanes_LDADD = $(TEST_LDADD) -lpthread
TESTS += tests/coll/lanes.sh
EXTRA_DIST += tests/coll/lanes.sh
# The LL collectives (collectives/ll.h) alone, with the default pushbox.
TESTS += tests/coll/ll.sh
EXTRA_DIST += tests/coll/ll.sh
# The hierarchical all-reduce on teams spanning "nodes" of 2 + 2 and 3 + 1
# PEs (SHOAL_PES_PER_NODE, set by hier.sh), and with SHOAL_COLL_HIER=0.
check_PROGRAMS += tests/coll/test_hier
tests_coll_test_hier_SOURCES = tests/coll/test_hier.c
tests_coll_test_hier_CPPFLAGS = $(TEST_CPPFLAGS)
tests_coll_test_hier_LDADD = $(TEST_LDADD)
TESTS += tests/coll/hier.sh
EXTRA_DIST += tests/coll/hier.sh
