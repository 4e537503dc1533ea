#!/bin/sh
# The libfabric transport against Open MPI's OSHMEM, in one run.
#   bench/ofi/run.sh [max_bytes]      (from the build directory; 'make bench-ofi')
# Runs bench/p2p/bench_p2p with 2 PEs and SHOAL_PES_PER_NODE=1 (every
# operation through libfabric) over the shm provider and over tcp;ofi_rxm on
# loopback, then the same source built with OSHMEM's oshcc under its
# oshrun, and prints the three side by side with the ratios Shoal/OSHMEM.
# CSVs go to $SHOAL_BENCH_OUT (default bench/ofi/out).
set -u
srcdir=$(cd "$(dirname "$0")/.." && pwd)
max=${1:-4194304}
out=${SHOAL_BENCH_OUT:-bench/ofi/out}
mkdir -p "$out"
[ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! grep -q '^#define SHOAL_HAVE_OFI 1' config.h 2>/dev/null; then
  echo "bench/ofi: this build has no libfabric transport; skipped"
  exit 0
fi
complete() { [ -s "$1" ] && grep -q ',barrier_all,' "$1"; }

run_shoal() {   # run_shoal LABEL PROVIDER
  echo "== Shoal over libfabric $2: SHOAL_PES_PER_NODE=1 FI_PROVIDER=\"$2\" tools/oshrun -np 2 bench/p2p/bench_p2p"
  rm -f "$out/$1.csv"
  SHOAL_PES_PER_NODE=1 FI_PROVIDER="$2" FI_TCP_IFACE=lo FI_SOCKETS_IFACE=lo \
    tools/oshrun -np 2 bench/p2p/bench_p2p -o "$out/$1.csv" -l "$1" -m "$max" >"$out/$1.log" 2>&1
  complete "$out/$1.csv" || { cat "$out/$1.log"; echo "Shoal run over $2 failed"; exit 1; }
}
run_shoal shm shm
run_shoal tcp "tcp;ofi_rxm"

osh_cc=${OSHMEM_OSHCC:-}
if [ -z "$osh_cc" ]; then
  for c in /usr/bin/oshcc $(command -v oshcc 2>/dev/null); do
    if [ -x "$c" ] && "$c" --showme 2>/dev/null | grep -q -- '-loshmem'; then osh_cc=$c; break; fi
  done
fi
have_osh=0
if [ -n "$osh_cc" ]; then
  osh_run=${OSHMEM_OSHRUN:-$(dirname "$osh_cc")/oshrun}
  echo "== OSHMEM: $osh_cc -O2; $osh_run -np 2 (its default transport, UCX here)"
  "$osh_cc" -O2 -o "$out/bench_p2p_oshmem" "$srcdir/p2p/bench_p2p.c" &&
    "$osh_run" -np 2 "$out/bench_p2p_oshmem" -o "$out/oshmem.csv" -l oshmem -m "$max" \
      >"$out/oshmem.log" 2>&1
  complete "$out/oshmem.csv" && have_osh=1 || echo "OSHMEM run failed: Shoal numbers only"
fi
[ $have_osh -eq 1 ] || : >"$out/oshmem.csv"

# Columns: shm, tcp;ofi_rxm, OSHMEM, and Shoal/OSHMEM for each provider
# (times: below 1 is faster; rates: above 1 is faster).
echo
awk -F, 'FNR == 1 { next }
  FILENAME ~ /shm.csv$/ { s[$2 "," $3] = $4; u[$2 "," $3] = $5; order[++n] = $2 "," $3; next }
  FILENAME ~ /tcp.csv$/ { t[$2 "," $3] = $4; next }
  { o[$2 "," $3] = $4 }
  END {
    printf "%-16s %9s %11s %11s %11s %8s %8s  %s\n", "test", "bytes", "ofi-shm", "ofi-tcp", "oshmem", "shm/osh", "tcp/osh", "unit"
    print "test,bytes,ofi_shm,ofi_tcp,oshmem,shm_ratio,tcp_ratio,unit" > OUT
    for (i = 1; i <= n; i++) {
      k = order[i]; split(k, a, ",")
      r1 = (k in o && o[k] > 0) ? s[k] / o[k] : 0
      r2 = (k in o && o[k] > 0) ? t[k] / o[k] : 0
      printf "%-16s %9s %11.3f %11.3f %11.3f %8.2f %8.2f  %s\n", a[1], a[2], s[k], t[k], o[k], r1, r2, u[k]
      printf "%s,%s,%.4f,%.4f,%.4f,%.3f,%.3f,%s\n", a[1], a[2], s[k], t[k], o[k], r1, r2, u[k] > OUT
    }
  }' OUT="$out/compare.csv" "$out/shm.csv" "$out/tcp.csv" "$out/oshmem.csv"
echo
echo "CSV: $out/shm.csv $out/tcp.csv $out/oshmem.csv $out/compare.csv"
