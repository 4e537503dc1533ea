#!/bin/sh
# The NVSHMEM side of a GPU benchmark: the same source built with
# -DUSE_NVSHMEM against $NVSHMEM_HOME (include/, lib/), for run.sh --bench
# and nvlink-job.sh.
#   tests/gpu/nvshmem-build.sh NAME OUTDIR   (bench/gpu/NAME.cu -> OUTDIR/NAME_nvshmem)
S=$(cd "$(dirname "$0")/../.." && pwd)
name=${1:?usage: nvshmem-build.sh NAME OUTDIR} O=${2:?usage: nvshmem-build.sh NAME OUTDIR}
: "${NVSHMEM_HOME:?NVSHMEM_HOME is not set}"
nvcc -arch="${SHOAL_GPU_ARCH:-sm_90}" -O2 -rdc=true -DUSE_NVSHMEM -I"$NVSHMEM_HOME/include" \
  "$S/bench/gpu/$name.cu" -o "$O/${name}_nvshmem" -L"$NVSHMEM_HOME/lib" \
  -l:libnvshmem_host.so.3 -lnvshmem_device -Xlinker -rpath -Xlinker "$NVSHMEM_HOME/lib" \
  > "$O/${name}_nvshmem.build.log" 2>&1 || { cat "$O/${name}_nvshmem.build.log"; exit 1; }
