#!/bin/sh
# Submits count.sbatch (all shards) and a merge job that runs when every shard succeeded.
#   examples/slurm/submit.sh tetris-cube
# Prints the two job ids. Results land in ./results/.
set -eu
here=$(dirname "$0")
mkdir -p results
array=$(sbatch --parsable "$here/count.sbatch" "$@")
merge=$(sbatch --parsable --dependency="afterok:${array%%;*}" --kill-on-invalid-dep=yes "$here/merge.sbatch")
echo "$array $merge"
