#!/bin/sh
# The shoal Python package on GPU tensors, on the GPU machine, from a CUDA
# build (configure --with-cuda with Python headers found) made elsewhere:
#   tests/python/gpu.sh BUILDDIR
# BUILDDIR needs .libs/libshoal.so* and python/shoal/.libs/_shoal.so (one
# abi3 build serves CPython 3.11 and later); the package's Python files,
# the tests, the example and the benchmark come from this source tree.
# At 2 PEs (SHOAL_PY_GPU_NP) sharing the GPUs, under mpirun, with python3
# from PATH (PYTHON overrides: the one that has torch with CUDA):
#   test_gpu     tests/python/test_gpu.py: collectives (every dtype and op,
#                against torch on the CPU), placement, p2p, graph
#   triton       examples/python/triton_peer_store.py (a Triton kernel
#                storing into a peer's heap)
#   bench        bench/python/bench_allreduce.py beside torch.distributed
# One "PASS: part" or "FAIL: part" line per part; logs in $OUT when set
# (else BUILDDIR/python-gpu-logs).  Bounded: 42 + 18 + 25 s at most.
set -u
B=$(cd "${1:?usage: tests/python/gpu.sh BUILDDIR}" && pwd)
S=$(cd "$(dirname "$0")/../.." && pwd)
L=${OUT:-$B/python-gpu-logs}
mkdir -p "$L"
PYTHON=${PYTHON:-python3}
np=${SHOAL_PY_GPU_NP:-2}
export PYTHONPATH="$S/python${PYTHONPATH:+:$PYTHONPATH}"
export SHOAL_PYTHON_LIBS="$B/python/shoal/.libs"
export LD_LIBRARY_PATH="$B/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-1G}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1   # never NVLink multicast
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
status=0

if [ ! -f "$SHOAL_PYTHON_LIBS/_shoal.so" ]; then
  echo "FAIL: python-gpu: no $SHOAL_PYTHON_LIBS/_shoal.so (configure found no Python headers?)"
  exit 1
fi
if ! "$PYTHON" -c "from shoal import _shoal; import torch; assert _shoal.gpu and torch.cuda.is_available()" \
    > "$L/python-gpu-import.log" 2>&1; then
  cat "$L/python-gpu-import.log"
  echo "FAIL: python-gpu: $PYTHON cannot import shoal from a CUDA build with CUDA torch"
  exit 1
fi
"$PYTHON" -c "import sys, torch; print('python-gpu:', sys.version.split()[0], 'torch', torch.__version__)"

part() {   # part NAME SECONDS SCRIPT [ARGS]: mpirun at $np PEs, log, one line
  name=$1 limit=$2; shift 2
  t0=$(date +%s)
  timeout -k 5 "$limit" mpirun --oversubscribe --bind-to none -np "$np" \
    -x PYTHONPATH -x SHOAL_PYTHON_LIBS -x LD_LIBRARY_PATH -x SHMEM_SYMMETRIC_SIZE \
    -x NCCL_NVLS_ENABLE -x TORCH_SYMM_MEM_DISABLE_MULTICAST -x NVSHMEM_DISABLE_NVLS -x PYTHONUNBUFFERED \
    "$PYTHON" "$@" > "$L/python-gpu-$name.log" 2>&1
  rc=$?
  dt=$(( $(date +%s) - t0 ))
  cat "$L/python-gpu-$name.log"
  if [ $rc -eq 0 ]; then
    echo "PASS: python-gpu $name at $np PEs (${dt}s)"
  else
    [ $rc -eq 124 ] && why="ran past ${limit}s" || why="exit $rc"
    echo "FAIL: python-gpu $name at $np PEs ($why after ${dt}s; log $L/python-gpu-$name.log)"
    status=1
  fi
}

part test_gpu 42 "$S/tests/python/test_gpu.py"
part triton 18 "$S/examples/python/triton_peer_store.py"
part bench 25 "$S/bench/python/bench_allreduce.py"
[ $status -eq 0 ] && echo "python-gpu: all parts passed" || echo "python-gpu: FAILURES"
exit $status
