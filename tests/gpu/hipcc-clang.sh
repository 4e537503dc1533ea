#!/bin/sh
# hipcc for the CI's HIP build: Debian 12's clang-19 over Debian's HIP 5.2
# headers and device libraries (what Debian's hipcc uses), given to
# configure as HIPCC=.  Debian's hipcc drives clang 15 with every device
# function inlined, and LLVM 15's AMDGPU backend (SIFormMemoryClauses) takes
# 30-60 s per collective kernel there: the library's kernels alone ran past
# 30 minutes on CI's two cores.  clang-19 compiles them in under a minute.
# SHOAL_HIP_CLANG names another clang; ROCM_PATH another ROCm (default
# Debian's layout under /usr).
clang=${SHOAL_HIP_CLANG:-clang++-19}
rocm=${ROCM_PATH:-/usr}
bitcode=$rocm/lib/x86_64-linux-gnu/amdgcn/bitcode
[ -d "$bitcode" ] || bitcode=$rocm/amdgcn/bitcode
link=1
for a in "$@"; do
  case "$a" in -c | -S | -E | -M | -MM | --version) link=0 ;; esac
done
if [ $link = 1 ]; then
  exec "$clang" -isystem "$rocm/hsa/include" --rocm-path="$rocm" --hip-device-lib-path="$bitcode" "$@" \
    --hip-link -L"$rocm/lib/x86_64-linux-gnu" -L"$rocm/lib" -lamdhip64
fi
exec "$clang" -isystem "$rocm/hsa/include" --rocm-path="$rocm" --hip-device-lib-path="$bitcode" "$@"
