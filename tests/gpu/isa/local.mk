# tests/gpu/isa/: the AMD memory-ordering check (hipcc, no GPU needed), run
# by tests/gpu/ci.sh when hipcc is present.
EXTRA_DIST += tests/gpu/isa/check.sh tests/gpu/isa/extract.awk tests/gpu/isa/amd_scopes.hip \
	tests/gpu/isa/expected-gfx90a.txt tests/gpu/isa/expected-gfx940.txt tests/gpu/isa/expected-gfx942.txt
