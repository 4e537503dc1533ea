#!/bin/sh
# Install test of a GPU build (compile and link only: CI has no GPU):
#   tests/install/gpu.sh BUILDDIR
# BUILDDIR is a configured CUDA (--with-cuda) or HIP (--with-hip) build
# whose libshoal.la is built.  'make install DESTDIR=<tmp>', then
# examples/gpu/ring_put_signal.cu is built against the installed tree:
# with oshcc (and oshc++), with nvcc / hipcc and pkg-config's output
# verbatim, and with CMake (find_package(Shoal), a CUDA or HIP target).
# Each program must link libshoal with a run-time path.  Run by
# tests/gpu/ci.sh.
set -eu
B=$(cd "${1:?usage: gpu.sh BUILDDIR}" && pwd)
S=$(cd "$(dirname "$0")/../.." && pwd)
ring=$S/examples/gpu/ring_put_signal.cu
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shoal-gpu-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
step() { echo "== gpu install: $*"; }
fail() { echo "FAIL: gpu install: $*" >&2; exit 1; }
linked() {   # linked PROGRAM: it needs libshoal and says where to find it
  [ -x "$1" ] || fail "$1 not built"
  readelf -d "$1" | grep -q 'NEEDED.*libshoal' || fail "$1 does not need libshoal"
  readelf -d "$1" | grep -q -E 'R(UN)?PATH.*/lib' || fail "$1 has no run-time path"
  echo "   $(basename "$1"): linked"
}

unset MAKEFLAGS MFLAGS
make -s -C "$B" Makefile > /dev/null 2>&1 || true   # regenerated first: its messages would spoil the eval
eval "$(make -s -C "$B" --no-print-directory shoal-print-build-vars)"
if [ -n "$NVCC" ]; then gpu=cuda gcc_=$NVCC; else gpu=hip gcc_=$HIPCC; fi
[ -n "$gcc_" ] || fail "$B is not a GPU build (no NVCC or HIPCC)"

step "make install DESTDIR=$tmp ($gpu build, $SHOAL_GPU_ARCH)"
make -s -C "$B" install DESTDIR="$tmp" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "make install"; }
root=$tmp$prefix bin=$tmp$bindir lib=$tmp$libdir
for f in "$bin/oshcc" "$bin/oshc++" "$tmp$includedir/shoal/gpu.h" "$tmp$includedir/shoal/device/arch_gpu.h"; do
  [ -e "$f" ] || fail "not installed: ${f#"$tmp"}"
done

step "oshcc ring_put_signal.cu"
"$bin/oshcc" --showme "$ring" | grep -q -- "^$gcc_ .*-lshoal" || fail "oshcc --showme: $("$bin/oshcc" --showme "$ring")"
case $gpu in
  cuda) want="-arch=$SHOAL_GPU_ARCH" ;;
  hip) want="--offload-arch=$SHOAL_GPU_ARCH" ;;
esac
"$bin/oshcc" --showme "$ring" | grep -q -- "$want" || fail "oshcc --showme lacks $want"
"$bin/oshcc" --showme -arch=sm_80 "$ring" | grep -q -- "-arch=$SHOAL_GPU_ARCH" &&
  [ $gpu = cuda ] && fail "oshcc added -arch to a command that names one"
SHOAL_NVCC=/my/nvcc SHOAL_HIPCC=/my/hipcc "$bin/oshcc" --showme "$ring" | grep -q '^/my/' ||
  fail "oshcc ignores SHOAL_NVCC / SHOAL_HIPCC"
"$bin/oshcc" -O2 "$ring" -o "$tmp/ring-oshcc" || fail "oshcc ring_put_signal.cu"
linked "$tmp/ring-oshcc"
# Compile with the GPU compiler, link with the host C++ compiler (oshc++
# adds the GPU runtime then).
"$bin/oshcc" -c "$ring" -o "$tmp/ring.o" || fail "oshcc -c ring_put_signal.cu"
"$bin/oshc++" "$tmp/ring.o" -o "$tmp/ring-oshcxx" || fail "oshc++ ring.o"
linked "$tmp/ring-oshcxx"

step "$gpu compiler with pkg-config --cflags --libs shoal, verbatim"
export PKG_CONFIG_PATH="$lib/pkgconfig"
[ "$(pkg-config --variable=gpu shoal)" = $gpu ] || fail "pkg-config --variable=gpu shoal"
[ "$(pkg-config --variable=gpu_arch shoal)" = "$SHOAL_GPU_ARCH" ] || fail "pkg-config --variable=gpu_arch shoal"
case $gpu in
  cuda) "$gcc_" -arch="$SHOAL_GPU_ARCH" -std=c++17 "$ring" -o "$tmp/ring-pc" $(pkg-config --cflags --libs shoal) ;;
  hip) "$gcc_" --offload-arch="$SHOAL_GPU_ARCH" -std=c++17 -x hip "$ring" -o "$tmp/ring-pc" \
         $(pkg-config --cflags --libs shoal) ;;
esac || fail "$gcc_ with pkg-config"
linked "$tmp/ring-pc"

step "CMake find_package(Shoal), a $gpu target"
cmake_ver=$(cmake --version 2>/dev/null | sed -n 's/^cmake version \([0-9]*\.[0-9]*\).*/\1/p')
hip_lang=$(ls -d /usr/lib/*/cmake/hip-lang 2>/dev/null | head -1)
if [ $gpu = hip ] && [ -n "$hip_lang" ] && [ ! -e /usr/lib/cmake/hip-lang ] &&
   [ "$(printf '%s\n3.28\n' "$cmake_ver" | sort -V | head -1)" != 3.28 ]; then
  # Debian installs hip-lang under the multiarch directory; CMake before
  # 3.28 looks for it under <ROCm root>/lib/cmake only, so its HIP language
  # cannot be enabled here.
  echo "SKIP: CMake $cmake_ver's HIP language does not find Debian's $hip_lang (needs <ROCm root>/lib/cmake/hip-lang)"
elif command -v cmake > /dev/null; then
  case $gpu in
    cuda) lang=CUDA; set -- "-DCMAKE_CUDA_COMPILER=$gcc_" ;;
    # CMake's HIP language drives hipcc's own clang++ (Debian: clang++-15
    # beside an older default clang++).
    hip) v=$("$gcc_" --version 2>/dev/null)
      d=$(echo "$v" | sed -n 's/^InstalledDir: //p') maj=$(echo "$v" | sed -n 's/.*clang version \([0-9]*\).*/\1/p')
      cxx_hip=$d/clang++-$maj; [ -x "$cxx_hip" ] || cxx_hip=$d/clang++
      # No GPU to ask: CMake's HIP check needs an architecture.
      lang=HIP; set -- "-DCMAKE_HIP_COMPILER=$cxx_hip" "-DCMAKE_HIP_ARCHITECTURES=$SHOAL_GPU_ARCH" ;;
  esac
  if cmake -S "$S/tests/install" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$root" -DSHOAL_TEST_LANGS="C;CXX;$lang" \
       "$@" -DEXPECT_GPU=$gpu -DHELLO_SOURCE="$S/examples/hello.c" \
       -DHELLO_CXX_SOURCE="$S/tests/install/hello_cxx.cpp" -DRING_SOURCE="$ring" > "$tmp/cmake.log" 2>&1 &&
     cmake --build "$tmp/cmake" >> "$tmp/cmake.log" 2>&1; then
    grep "Shoal_GPU=" "$tmp/cmake.log" | sed 's/^/   /'
    for p in hello hello_cxx ring_$gpu; do linked "$tmp/cmake/$p"; done
  else
    cat "$tmp/cmake.log"; fail "CMake build"
  fi
else
  fail "cmake not found (tools/install-deps.sh installs it)"
fi
echo "gpu install test ($gpu): ok"
