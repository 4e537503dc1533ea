#!/bin/sh
# Install test: 'make install DESTDIR=<tmp>' from this build, then build
# examples/hello.c against the installed tree with oshcc, pkg-config, CMake
# and the static library, and run each with the installed oshrun -np 2.
# Ends with 'make uninstall' leaving no file behind.  Run by 'make check'
# from the top build directory (srcdir is set by automake).
set -eu
srcdir=${srcdir:-.}
top=$(pwd)
hello=$(cd "$srcdir/examples" && pwd)/hello.c
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shoal-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# The installed tree must build programs with the flags the library was
# built with (sanitizer builds need theirs).
unset MAKEFLAGS MFLAGS
eval "$(make -s -C "$top" --no-print-directory shoal-print-build-vars)"
export CC

step "make install DESTDIR=$tmp"
make -s -C "$top" install DESTDIR="$tmp" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "make install"; }
root=$tmp$prefix bin=$tmp$bindir lib=$tmp$libdir
for f in "$bin/oshcc" "$bin/oshrun" "$bin/shoal-info" "$lib/libshoal.so" "$lib/libshoal.a" \
         "$lib/pkgconfig/shoal.pc" "$lib/cmake/Shoal/ShoalConfig.cmake" \
         "$lib/cmake/Shoal/ShoalConfigVersion.cmake" "$tmp$includedir/shmem.h" "$tmp$includedir/shmemx.h" \
         "$tmp$includedir/pshmem.h"; do
  [ -e "$f" ] || fail "not installed: ${f#"$tmp"}"
done
for p in man1/oshcc.1 man1/oshrun.1 man1/shoal-info.1 man3/shmem_put.3 man3/shmem_int_put.3 \
         man3/shmem_ctx_uint64_atomic_fetch_add_nbi.3 man3/shmem_long_wait_until_any_vector.3; do
  [ -f "$tmp$mandir/$p" ] || fail "man page not installed: $p"
done

step "installed shoal-info"
# Its rpath names the final libdir; the staged copy needs a hint.
LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$bin/shoal-info" >"$tmp/info.txt" || fail "shoal-info exited $?"
grep -q 'SHMEM_SYMMETRIC_SIZE' "$tmp/info.txt" || fail "shoal-info lists no SHMEM_SYMMETRIC_SIZE"
# README's environment table must list every variable with its default.
env -i LD_LIBRARY_PATH="$lib" "$bin/shoal-info" --env | awk 'NR > 2 { print $1, $3 }' |
while read -r name def; do
  grep -q "^| \`$name\` | \`$def\` |" "$srcdir/README.md" ||
    fail "README.md's environment table lacks '| \`$name\` | \`$def\` |' (shoal-info --env lists it)"
done

run2() {   # run2 PROGRAM: 2 PEs through the installed oshrun
  out=$("$bin/oshrun" -np 2 "$1" 2>&1) || { echo "$out"; fail "oshrun -np 2 $1"; }
  echo "$out" | grep -q 'ring of 2 PEs: ok' || { echo "$out"; fail "$1 did not finish the ring"; }
  echo "   $1: ok"
}

step "oshcc"
"$bin/oshcc" $CFLAGS "$hello" -o "$tmp/hello-oshcc" $LDFLAGS || fail "oshcc build"
run2 "$tmp/hello-oshcc"

step "pkg-config"
export PKG_CONFIG_PATH="$lib/pkgconfig"
[ "$(pkg-config --modversion shoal)" = "$VERSION" ] || fail "pkg-config --modversion shoal"
$CC $CFLAGS $(pkg-config --cflags shoal) "$hello" -o "$tmp/hello-pc" $(pkg-config --libs shoal) $LDFLAGS ||
  fail "pkg-config build"
run2 "$tmp/hello-pc"

step "static libshoal.a (pkg-config --static)"
$CC $CFLAGS $(pkg-config --cflags shoal) "$hello" -o "$tmp/hello-static" \
  "$lib/libshoal.a" $(pkg-config --static --libs shoal | sed 's/-lshoal//') $LDFLAGS || fail "static build"
if command -v readelf >/dev/null && readelf -d "$tmp/hello-static" | grep -q 'libshoal'; then
  fail "hello-static still needs libshoal.so"
fi
run2 "$tmp/hello-static"

step "CMake find_package(Shoal)"
if command -v cmake >/dev/null; then
  cmake -S "$srcdir/tests/install" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$root" \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_EXE_LINKER_FLAGS="$LDFLAGS" \
    -DHELLO_SOURCE="$hello" >"$tmp/cmake.log" 2>&1 &&
  cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; fail "CMake build"; }
  run2 "$tmp/cmake/hello"
else
  fail "cmake not found (tools/install-deps.sh installs it)"
fi

# Profiling interface: a tool that defines shmem_int_put, shmem_barrier_all,
# shmem_pcontrol and shmem_finalize and forwards to their pshmem_ names sees
# exactly the program's calls (the library's own calls go to pshmem_),
# linked as a shared library before libshoal.so, and linked statically.
tool=$(cd "$srcdir/tests/install" && pwd)
run_tool() {   # run_tool PROGRAM
  out=$("$bin/oshrun" -np 2 "$1" 2>&1) || { echo "$out"; fail "oshrun -np 2 $1"; }
  n=$(echo "$out" | grep -c 'pshmem tool: PE [01]: puts 3 barriers 6 pcontrol 2$') || true
  [ "$n" = 2 ] || { echo "$out"; fail "$1: the tool did not see 3 puts, 6 barriers, pcontrol 2 on each PE"; }
  echo "   $1: ok"
}
step "profiling interface (pshmem.h), shared library"
$CC $CFLAGS -fPIC -shared -I"$tmp$includedir" "$tool/pshmem_tool.c" -o "$tmp/libptool.so" \
  -L"$lib" -lshoal $LDFLAGS || fail "tool library build"
$CC $CFLAGS -I"$tmp$includedir" "$tool/pshmem_prog.c" -o "$tmp/pshmem-shared" -L"$tmp" -lptool \
  -L"$lib" -lshoal -Wl,-rpath,"$tmp" -Wl,-rpath,"$lib" $LDFLAGS || fail "tool program build (shared)"
run_tool "$tmp/pshmem-shared"
step "profiling interface (pshmem.h), static library"
$CC $CFLAGS -I"$tmp$includedir" "$tool/pshmem_prog.c" "$tool/pshmem_tool.c" -o "$tmp/pshmem-static" \
  "$lib/libshoal.a" $(pkg-config --static --libs shoal | sed 's/-lshoal//') $LDFLAGS ||
  fail "tool program build (static)"
run_tool "$tmp/pshmem-static"

step "make uninstall"
make -s -C "$top" uninstall DESTDIR="$tmp" >"$tmp/uninstall.log" 2>&1 || { cat "$tmp/uninstall.log"; fail "make uninstall"; }
left=$(find "$tmp$prefix" -type f 2>/dev/null | head -5)
[ -z "$left" ] || fail "make uninstall left files: $left"
echo "install test: ok"
