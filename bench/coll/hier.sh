#!/bin/sh
# Hierarchical against flat all-reduce (shmem_long_sum_reduce on the world
# team) in one run of this script: bench/coll/bench_coll twice under the
# same launcher, "nodes" of SHOAL_PES_PER_NODE PEs (default 2) over
# libfabric FI_PROVIDER (default shm), first with the hierarchical
# algorithm (auto), then with SHOAL_COLL_HIER=0 (auto's flat choice).
#   bench/coll/hier.sh [max_bytes]      (from the build directory)
# CSVs go to $SHOAL_BENCH_OUT (default bench/coll/out); SHOAL_BENCH_STEP=2
# doubles the size from 4 KB on (default: times 4).
set -u
max=${1:-4194304}
np=${SHOAL_BENCH_NP:-4}
out=${SHOAL_BENCH_OUT:-bench/coll/out}
mkdir -p "$out"
export SHOAL_PES_PER_NODE="${SHOAL_PES_PER_NODE:-2}" FI_PROVIDER="${FI_PROVIDER:-shm}"
[ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for mode in hier flat; do
  if [ $mode = flat ]; then export SHOAL_COLL_HIER=0; else unset SHOAL_COLL_HIER; fi
  echo "== $mode: SHOAL_PES_PER_NODE=$SHOAL_PES_PER_NODE FI_PROVIDER=$FI_PROVIDER ${SHOAL_COLL_HIER:+SHOAL_COLL_HIER=0 }tools/oshrun -np $np"
  tools/oshrun -np "$np" bench/coll/bench_coll -o "$out/allreduce_$mode.csv" -l "$mode" -m "$max" \
    -t long_sum_reduce -s "${SHOAL_BENCH_STEP:-4}" || exit 1
done
echo
awk -F, 'FNR == 1 { next }
  FILENAME ~ /_hier.csv$/ { h[$3] = $4; order[++n] = $3; next }
  { f[$3] = $4 }
  END {
    printf "%9s %12s %12s %8s\n", "bytes", "hier_us", "flat_us", "flat/hier"
    for (i = 1; i <= n; i++) { b = order[i]; printf "%9s %12.2f %12.2f %8.2f\n", b, h[b], f[b], f[b] / h[b] }
  }' "$out/allreduce_hier.csv" "$out/allreduce_flat.csv"
