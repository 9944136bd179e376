#!/bin/bash
# A tournament split into N shards as a Slurm job array, and the merge of
# their results (see docs/scale-out.md). Run it, from any directory, on a
# machine that can submit jobs; it submits both and prints their ids:
#
#   export SHARED=/shared/tournament     # required: a directory every node sees
#   configs/slurm-tournament.sh [sbatch options for the array...]
#
# A run is the tournament played in one $SHARED. The first submission
# records it in $SHARED/run: the settings below in $SHARED/run/settings,
# and copies of the judge, the tournament file and the languages file.
# Tasks and merges run those copies, from $SHARED, so nothing on the nodes
# depends on where the checkout is; bots are built into $SHARED/cache.
# $SHARED and BOTS must be at the same path on every node.
#
# Every later submission in the same $SHARED reads the settings back, so a
# task resubmitted with nothing re-exported plays its own shard of the same
# tournament:
#
#   TASKS=3 configs/slurm-tournament.sh          # shard 3 again, as a new job
#
# A setting given again must equal the recorded one (the judge, the
# tournament file and the languages file by content), or the submission
# is refused; another tournament needs another $SHARED.
#
# The merge job starts once every task of the array has ended and waits,
# with 'judge merge --wait', until every match is recorded: a task that
# failed and is requeued (scontrol requeue JOB_i) or resubmitted as a new
# job is waited for. It stops waiting when no job of the run has been in
# the queue for MERGE_GRACE (a cancelled array), and then merges what is
# recorded. The merged standings are in $SHARED/results/all; the merge
# job's exit status is judge merge's: 0 merged, 1 failed, 2 called
# wrongly, 3 matches missing, 4 shards that do not agree.
#
# Settings of the run, from the environment at the first submission
# (defaults in brackets):
#   SHARED         the shared directory (required at every submission)
#   N              shards [8]
#   CONFIG         tournament file, relative to the checkout [configs/tournament-splix.toml]
#   LANGUAGES      languages file, relative to the checkout [the tournament
#                  file's 'languages', else configs/languages.toml]
#   BOTS           the bots' directory [$SHARED/bots]
#   SEED           tournament seed [20240601]
#   SANDBOX        sandbox level of every shard [namespaces]: shards at different
#                  levels are not merged, so one level for all
#   JUDGE          the judge binary [CHECKOUT/bin/judge: 'make build']
# Settings of one submission:
#   TASKS          which shards to submit, as sbatch --array takes it [0-(N-1)]
#   MERGE          1: submit a merge job, after this submission's tasks; 0: not;
#                  only: a merge job and no tasks [1 while the run has no merge job, else 0]
#   MERGE_TIMEOUT  how long the merge waits for missing matches [6h]
#   MERGE_GRACE    how long it waits once no job of the run is queued [15m]
#   MERGE_SBATCH   sbatch options for the merge job, such as "--partition=short"
#                  (it asks for 1 CPU, 1 GiB and MERGE_TIMEOUT + 30 minutes)
# sbatch options given as arguments apply to the array only; sbatch's own
# SBATCH_* variables apply to both jobs.
#
#SBATCH --job-name=tournament
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail

SETTINGS="N SEED SANDBOX BOTS CONFIG LANGUAGES JUDGE"

# read_run DIR: the recorded settings, as saved_NAME.
read_run() {
    local line k
    [ -f "$1/settings" ] || return 1
    while IFS= read -r line; do
        k=${line%%=*}
        case " $SETTINGS " in *" $k "*) printf -v "saved_$k" %s "${line#*=}" ;; esac
    done <"$1/settings"
}

# seconds D: a duration such as 6h, 90m, 1h30m or 45s, in seconds.
seconds() {
    local d=$1 s=0 n
    [[ $d =~ ^([0-9]+h)?([0-9]+m)?([0-9]+s)?$ && -n $d ]] || return 1
    while [[ $d =~ ^([0-9]+)([hms])(.*)$ ]]; do
        n=$((10#${BASH_REMATCH[1]}))
        case ${BASH_REMATCH[2]} in h) s=$((s + n * 3600)) ;; m) s=$((s + n * 60)) ;; s) s=$((s + n)) ;; esac
        d=${BASH_REMATCH[3]}
    done
    echo "$s"
}

if [ -n "${SLURM_JOB_ID:-}" ] && [ -n "${JUDGE_SHARED:-}" ]; then
    # A job of the run. Slurm runs a copy of this script from its spool
    # directory: everything comes from $SHARED/run.
    SHARED=$JUDGE_SHARED
    RUN=$SHARED/run
    read_run "$RUN" || { echo "slurm-tournament.sh: no run recorded in $RUN on $(hostname): is $SHARED at the same path on every node?" >&2; exit 1; }
    for f in tournament.toml languages.toml; do
        [ -r "$RUN/$f" ] || { echo "slurm-tournament.sh: cannot read $RUN/$f on $(hostname)" >&2; exit 1; }
    done
    [ -x "$RUN/judge" ] || { echo "slurm-tournament.sh: cannot run $RUN/judge on $(hostname)" >&2; exit 1; }
    N=$saved_N
    if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
        echo "== $(date -u +%FT%TZ) shard $SLURM_ARRAY_TASK_ID/$N on $(hostname), job ${SLURM_JOB_ID}, restart ${SLURM_RESTART_COUNT:-0}"
        # A requeued or resubmitted task resumes its shard: only the
        # matches not yet recorded are played.
        exec "$RUN/judge" tournament \
            --config "$RUN/tournament.toml" \
            --languages "$RUN/languages.toml" \
            --bots "$saved_BOTS" \
            --seed "$saved_SEED" \
            --sandbox "$saved_SANDBOX" \
            --jobs "${SLURM_CPUS_PER_TASK:-1}" \
            --shard "$SLURM_ARRAY_TASK_ID/$N" \
            --cache "$SHARED/cache" \
            --out "$SHARED/results/shard-$SLURM_ARRAY_TASK_ID" \
            --quiet
    fi

    # The merge job.
    dirs=()
    for ((i = 0; i < N; i++)); do dirs+=("$SHARED/results/shard-$i"); done
    grace=$(seconds "$MERGE_GRACE")
    poll=$((grace / 4 < 1 ? 1 : grace / 4 > 30 ? 30 : grace / 4))
    echo "== $(date -u +%FT%TZ) merge of $N shards on $(hostname), job $SLURM_JOB_ID"
    "$RUN/judge" merge --wait --timeout "$MERGE_TIMEOUT" --poll 15s --out "$SHARED/results/all" "${dirs[@]}" &
    pid=$!
    trap 'kill -TERM "$pid" 2>/dev/null' TERM INT
    idle=0
    while kill -0 "$pid" 2>/dev/null; do
        sleep "$poll" &
        wait $! || true
        # The run's jobs: every array submitted in it, as recorded.
        if queued=$(squeue -a -h -o %F 2>/dev/null); then
            if grep -qxF -f "$RUN/jobs" <<<"$queued"; then idle=0; else idle=$((idle + poll)); fi
        fi
        if [ "$idle" -ge "$grace" ] && kill -0 "$pid" 2>/dev/null; then
            echo "== $(date -u +%FT%TZ) no job of the run has been queued or running for $MERGE_GRACE: merging what is recorded"
            kill -TERM "$pid" 2>/dev/null || true
            wait "$pid" || true
            exec "$RUN/judge" merge --out "$SHARED/results/all" "${dirs[@]}"
        fi
    done
    rc=0
    wait "$pid" || rc=$?
    exit "$rc"
fi
if [ -n "${SLURM_JOB_ID:-}" ]; then
    echo "this script submits the jobs itself: run SHARED=DIR configs/slurm-tournament.sh, not sbatch" >&2
    exit 2
fi

# Submission.
fail() { echo "slurm-tournament.sh: $*" >&2; exit 1; }
: "${SHARED:?set SHARED to a directory every node sees, such as SHARED=/shared/tournament}"
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=$(mkdir -p "$SHARED" && cd "$SHARED" && pwd)
RUN=$SHARED/run
MERGE_TIMEOUT=${MERGE_TIMEOUT:-6h}
MERGE_GRACE=${MERGE_GRACE:-15m}
timeout_s=$(seconds "$MERGE_TIMEOUT") || fail "MERGE_TIMEOUT=$MERGE_TIMEOUT: give a duration such as 6h, 90m or 1h30m"
seconds "$MERGE_GRACE" >/dev/null || fail "MERGE_GRACE=$MERGE_GRACE: give a duration such as 15m or 30s"

# abs PATH: PATH relative to the checkout when it is there, else to here
# (files of the checkout: CONFIG, LANGUAGES); here PATH: relative to here.
abs() {
    case $1 in
    /*) echo "$1" ;;
    *) if [ -e "$REPO/$1" ]; then echo "$REPO/$1"; else echo "$PWD/$1"; fi ;;
    esac
}
here() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

created=0
if ! read_run "$RUN"; then
    # The first submission: record the run.
    if compgen -G "$SHARED/results/shard-*" >/dev/null; then
        fail "$SHARED/results holds shards but $RUN records no run: use another SHARED for a new tournament"
    fi
    N=${N:-8}
    SEED=${SEED:-20240601}
    SANDBOX=${SANDBOX:-namespaces}
    BOTS=$(here "${BOTS:-$SHARED/bots}")
    CONFIG=$(abs "${CONFIG:-configs/tournament-splix.toml}")
    JUDGE=$(here "${JUDGE:-$REPO/bin/judge}")
    [[ $N =~ ^[1-9][0-9]*$ ]] || fail "N=$N: give a number of shards"
    [ -x "$JUDGE" ] || fail "no judge at $JUDGE: run 'make build' in $REPO, or set JUDGE"
    [ -d "$BOTS" ] || fail "no bots directory $BOTS: put the bots there, or set BOTS"
    [ -f "$CONFIG" ] || fail "no tournament file $CONFIG"
    if [ -z "${LANGUAGES:-}" ]; then
        # The tournament file's own, as the judge would find it from the checkout.
        LANGUAGES=$(sed -n 's/^[[:space:]]*languages[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$CONFIG" | head -n 1)
        case $LANGUAGES in "" | /*) ;; *) LANGUAGES=$(dirname "$CONFIG")/$LANGUAGES ;; esac # the file's paths are from its folder
        LANGUAGES=${LANGUAGES:-configs/languages.toml}
    fi
    LANGUAGES=$(abs "$LANGUAGES")
    [ -f "$LANGUAGES" ] || fail "no languages file $LANGUAGES"
    for k in $SETTINGS; do
        case ${!k} in *$'\n'*) fail "$k holds a newline" ;; esac
    done
    stage=$(mktemp -d "$SHARED/.run.XXXXXX")
    install -m 755 "$JUDGE" "$stage/judge"
    install -m 644 "$CONFIG" "$stage/tournament.toml"
    install -m 644 "$LANGUAGES" "$stage/languages.toml"
    : >"$stage/jobs"
    {
        echo "# The run in $SHARED, recorded by configs/slurm-tournament.sh on $(date -u +%FT%TZ)"
        echo "# from $(hostname):$REPO; judge, tournament.toml and languages.toml are copies."
        for k in $SETTINGS; do echo "$k=${!k}"; done
    } >"$stage/settings"
    chmod 755 "$stage"
    # Renaming a directory onto a non-empty one fails: of two first
    # submissions at once, one records the run and the other reads it.
    if mv -T "$stage" "$RUN" 2>/dev/null; then
        created=1
        echo "run recorded in $RUN/settings"
    else
        rm -rf "$stage"
    fi
fi
read_run "$RUN" || fail "cannot read $RUN/settings"
if [ "$created" = 0 ]; then
    # Settings given again must be the recorded ones.
    differ() { fail "$1 differs from the run recorded in $RUN/settings ($2): give the same, or nothing; another tournament needs another SHARED"; }
    same_file() { [ -f "$1" ] && cmp -s "$1" "$RUN/$2"; }
    [ -z "${N+x}" ] || [ "$N" = "$saved_N" ] || differ "N=$N" "N=$saved_N"
    [ -z "${SEED+x}" ] || [ "$SEED" = "$saved_SEED" ] || differ "SEED=$SEED" "SEED=$saved_SEED"
    [ -z "${SANDBOX+x}" ] || [ "$SANDBOX" = "$saved_SANDBOX" ] || differ "SANDBOX=$SANDBOX" "SANDBOX=$saved_SANDBOX"
    [ -z "${BOTS+x}" ] || [ "$(here "$BOTS")" = "$saved_BOTS" ] || differ "BOTS=$BOTS" "BOTS=$saved_BOTS"
    [ -z "${CONFIG+x}" ] || same_file "$(abs "$CONFIG")" tournament.toml || differ "CONFIG=$CONFIG" "a copy of $saved_CONFIG"
    [ -z "${LANGUAGES+x}" ] || same_file "$(abs "$LANGUAGES")" languages.toml || differ "LANGUAGES=$LANGUAGES" "a copy of $saved_LANGUAGES"
    [ -z "${JUDGE+x}" ] || same_file "$(here "$JUDGE")" judge || differ "JUDGE=$JUDGE" "a copy of $saved_JUDGE"
    echo "run read from $RUN/settings"
fi
N=$saved_N
# A merge job by default while the run has none.
if [ -s "$RUN/merges" ]; then MERGE=${MERGE:-0}; else MERGE=${MERGE:-1}; fi
TASKS=${TASKS:-0-$((N - 1))}
case $MERGE in 0 | 1 | only) ;; *) fail "MERGE=$MERGE: give 1, 0 or only" ;; esac
mkdir -p "$SHARED/logs" "$SHARED/results"

jobid=""
if [ "$MERGE" != only ]; then
    jobid=$(sbatch --parsable \
        --array="$TASKS" \
        --chdir="$SHARED" \
        --output="$SHARED/logs/tournament-%A_%a.out" \
        --export="ALL,JUDGE_SHARED=$SHARED" \
        "$@" \
        "$REPO/configs/slurm-tournament.sh")
    jobid=${jobid%%;*}
    echo "$jobid" >>"$RUN/jobs"
    echo "shards: job array $jobid ($TASKS of $N), logs in $SHARED/logs/tournament-${jobid}_*.out"
fi

if [ "$MERGE" != 0 ]; then
    # afterany, not afterok: afterok is never satisfied once a task has
    # failed, even when it is requeued and succeeds. The merge itself waits
    # for every match.
    dep=()
    [ -z "$jobid" ] || dep=(--dependency="afterany:$jobid")
    # shellcheck disable=SC2086 # MERGE_SBATCH is a list of options
    mergeid=$(sbatch --parsable \
        --job-name=tournament-merge \
        "${dep[@]}" \
        --cpus-per-task=1 --mem=1G --time=$(((timeout_s + 59) / 60 + 30)) --no-requeue \
        --chdir="$SHARED" \
        --output="$SHARED/logs/merge-%j.out" --open-mode=append \
        --export="ALL,JUDGE_SHARED=$SHARED,MERGE_TIMEOUT=$MERGE_TIMEOUT,MERGE_GRACE=$MERGE_GRACE" \
        ${MERGE_SBATCH:-} \
        "$REPO/configs/slurm-tournament.sh")
    mergeid=${mergeid%%;*}
    echo "$mergeid" >>"$RUN/merges"
    echo "merge: job $mergeid, log $SHARED/logs/merge-$mergeid.out, standings in $SHARED/results/all"
fi
