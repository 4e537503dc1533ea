#!/bin/sh
# The env bootstrap's default port (MASTER_PORT+1) when other programs hold
# it: rank 0 takes the next free port of the fallback sequence
# (runtime/bootstrap_env.c: seq_port) and every rank finds it there, passing
# over a listener that never answers, one that answers garbage, a port that
# is bound but not listening (as torchrun's client sockets hold theirs) and
# another job's rank 0; rank 0 turns away a hello of another job.  With
# SHOAL_BOOTSTRAP_PORT on such a port, the job fails quickly and says so.
# Ranks are started here, with RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT as
# torchrun sets them.
here=$(dirname "$0")
prog=tests/pe/test_rma
py=${PYTHON:-python3}
[ -x "$prog" ] || { echo "no $prog: skipped"; exit 77; }
"$py" -c "import selectors" 2>/dev/null || { echo "no python3: skipped"; exit 77; }
unset PMIX_NAMESPACE PMIX_RANK PMIX_SERVER_URI2 PMIX_SERVER_URI3 PMIX_SERVER_URI4 \
  PMIX_SERVER_URI21 PMIX_SERVER_URI41 SHOAL_BOOTSTRAP_PORT TORCHELASTIC_RUN_ID
export SHOAL_BOOTSTRAP=env OMP_NUM_THREADS=1
tmp=$(mktemp -d)
squat_pid=""
stop_squat() {
  [ -n "$squat_pid" ] && kill "$squat_pid" 2>/dev/null && wait "$squat_pid" 2>/dev/null
  squat_pid=""
}
trap 'stop_squat; rm -rf "$tmp"' EXIT
status=0

# Port k of the sequence after p1 = MASTER_PORT+1.
seq_port() { echo $((1024 + ($1 - 1024 + $2 * 7919) % 64512)); }

# squat MODE:PORT...: hold ports in the background until stop_squat.
# Returns 3 when a port is taken already.
squat() {
  "$py" "$here/bootstrap_squat.py" 300 "$@" > "$tmp/squat.out" 2> "$tmp/squat.err" &
  squat_pid=$!
  i=0
  while ! grep -q ready "$tmp/squat.out" 2>/dev/null; do
    if ! kill -0 "$squat_pid" 2>/dev/null; then
      wait "$squat_pid"
      rc=$?
      squat_pid=""
      return $rc
    fi
    i=$((i + 1))
    [ $i -gt 200 ] && { echo "FAIL: bootstrap_squat.py never got ready"; exit 1; }
    sleep 0.05
  done
}

# pick_ports MODE1 [MODE2]: a MASTER_PORT below the ephemeral range (32768
# on), and p1 (and p2) held as MODE1 (and MODE2).  Ports from $$, as
# tests/pe/env_bootstrap.sh; other ones when those are taken.
pick_ports() {
  try=0
  while [ $try -lt 8 ]; do
    master=$((20000 + ($$ * 7 + try * 577) % 4000))
    p1=$((master + 1))
    p2=$(seq_port $p1 1)
    p3=$(seq_port $p1 2)
    if squat "$1:$p1" ${2:+"$2:$p2"}; then return 0; fi
    try=$((try + 1))
  done
  echo "FAIL: no free ports for the test"
  exit 1
}

# job NP [VAR=VALUE...]: ranks 0..NP-1 of $prog, as torchrun starts them;
# each bounded by a timeout, all must pass.
job() {
  np=$1; shift
  pids=""
  r=0
  while [ $r -lt "$np" ]; do
    env "$@" RANK=$r LOCAL_RANK=$r WORLD_SIZE=$np LOCAL_WORLD_SIZE=$np MASTER_ADDR=127.0.0.1 \
      MASTER_PORT=$master timeout 120 "$prog" > "$tmp/rank$r.out" 2>&1 &
    pids="$pids $!"
    r=$((r + 1))
  done
  rc=0
  for p in $pids; do wait "$p" || rc=1; done
  if [ $rc -ne 0 ]; then
    echo "FAIL: $np PEs with MASTER_PORT=$master ($*) and its ports held as above"
    for f in "$tmp"/rank*.out; do tail -4 "$f" | sed "s|^|    $(basename "$f"): |"; done
    status=1
  else
    echo "ok: $np PEs: $(grep -h Checks "$tmp/rank0.out" | head -1)"
  fi
  rm -f "$tmp"/rank*.out
}

. "$here/expect_error.sh"

# 1. MASTER_PORT+1 silent, the next port garbage: rank 0 takes the third.
pick_ports silent garbage
echo "== MASTER_PORT=$master: $p1 silent, $p2 answers garbage"
for np in 2 4; do job $np; done

# Rank 0 turns away another job's hello and junk, and goes on.
env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$master timeout 120 "$prog" \
  > "$tmp/rank0.out" 2>&1 &
rank0=$!
# (From the third port of the sequence on: a client socket of another test
# may hold one, and rank 0 passes over it.)
later="$p3"
for k in 3 4 5 6 7 8; do later="$later,$(seq_port $p1 $k)"; done
if ! "$py" "$here/bootstrap_squat.py" 60 intrude:"$later":2 | grep -q intruded; then
  echo "FAIL: could not reach rank 0 at $later (the third port of the sequence on)"
  status=1
fi
env RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$master timeout 120 "$prog" \
  > "$tmp/rank1.out" 2>&1
rc1=$?
wait $rank0
rc0=$?
if [ $rc0 -ne 0 ] || [ $rc1 -ne 0 ] || ! grep -q "turned away rank 1 of 2 of another job" "$tmp/rank0.out"; then
  echo "FAIL: 2 PEs after another job's hello and junk at rank 0 (exit $rc0, $rc1)"
  tail -n 5 "$tmp/rank0.out" "$tmp/rank1.out" | sed 's/^/    /'
  status=1
else
  echo "ok: rank 0 turned away another job's hello and junk, then ran"
fi
rm -f "$tmp"/rank*.out

# 2. With SHOAL_BOOTSTRAP_PORT on those ports: that port only, and a clear
# error, never a hang.
expect_error "cannot listen on * port $p1 (SHOAL_BOOTSTRAP_PORT): Address already in use" \
  env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$master SHOAL_BOOTSTRAP_PORT=$p1 \
  "$prog"
expect_error "ports tried (SHOAL_BOOTSTRAP_PORT): $p1: no greeting" \
  env RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$master SHOAL_BOOTSTRAP_PORT=$p1 \
  SHOAL_BOOTSTRAP_TIMEOUT=3 "$prog"
expect_error "127.0.0.1:$p2 (SHOAL_BOOTSTRAP_PORT) is not this job's rank 0: not Shoal" \
  env RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$master SHOAL_BOOTSTRAP_PORT=$p2 \
  "$prog"
stop_squat

# 3. MASTER_PORT+1 bound by a socket that does not listen (torchrun's client
# sockets), the next port held by another job's rank 0 (same MASTER_PORT,
# another TORCHELASTIC_RUN_ID), which must not fail because of this job.
pick_ports bound
echo "== MASTER_PORT=$master: $p1 bound, not listening; $p2 another job's rank 0"
# (its wait outlasts this job's runs of 2 and 4 PEs: 60 s did not on a
# loaded 2-core machine; it is killed below)
env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$master TORCHELASTIC_RUN_ID=other \
  SHOAL_BOOTSTRAP_TIMEOUT=600 timeout 900 "$prog" > "$tmp/other.out" 2>&1 &
other=$!
sleep 0.3
for np in 2 4; do job $np TORCHELASTIC_RUN_ID=mine; done
if kill -0 $other 2>/dev/null; then
  echo "ok: the other job's rank 0 still waits for its own ranks"
  kill $other
else
  echo "FAIL: the other job's rank 0 exited"
  sed 's/^/    /' "$tmp/other.out"
  status=1
fi
wait $other 2>/dev/null
stop_squat

# 4. A rank given another WORLD_SIZE than rank 0 is told so at once.
env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$master SHOAL_BOOTSTRAP_TIMEOUT=60 \
  timeout 120 "$prog" > "$tmp/other.out" 2>&1 &
other=$!
expect_error "rank 0 of this job has WORLD_SIZE (or nranks) 2, but this rank has 3" \
  env RANK=1 WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=$master "$prog"
kill $other 2>/dev/null
wait $other 2>/dev/null
exit $status
