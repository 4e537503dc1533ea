#!/bin/sh
# srun --mpi=pmix, for real: start slurmctld and slurmd on this machine
# (a one-node cluster, a minimal slurm.conf: auth/none, no munge, no
# cgroups), run the examples with 'srun --mpi=pmix -n 2' and '-n 4' and
# through oshrun with SHOAL_LAUNCHER=srun, then stop the daemons.
#   tests/launch/slurm.sh [BUILDDIR]     (default: the current directory)
# Debian's Slurm (slurm-wlm 22.05) ships the PMIx plugin (mpi_pmix_v4.so).
# SHOAL_CI_SLURM=1 installs slurmctld, slurmd and slurm-client first when
# missing (CI: tests/ci-extra.sh).  Skips, saying why, without them, when
# not root (slurmd starts jobs as their user), or when the PMIx plugin is
# not there.  Each step is bounded in time.
set -u
B=$(cd "${1:-.}" && pwd)
skip() { echo "SKIP: slurm: $*"; exit 0; }
if [ "${SHOAL_CI_SLURM:-0}" = 1 ] && ! command -v slurmd > /dev/null; then
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends \
    slurmctld slurmd slurm-client > /dev/null 2>&1 || echo "slurm: package install failed"
fi
for c in slurmctld slurmd srun sinfo; do
  command -v $c > /dev/null || skip "no $c (Debian: apt-get install slurmctld slurmd slurm-client)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to start jobs"
[ -x "$B/examples/hello" ] || { echo "FAIL: slurm: no $B/examples/hello (build first)"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/shoal-slurm.XXXXXX")
pids=
stop() {
  for p in $pids; do kill "$p" 2> /dev/null; done
  for p in $pids; do
    i=0; while kill -0 "$p" 2> /dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$p" 2> /dev/null
  done
  rm -rf "$tmp"
}
trap stop EXIT
trap 'exit 1' INT TERM
host=$(hostname -s)
port=$((20000 + $$ % 20000))   # away from Slurm's defaults, one pair per run
mkdir -p "$tmp/state" "$tmp/spool"
cat > "$tmp/slurm.conf" <<CONF
ClusterName=shoaltest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/none
CredType=cred/none
MpiDefault=none
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmdUser=root
SlurmdParameters=config_overrides
ReturnToService=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=4 State=UNKNOWN
PartitionName=shoal Nodes=$host Default=YES MaxTime=10 State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
# 4 CPUs on this node whatever the hardware (config_overrides): the PEs
# back off while they wait, so 4 on 2 cores make progress.
slurmctld -D -c > "$tmp/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D > "$tmp/slurmd.out" 2>&1 &
pids="$pids $!"
logs() { for f in "$tmp"/*.log "$tmp"/*.out; do echo "----- $f"; tail -20 "$f"; done; }
i=0
until [ "$(timeout 5 sinfo -h -o %t 2> /dev/null)" = idle ]; do
  i=$((i + 1))
  [ $i -lt 60 ] || { logs; echo "FAIL: slurm: the node did not come up in 30 s"; exit 1; }
  sleep 0.5
done
echo "slurm: slurmctld and slurmd up on $host (ports $port, $((port + 1)))"
timeout 30 srun --mpi=list 2>&1 | grep -q pmix || skip "this Slurm has no PMIx plugin (srun --mpi=list)"

status=0
run() {   # run WHAT EXPECTED-OUTPUT COMMAND...
  what=$1 want=$2; shift 2
  out=$(timeout 120 "$@" 2>&1); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q "$want"; then
    echo "ok: $what"
  else
    echo "$out" | tail -15; echo "FAIL: $what (exit $rc; 124 means timed out)"; status=1
  fi
}
for np in 2 4; do
  run "srun --mpi=pmix -n $np hello" "ring of $np PEs: ok" srun --mpi=pmix -n $np "$B/examples/hello"
  run "srun --mpi=pmix -n $np ring_signal" "$np PEs.*: ok" srun --mpi=pmix -n $np "$B/examples/ring_signal"
  run "srun --mpi=pmix -n $np atomic_counter" "$np PEs.*: ok" srun --mpi=pmix -n $np "$B/examples/atomic_counter"
done
if [ -x "$B/tools/oshrun" ]; then
  run "oshrun -np 4 hello (SHOAL_LAUNCHER=srun)" "ring of 4 PEs: ok" \
    env SHOAL_LAUNCHER=srun "$B/tools/oshrun" -np 4 "$B/examples/hello"
  run "oshrun -N 1 --np=2 hello (SHOAL_LAUNCHER=srun)" "ring of 2 PEs: ok" \
    env SHOAL_LAUNCHER=srun "$B/tools/oshrun" -N 1 --np=2 "$B/examples/hello"
fi
[ $status -eq 0 ] && echo "slurm: srun --mpi=pmix ok at 2 and 4 PEs" || logs
exit $status
