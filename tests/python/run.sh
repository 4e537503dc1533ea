#!/bin/sh
# The Python package's tests: tests/python/test_shoal.py at 1, 2 and 4 PEs
# under mpirun (SHOAL_TEST_NPS changes the list), then at 2 and 4 under
# torchrun (python3 -m torch.distributed.run --standalone --nproc_per_node N;
# torch 1.13 spells it with underscores) when torch
# imports.  PYTHON is the interpreter configure built the package for.
here=$(cd "$(dirname "$0")" && pwd)
top_src=$(cd "$here/../.." && pwd)
: "${PYTHON:=/usr/bin/python3}"
[ -x "$PYTHON" ] || PYTHON=python3
# The package from the source tree, its C module from the build tree.
export PYTHONPATH="$top_src/python${PYTHONPATH:+:$PYTHONPATH}"
[ -n "$SHOAL_PYTHON_LIBS" ] || SHOAL_PYTHON_LIBS=$(pwd)/python/shoal/.libs
export SHOAL_PYTHON_LIBS
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-64M}
if ! "$PYTHON" -c "import numpy" 2>/dev/null; then
  echo "SKIP: $PYTHON has no numpy (Debian: python3-numpy)"
  exit 77
fi
test=$here/test_shoal.py
status=0
# A GPU build: the heap is GPU memory, so the GPU tests replace the CPU ones
# (at 2 PEs, where CUDA torch is present; the GPU machine runs them).
if "$PYTHON" -c "from shoal import _shoal; raise SystemExit(0 if _shoal.gpu else 1)" 2>/dev/null; then
  SHOAL_TEST_NPS=${SHOAL_TEST_NPS:-2} "$top_src/tests/run-pe.sh" "$PYTHON" "$here/test_gpu.py"
  exit $?
fi
SHOAL_TEST_NPS=${SHOAL_TEST_NPS:-1 2 4} "$top_src/tests/run-pe.sh" "$PYTHON" "$test" || status=1
# test_gpu.py's own logic on CPU tensors (its GPU-only checks left out), so
# that it stays right where no GPU runs it (torch needed).
if "$PYTHON" -c "import torch" 2>/dev/null; then
  SHOAL_TEST_GPU_ON_CPU=1 SHOAL_TEST_NPS=2 "$top_src/tests/run-pe.sh" "$PYTHON" "$here/test_gpu.py" || status=1
fi
# Debian's torch 1.13 on Python 3.11 fails its own default --redirects 0
# (Std.from_str("0") is None there); 1 (stdout, also tee'd) parses.
torchrun_std="--redirects 1 --tee 1"
# The unique-id start, ranks started by tests/env-run.sh
for np in 1 2 4; do
  echo "== $here/test_uid.py with $np PEs (shoal.init_with_uniqueid)"
  timeout "${SHOAL_TEST_TIMEOUT:-300}" "$top_src/tests/env-run.sh" -np "$np" "$PYTHON" "$here/test_uid.py" ||
    { echo "FAIL: test_uid.py with $np PEs"; status=1; }
done
if "$PYTHON" -c "import torch.distributed.run" 2>/dev/null; then
  for np in ${SHOAL_TEST_TORCHRUN_NPS:-2 4}; do
    echo "== $test with $np PEs under torchrun"
    # torchrun's environment only: no PMIx server from an outer launcher.
    # Shoal's rendezvous on its default port, as users run it: MASTER_PORT+1,
    # or a fallback when a client socket of torchrun's own store holds that
    # one (--standalone picks an ephemeral MASTER_PORT, and client ports are
    # allocated next to it; tests/pe/env_bootstrap_port.sh).
    if ! env -u PMIX_NAMESPACE -u PMIX_SERVER_URI2 -u PMIX_SERVER_URI3 -u PMIX_SERVER_URI4 \
        -u PMIX_SERVER_URI21 -u PMIX_SERVER_URI41 -u SHOAL_BOOTSTRAP_PORT OMP_NUM_THREADS=1 \
        timeout "${SHOAL_TEST_TIMEOUT:-300}" "$PYTHON" -m torch.distributed.run --standalone \
        --nproc_per_node "$np" $torchrun_std "$test"; then
      echo "FAIL: $test with $np PEs under torchrun"
      status=1
    fi
  done
else
  echo "(torch is not installed for $PYTHON: no torchrun runs)"
fi
exit $status
