#!/usr/bin/env bash
# The lab on a real one-node Slurm cluster: starts munged, slurmctld and slurmd (Debian's
# packages) with a generated key and configuration under a temporary folder, submits 4-task
# arrays with tools/slurm/submit-lab — Trilha and a small Microfut study — waits for their merge
# jobs, and checks that table, JSON, CSV and HTML report are byte for byte what one machine
# writes. Then: a lost shard re-run alone (--retry) rewrites the same bytes and merges again, and
# a study whose tasks fail gets its merge job cancelled instead of left waiting.
# Stops the daemons it started, by their pids, and removes its folder, whatever happens.
#
#   tests/slurm/cluster.sh    (MICROFUT=path/to/microfut tests another binary; KEEP_WORK=1 keeps
#                              the folder, logs included, for a look after a failure)
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$PATH:/usr/sbin:/sbin"   # munged, slurmctld and slurmd live in sbin
microfut=${MICROFUT:-$repo/target/release/microfut}
submit=$repo/tools/slurm/submit-lab
deadline=$((SECONDS + ${SLURM_TEST_TIMEOUT:-600}))

for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
  command -v "$tool" >/dev/null || { echo "cluster.sh: $tool is missing (apt-get install slurmctld slurmd slurm-client munge)" >&2; exit 2; }
done
[ -x "$microfut" ] || { echo "cluster.sh: no binary at $microfut (cargo build --release)" >&2; exit 2; }

work=$(mktemp -d /tmp/microfut-slurm.XXXXXX)
chmod 755 "$work"
pids=()
passed=0
failed=0

stop() {
  local status=$?
  set +e
  if [ -f "$work/slurm.conf" ] && [ ${#pids[@]} -gt 1 ]; then
    # Jobs first, so slurmd ends their steps before it stops.
    scancel --quiet --user="$(id -un)" 2>/dev/null
    for _ in $(seq 1 30); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
      sleep 1
    done
  fi
  # Daemons in reverse order of start, each by the pid this script recorded.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -TERM "${pids[i]}" 2>/dev/null
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
  done
  if [ "$status" -ne 0 ] && [ -d "$work/log" ]; then
    echo "--- daemon logs (last lines) ---" >&2
    tail -n 20 "$work"/log/* >&2
  fi
  if [ -n "${KEEP_WORK:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
  exit "$status"
}
trap stop EXIT
trap 'exit 130' INT TERM

check() { # check NAME COMMAND...: one assertion, reported as it goes
  local name=$1
  shift
  if "$@"; then
    echo "ok - $name"
    passed=$((passed + 1))
  else
    echo "not ok - $name"
    failed=$((failed + 1))
  fi
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# --- munge: its own key and socket ---------------------------------------------------------
mkdir -p "$work/munge" "$work/run" "$work/log" "$work/state" "$work/spool"
chmod 700 "$work/munge"
chmod 755 "$work/run"
head -c 1024 /dev/urandom > "$work/munge/munge.key"
chmod 600 "$work/munge/munge.key"
socket=$work/run/munge.socket
munged --foreground --force --socket="$socket" --key-file="$work/munge/munge.key" \
  --pid-file="$work/run/munged.pid" --seed-file="$work/munge/munged.seed" \
  --log-file="$work/log/munged.log" >"$work/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "munged did not start" >&2; exit 1; }

# --- slurm: a one-node cluster on this host ------------------------------------------------
host=$(hostname -s)
node=$(env -u SLURM_CONF slurmd -C | head -n 1)
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
cat > "$work/slurm.conf" <<CONF
ClusterName=microfut-test
SlurmctldHost=$host
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
PlugStackConfig=$work/plugstack.conf
$node State=UNKNOWN
PartitionName=lab Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
: > "$work/plugstack.conf"
export SLURM_CONF=$work/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$work/log/slurmd.out" 2>&1 &
pids+=($!)
ready=false
for _ in $(seq 1 120); do
  if [ "$(sinfo -h -N -o %t 2>/dev/null)" = "idle" ]; then ready=true; break; fi
  sleep 0.5
done
$ready || { echo "the cluster did not come up" >&2; exit 1; }
echo "one-node cluster up: $host, slurmctld :$ctld_port, slurmd :$slurmd_port (pids ${pids[*]})"

wait_for() { # wait_for JOB_ID...: until none is queued or running
  while [ -n "$(squeue -h -o %i -j "$(IFS=,; echo "$*")" 2>/dev/null)" ]; do
    if [ $SECONDS -gt $deadline ]; then echo "timed out waiting for jobs $*" >&2; squeue >&2; exit 1; fi
    sleep 1
  done
}

same_bytes() { cmp -s "$1" "$2" || { echo "  $1 and $2 differ:" >&2; diff "$1" "$2" | head -n 10 >&2; return 1; }; }

# --- one study: the array, the merge, and one machine's output ------------------------------
study() { # study NAME LAB-ARGS...
  local name=$1
  shift
  local dir=$work/$name
  mkdir -p "$dir/single"
  read -r array_id merge_id < <("$submit" --parsable --shards 4 --results "$dir/cluster" --microfut "$microfut" -- "$@")
  echo "$name: array job $array_id, merge job $merge_id"
  ( cd "$dir/single" &&
    "$microfut" lab "$@" --quiet --csv results.csv --html report.html > results.md &&
    "$microfut" lab "$@" --quiet --json > results.json )
  wait_for "$array_id" "$merge_id"
  check "$name: 4 shard files" [ "$(ls "$dir"/cluster/lab-shard-*-of-4.json 2>/dev/null | wc -l)" -eq 4 ]
  for f in results.md results.json results.csv report.html; do
    check "$name: merged $f is byte for byte the one-machine $f" same_bytes "$dir/single/$f" "$dir/cluster/$f"
  done
}

study trilha trilha --games 200000 --seed 11
study microfut microfut --matches 16 --seed 3 --scenario base,no_crowd

# --- a lost shard re-run alone --------------------------------------------------------------
dir=$work/trilha/cluster
cp "$dir/lab-shard-2-of-4.json" "$work/shard-2.before"
rm "$dir/lab-shard-2-of-4.json" "$dir/results.md" "$dir/results.json" "$dir/results.csv" "$dir/report.html"
read -r array_id merge_id < <("$submit" --parsable --shards 4 --retry 2 --results "$dir" --microfut "$microfut" -- trilha --games 200000 --seed 11)
wait_for "$array_id" "$merge_id"
check "retry: task 2 re-run alone rewrites the same shard" same_bytes "$work/shard-2.before" "$dir/lab-shard-2-of-4.json"
check "retry: merged again, the same table" same_bytes "$work/trilha/single/results.md" "$dir/results.md"

# --- failing tasks: the merge is cancelled, not left waiting --------------------------------
read -r array_id merge_id < <("$submit" --parsable --shards 2 --results "$work/broken" --microfut "$microfut" -- trilha --games 10 --seed 1 --scenario nope)
wait_for "$array_id" "$merge_id"
check "failed tasks: no merge ran" [ ! -e "$work/broken/results.md" ]
check "failed tasks: the task log names the problem" grep -q "unknown scenario 'nope'" "$work/broken/logs/shard-0.out"

echo "slurm: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
