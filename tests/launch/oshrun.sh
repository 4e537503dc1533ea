#!/bin/sh
# oshrun reads the whole launcher command line the way mpirun does: the PE
# count and the user's choices are found in any order (-x VAR=v -np 4,
# --map-by, -H host:4, -n, --np, -c, --mca k v), the program's own
# arguments are never touched, and on this 2-core machine 4 PEs still get
# --oversubscribe.  Each form runs examples/hello at 4 PEs.  Run by
# 'make check' from the top build directory.
set -u
oshrun=${OSHRUN:-tools/oshrun}
hello=${HELLO:-examples/hello}
status=0
fail() { echo "FAIL: $*"; status=1; }

# --showme: what reaches the launcher (no launcher needed).
show() { SHOAL_LAUNCHER=$1 "$oshrun" --showme $2; }
expect() {   # expect LAUNCHER 'ARGS' 'EXPECTED COMMAND'
  got=$(show "$1" "$2")
  [ "$got" = "$3" ] || fail "oshrun --showme $2 (launcher $1): got '$got', want '$3'"
}
cores=$(nproc 2>/dev/null || echo 1)
big=$((cores + 2))
over="--oversubscribe --bind-to none"
expect mpirun "-x A=1 -np $big ./p -np 1 -x" "mpirun $over -x A=1 -np $big ./p -np 1 -x"
expect mpirun "--map-by core -n $big ./p" "mpirun $over --map-by core -n $big ./p"
expect mpirun "--mca btl self,vader -c $big ./p" "mpirun $over --mca btl self,vader -c $big ./p"
expect mpirun "-H localhost:$big --np $big ./p" "mpirun -H localhost:$big --np $big ./p"
expect mpirun "--bind-to core --oversubscribe -np $big ./p" "mpirun --bind-to core --oversubscribe -np $big ./p"
expect mpirun "-np 1 ./p --oversubscribe" "mpirun -np 1 ./p --oversubscribe"
expect srun "-np 4 -c 2 ./p -np 3" "srun --mpi=pmix -n 4 -c 2 ./p -np 3"
expect srun "--mpi=pmix --np=4 ./p" "srun --mpi=pmix --ntasks=4 ./p"
SHOAL_LAUNCHER=mpirun "$oshrun" -np x ./p 2>/dev/null && fail "oshrun -np x was accepted"

if ! command -v mpirun >/dev/null 2>&1; then
  echo "SKIP: the runs need Open MPI's mpirun"; exit $status
fi
# -x reaches every PE, and 4 copies start.
n=$(SHOAL_LAUNCHER=mpirun timeout 120 "$oshrun" -x SHOAL_PROBE=v42 -np 4 sh -c 'echo "probe $SHOAL_PROBE"' |
    grep -c '^probe v42$')
[ "$n" = 4 ] || fail "oshrun -x SHOAL_PROBE=v42 -np 4: $n of 4 PEs saw the variable"
for form in "-x SHOAL_PROBE=1 -np 4" "--map-by core -np 4" "-H localhost:4 -np 4" "-n 4" "--np 4" \
            "-c 4" "--mca btl self,vader -n 4" "-np 4 --oversubscribe"; do
  out=$(SHOAL_LAUNCHER=mpirun timeout 120 "$oshrun" $form "$hello" 2>&1)
  if echo "$out" | grep -q 'ring of 4 PEs: ok'; then
    echo "ok: oshrun $form hello"
  else
    echo "$out" | tail -15; fail "oshrun $form hello"
  fi
done
[ $status -eq 0 ] && echo "oshrun: all forms ok"
exit $status
