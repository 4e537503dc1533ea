#!/bin/sh
# CI for the GPU target (no GPU on the CI machine): configure a CUDA build
# in a copy of the tracked files, build the library, and compile every GPU
# test and example with nvcc (the benchmarks only with make gpu-build).  If
# Debian's hipcc is installed (SHOAL_CI_HIP=1 installs hipcc and
# libamdhip64-dev first), the HIP library and the GPU tests and examples
# that its clang compiles are built for gfx90a too.
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
  ./autogen.sh > /dev/null && ./configure -q --enable-werror --with-cuda="$(dirname "$(dirname "$nvcc")")" &&
  make -j2 libshoal.la && SHOAL_GPU_NO_BENCH=1 make gpu-build || status=1
cd "$root" || exit 1
if [ "${SHOAL_CI_HIP:-0}" = 1 ] && ! command -v hipcc > /dev/null; then
  apt-get install -y -q hipcc libamdhip64-dev > /dev/null 2>&1 || echo "gpu-ci: hipcc install failed"
fi
if command -v hipcc > /dev/null; then
  rm -rf _build-hip && mkdir _build-hip &&
    git ls-files -z | xargs -0 cp --parents -t _build-hip && cd _build-hip &&
    ./autogen.sh > /dev/null && ./configure -q --enable-werror --with-hip SHOAL_GPU_ARCH=gfx90a &&
    make -j2 libshoal.la && SHOAL_HIPCC=hipcc SHOAL_GPU_ARCH=gfx90a tests/gpu/run.sh --build-only . || status=1
  cd "$root" || exit 1
fi
exit $status
