#!/bin/sh
# Collective benchmark, Shoal and Open MPI's OSHMEM side by side.
#   bench/coll/run.sh [max_bytes]      (from the build directory; 'make bench')
# Runs bench/coll/bench_coll with tools/oshrun -np $np, builds the same source
# with OSHMEM's oshcc and runs it with OSHMEM's oshrun -np $np, then prints
# both and the ratio.  CSVs go to $SHOAL_BENCH_OUT (default bench/coll/out).
# OSHMEM_OSHCC / OSHMEM_OSHRUN name OSHMEM's wrappers if they are elsewhere.
set -u
srcdir=$(cd "$(dirname "$0")" && pwd)
max=${1:-1048576}
np=${SHOAL_BENCH_NP:-4}
out=${SHOAL_BENCH_OUT:-bench/coll/out}
mkdir -p "$out"
[ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# A run is good when its CSV is complete (OSHMEM 4.1 may crash in finalize).
complete() { [ -s "$1" ] && grep -q ",long_sum_to_all,$max," "$1"; }

echo "== Shoal: tools/oshrun -np $np bench/coll/bench_coll"
rm -f "$out/shoal.csv"
tools/oshrun -np $np bench/coll/bench_coll -o "$out/shoal.csv" -l shoal -m "$max"
complete "$out/shoal.csv" || { echo "Shoal run failed"; exit 1; }

# OSHMEM's wrappers: the oshcc whose link line has -loshmem.
osh_cc=${OSHMEM_OSHCC:-}
if [ -z "$osh_cc" ]; then
  for c in /usr/bin/oshcc $(command -v oshcc 2>/dev/null); do
    if [ -x "$c" ] && "$c" --showme 2>/dev/null | grep -q -- '-loshmem'; then osh_cc=$c; break; fi
  done
fi
if [ -z "$osh_cc" ]; then
  echo "OSHMEM's oshcc not found: Shoal numbers only (see $out/shoal.csv)"
  exit 0
fi
osh_run=${OSHMEM_OSHRUN:-$(dirname "$osh_cc")/oshrun}
echo "== OSHMEM: $osh_cc -O2; $osh_run -np $np"
"$osh_cc" -O2 -o "$out/bench_coll_oshmem" "$srcdir/bench_coll.c" || { echo "OSHMEM build failed"; exit 1; }
rm -f "$out/oshmem.csv"
"$osh_run" --oversubscribe --bind-to none -np $np "$out/bench_coll_oshmem" -o "$out/oshmem.csv" -l oshmem -m "$max" >"$out/oshmem.log" 2>&1
rc=$?
grep -v '^  ' "$out/oshmem.log" | head -5
complete "$out/oshmem.csv" || { cat "$out/oshmem.log"; echo "OSHMEM run failed (exit $rc)"; exit 1; }
[ $rc -ne 0 ] && echo "(OSHMEM exited $rc after writing its results: its finalize crashes)"

# Side by side.  ratio = Shoal / OSHMEM: below 1 is better for times,
# above 1 is better for rates.
echo
awk -F, 'FNR == 1 { next }
  FILENAME ~ /shoal.csv$/ { s[$2 "," $3] = $4; u[$2 "," $3] = $5; order[++n] = $2 "," $3; next }
  { o[$2 "," $3] = $4 }
  END {
    printf "%-18s %9s %12s %12s %8s  %s\n", "test", "bytes", "shoal", "oshmem", "ratio", "unit"
    print "impl_compare,test,bytes,shoal,oshmem,ratio,unit" > OUT
    for (i = 1; i <= n; i++) {
      k = order[i]; split(k, a, ",")
      r = (k in o && o[k] > 0) ? s[k] / o[k] : 0
      better = (u[k] == "us") ? (r <= 1 ? "" : "  (slower)") : (r >= 1 ? "" : "  (slower)")
      printf "%-18s %9s %12.3f %12.3f %8.2f  %s%s\n", a[1], a[2], s[k], o[k], r, u[k], better
      printf "compare,%s,%s,%.4f,%.4f,%.3f,%s\n", a[1], a[2], s[k], o[k], r, u[k] > OUT
    }
  }' OUT="$out/compare.csv" "$out/shoal.csv" "$out/oshmem.csv"
echo
echo "CSV: $out/shoal.csv $out/oshmem.csv $out/compare.csv"
