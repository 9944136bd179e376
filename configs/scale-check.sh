#!/bin/bash
# make scale-check: the Slurm path of docs/scale-out.md, end to end, on
# this machine. As root it installs Debian's slurm-wlm and munge if they
# are missing, starts a throwaway single-node cluster (munged on a socket,
# slurmctld and slurmd on free ports the kernel picks, all state in a
# temporary directory), and as the unprivileged user nobody, like a
# cluster user:
#
#   1. plays a small tournament on one machine, for reference;
#   2. submits it with configs/slurm-tournament.sh (copied as a fresh
#      checkout would have it, submitted from another directory) as a
#      4-task array and a merge job, then moves the checkout away: the
#      jobs must not need it;
#   3. kills one task's judge with SIGKILL, by pid, and requeues the task;
#      cancels another task and resubmits it as a new job with nothing
#      but SHARED and TASKS set (after checking that a resubmission with
#      another SEED is refused);
#   4. waits for the merge (which starts before the resubmitted task, and
#      waits for it), and checks that it exited 0, that every match
#      is recorded once, and that standings.json equals the reference
#      byte for byte;
#   5. submits another run and cancels its array: its merge job must end
#      with exit status 3 once MERGE_GRACE has passed, not hold its slot.
#
# Then it stops the daemons (by pid), ends any process left under its
# directory (by pid), and removes the directory: the build cache is in
# it too. KEEP=1 keeps the directory. Not part of 'make test': it needs
# root and about three minutes (four when it installs the packages).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROUNDS=${ROUNDS:-10}
N=4
SEED=${SEED:-42}
USERNAME=nobody
T0=$(date +%s.%N)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
say() { echo "scale-check [$(since "$T0")s] $*"; }
die() { echo "scale-check: FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root: it installs and starts Slurm and munge (run: sudo make scale-check)"
command -v setpriv >/dev/null || die "needs setpriv (util-linux) to run as $USERNAME"
command -v go >/dev/null || die "needs Go to build the judge"
command -v python3 >/dev/null || die "needs python3 (for free ports, and for the Python bot)"

# 1. Packages.
missing=""
for c in slurmctld slurmd sbatch munged mungekey; do command -v $c >/dev/null || missing=1; done
if [ -n "$missing" ]; then
    say "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi
say "$(slurmctld -V), $(munged -V 2>&1 | awk '{ print $1 }')"

# 2. A throwaway cluster.
# Under TMPDIR, which must be a directory the user can reach (not, say,
# root's own 0700 one): the jobs run from it.
W=$(mktemp -d "${TMPDIR:-/tmp}/judge-scale-check.XXXXXX")
chmod 755 "$W"
mkdir -p "$W/munge" "$W/run" "$W/ctld" "$W/spool" "$W/log" "$W/shared" "$W/shared2" "$W/submit" "$W/home" "$W/tmp"
chmod 700 "$W/munge"
chmod 755 "$W/run"
chown "$USERNAME" "$W/shared" "$W/shared2" "$W/submit" "$W/home" "$W/tmp"
# The system's /tmp is watched for files a program that ignores TMPDIR
# leaves there. (find fails when another program removes a file of /tmp
# as it reads: what it listed is enough.)
tmp_before=$({ find /tmp -mindepth 1 -maxdepth 1 -user "$USERNAME" 2>/dev/null || true; } | sort) # tmp-ok: watched on purpose
export SLURM_CONF=$W/slurm.conf
JOBS=()

as_user() { setpriv --reuid="$USERNAME" --regid="$(id -g "$USERNAME")" --clear-groups env HOME="$W/home" TMPDIR="$W/tmp" SLURM_CONF="$SLURM_CONF" "$@"; }

stop_pidfile() {
    local f=$1 pid
    [ -f "$f" ] || return 0
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || return 0
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
}

teardown() {
    local rc=$?
    set +e
    if [ -f "$W/run/slurmctld.pid" ]; then
        for j in "${JOBS[@]}"; do scancel "$j" 2>/dev/null; done
        for _ in $(seq 60); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.5; done
    fi
    stop_pidfile "$W/run/slurmd.pid"
    stop_pidfile "$W/run/slurmctld.pid"
    stop_pidfile "$W/run/munged.pid"
    # Whatever still runs from the directory (a job's process that
    # outlived slurmd): ended by pid, and reported.
    local p left=""
    for p in /proc/[0-9]*; do
        case "$(readlink "$p/exe" 2>/dev/null) $(readlink "$p/cwd" 2>/dev/null)" in
        *"$W"/*) left="$left ${p#/proc/}"; kill -9 "${p#/proc/}" 2>/dev/null ;;
        esac
    done
    [ -z "$left" ] || echo "scale-check: ended processes left under $W:$left" >&2
    local tmp_after
    tmp_after=$({ find /tmp -mindepth 1 -maxdepth 1 -user "$USERNAME" 2>/dev/null || true; } | sort) # tmp-ok: watched on purpose
    [ "$tmp_after" = "$tmp_before" ] ||
        echo "scale-check: new in /tmp, owned by $USERNAME (perhaps not by this check): $(comm -13 <(echo "$tmp_before") <(echo "$tmp_after") | tr '\n' ' ')" >&2 # tmp-ok: watched on purpose
    if [ "${KEEP:-0}" = 1 ]; then
        echo "scale-check: kept $W"
    else
        rm -rf "$W"
    fi
    if [ $rc = 0 ]; then echo "scale-check: PASS in $(since "$T0")s"; fi
    exit $rc
}
trap teardown EXIT
as_user test -w "$W/tmp" ||
    die "$USERNAME cannot reach $W: TMPDIR (${TMPDIR:-/tmp}) must be a directory every user can traverse"

mungekey -c -k "$W/munge/munge.key"
munged --force -S "$W/run/munge.socket.2" --key-file="$W/munge/munge.key" \
    --pid-file="$W/run/munged.pid" --log-file="$W/log/munged.log" --seed-file="$W/munge/seed"

# Two free ports, as the kernel picks them for 127.0.0.1.
read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
[ -n "$SLURMD_PORT" ] || die "no free ports"
NODE=$(hostname -s)
CPUS=$(nproc)
MEM=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
cat >"$SLURM_CONF" <<EOF
ClusterName=scalecheck
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$W/run/munge.socket.2
StateSaveLocation=$W/ctld
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/run/slurmctld.pid
SlurmdPidFile=$W/run/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobRequeue=1
MinJobAge=3600
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld
slurmd
for _ in $(seq 120); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 0.5
done
sinfo -h -o %T | grep -q idle || die "the node did not come up: $(tail -n 5 "$W/log/slurmd.log")"
say "cluster up: node $NODE, $CPUS CPUs, ports $CTLD_PORT and $SLURMD_PORT; state in $W"

# A fresh checkout: the judge and configs/, nothing else.
CHECKOUT=$W/checkout
mkdir -p "$CHECKOUT/bin"
cp -r "$REPO/configs" "$CHECKOUT/"
(cd "$REPO" && go build -o "$CHECKOUT/bin/judge" ./cmd/judge)
cat >"$CHECKOUT/configs/tournament-scale-check.toml" <<EOF
game = "tictactoe"
[limits]
turn = "1s"
first_turn = "5s"
[tournament]
format = "roundrobin"
rounds = $ROUNDS
EOF
BOTS=$W/shared/bots
mkdir -p "$BOTS/golang"
cp "$REPO/examples/gomoku/random.c" "$BOTS/c.c"
cp "$REPO/examples/gomoku/random_bot.py" "$BOTS/python.py"
cp "$REPO/examples/gomoku/RandomBot.java" "$BOTS/RandomBot.java"
cp "$REPO/examples/gomoku/strong/main.go" "$BOTS/golang/main.go"
chmod -R a+rX "$CHECKOUT" "$BOTS"
TOTAL=$((4 * 3 * ROUNDS))

# 3. The reference: one machine, the same level as the shards.
say "reference: $TOTAL matches on one machine, as $USERNAME at sandbox level namespaces"
t=$(date +%s.%N)
(cd "$CHECKOUT" && as_user bin/judge tournament --config configs/tournament-scale-check.toml --bots "$BOTS" \
    --seed "$SEED" --sandbox namespaces --jobs "$CPUS" --cache "$W/shared/cache-single" --out "$W/shared/single" --quiet) ||
    die "the reference run failed"
say "reference done in $(since "$t")s"
# 4. The shipped script, submitted from elsewhere; sbatch options for the
# array only.
t=$(date +%s.%N)
out=$(cd "$W/submit" && as_user env SHARED="$W/shared" N=$N SEED="$SEED" CONFIG=configs/tournament-scale-check.toml \
    MERGE_TIMEOUT=15m "$CHECKOUT/configs/slurm-tournament.sh" --cpus-per-task=1 --mem=1G --time=30)
echo "$out"
J=$(echo "$out" | sed -n 's/^shards: job array \([0-9]*\).*/\1/p')
M=$(echo "$out" | sed -n 's/^merge: job \([0-9]*\).*/\1/p')
[ -n "$J" ] && [ -n "$M" ] || die "no job ids in the script's output"
JOBS+=("$J" "$M")
field() { scontrol show job "$1" -o | head -n 1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }
[ "$(field "$M" TimeLimit)" = 00:45:00 ] && [ "$(field "$M" NumCPUs)" = 1 ] ||
    die "merge job $M: TimeLimit $(field "$M" TimeLimit), NumCPUs $(field "$M" NumCPUs); want 00:45:00 (MERGE_TIMEOUT + 30 min) and 1"
[ "$(field "${J}_0" TimeLimit)" = 00:30:00 ] || die "the array's TimeLimit is $(field "${J}_0" TimeLimit), not the --time=30 given"
# Nothing on the node may need the checkout from now on.
mv "$CHECKOUT" "$W/checkout-moved"
SCRIPT=$W/checkout-moved/configs/slurm-tournament.sh
say "submitted; the checkout moved away; the merge job asks for 1 CPU and 45 min, the array for --time=30"

matches() {
    local f=$1/results/shard-$2/results.log
    if [ -f "$f" ]; then grep -c '"kind":"match"' "$f" || true; else echo 0; fi
}
# Wait until a task runs and has recorded 2 matches; print its job id.
running_with_matches() {
    local task=$1 line id state
    for _ in $(seq 600); do
        line=$(squeue -h -j "${J}_$task" -o "%A %T" 2>/dev/null || true)
        id=${line%% *}
        state=${line#* }
        if [ "$state" = RUNNING ] && [ "$(matches "$W/shared" "$task")" -ge 2 ]; then
            echo "$id"
            return
        fi
        [ -z "$state" ] && die "task $task ended before it could be interrupted (raise ROUNDS)"
        sleep 0.1
    done
    die "task $task did not start"
}
# Wait until job $1 has ended; print its state and exit code.
ended() {
    local state
    for _ in $(seq 1800); do
        state=$(field "$1" JobState)
        case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
        sleep 0.5
    done
    echo "$state $(field "$1" ExitCode)"
}

# Task 1: its judge killed with SIGKILL, then the task requeued.
id1=$(running_with_matches 1) || exit 1
# The task's processes, as Slurm knows them; the judge is the run's copy
# (the batch script exec'd it).
pid=""
for p in $(scontrol listpids "$id1" 2>/dev/null | awk 'NR > 1 { print $1 }'); do
    if [ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$W/shared/run/judge" ]; then
        pid=$p
        break
    fi
done
[ -n "$pid" ] || die "no judge process in task 1 (job $id1)"
before1=$(matches "$W/shared" 1)
kill -9 "$pid"
say "task 1 (job $id1): killed its judge, pid $pid, with SIGKILL after $before1 matches"

# Task 2: cancelled, to be resubmitted as a new job.
id2=$(running_with_matches 2) || exit 1
before2=$(matches "$W/shared" 2)
# By the task's name: scancel refuses an array task's own job id here.
scancel "${J}_2"
for _ in $(seq 100); do
    [ -z "$(squeue -h -j "${J}_2" -o %T 2>/dev/null)" ] && break
    sleep 0.2
done
[ -z "$(squeue -h -j "${J}_2" -o %T 2>/dev/null)" ] || die "task 2 is still there after scancel"
say "task 2 (job $id2): cancelled after $before2 matches"

for _ in $(seq 100); do
    state=$(squeue -h -j "$id1" -o %T 2>/dev/null || true)
    [ -z "$state" ] && break
    sleep 0.2
done
scontrol requeue "${J}_1"
# Slurm sets a requeued job's begin time two minutes ahead: bring it
# forward, as docs/scale-out.md says.
scontrol update JobId="${J}_1" StartTime=now
say "task 1 requeued"

# Another seed for the same SHARED is refused, and submits nothing.
if out=$(cd "$W/submit" && as_user env SHARED="$W/shared" SEED=$((SEED + 1)) TASKS=2 "$SCRIPT" 2>&1); then
    die "a resubmission with another SEED was accepted: $out"
fi
case $out in *"differs from the run recorded"*) ;; *) die "a resubmission with another SEED: $out" ;; esac
case $out in *"shards:"*) die "a refused resubmission submitted jobs: $out" ;; esac
say "refused, as it should be: ${out#slurm-tournament.sh: }"

# Task 2 again, with nothing re-exported but SHARED and TASKS.
out=$(cd "$W/submit" && as_user env SHARED="$W/shared" TASKS=2 "$SCRIPT" --cpus-per-task=1 --mem=1G --time=30 --begin=now+20)
echo "$out"
R=$(echo "$out" | sed -n 's/^shards: job array \([0-9]*\).*/\1/p')
[ -n "$R" ] || die "no job id in the resubmission's output"
JOBS+=("$R")
case $out in *"merge: job"*) die "the resubmission submitted a second merge" ;; esac
say "task 2 resubmitted as job array $R, to start in 20 s: after the merge job has started"

# 5. The merge job: it started once the first tasks had all ended, and
# waits for the requeued and resubmitted shards.
read -r state exitcode < <(ended "$M")
say "merge job $M: $state, exit code $exitcode, $(since "$t")s after the submission"
echo "---- merge log"
cat "$W/shared/logs/merge-$M.out"
echo "----"
[ "$state" = COMPLETED ] && [ "$exitcode" = 0:0 ] || die "the merge did not succeed"
grep -q "^waiting: " "$W/shared/logs/merge-$M.out" || die "the merge did not wait for the resubmitted shard"

# 6. Checks.
grep -q "restart 1" "$W/shared/logs/tournament-${J}_1.out" && [ "$(grep -c '^== ' "$W/shared/logs/tournament-${J}_1.out")" -ge 2 ] ||
    die "task 1's log does not hold both attempts (--open-mode=append)"
ids=$(grep -o '"kind":"match","match":{"id":"[^"]*"' "$W/shared/results/all/results.log" | sort)
n=$(echo "$ids" | wc -l)
u=$(echo "$ids" | uniq | wc -l)
[ "$n" = "$TOTAL" ] && [ "$u" = "$TOTAL" ] || die "merged log: $n match records, $u distinct; want $TOTAL"
for i in $(seq 0 $((N - 1))); do
    echo "  shard $i: $(matches "$W/shared" "$i") matches, $(grep -c '"kind":"run"' "$W/shared/results/shard-$i/results.log") run(s)"
done
cmp "$W/shared/single/standings.json" "$W/shared/results/all/standings.json" ||
    die "merged standings.json differs from the single run's"
say "merged standings.json equals the single run's byte for byte ($TOTAL matches, $(wc -c <"$W/shared/single/standings.json") bytes)"

# 7. A cancelled array: its merge job gives up once no job of the run has
# been queued for MERGE_GRACE.
t=$(date +%s.%N)
out=$(cd "$W/submit" && as_user env SHARED="$W/shared2" BOTS="$BOTS" N=2 SEED="$SEED" CONFIG=configs/tournament-scale-check.toml \
    MERGE_GRACE=10s "$SCRIPT" --cpus-per-task=1 --mem=1G --time=30)
J2=$(echo "$out" | sed -n 's/^shards: job array \([0-9]*\).*/\1/p')
M2=$(echo "$out" | sed -n 's/^merge: job \([0-9]*\).*/\1/p')
[ -n "$J2" ] && [ -n "$M2" ] || die "no job ids in the second run's output: $out"
JOBS+=("$J2" "$M2")
for _ in $(seq 300); do
    squeue -h -j "$J2" -o %T 2>/dev/null | grep -q RUNNING && break
    sleep 0.1
done
scancel "$J2"
say "second run: array $J2 cancelled as its tasks ran; merge job $M2"
read -r state exitcode < <(ended "$M2")
say "merge job $M2: $state, exit code $exitcode, $(since "$t")s after the submission"
echo "---- merge log"
cat "$W/shared2/logs/merge-$M2.out"
echo "----"
[ "$exitcode" = 3:0 ] || die "the merge of a cancelled array exited $exitcode, not 3"
grep -q "no job of the run has been queued" "$W/shared2/logs/merge-$M2.out" || die "the merge did not say why it stopped waiting"
[ -z "$(squeue -h -o %i)" ] || die "jobs still queued: $(squeue -h)"
