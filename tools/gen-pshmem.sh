#!/bin/sh
# The OpenSHMEM profiling interface (1.5 section 10), generated from what
# <shmem.h> declares (its typed families come from the type tables, so the
# list never goes stale):
#
#   gen-pshmem.sh header "CPP" INCLUDE_DIR OUT   writes pshmem.h: a pshmem_
#       prototype for every routine shmem.h declares (pstart_pes, p_my_pe,
#       ... for the deprecated names without the shmem_ prefix)
#   gen-pshmem.sh alias "CPP" INCLUDE_DIR OUT    writes the header every
#       library unit is compiled with: it renames each routine shmem_X to
#       pshmem_X (strong) and adds shmem_X as a weak alias, so a tool may
#       define shmem_X and call pshmem_X, with the shared and the static
#       library
set -eu
mode=$1 cpp=$2 inc=$3 out=$4
names='shmem_[A-Za-z0-9_]*|start_pes|_my_pe|_num_pes|shmalloc|shfree|shrealloc|shmemalign'

# One declaration per line: the preprocessed header (as C11, without the
# _Generic macros' influence: they are macros), split at ';', with what a
# brace closes or opens dropped, keeping declarations of the names above.
decls=$(printf '#include <shmem.h>\n' | $cpp -P -std=c11 -I"$inc" -x c - |
  tr '\n' ' ' | tr ';' '\n' | sed 's/.*[{}]//; s/^[[:space:]]*//; s/[[:space:]][[:space:]]*/ /g' |
  grep -E "^[^(]*[^A-Za-z0-9_]($names) ?\\(" | grep -vE '^(typedef|static|return)[^A-Za-z0-9_]')
list=$(printf '%s\n' "$decls" | sed -E "s/^[^(]*[^A-Za-z0-9_]($names) ?\\(.*/\\1/" | sort -u)
[ -n "$list" ] || { echo "gen-pshmem.sh: found no declarations in $inc/shmem.h" >&2; exit 1; }

tmp=$out.tmp
case $mode in
header)
  {
    echo '/* The OpenSHMEM profiling interface (1.5 section 10): pshmem_X for every'
    echo ' * routine shmem_X of <shmem.h> (and pstart_pes, p_my_pe, ... for the'
    echo ' * deprecated names).  A tool defines shmem_X, does its work and calls'
    echo ' * pshmem_X.  Generated from <shmem.h> by tools/gen-pshmem.sh. */'
    echo '#ifndef PSHMEM_H'
    echo '#define PSHMEM_H'
    echo ''
    echo '#include <shmem.h>'
    echo ''
    echo '#ifdef __cplusplus'
    echo '#include <complex>'
    echo 'typedef std::complex<double> shoal_pshmem_complexd;'
    echo 'typedef std::complex<float> shoal_pshmem_complexf;'
    echo 'extern "C" {'
    echo '#else'
    echo 'typedef double _Complex shoal_pshmem_complexd;'
    echo 'typedef float _Complex shoal_pshmem_complexf;'
    echo '#endif'
    echo ''
    printf '%s\n' "$decls" | sed -E "s/([^A-Za-z0-9_])($names) ?\\(/\\1p\\2(/; s/double _Complex/shoal_pshmem_complexd/g; s/float _Complex/shoal_pshmem_complexf/g; s/\$/;/" |
      sed -E 's/^extern //' | awk '!seen[$0]++'
    echo ''
    echo '#ifdef __cplusplus'
    echo '}'
    echo '#endif'
    echo ''
    echo '#endif'
  } >"$tmp" ;;
alias)
  {
    echo '/* OpenSHMEM 1.5 section 10 in the library: every routine is defined as'
    echo ' * pshmem_X (strong) and exported as shmem_X too, a weak alias a tool may'
    echo ' * override, with the shared and the static library alike.  Calls inside'
    echo ' * the library go to pshmem_X, so a tool sees only the program'"'"'s calls.'
    echo ' * Force-included into every library unit; generated from <shmem.h> by'
    echo ' * tools/gen-pshmem.sh. */'
    echo '#ifndef SHOAL_PSHMEM_ALIAS_H'
    echo '#define SHOAL_PSHMEM_ALIAS_H'
    echo '#if !defined(__CUDACC__) && !defined(__HIPCC__) && !defined(__cplusplus)'
    echo '#define SHOAL_GENERIC_H   /* no _Generic macros over the renamed names */'
    echo '#define SHOAL_GENERIC16_H'
    printf '%s\n' "$list" | sed -E 's/^(shmem_)?(.*)$/#define \1\2 p\1\2/'
    echo '__asm__('
    printf '%s\n' "$list" | sed -E 's/^(shmem_)?(.*)$/  ".weak \1\2\\n.set \1\2, p\1\2\\n"/'
    echo ');'
    echo '#endif'
    echo '#endif'
  } >"$tmp" ;;
*) echo "usage: gen-pshmem.sh header|alias CPP INCLUDE_DIR OUT" >&2; exit 2 ;;
esac
mv "$tmp" "$out"
