#!/bin/sh
# Build, and on a GPU machine run, every GPU test, example and benchmark of
# a GPU build of Shoal (configure --with-cuda, or --with-hip).
#   tests/gpu/run.sh [--build-only | --run-only] [--bench] BUILDDIR
# Programs go to $SHOAL_GPU_OUT (default BUILDDIR/gpu-bin); --run-only runs
# the programs already there (built elsewhere).  Runs use mpirun at 2 GPUs,
# and 4 when the machine has them (SHOAL_GPU_NPS="2 4" overrides: 4 PEs
# on 2 GPUs share them, two processes per GPU); test_device also runs
# under compute-sanitizer --tool memcheck.  --bench runs bench/gpu too,
# NVSHMEM's side when $NVSHMEM_HOME (include/, lib/) is set.
# SHOAL_GPU_NO_BENCH=1 leaves the benchmarks out of the build (CI);
# SHOAL_GPU_PART=local, proxy, rest or remote runs part of the tests, and
# SHOAL_GPU_MPS=1 runs them under MPS (below).
set -u
build_only=0 run_only=0 bench=0
while [ $# -gt 1 ]; do
  case "$1" in --build-only) build_only=1 ;; --run-only) run_only=1 ;; --bench) bench=1 ;; *) break ;; esac
  shift
done
B=$(cd "${1:?usage: run.sh [--build-only] [--bench] BUILDDIR}" && pwd)
S=$(cd "$(dirname "$0")/../.." && pwd)
O=${SHOAL_GPU_OUT:-$B/gpu-bin}
mkdir -p "$O"
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1   # never NVLink multicast

hipcc=${SHOAL_HIPCC:-}
[ "$hipcc" = no ] && hipcc=
if [ -n "$hipcc" ]; then
  CXX="$hipcc -x hip --offload-arch=${SHOAL_GPU_ARCH:-gfx942} -O2 -std=c++17"
  SHARED="-fPIC -shared"
  RPATH="-Wl,-rpath,"
else
  CXX="${SHOAL_NVCC:-nvcc} -arch=${SHOAL_GPU_ARCH:-sm_90} -O2 -std=c++17 -diag-suppress 20208"
  SHARED="-Xcompiler -fPIC -shared"
  RPATH="-Xlinker -rpath -Xlinker "
fi
# The installed header layout (shoal/device, shoal/teams,
# shoal/collectives) over the source tree.
mkdir -p "$O/include/shoal"
for d in device teams collectives; do ln -sfn "$S/$d" "$O/include/shoal/$d"; done
INC="-I$S/include -I$O/include -I$S/tests/gpu"
LIB="-L$B/.libs -lshoal ${RPATH}$B/.libs"

build() {   # build NAME SOURCES... [-- EXTRA]
  name=$1; shift
  echo "  GPU-CC   $name"
  rm -f "$O/$name.FAILED"
  if ! $CXX $INC "$@" -o "$O/$name" $LIB > "$O/$name.build.log" 2>&1; then
    cat "$O/$name.build.log"; echo "BUILD FAILED: $name"; touch "$O/$name.FAILED"
  fi
}
failed() { ls "$O"/*.FAILED 2> /dev/null | wc -l; }
T=$S/tests/gpu
if [ $run_only -eq 0 ]; then
build libmtu.so $SHARED $T/mtu_lib.cu &
build libmtu_dl.so $SHARED $T/mtu_dl.cu &
build test_device $T/test_device.cu &
build test_coll $T/test_coll.cu &
build test_v16 $T/test_v16.cu &
build test_proxy $T/test_proxy.cu &
build test_rcoll $T/test_rcoll.cu &
build test_hier $T/test_hier.cu &
build test_grid $T/test_grid.cu &
build test_warp $T/test_warp.cu &
build test_f16 $T/test_f16.cu &
build test_watchdog $T/test_watchdog.cu &
build test_badarg $T/test_badarg.cu &
# The host API on GPU memory from plain C: no GPU compiler, no GPU headers.
echo "  CC       test_host"
rm -f "$O/test_host.FAILED"
${CC:-cc} -O2 -std=c11 -I"$S/include" "$T/test_host.c" -o "$O/test_host" -L"$B/.libs" -lshoal \
  -Wl,-rpath,"$B/.libs" -lm > "$O/test_host.build.log" 2>&1 || { cat "$O/test_host.build.log"; touch "$O/test_host.FAILED"; }
wait
build test_multi_tu $T/mtu_main.cu $T/mtu_a.cu $T/mtu_b.cu -L"$O" -lmtu ${RPATH}"$O" -ldl &
build ring_put_signal $S/examples/gpu/ring_put_signal.cu &
build fused_allreduce $S/examples/gpu/fused_allreduce.cu &
if [ -z "$hipcc" ] && [ -z "${SHOAL_GPU_NO_BENCH:-}" ]; then
  build bench_p2p_shoal $S/bench/gpu/bench_p2p.cu &
  build bench_dcoll $S/bench/gpu/bench_dcoll.cu &
  build bench_proxy $S/bench/gpu/bench_proxy.cu &
  build bench_grid $S/bench/gpu/bench_grid.cu &
  build bench_f16 $S/bench/gpu/bench_f16.cu &
  build bench_warp $S/bench/gpu/bench_warp.cu &
  build bench_small_stream $S/bench/gpu/bench_small_stream.cu &
  build bench_gridsync $S/bench/gpu/bench_gridsync.cu &
  build bench_sync_parts $S/bench/gpu/bench_sync_parts.cu &
  build bench_push_parts $S/bench/gpu/bench_push_parts.cu &
  build bench_ll_parts $S/bench/gpu/bench_ll_parts.cu &
  build bench_ll_trace $S/bench/gpu/bench_ll_trace.cu &
  build bench_launch $S/bench/gpu/bench_launch.cu &
  build bench_cold $S/bench/gpu/bench_cold.cu &
  NCCL_INC=${NCCL_HOME:+-I$NCCL_HOME/include} NCCL_LIB=${NCCL_HOME:+-L$NCCL_HOME/lib ${RPATH}$NCCL_HOME/lib}
  build bench_coll $S/bench/gpu/bench_coll.cu $NCCL_INC $NCCL_LIB -lnccl &
fi
wait
fails=$(failed)
[ "$fails" -eq 0 ] || { echo "gpu: $fails builds failed"; exit 1; }
fi
[ $build_only -eq 1 ] && { echo "gpu: all GPU programs built in $O"; exit 0; }

if [ -n "$hipcc" ]; then   # AMD: the GPU agents rocminfo lists
  ngpu=$(rocminfo 2>/dev/null | grep -c 'Device Type: *GPU')
else
  ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
fi
[ "$ngpu" -ge 1 ] || { echo "gpu: no GPU here"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
launch() {   # prints how long each run took (the suite's time budget on a shared GPU)
  t0=$(date +%s)
  timeout "${SHOAL_TEST_TIMEOUT:-300}" mpirun --oversubscribe --bind-to none -np "$@"
  rc=$?
  echo "   ($(( $(date +%s) - t0 )) s)"
  return $rc
}
status=0
# SHOAL_GPU_PART=local: the runs on mapped peers only; proxy: the loops
# with every peer behind the host proxy; rest: test_rcoll through the proxy,
# mixed, the hierarchical ones, the watchdog and memcheck; remote: proxy and
# rest (a GPU machine's job limit may not hold the whole suite); all (default).
# SHOAL_GPU_PROVIDERS: the proxy loops' providers (default shm "tcp;ofi_rxm").
# SHOAL_GPU_MPS=1: the tests run under an MPS daemon this script starts
# (PEs that share a GPU then run their kernels side by side: 4 PEs on one
# H100 took 3 s for test_grid against 55 s without); memcheck runs without
# it (compute-sanitizer refuses MPS clients).
mps_on=0
mps() {
  [ "${SHOAL_GPU_MPS:-0}" = 1 ] || return 0
  if [ "$1" = on ] && [ $mps_on -eq 0 ]; then
    nvidia-cuda-mps-control -d && mps_on=1 && echo "(MPS daemon started)"
  elif [ "$1" = off ] && [ $mps_on -eq 1 ]; then
    echo quit | nvidia-cuda-mps-control; sleep 2; mps_on=0; echo "(MPS daemon stopped)"
  fi
}
mps on
want() {   # want local | proxy | rest ("remote": proxy and rest)
  case "${SHOAL_GPU_PART:-all}" in all|"$1") return 0 ;; remote) [ "$1" != local ] ;; *) return 1 ;; esac
}
nps=2; [ "$ngpu" -ge 4 ] && nps="2 4"; [ "$ngpu" -lt 2 ] && nps=1
nps=${SHOAL_GPU_NPS:-$nps}
# one PE too, with the ring forced: a team of one copies, and the ring's
# copy once skipped its block's meetings (session 23: test_coll's run-ahead
# all-reduces read a partial result)
case " $nps " in
*" 1 "*) ;;
*) for p in $(want local && echo test_coll test_grid); do
     echo "== $p with 1 PE, SHOAL_ALLREDUCE=ring"
     (export SHOAL_ALLREDUCE=ring; launch 1 $O/$p) || { echo "FAIL: $p with 1 PE, SHOAL_ALLREDUCE=ring"; status=1; }
   done ;;
esac
for np in $(want local && echo $nps); do
  for p in test_host test_device test_coll test_grid test_warp test_f16 test_v16 test_proxy test_rcoll "test_multi_tu $O/libmtu_dl.so" ring_put_signal fused_allreduce; do
    echo "== $p with $np PEs"
    if ! launch "$np" $O/$p; then echo "FAIL: $p with $np PEs"; status=1; fi
  done
  # the chunked ring forced: grid (test_grid), block and _on_stream (test_coll)
  for p in test_grid test_coll; do
    echo "== $p with $np PEs, SHOAL_ALLREDUCE=ring"
    (export SHOAL_ALLREDUCE=ring; launch "$np" $O/$p) || { echo "FAIL: $p with $np PEs, SHOAL_ALLREDUCE=ring"; status=1; }
  done
  # the staged push (where the PEs share a GPU: its fcollect and alltoall
  # of 160000 bytes a member, back to back and in graph replays)
  echo "== test_coll with $np PEs, SHOAL_GPU_STAGE=on"
  (export SHOAL_GPU_STAGE=on; launch "$np" $O/test_coll) || { echo "FAIL: test_coll with $np PEs, SHOAL_GPU_STAGE=on"; status=1; }
  # a grid that breaks the rules stops with a message, not a hang
  if [ "$np" -ge 2 ]; then
    mps off   # kernels that stop on purpose (a trap) can leave an MPS server unusable
    for m in mismatch toomany; do
      echo "== test_grid $m with $np PEs (must fail with a message)"
      if launch "$np" "$O/test_grid" $m > "$O/test_grid.$m.log" 2>&1 ||
         ! grep -q "error: shmemx_.*_grid: .*grid" "$O/test_grid.$m.log"; then
        cat "$O/test_grid.$m.log"; echo "FAIL: test_grid $m with $np PEs"; status=1
      fi
    done
    echo "== test_warp partial with $np PEs (must fail with a message)"
    if launch "$np" "$O/test_warp" partial > "$O/test_warp.partial.log" 2>&1 ||
       ! grep -q "error: shmemx_int_sum_reduce_warp: called by a warp of fewer than" "$O/test_warp.partial.log"; then
      cat "$O/test_warp.partial.log"; echo "FAIL: test_warp partial with $np PEs"; status=1
    fi
    # bad arguments to the _on_stream collectives, at sizes that LL's
    # kernels (whose host checks for them) and the grid kernels carry
    for c in "root 4096" "root 65536" "root 1048576" "overlap 4096" "overlap 65536" "overlap 1048576" \
             "scatter 4096" "scatter 1048576"; do
      m=${c% *} b=${c#* }
      case $m in
        root) msg="error: shmemx_.*on_stream: PE_root $np is not a member" ;;
        overlap) msg="error: shmemx_.*_reduce_on_stream: dest .* overlap" ;;
        scatter) msg="error: shmemx_.*_reduce_scatter_on_stream.*: dest .* overlaps the source" ;;
      esac
      echo "== test_badarg $c with $np PEs (must fail with a message)"
      if launch "$np" "$O/test_badarg" $m $b > "$O/test_badarg.$m.$b.log" 2>&1 ||
         ! grep -q "$msg" "$O/test_badarg.$m.$b.log"; then
        cat "$O/test_badarg.$m.$b.log"; echo "FAIL: test_badarg $c with $np PEs"; status=1
      fi
    done
    echo "== test_host misaligned with $np PEs (must fail with a message)"
    if launch "$np" "$O/test_host" misaligned > "$O/test_host.misaligned.log" 2>&1 ||
       ! grep -q "error: shmem_complexd_prod_reduce: argument 'dest' .* aligned to 16 bytes" "$O/test_host.misaligned.log"; then
      cat "$O/test_host.misaligned.log"; echo "FAIL: test_host misaligned with $np PEs"; status=1
    fi
    mps on
  fi
done
# Every peer behind the host proxy (SHOAL_PES_PER_NODE=1 makes each PE its
# own "node"), on shm and tcp;ofi_rxm, and mixed (2 PEs per "node" at 4).
# test_rcoll: every GPU collective with members behind the proxy.
# SHOAL_WAIT_TIMEOUT (default 90 s here) ends a run that hangs with what it
# waited for (session 17: test_coll through the proxy hung silently).
for prov in $(want proxy && echo ${SHOAL_GPU_PROVIDERS:-shm "tcp;ofi_rxm"}); do
  for p in test_proxy test_device test_coll test_host test_grid test_warp test_f16 ring_put_signal fused_allreduce \
           "test_multi_tu $O/libmtu_dl.so"; do
    echo "== $p with 2 PEs, every peer behind the proxy (FI_PROVIDER=$prov)"
    (export SHOAL_PES_PER_NODE=1 FI_PROVIDER="$prov" SHOAL_TEST_GRID_QUICK=1 SHOAL_WAIT_TIMEOUT=${SHOAL_WAIT_TIMEOUT:-90}; launch 2 $O/$p) || { echo "FAIL: $p through the proxy ($prov)"; status=1; }
  done
  for p in test_proxy test_device test_coll test_warp; do
    echo "== $p with 4 PEs, every peer behind the proxy (FI_PROVIDER=$prov)"
    (export SHOAL_PES_PER_NODE=1 FI_PROVIDER="$prov" SHOAL_WAIT_TIMEOUT=${SHOAL_WAIT_TIMEOUT:-90}; launch 4 $O/$p) || { echo "FAIL: $p through the proxy, 4 PEs ($prov)"; status=1; }
  done
done
if want rest; then   # (not indented: the parts of SHOAL_GPU_PART)
for np in 2 4; do
  echo "== test_rcoll with $np PEs, every peer behind the proxy (FI_PROVIDER=shm)"
  (export SHOAL_PES_PER_NODE=1 FI_PROVIDER=shm; launch $np $O/test_rcoll) || { echo "FAIL: test_rcoll through the proxy ($np PEs)"; status=1; }
done
for p in test_proxy test_device test_rcoll test_warp; do
  echo "== $p with 4 PEs, 2 per node (load/store and proxy)"
  (export SHOAL_PES_PER_NODE=2 FI_PROVIDER=shm; launch 4 $O/$p) || { echo "FAIL: $p mixed"; status=1; }
done
# The hierarchical all-reduce and reduce-scatter: nodes of 2 + 2 and 3 + 1
# PEs; SHMEM_DEBUG must say the world team's are hierarchical.
for k in 2 3; do
  echo "== test_hier with 4 PEs, $k per node (hierarchical all-reduce and reduce-scatter)"
  (export SHOAL_PES_PER_NODE=$k FI_PROVIDER=shm SHMEM_DEBUG=1; launch 4 $O/test_hier) > "$O/test_hier.$k.log" 2>&1
  rc=$?
  grep -v ': debug: ' "$O/test_hier.$k.log" | tail -20
  grep 'GPU runtime: team of world PEs' "$O/test_hier.$k.log" | sed 's/.*debug: //' | sort | uniq -c
  if [ $rc -ne 0 ] || ! grep -q 'team of world PEs 0 + 1 i (4 PEs): .*all-reduce hierarchical' "$O/test_hier.$k.log" ||
     ! grep -q 'team of world PEs 0 + 1 i (4 PEs): .*reduce-scatter hierarchical' "$O/test_hier.$k.log"; then
    echo "FAIL: test_hier with $k PEs per node (exit $rc)"; status=1
  fi
done
# The wait watchdog in kernels: must end the job (non-zero) within the
# timeout plus a margin, with the kernel's message and the host's.
mps off   # the watchdog stops a kernel on purpose
echo "== test_watchdog with 2 PEs (SHOAL_WAIT_TIMEOUT=5: must fail, within 60 s)"
t0=$(date +%s)
out=$(SHOAL_TEST_TIMEOUT=90 launch 2 -x SHOAL_WAIT_TIMEOUT=5 "$O/test_watchdog" 2>&1)
rc=$?
dt=$(( $(date +%s) - t0 ))
printf '%s\n' "$out" | tail -8
if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $dt -gt 60 ] ||
   ! printf '%s\n' "$out" | grep -q "wait watchdog in a kernel.*heap offset" ||
   ! printf '%s\n' "$out" | grep -q "a kernel of this PE stopped" ||
   printf '%s\n' "$out" | grep -q "returned after a failed kernel"; then
  echo "FAIL: test_watchdog (exit $rc after ${dt}s)"; status=1
else
  echo "ok: test_watchdog ended the job (exit $rc) after ${dt}s"
fi
if command -v compute-sanitizer > /dev/null; then
  mps off
  echo "== compute-sanitizer --tool memcheck test_device with 2 PEs"
  launch 2 compute-sanitizer --tool memcheck --error-exitcode 9 "$O/test_device" || { echo "FAIL: memcheck"; status=1; }
  # and with every peer behind the proxy: its queue in mapped host memory,
  # its copies into the GPU heap.  The ring's put+signal laps: test_proxy
  # and test_device, whose kernels spin on the proxy, ran past 300 s under
  # memcheck (session 18).
  echo "== compute-sanitizer --tool memcheck ring_put_signal with 2 PEs, every peer behind the proxy (FI_PROVIDER=shm)"
  (export SHOAL_PES_PER_NODE=1 FI_PROVIDER=shm; launch 2 compute-sanitizer --tool memcheck --error-exitcode 9 "$O/ring_put_signal") ||
    { echo "FAIL: memcheck of ring_put_signal through the proxy"; status=1; }
fi
fi   # the rest
if [ $bench -eq 1 ] && [ "$ngpu" -ge 2 ]; then
  export BENCH_CSV=${BENCH_CSV:-$O/bench_gpu.csv} SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-3G}
  echo "== bench_p2p (Shoal)"; launch 2 "$O/bench_p2p_shoal" || status=1
  echo "== bench_dcoll (Shoal)"; launch 2 "$O/bench_dcoll" || status=1
  echo "== bench_grid (Shoal)"; launch 2 "$O/bench_grid" || status=1
  echo "== bench_grid (Shoal, SHOAL_ALLREDUCE=ring)"; (export SHOAL_ALLREDUCE=ring; launch 2 "$O/bench_grid") || status=1
  echo "== bench_f16 (Shoal)"; launch 2 "$O/bench_f16" || status=1
  echo "== bench_warp (Shoal)"; launch 2 "$O/bench_warp" || status=1
  echo "== bench_small_stream (Shoal)"; launch 2 "$O/bench_small_stream" || status=1
  echo "== bench_gridsync (Shoal beside CUDA's grid.sync)"; launch 2 "$O/bench_gridsync" || status=1
  echo "== bench_sync_parts (Shoal's barrier kernel, step by step)"; launch 2 "$O/bench_sync_parts" || status=1
  echo "== bench_push_parts (Shoal's grid push, step by step)"; launch 2 "$O/bench_push_parts" 200 || status=1
  echo "== bench_ll_parts (Shoal's one-block LL kernel, step by step)"; launch 2 "$O/bench_ll_parts" 200 || status=1
  echo "== bench_ll_trace (the library's LL calls, every block's steps)"
  mkdir -p "$O/ll-trace" && (export TRACE_DIR=$O/ll-trace; launch 2 "$O/bench_ll_trace") &&
    python3 "$S/bench/gpu/ll_trace.py" "$O/ll-trace" || status=1
  echo "== bench_launch (what one kernel launch costs, by launch API)"; "$O/bench_launch" || status=1
  echo "== bench_cold (what a kernel's first pass over its code and data costs)"; "$O/bench_cold" || status=1
  if [ -n "${NVSHMEM_HOME:-}" ]; then
    for b in bench_p2p bench_dcoll bench_grid bench_f16 bench_warp; do
      "$S/tests/gpu/nvshmem-build.sh" $b "$O" || status=1
      echo "== $b (NVSHMEM)"; NVSHMEM_SYMMETRIC_SIZE=1G launch 2 "$O/${b}_nvshmem" || status=1
    done
  fi
  echo "== bench_coll (Shoal vs NCCL)"; launch 2 "$O/bench_coll" ${BENCH_COLL_MAX:-} || status=1
fi
# The Python package on GPU tensors (CUDA builds that found Python): its
# own script, bounded to 90 s (SHOAL_GPU_NO_PYTHON=1 leaves it out).
if [ -z "$hipcc" ] && [ -f "$B/python/shoal/.libs/_shoal.so" ] && [ -z "${SHOAL_GPU_NO_PYTHON:-}" ]; then
  echo "== tests/python/gpu.sh (the shoal Python package on GPU tensors, 2 PEs)"
  "$S/tests/python/gpu.sh" "$B" || status=1
fi
mps off
[ $status -eq 0 ] && echo "gpu: all GPU tests passed" || echo "gpu: FAILURES"
exit $status
