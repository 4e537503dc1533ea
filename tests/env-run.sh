#!/bin/sh
# A tiny torchrun stand-in for tests: env-run.sh -np N PROGRAM [ARGS...]
# starts N copies with RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE,
# MASTER_ADDR=127.0.0.1 and a free MASTER_PORT, as torchrun would, and
# exits with the first non-zero status (the others are stopped then).
[ "$1" = -np ] || { echo "usage: $0 -np N PROGRAM [ARGS...]" >&2; exit 2; }
n=$2; shift 2
# A port nobody listens on: the env bootstrap uses MASTER_PORT+1.
port=$(( 20000 + ($$ * 7 + $(date +%N | sed 's/^0*//;s/^$/0/') / 1000) % 40000 ))
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$port WORLD_SIZE=$n LOCAL_WORLD_SIZE=$n
unset PMIX_NAMESPACE PMIX_RANK PMIX_SERVER_URI2 PMIX_SERVER_URI3 PMIX_SERVER_URI4 PMIX_SERVER_URI21 PMIX_SERVER_URI41
pids=""
i=0
while [ $i -lt "$n" ]; do
  RANK=$i LOCAL_RANK=$i "$@" &
  pids="$pids $!"
  i=$((i + 1))
done
status=0
for p in $pids; do
  wait "$p"
  rc=$?
  if [ $rc -ne 0 ] && [ $status -eq 0 ]; then
    status=$rc
    for q in $pids; do kill "$q" 2>/dev/null; done
  fi
done
exit $status
