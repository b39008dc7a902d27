#!/usr/bin/env bash
# The cluster test: starts a one-node Slurm cluster on localhost (installing slurmctld, slurmd,
# slurm-client and munge with apt-get when missing), submits examples/slurm/count.sbatch as
# users would (N = 8 written into a copy of the script) with the merge job behind it
# (--dependency=afterok), compares the merged count with a single run, reruns one lost shard
# with --array, and shuts every daemon it started down by pid. Runs as root, no systemd.
# Usage: .ci/slurm-cluster.sh [PUZZLE]   (default pentominoes-6x10; needs a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
puzzle=${1:-pentominoes-6x10}
shards=8
export DEBIAN_FRONTEND=noninteractive
bin="${CARGO_TARGET_DIR:-$repo/target}/release/cubesat"
[ -x "$bin" ] || cargo build --release --quiet
bin=$(cd "$(dirname "$bin")" && pwd)/cubesat
export CUBESAT=$bin
say() { echo "slurm-cluster: $*"; }
fail() {
  say "FAILED: $*"
  exit 1
}
# Bounded waits: `wait_for SECONDS WHAT COMMAND...` polls every half second.
wait_for() {
  local limit=$1 what=$2
  shift 2
  local end=$((SECONDS + limit))
  until "$@"; do
    [ $SECONDS -lt $end ] || fail "timed out after ${limit}s waiting for $what"
    sleep 0.5
  done
}

missing=()
for pair in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge; do
  command -v "${pair%%:*}" >/dev/null || [ -x "/usr/sbin/${pair%%:*}" ] || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  timeout 300 apt-get update -qq
  timeout 600 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

dir=$(mktemp -d /tmp/cubesat-slurm.XXXXXX)
mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/work"
started_munge=""
cleanup() {
  local code=$?
  set +e
  if [ -f "$dir/slurmctld.pid" ] || [ -f "$dir/slurmd.pid" ]; then
    SLURM_CONF=$dir/slurm.conf timeout 20 scontrol shutdown >/dev/null 2>&1
    for f in "$dir/slurmctld.pid" "$dir/slurmd.pid"; do
      [ -f "$f" ] || continue
      pid=$(cat "$f")
      for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill -0 "$pid" 2>/dev/null && kill "$pid"
    done
  fi
  if [ -n "$started_munge" ]; then
    kill "$started_munge" 2>/dev/null
    for _ in $(seq 40); do kill -0 "$started_munge" 2>/dev/null || break; sleep 0.25; done
  fi
  if [ $code -ne 0 ]; then
    say "logs:"
    tail -n 20 "$dir"/log/*.log "$dir"/work/results/*.err 2>/dev/null
  fi
  rm -rf "$dir"
  exit $code
}
trap cleanup EXIT

# munge: reuse a running munged (not ours to stop), else start one as user munge.
munge_pid=/run/munge/munged.pid
if [ -f $munge_pid ] && kill -0 "$(cat $munge_pid)" 2>/dev/null; then
  say "using the running munged"
else
  install -d -o munge -g munge -m 0755 /run/munge
  [ -f /etc/munge/munge.key ] || runuser -u munge -- /usr/sbin/mungekey
  runuser -u munge -- /usr/sbin/munged
  wait_for 10 munged test -s $munge_pid
  started_munge=$(cat $munge_pid)
fi

# Free ports, so that another cluster on this machine is not disturbed.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
cat >"$dir/slurm.conf" <<EOF
ClusterName=cubesat-ci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$dir/slurm.conf
/usr/sbin/slurmctld
/usr/sbin/slurmd
node_idle() { [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; }
wait_for 60 "the node to be idle" node_idle
say "cluster up (node $host, ports $ctld_port/$slurmd_port)"

# The job script as users get it, with N edited as they would.
cd "$dir/work"
sed -e "s/^#SBATCH --array=0-63$/#SBATCH --array=0-$((shards - 1))/" -e "s/^N=64$/N=$shards/" \
  "$repo/examples/slurm/count.sbatch" >count.sbatch
grep -q "^N=$shards$" count.sbatch || fail "count.sbatch no longer sets N=64"
cp "$repo/examples/slurm/merge.sbatch" "$repo/examples/slurm/submit.sh" .
jobs_done() { [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; }
# Every task of job $1 must have completed (sbatch --wait is not used: it polls slowly).
all_completed() {
  local states
  states=$(scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c)
  echo "$states" | grep -qv 'JobState=COMPLETED' && fail "job $1: $states"
  true
}
mkdir -p results
read -r array merge_job < <(./submit.sh "$puzzle")
say "submitted array job $array and merge job $merge_job"
wait_for 300 "the array job" jobs_done "$array"
wait_for 120 "the merge job" jobs_done "$merge_job"
all_completed "$array"
all_completed "$merge_job"

single=$("$bin" solve "$puzzle" --count --quiet)
merged=$(cat results/count.txt)
say "single run: $single; merged from $shards shards: $merged"
[ "$merged" = "$single" ] || fail "the merged count differs from the single run"

# A lost shard: merge names it and the rerun command; rerun exactly it with --array.
rm results/3.json
if "$bin" merge results 2>merge.err; then fail "merge accepted a missing shard"; fi
grep -q "sbatch --array=3 " merge.err || fail "merge did not print the rerun: $(cat merge.err)"
rerun=$(sbatch --parsable --array=3 count.sbatch "$puzzle")
wait_for 120 "the rerun" jobs_done "$rerun"
all_completed "$rerun"
again=$("$bin" merge results)
[ "$again" = "$single" ] || fail "after the rerun: $again"
say "ok: $shards shards on Slurm add up to the single run; a lost shard reruns alone"
