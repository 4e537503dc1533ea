#!/bin/sh
# Fill in an installed tool from its template:
#   subst.sh TEMPLATE OUTPUT prefix includedir libdir pkgconfigdir cmakedir CC VERSION STATIC_LIBS
# The pkg-config and CMake files locate the prefix from their own place
# when the install directories lie under it (relocatable installs).
# The build's C++ and GPU settings come from the environment:
# SHOAL_SUBST_CXX, SHOAL_SUBST_GPU (none, cuda, hip), SHOAL_SUBST_GPU_CC
# (nvcc or hipcc), SHOAL_SUBST_GPU_ARCH, SHOAL_SUBST_GPU_LIBDIR.
set -e
in=$1 out=$2 prefix=$3 includedir=$4 libdir=$5 pkgconfigdir=$6 cmakedir=$7 cc=$8 version=$9
shift 9
static_libs=$*

# DIR relative to BASE when DIR lies under BASE, else nothing.
under() { case "$2" in "$1") echo . ;; "$1"/*) echo "${2#"$1"/}" ;; esac; }
updirs() { r=$(under "$1" "$2"); [ -n "$r" ] && echo "$r" | sed 's|[^/][^/]*|..|g'; }

pc_prefix=$prefix cm_rel=$prefix
if up=$(updirs "$prefix" "$pkgconfigdir") && [ -n "$up" ]; then pc_prefix="\${pcfiledir}/$up"; fi
pc_libdir=$libdir pc_includedir=$includedir cm_libdir=$libdir cm_includedir=$includedir
if r=$(under "$prefix" "$libdir") && [ -n "$r" ]; then pc_libdir="\${prefix}/$r"; fi
if r=$(under "$prefix" "$includedir") && [ -n "$r" ]; then pc_includedir="\${prefix}/$r"; fi
if up=$(updirs "$prefix" "$cmakedir") && [ -n "$up" ]; then
  cm_rel=$up
  r=$(under "$prefix" "$libdir") && [ -n "$r" ] && cm_libdir="\${_shoal_prefix}/$r"
  r=$(under "$prefix" "$includedir") && [ -n "$r" ] && cm_includedir="\${_shoal_prefix}/$r"
fi

cxx=${SHOAL_SUBST_CXX:-c++} gpu=${SHOAL_SUBST_GPU:-none} gpu_cc=${SHOAL_SUBST_GPU_CC:-}
gpu_arch=${SHOAL_SUBST_GPU_ARCH:-} gpu_libdir=${SHOAL_SUBST_GPU_LIBDIR:-}
# CMake spells sm_90 as 90 (CUDA_ARCHITECTURES); HIP keeps gfx942.
gpu_cmake_arch=$(echo "$gpu_arch" | sed 's/^sm_//; s/^compute_//')

# '|' cannot appear in these values; escape '&' and '\' for sed.
esc() { printf '%s' "$1" | sed 's/[&\\]/\\&/g'; }
sed -e "s|@prefix@|$(esc "$prefix")|g" \
    -e "s|@includedir@|$(esc "$includedir")|g" \
    -e "s|@libdir@|$(esc "$libdir")|g" \
    -e "s|@CC@|$(esc "$cc")|g" \
    -e "s|@CXX@|$(esc "$cxx")|g" \
    -e "s|@gpu@|$(esc "$gpu")|g" \
    -e "s|@gpu_cc@|$(esc "$gpu_cc")|g" \
    -e "s|@gpu_arch@|$(esc "$gpu_arch")|g" \
    -e "s|@gpu_cmake_arch@|$(esc "$gpu_cmake_arch")|g" \
    -e "s|@gpu_libdir@|$(esc "$gpu_libdir")|g" \
    -e "s|@VERSION@|$(esc "$version")|g" \
    -e "s|@static_libs@|$(esc "$static_libs")|g" \
    -e "s|@pc_prefix@|$(esc "$pc_prefix")|g" \
    -e "s|@pc_libdir@|$(esc "$pc_libdir")|g" \
    -e "s|@pc_includedir@|$(esc "$pc_includedir")|g" \
    -e "s|@cmake_rel_prefix@|$(esc "$cm_rel")|g" \
    -e "s|@cmake_libdir@|$(esc "$cm_libdir")|g" \
    -e "s|@cmake_includedir@|$(esc "$cm_includedir")|g" \
    "$in" > "$out.tmp"
mv "$out.tmp" "$out"
