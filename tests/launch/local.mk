# tests/launch/: oshrun's command-line parsing with Open MPI (every option
# order at 4 PEs); tests/launch/slurm.sh (srun --mpi=pmix) is run by
# tests/ci-extra.sh since it starts Slurm daemons.
TESTS += tests/launch/oshrun.sh
EXTRA_DIST += tests/launch/oshrun.sh tests/launch/slurm.sh
