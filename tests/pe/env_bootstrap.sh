#!/bin/sh
# The env (torchrun-style) bootstrap: C test programs started by
# tests/env-run.sh (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT as torchrun
# sets them) at 1, 2 and 4 PEs, and its errors: a bad WORLD_SIZE, and a rank
# that never comes (bounded by SHOAL_BOOTSTRAP_TIMEOUT, not a hang).
here=$(dirname "$0")
top=$here/../..
status=0
for prog in tests/pe/test_rma tests/pe/test_amo tests/coll/test_reduce tests/coll/test_teams; do
  [ -x "$prog" ] || continue
  SHOAL_LAUNCHER=$top/tests/env-run.sh SHOAL_BOOTSTRAP=env "$top/tests/run-pe.sh" "$prog" || status=1
done

# C programs under torchrun itself (--no_python), when torch is installed.
# (torch 1.13 on Python 3.11 needs --redirects 1 --tee 1: tests/python/run.sh.)
py=${PYTHON:-/usr/bin/python3}
if "$py" -c "import torch.distributed.run" 2>/dev/null; then
  for np in 2 4; do
    for prog in tests/pe/test_rma tests/coll/test_reduce; do
      [ -x "$prog" ] || continue
      echo "== $prog with $np PEs under torchrun"
      # Shoal's default port (MASTER_PORT+1 or a fallback), as tests/python/run.sh
      env -u PMIX_NAMESPACE -u SHOAL_BOOTSTRAP_PORT OMP_NUM_THREADS=1 timeout 300 "$py" -m torch.distributed.run --standalone \
        --nproc_per_node $np --redirects 1 --tee 1 --no_python "$prog" > env_torchrun.out 2>&1 ||
        { grep -v "^ *$" env_torchrun.out | grep -i "shoal\|error\|fail" | grep -v "warning" | head -12
          tail -8 env_torchrun.out; echo "FAIL: $prog with $np PEs under torchrun"; status=1; }
      grep -h "Checks" env_torchrun.out | head -1
    done
  done
  rm -f env_torchrun.out
fi

. "$here/expect_error.sh"
unset PMIX_NAMESPACE
expect_error 'WORLD_SIZE="zero" must be an integer' \
  env RANK=0 WORLD_SIZE=zero MASTER_ADDR=127.0.0.1 MASTER_PORT=29999 tests/pe/test_rma
# Rank 1 of 2 alone: nobody listens, so it gives up after the timeout.
expect_error 'rank 0 never answered at 127.0.0.1' \
  env RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=9 SHOAL_BOOTSTRAP_TIMEOUT=2 \
  tests/pe/test_rma
# Rank 0 of 2 alone: it waits for rank 1, then gives up.
expect_error 'timed out after SHOAL_BOOTSTRAP_TIMEOUT seconds waiting for the other ranks' \
  env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$((30000 + $$ % 20000)) \
  SHOAL_BOOTSTRAP_TIMEOUT=2 tests/pe/test_rma
expect_error 'SHOAL_BOOTSTRAP="tcp" is not one of' env SHOAL_BOOTSTRAP=tcp tests/pe/test_rma
exit $status
