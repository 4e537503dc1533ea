#!/bin/sh
# Hierarchical against flat all-reduce (shmem_long_sum_reduce on the world
# team; SHOAL_BENCH_TEST=fcollectmem for fcollect,
# SHOAL_BENCH_TEST=long_sum_reduce_scatter for the reduce-scatter, bytes
# per member's block) in one run of this script: bench/coll/bench_coll under the same
# launcher, "nodes" of SHOAL_PES_PER_NODE PEs (default 2) over libfabric
# FI_PROVIDER (default shm), alternately with the hierarchical algorithm
# (auto) and with SHOAL_COLL_HIER=0 (auto's flat choice), SHOAL_BENCH_RUNS
# times each (default 3), keeping each size's best run per mode (the
# machine may be shared).
#   bench/coll/hier.sh [max_bytes]      (from the build directory)
# CSVs go to $SHOAL_BENCH_OUT (default bench/coll/out); SHOAL_BENCH_STEP=2
# doubles the size from 4 KB on (default: times 4).
set -u
max=${1:-4194304}
np=${SHOAL_BENCH_NP:-4}
runs=${SHOAL_BENCH_RUNS:-3}
test=${SHOAL_BENCH_TEST:-long_sum_reduce}
out=${SHOAL_BENCH_OUT:-bench/coll/out}
mkdir -p "$out"
export SHOAL_PES_PER_NODE="${SHOAL_PES_PER_NODE:-2}" FI_PROVIDER="${FI_PROVIDER:-shm}"
[ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
r=1
while [ $r -le "$runs" ]; do
  for mode in hier flat; do
    if [ $mode = flat ]; then export SHOAL_COLL_HIER=0; else unset SHOAL_COLL_HIER; fi
    echo "== run $r, $mode: SHOAL_PES_PER_NODE=$SHOAL_PES_PER_NODE FI_PROVIDER=$FI_PROVIDER ${SHOAL_COLL_HIER:+SHOAL_COLL_HIER=0 }tools/oshrun -np $np"
    tools/oshrun -np "$np" bench/coll/bench_coll -o "$out/${test}_${mode}_$r.csv" -l "$mode" -m "$max" \
      -t "$test" -s "${SHOAL_BENCH_STEP:-4}" || exit 1
  done
  r=$((r + 1))
done
echo
cat "$out/${test}"_hier_*.csv "$out/${test}"_flat_*.csv | awk -F, '
  $1 == "impl" { next }
  { k = $1 "," $3; if (!(k in best) || $4 < best[k]) best[k] = $4; if ($1 == "hier" && !($3 in seen)) { seen[$3] = 1; order[++n] = $3 } }
  END {
    printf "%9s %12s %12s %9s\n", "bytes", "hier_us", "flat_us", "flat/hier"
    print "bytes,hier_us,flat_us" > OUT
    for (i = 1; i <= n; i++) {
      b = order[i]; h = best["hier," b]; f = best["flat," b]
      printf "%9s %12.2f %12.2f %9.2f\n", b, h, f, f / h
      printf "%s,%.3f,%.3f\n", b, h, f > OUT
    }
  }' OUT="$out/${test}_hier_vs_flat.csv"
