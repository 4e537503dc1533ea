#!/bin/sh
# 'make demo': build and run the main example.  On a machine with NVIDIA
# GPUs (nvidia-smi lists some and nvcc is found) or AMD GPUs (rocm-smi and
# hipcc), it configures a GPU build of Shoal beside this one (_build-gpu, a
# copy of the tracked files) and runs examples/gpu/ring_put_signal.cu, a
# ring of device-side puts with signals, one PE per GPU.  Otherwise it runs
# examples/hello on 4 CPU PEs of this build.
#   tools/demo.sh SRCDIR BUILDDIR      (SHOAL_DEMO=cpu forces the CPU demo)
set -e
S=$(cd "$1" && pwd); B=$(cd "$2" && pwd)
cpu_demo() { exec "$B/tools/oshrun" -np 4 "$B/examples/hello"; }

ngpu=0 vendor=
if [ "${SHOAL_DEMO:-}" != cpu ]; then
  if command -v nvidia-smi > /dev/null 2>&1 && ngpu=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU') &&
     [ "$ngpu" -gt 0 ]; then
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    [ -x "$nvcc" ] && vendor=cuda
  elif command -v rocm-smi > /dev/null 2>&1 && command -v hipcc > /dev/null 2>&1; then
    ngpu=$(rocm-smi --showid 2> /dev/null | grep -c '^GPU\[') || ngpu=0
    [ "$ngpu" -gt 0 ] && vendor=hip
  fi
fi
if [ -z "$vendor" ]; then
  echo "demo: no GPU (or no GPU compiler) here: 4 CPU PEs"
  cpu_demo
fi
if ! command -v git > /dev/null 2>&1 || ! git -C "$S" rev-parse > /dev/null 2>&1; then
  echo "demo: $ngpu GPUs found, but the GPU build copies the git checkout: 4 CPU PEs instead"
  cpu_demo
fi

G=$B/_build-gpu
echo "demo: $ngpu GPUs ($vendor): building Shoal for them in $G"
rm -rf "$G" && mkdir -p "$G"
(cd "$S" && git ls-files -z | xargs -0 cp --parents -t "$G")
cd "$G"
./autogen.sh > /dev/null 2>&1
if [ $vendor = cuda ]; then
  ./configure -q --with-cuda="$(dirname "$(dirname "$nvcc")")"
  make -j"$(nproc)" libshoal.la tools/oshrun > /dev/null
  CXX="$nvcc -arch=${SHOAL_GPU_ARCH:-sm_90} -O2"
else
  ./configure -q --with-hip
  make -j"$(nproc)" libshoal.la tools/oshrun > /dev/null
  CXX="hipcc -x hip --offload-arch=${SHOAL_GPU_ARCH:-gfx942} -O2"
fi
$CXX -Iinclude -Igpu-include examples/gpu/ring_put_signal.cu -o ring_put_signal -L.libs -lshoal \
  -Xlinker -rpath -Xlinker "$G/.libs"
exec tools/oshrun -np "$ngpu" ./ring_put_signal
