#!/bin/sh
# The AMD memory-ordering check, without an AMD GPU: compile amd_scopes.hip
# (one kernel per fence, quiet, put_signal, wait, signal and AMO of Shoal's
# device API) for each AMD architecture with hipcc, read the generated ISA
# (clang -S --cuda-device-only) and check that every one of them works at
# system scope -- what another GPU over xGMI and the host need -- never at
# agent or workgroup scope:
#   1. the scope rules of each architecture (below), on every kernel;
#   2. each kernel's instruction sequence, named in expected-ARCH.txt, is
#      exactly what the compiler emits: any change of compiler output fails
#      here loudly and must be looked at (then expected-ARCH.txt updated:
#      check.sh --print ARCH prints the current sequences);
#   3. the rules reject the same kernels built at agent scope (the peer
#      library bug: lock writes at GPU scope), so the check can fail.
#   tests/gpu/isa/check.sh [--print ARCH [COMPILER]]
# $SHOAL_HIPCC (default hipcc) compiles; $SHOAL_ISA_ARCHS (default
# "gfx90a gfx940 gfx942") are checked.  An architecture hipcc does not know
# (Debian's hipcc 5.2 / clang 15 knows no gfx942) is compiled by a newer
# clang when there is one ($SHOAL_ISA_CLANG, else clang++-19/18/17: Debian
# 12 has clang-19) over the same HIP headers, without the device library
# (-nogpulib: the kernels call none); else it is replaced by the one LLVM
# compiles with the same memory model (gfx941, gfx942 -> gfx940: the same
# cache-control code in LLVM's SIMemoryLegalizer); either is said.  Each
# architecture's sequences are compared with expected-ARCH.txt (made by
# the compiler named in its first line).  Exits 77 (skip) without hipcc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
S=$(cd "$here/../../.." && pwd)
hipcc=${SHOAL_HIPCC:-hipcc}
if ! command -v "$hipcc" > /dev/null 2>&1; then
  echo "SKIP: no $hipcc (SHOAL_CI_HIP=1 tests/gpu/ci.sh installs Debian's)"; exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shoal-isa.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The installed header layout (shoal/device, ...) over the source tree.
mkdir -p "$tmp/inc/shoal"
for d in device teams collectives; do ln -sfn "$S/$d" "$tmp/inc/shoal/$d"; done

cc_used=$hipcc
compile() {   # compile ARCH OUT.s [EXTRA FLAGS...]   (with $cc_used)
  c_arch=$1 c_out=$2; shift 2
  c_extra=; [ "$cc_used" = "$hipcc" ] || c_extra=-nogpulib
  $cc_used $c_extra -x hip --offload-arch="$c_arch" -O2 -std=c++17 --cuda-device-only -S -w \
    -I"$S/include" -I"$tmp/inc" "$@" "$here/amd_scopes.hip" -o "$c_out" > "$c_out.log" 2>&1
}
accepts() { compile "$1" "$tmp/probe-$1.s"; }
sequences() { awk -f "$here/extract.awk" "$1"; }

# Scope rules on "KERNEL: INSTR; INSTR; ..." lines; prints each violation.
rules() {   # rules FAMILY < sequences
  awk -v fam="$1" -F': ' '
    function bad(why) { print "  " k ": " why; nbad++ }
    { k = $1; n = split($2, s, /; /)
      for (i = 1; i <= n; i++) {
        x = s[i]
        if (fam == "gfx90a") {
          # system acquire: L2 invalidate before the L1 one (agent scope
          # has buffer_wbinvl1_vol alone)
          if (x ~ /^buffer_wbinvl1/ && s[i - 1] != "buffer_invl2")
            bad(x " without buffer_invl2 before it: an acquire at agent scope")
          if (x ~ / (sc[01]|nt)( |$)/) bad(x ": gfx940 bits on gfx90a")
        } else {
          # gfx940: sc0 sc1 = system, sc1 = agent, sc0 = workgroup
          if (x ~ /^buffer_(wbl2|inv)/ && x !~ / sc0 sc1$/)
            bad(x ": a write-back or invalidate below system scope (want sc0 sc1)")
          if (x ~ /_atomic_/ && x !~ / sc1/)
            bad(x ": an atomic below system scope (want sc1)")
          if (x ~ /_(load|store)/ && x ~ /sc[01]/ && x !~ / sc0 sc1/)
            bad(x ": a load or store below system scope (want sc0 sc1)")
        }
      }
      # every fence, quiet and put_signal releases at system scope; every
      # wait and signal read acquires at system scope
      if (k ~ /fence|quiet|put_signal/ && $2 !~ /buffer_wbl2/) bad("no system-scope release (buffer_wbl2)")
      if (k ~ /wait|signal_fetch/ && $2 !~ (fam == "gfx90a" ? "buffer_invl2" : "buffer_inv sc0 sc1"))
        bad("no system-scope acquire")
    }
    END { exit nbad > 0 }'
}
family() { case "$1" in gfx94*) echo gfx940 ;; *) echo "$1" ;; esac }

if [ "${1:-}" = --print ]; then   # --print ARCH [COMPILER]
  cc_used=${3:-$hipcc}
  compile "$2" "$tmp/p.s" || { cat "$tmp/p.s.log"; exit 1; }
  sequences "$tmp/p.s"; exit 0
fi

status=0
echo "isa: $("$hipcc" --version 2>/dev/null | grep -i -m1 'clang version')"
for want in ${SHOAL_ISA_ARCHS:-gfx90a gfx940 gfx942}; do
  a=$want cc_used=$hipcc
  if ! accepts "$a"; then
    fam=$(family "$a") newer=
    for c in ${SHOAL_ISA_CLANG:-} clang++-19 clang++-18 clang++-17; do
      command -v "$c" > /dev/null 2>&1 || continue
      cc_used=$c
      if accepts "$a"; then newer=$c; break; fi
      cc_used=$hipcc
    done
    if [ -n "$newer" ]; then
      echo "isa: $hipcc does not accept $a; compiling it with $newer" \
           "($("$newer" --version | head -1)) over the same HIP headers"
    elif [ "$fam" != "$a" ] && accepts "$fam"; then
      echo "isa: $hipcc does not accept $a ($(grep -m1 -o 'invalid target ID[^;]*' "$tmp/probe-$a.s.log"));" \
           "checking $fam, which LLVM compiles with the same memory model"
      a=$fam
    else
      cat "$tmp/probe-$a.s.log"; echo "FAIL: $hipcc cannot compile amd_scopes.hip for $a"; status=1; continue
    fi
  fi
  fam=$(family "$a")
  exp="$here/expected-$a.txt"
  [ -f "$exp" ] || exp="$here/expected-$fam.txt"
  compile "$a" "$tmp/$a.s" || { cat "$tmp/$a.s.log"; echo "FAIL: compile for $a"; status=1; continue; }
  sequences "$tmp/$a.s" > "$tmp/$a.seq"
  nk=$(grep -c '^[[:space:]]*__global__' "$here/amd_scopes.hip")
  [ "$(wc -l < "$tmp/$a.seq")" -eq "$nk" ] ||
    { echo "FAIL: $a: $(wc -l < "$tmp/$a.seq") kernels read from the ISA, amd_scopes.hip has $nk"; status=1; }
  # 1. scope rules
  if v=$(rules "$fam" < "$tmp/$a.seq"); then
    echo "ok: $a: every fence, wait, signal and AMO is at system scope ($nk kernels)"
  else
    echo "FAIL: $a: below system scope:"; echo "$v"; status=1
  fi
  # 2. each named sequence, exactly
  while IFS='|' read -r k what seq; do
    case "$k" in '#'*|'') continue ;; esac
    k=$(echo "$k" | tr -d ' ') seq=$(echo "$seq" | sed 's/^ *//; s/ *$//') what=$(echo "$what" | sed 's/^ *//; s/ *$//')
    got=$(grep "^$k:" "$tmp/$a.seq" | sed 's/^[^:]*: *//; s/ *$//')
    if [ "$got" = "$seq" ]; then
      echo "ok: $a $k ($what): ${seq:-no scope bits}"
    else
      echo "FAIL: $a $k ($what): the compiler output changed"
      echo "      expected: $seq"
      echo "      got:      $got"
      status=1
    fi
  done < "$exp"
  # 3. the same kernels at agent scope must break the rules
  if compile "$a" "$tmp/$a-agent.s" -U__HIP_MEMORY_SCOPE_SYSTEM \
       -D__HIP_MEMORY_SCOPE_SYSTEM=__HIP_MEMORY_SCOPE_AGENT \
       '-D__atomic_thread_fence(o)=__builtin_amdgcn_fence(o, "agent")'; then
    if sequences "$tmp/$a-agent.s" | rules "$fam" > "$tmp/$a-agent.v"; then
      echo "FAIL: $a: the rules accept the kernels built at agent scope"; status=1
    else
      echo "ok: $a: the rules reject the kernels built at agent scope ($(wc -l < "$tmp/$a-agent.v") findings)"
    fi
  else
    cat "$tmp/$a-agent.s.log"; echo "FAIL: $a: the agent-scope build"; status=1
  fi
done
[ $status -eq 0 ] && echo "isa: all checks passed" || echo "isa: FAILURES"
exit $status
