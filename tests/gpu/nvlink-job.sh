#!/bin/sh
# One device job on a machine of several GPUs joined by NVLink: the GPU
# tests with one PE per GPU, and the benchmarks beside NCCL and NVSHMEM in
# the same job, from programs built elsewhere and carried
# (`tests/gpu/run.sh --build-only BUILDDIR` on the build machine).
#   tests/gpu/nvlink-job.sh BUILDDIR PART...
# PART, run in the order given:
#   topo     nvidia-smi's view of the GPUs and their links
#   tests    tests/gpu/run.sh's local part (mapped peers) at 2 GPUs and at
#            every GPU, one PE per GPU (SHOAL_GPU_NPS overrides)
#   nccl     bench_coll (Shoal's _on_stream collectives, CUDA graphs and
#            in-kernel all-reduce beside NCCL) at every GPU, then at 2
#   nvshmem  bench_grid and bench_p2p beside NVSHMEM's builds of the same
#            sources, at every GPU and at 2 (NVSHMEM from the machine's
#            Python site-packages unless NVSHMEM_HOME is set)
#   sweep    bench_grid (4 KB-4 MB) under each GRID_MIN:BLOCK_BYTES pair of
#            $NVLINK_SWEEP ("-" leaves a knob unset): the _on_stream
#            kernels' knobs SHOAL_GPU_STREAM_GRID_MIN and _BLOCK_BYTES
#   shared   the local tests again with two PEs per GPU, under MPS
#   proxy    run.sh's loops with every peer behind the host proxy
#            (SHOAL_GPU_PROVIDERS, default shm), one PE per GPU; rest:
#            its mixed nodes, hierarchical, watchdog and memcheck runs;
#            remote: both
#   sanitize compute-sanitizer memcheck and racecheck on test_device at 2
# Output: job.log and CSV files (one per benchmark and PE count) in $OUT
# (the device tool's folder that comes back) or BUILDDIR/nvlink-out.  BENCH_COLL_MAX / BENCH_GRID_MAX /
# BENCH_GRID_NVSHMEM_MAX / BENCH_P2P_MAX bound the sizes.
set -u
B=$(cd "${1:?usage: nvlink-job.sh BUILDDIR PART...}" && pwd); shift
S=$(cd "$(dirname "$0")/../.." && pwd)
O=${SHOAL_GPU_OUT:-$B/gpu-bin}
R=${OUT:-$B/nvlink-out}
mkdir -p "$R"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1   # never NVLink multicast
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NVSHMEM_REMOTE_TRANSPORT=none   # one host: NVLink peers only
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
py_lib() { python3 -c "import nvidia.$1 as m; print(m.__path__[0])" 2>/dev/null; }
NCCL_DIR=${NCCL_HOME:-$(py_lib nccl)}
NVSHMEM_HOME=${NVSHMEM_HOME:-$(py_lib nvshmem)}
# The programs' rpaths name the build machine's folders: find the carried
# library (and libmtu.so) here, and NCCL where the machine has it.
export LD_LIBRARY_PATH="$B/.libs:$O${NCCL_DIR:+:$NCCL_DIR/lib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

log() { echo "$@" | tee -a "$R/job.log"; }
run() {   # run SECONDS NP PROGRAM ARGS...: one PE per GPU, GPUs 0..NP-1
  limit=$1 np=$2; shift 2
  devs=$(seq -s, 0 $((np - 1)))
  log "== $(date -u +%H:%M:%S) $np PEs (CUDA_VISIBLE_DEVICES=$devs): $*"
  t0=$(date +%s)
  CUDA_VISIBLE_DEVICES=$devs timeout "$limit" mpirun --bind-to none -np "$np" "$@" 2>&1 | tee -a "$R/job.log"
  log "   ($(( $(date +%s) - t0 )) s)"
}
suite() {   # suite LABEL ENV...: tests/gpu/run.sh --run-only with ENV (its part, PEs, MPS)
  label=$1; shift
  log "== $(date -u +%H:%M:%S) tests/gpu/run.sh --run-only: $label"
  t0=$(date +%s)
  env SHOAL_TEST_TIMEOUT="${SHOAL_TEST_TIMEOUT:-120}" SHOAL_GPU_OUT="$O" "$@" "$S/tests/gpu/run.sh" --run-only "$B" 2>&1 |
    tee -a "$R/job.log"
  log "   ($label: $(( $(date +%s) - t0 )) s)"
}
# The NVSHMEM builds take a minute: start them first, beside the other parts.
case " $* " in *" nvshmem "*)
  export NVSHMEM_HOME
  { for b in bench_grid bench_p2p; do "$S/tests/gpu/nvshmem-build.sh" $b "$O" & done; wait; } > "$O/nvbuild.log" 2>&1 &
  nvpid=$! ;;
esac
widths="$ngpu"; [ "$ngpu" -gt 2 ] && widths="$ngpu 2"
for part in "$@"; do
  case $part in
  topo)
    { nvidia-smi -L; nvidia-smi topo -m; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; } 2>&1 |
      tee -a "$R/job.log" ;;
  tests) suite "local part, one PE per GPU" SHOAL_GPU_PART=local SHOAL_GPU_NPS="${SHOAL_GPU_NPS:-$widths}" ;;
  nccl)
    export SHMEM_SYMMETRIC_SIZE=3G
    for np in $widths; do
      export BENCH_CSV="$R/coll-nccl-$np.csv"
      run 240 "$np" "$O/bench_coll" "${BENCH_COLL_MAX:-1073741824}"
    done
    unset BENCH_CSV ;;
  nvshmem)
    [ -n "${nvpid:-}" ] && wait "$nvpid"
    cat "$O/nvbuild.log" >> "$R/job.log"
    export SHMEM_SYMMETRIC_SIZE=3G NVSHMEM_SYMMETRIC_SIZE=2G
    for np in $widths; do
      export BENCH_CSV="$R/grid-nvshmem-$np.csv"
      run 180 "$np" "$O/bench_grid" "${BENCH_GRID_MAX:-268435456}"
      [ -x "$O/bench_grid_nvshmem" ] && run 180 "$np" "$O/bench_grid_nvshmem" "${BENCH_GRID_NVSHMEM_MAX:-67108864}"
    done
    export BENCH_CSV="$R/p2p-nvshmem.csv" SHMEM_SYMMETRIC_SIZE=1G NVSHMEM_SYMMETRIC_SIZE=1G
    run 150 2 "$O/bench_p2p_shoal" ${BENCH_P2P_MAX:-}
    [ -x "$O/bench_p2p_nvshmem" ] && run 150 2 "$O/bench_p2p_nvshmem" ${BENCH_P2P_MAX:-}
    unset BENCH_CSV ;;
  sweep)
    export SHMEM_SYMMETRIC_SIZE=1G BENCH_MIN=4096 BENCH_STEP=2
    for np in $widths; do
      for v in ${NVLINK_SWEEP:--:- 16K:- 16K:32K 16K:64K 32K:8K}; do
        export BENCH_CSV="$R/sweep-$np.csv"
        g=${v%%:*} b=${v#*:}
        if [ "$g" = - ]; then unset SHOAL_GPU_STREAM_GRID_MIN; else export SHOAL_GPU_STREAM_GRID_MIN=$g; fi
        if [ "$b" = - ]; then unset SHOAL_GPU_STREAM_BLOCK_BYTES; else export SHOAL_GPU_STREAM_BLOCK_BYTES=$b; fi
        echo "variant,$v" >> "$BENCH_CSV"
        run 120 "$np" "$O/bench_grid" 4194304
      done
    done
    unset BENCH_CSV BENCH_MIN BENCH_STEP SHOAL_GPU_STREAM_GRID_MIN SHOAL_GPU_STREAM_BLOCK_BYTES ;;
  shared) suite "local part, $((2 * ngpu)) PEs on $ngpu GPUs, MPS" SHOAL_GPU_PART=local SHOAL_GPU_NPS=$((2 * ngpu)) SHOAL_GPU_MPS=1 ;;
  proxy|rest|remote) suite "$part part, one PE per GPU" SHOAL_GPU_PART=$part SHOAL_GPU_PROVIDERS="${SHOAL_GPU_PROVIDERS:-shm}" ;;
  sanitize)
    for tool in memcheck racecheck; do
      run 150 2 compute-sanitizer --tool $tool --error-exitcode 9 "$O/test_device"
    done ;;
  *) log "nvlink-job: unknown part $part" ;;
  esac
done
log "== $(date -u +%H:%M:%S) nvlink-job: done"
