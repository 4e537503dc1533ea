# teams/: the team value device code uses, and the host-side team calls.
shoalteamsdir = $(includedir)/shoal/teams
shoalteams_HEADERS = teams/team.h
libshoal_la_SOURCES += teams/team.c
