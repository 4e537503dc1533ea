#!/bin/sh
# CI for the GPU target (no GPU on the CI machine): configure a CUDA build
# in a copy of the tracked files, build the library, and compile every GPU
# test and example with nvcc (the benchmarks only with make gpu-build),
# then the install test of that build (tests/install/gpu.sh: oshcc, nvcc
# with pkg-config, CMake CUDA target; compile and link only).  If Debian's
# hipcc is installed (SHOAL_CI_HIP=1 installs hipcc and libamdhip64-dev
# first, and clang-19 for gfx942 and the HIP build): the AMD ISA check (tests/gpu/isa/check.sh:
# gfx90a, gfx940, gfx942), the HIP library for gfx90a,
# the GPU tests and examples for gfx90a, and
# the install test of the HIP build.
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
cd "$root" || exit 1
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$nvcc" ]; then
  echo "gpu-ci: no nvcc at $nvcc; skipping the CUDA build"
  exit 0
fi
status=0
rm -rf _build-cuda && mkdir _build-cuda &&
  git ls-files -z | xargs -0 cp --parents -t _build-cuda && cd _build-cuda &&
  # PTX only (compute_90): nvcc's front end checks every line, and no GPU
  # runs here to use machine code; ptxas alone would spend 15+ minutes of
  # CI's two cores on gpu/gpu_lib.cu.  SHOAL_CI_CUDA_ARCH=sm_90 builds SASS.
  ./autogen.sh > /dev/null &&
  ./configure -q --enable-werror --with-cuda="$(dirname "$(dirname "$nvcc")")" \
    SHOAL_GPU_ARCH="${SHOAL_CI_CUDA_ARCH:-compute_90}" &&
  make -j2 libshoal.la && SHOAL_GPU_NO_BENCH=1 make gpu-build &&
  "$root/tests/install/gpu.sh" "$root/_build-cuda" || status=1
cd "$root" || exit 1
if [ "${SHOAL_CI_HIP:-0}" = 1 ] && ! command -v hipcc > /dev/null; then
  { apt-get update -qq; apt-get install -y -q hipcc libamdhip64-dev; } > /dev/null 2>&1 || echo "gpu-ci: hipcc install failed"
fi
# Debian's hipcc (clang 15) knows no gfx942; the ISA check compiles it with
# Debian 12's clang-19 when present.
# The HIP library and tests are compiled by clang-19 over Debian's HIP
# (tests/gpu/hipcc-clang.sh: hipcc's clang 15 takes over 30 minutes on the
# library's kernels here); it needs clang-19's lld and offload bundler.
if [ "${SHOAL_CI_HIP:-0}" = 1 ] &&
   { ! [ -x /usr/lib/llvm-19/bin/clang-offload-bundler ] || ! [ -x /usr/lib/llvm-19/bin/ld.lld ]; }; then
  apt-get install -y -q --no-install-recommends clang-19 lld-19 clang-tools-19 > /dev/null 2>&1 ||
    echo "gpu-ci: clang-19 install failed (the ISA check falls back to gfx940 for gfx942; HIP builds with hipcc)"
fi
if command -v hipcc > /dev/null; then
  tests/gpu/isa/check.sh || status=1
  # The GPU tests are compiled for gfx90a only: gfx940/gfx942 code is
  # covered by the ISA check above, and a second full build doubles CI time.
  hip=hipcc
  if [ -x /usr/lib/llvm-19/bin/clang-offload-bundler ] && [ -x /usr/lib/llvm-19/bin/ld.lld ]; then
    hip=$root/tests/gpu/hipcc-clang.sh
  fi
  echo "gpu-ci: HIP build with $hip"
  rm -rf _build-hip && mkdir _build-hip &&
    git ls-files -z | xargs -0 cp --parents -t _build-hip && cd _build-hip &&
    ./autogen.sh > /dev/null && ./configure -q --enable-werror --with-hip HIPCC="$hip" SHOAL_GPU_ARCH=gfx90a &&
    { # Bounded: with Debian's hipcc (clang 15) the library alone takes
      # over 30 minutes here; with clang-19 the whole step about 2.
      HIP=$hip timeout "${SHOAL_CI_HIP_TIMEOUT:-1200}" sh -c 'make -j2 libshoal.la &&
        SHOAL_HIPCC="$HIP" SHOAL_GPU_ARCH=gfx90a tests/gpu/run.sh --build-only . &&
        tests/install/gpu.sh .'
      rc=$?
      if [ $rc -eq 124 ]; then
        echo "gpu-ci: WARNING: the HIP build ran past ${SHOAL_CI_HIP_TIMEOUT:-1200} s; HIP was not compiled this run"
      elif [ $rc -ne 0 ]; then status=1; fi
    } || status=1
  cd "$root" || exit 1
fi
exit $status
