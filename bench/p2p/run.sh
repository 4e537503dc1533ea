#!/bin/sh
# Point-to-point benchmark, Shoal and Open MPI's OSHMEM side by side.
#   bench/p2p/run.sh [max_bytes]      (from the build directory; 'make bench')
# Runs bench/p2p/bench_p2p with tools/oshrun -np 2, builds the same source
# with OSHMEM's oshcc and runs it with OSHMEM's oshrun -np 2, then prints
# both and the ratio.  CSVs go to $SHOAL_BENCH_OUT (default bench/p2p/out).
# OSHMEM_OSHCC / OSHMEM_OSHRUN name OSHMEM's wrappers if they are elsewhere.
# SHOAL_BENCH_RUNS=N runs each library N times, alternating, and keeps the
# best value of each measurement (a busy shared machine only adds noise).
set -u
srcdir=$(cd "$(dirname "$0")" && pwd)
max=${1:-4194304}
out=${SHOAL_BENCH_OUT:-bench/p2p/out}
mkdir -p "$out"
[ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# A run is good when its CSV is complete (OSHMEM 4.1 may crash in finalize).
complete() { [ -s "$1" ] && grep -q ',barrier_all,' "$1"; }

runs=${SHOAL_BENCH_RUNS:-1}

# OSHMEM's wrappers: the oshcc whose link line has -loshmem.
osh_cc=${OSHMEM_OSHCC:-}
if [ -z "$osh_cc" ]; then
  for c in /usr/bin/oshcc $(command -v oshcc 2>/dev/null); do
    if [ -x "$c" ] && "$c" --showme 2>/dev/null | grep -q -- '-loshmem'; then osh_cc=$c; break; fi
  done
fi
if [ -n "$osh_cc" ]; then
  osh_run=${OSHMEM_OSHRUN:-$(dirname "$osh_cc")/oshrun}
  echo "== OSHMEM: $osh_cc -O2 bench_p2p.c; $osh_run -np 2"
  "$osh_cc" -O2 -o "$out/bench_p2p_oshmem" "$srcdir/bench_p2p.c" || { echo "OSHMEM build failed"; exit 1; }
else
  echo "OSHMEM's oshcc not found: Shoal numbers only"
fi

rm -f "$out"/shoal.*.csv "$out"/oshmem.*.csv
floor=
if [ -x bench/p2p/shm_floor ]; then floor=$(bench/p2p/shm_floor); echo "== $floor"; fi
i=1
while [ "$i" -le "$runs" ]; do
  echo "== run $i of $runs: Shoal (tools/oshrun -np 2 bench/p2p/bench_p2p)"
  tools/oshrun -np 2 bench/p2p/bench_p2p -o "$out/shoal.$i.csv" -l shoal -m "$max" >"$out/shoal.log" 2>&1
  complete "$out/shoal.$i.csv" || { cat "$out/shoal.log"; echo "Shoal run failed"; exit 1; }
  if [ -n "$osh_cc" ]; then
    echo "== run $i of $runs: OSHMEM"
    "$osh_run" -np 2 "$out/bench_p2p_oshmem" -o "$out/oshmem.$i.csv" -l oshmem -m "$max" >"$out/oshmem.log" 2>&1
    rc=$?
    complete "$out/oshmem.$i.csv" || { cat "$out/oshmem.log"; echo "OSHMEM run failed (exit $rc)"; exit 1; }
    [ $rc -ne 0 ] && echo "   (OSHMEM exited $rc after writing its results: its finalize crashes)"
  fi
  i=$((i + 1))
done

# Best of the runs: the lowest time, the highest rate.
best() {   # best IMPL
  awk -F, 'FNR == 1 { if (!hdr++) print; next }
    { k = $1 "," $2 "," $3 "," $5
      if (!(k in v)) order[++n] = k
      if (!(k in v) || ($5 == "us" ? $4 < v[k] : $4 > v[k])) v[k] = $4 }
    END { for (i = 1; i <= n; i++) { split(order[i], a, ","); print a[1] "," a[2] "," a[3] "," v[order[i]] "," a[4] } }' \
    "$out/$1".*.csv > "$out/$1.csv"
}
best shoal
if [ -z "$osh_cc" ]; then cat "$out/shoal.csv"; exit 0; fi
best oshmem

# Side by side.  ratio = Shoal / OSHMEM: below 1 is better for times,
# above 1 is better for rates.
echo
echo "Best of $runs run(s) each; ratio = Shoal / OSHMEM"
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
[ -n "$floor" ] && echo "$floor" && echo "  (compare with pingpong_put: the same exchange without a library)"
echo "CSV: $out/shoal.csv $out/oshmem.csv $out/compare.csv"
