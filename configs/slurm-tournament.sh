#!/bin/bash
# A tournament split into N shards as a Slurm job array, and the merge of
# their results (see docs/scale-out.md). Run it, from any directory, on a
# machine that can submit jobs; it submits both and prints their ids:
#
#   export SHARED=/shared/tournament     # required: a directory every node sees
#   configs/slurm-tournament.sh [sbatch options...]
#
# It creates $SHARED/logs and $SHARED/results, submits the array (task i
# plays shard i/N into $SHARED/results/shard-i) and a merge job that starts
# once every task has ended and waits, with 'judge merge --wait', until
# every match is recorded: a task that failed and is requeued
# (scontrol requeue JOB_i) or resubmitted as a new job (TASKS=i MERGE=0
# configs/slurm-tournament.sh) is waited for. The merged standings are in
# $SHARED/results/all; the merge's exit status says whether it is complete.
#
# Settings, from the environment (defaults in brackets):
#   SHARED         the shared directory (required)
#   N              shards [8]
#   TASKS          which of them to submit, as sbatch --array takes it [0-(N-1)]
#   CONFIG         tournament file, relative to the repository [configs/tournament-splix.toml]
#   BOTS           the bots' directory [$SHARED/bots]
#   SEED           tournament seed [20240601]
#   SANDBOX        sandbox level of every shard [namespaces]: shards at different
#                  levels are not merged, so one level for all
#   JUDGE          the judge binary [REPO/bin/judge: 'make build']
#   MERGE          submit the merge job [1]
#   MERGE_TIMEOUT  how long the merge waits for missing matches [6h]
# sbatch options given as arguments apply to both jobs (e.g. --partition=cpu);
# sbatch's own SBATCH_* variables work too.
#
#SBATCH --job-name=tournament
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    # A task of the array. Slurm runs a copy of this script from its spool
    # directory: every path comes from the submission, none from here.
    : "${JUDGE_REPO:?submit with configs/slurm-tournament.sh, not sbatch}"
    cd "$JUDGE_REPO"
    echo "== $(date -u +%FT%TZ) shard $SLURM_ARRAY_TASK_ID/$N on $(hostname), job ${SLURM_JOB_ID}, restart ${SLURM_RESTART_COUNT:-0}"
    # A requeued or resubmitted task resumes its shard: only the matches not
    # yet recorded are played.
    exec "$JUDGE" tournament \
        --config "$CONFIG" \
        --bots "$BOTS" \
        --seed "$SEED" \
        --sandbox "$SANDBOX" \
        --jobs "${SLURM_CPUS_PER_TASK:-1}" \
        --shard "$SLURM_ARRAY_TASK_ID/$N" \
        --cache "${TMPDIR:-/tmp}/judge-cache-$(id -u)" \
        --out "$SHARED/results/shard-$SLURM_ARRAY_TASK_ID" \
        --quiet
fi
if [ -n "${SLURM_JOB_ID:-}" ]; then
    echo "this script submits the jobs itself: run SHARED=DIR configs/slurm-tournament.sh, not sbatch" >&2
    exit 2
fi

# Submission.
: "${SHARED:?set SHARED to a directory every node sees, such as SHARED=/shared/tournament}"
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=$(mkdir -p "$SHARED" && cd "$SHARED" && pwd)
N=${N:-8}
TASKS=${TASKS:-0-$((N - 1))}
CONFIG=${CONFIG:-configs/tournament-splix.toml}
BOTS=${BOTS:-$SHARED/bots}
SEED=${SEED:-20240601}
SANDBOX=${SANDBOX:-namespaces}
JUDGE=${JUDGE:-$REPO/bin/judge}
MERGE=${MERGE:-1}
MERGE_TIMEOUT=${MERGE_TIMEOUT:-6h}
case $JUDGE in /*) ;; *) JUDGE=$PWD/$JUDGE ;; esac
case $BOTS in /*) ;; *) BOTS=$PWD/$BOTS ;; esac
[ -x "$JUDGE" ] || { echo "no judge at $JUDGE: run 'make build' in $REPO, or set JUDGE" >&2; exit 1; }
[ -d "$BOTS" ] || { echo "no bots directory $BOTS: put the bots there, or set BOTS" >&2; exit 1; }
case $CONFIG in
/*) ;;
*) if [ -f "$REPO/$CONFIG" ]; then CONFIG=$REPO/$CONFIG; else CONFIG=$PWD/$CONFIG; fi ;;
esac
[ -f "$CONFIG" ] || { echo "no tournament file $CONFIG" >&2; exit 1; }
mkdir -p "$SHARED/logs" "$SHARED/results"

jobid=$(sbatch --parsable \
    --array="$TASKS" \
    --chdir="$REPO" \
    --output="$SHARED/logs/tournament-%A_%a.out" \
    --export="ALL,JUDGE_REPO=$REPO,SHARED=$SHARED,N=$N,CONFIG=$CONFIG,BOTS=$BOTS,SEED=$SEED,SANDBOX=$SANDBOX,JUDGE=$JUDGE" \
    "$@" \
    "$REPO/configs/slurm-tournament.sh")
jobid=${jobid%%;*}
echo "shards: job array $jobid ($TASKS of $N), logs in $SHARED/logs/tournament-${jobid}_*.out"

if [ "$MERGE" = 1 ]; then
    dirs=""
    for ((i = 0; i < N; i++)); do dirs="$dirs '$SHARED/results/shard-$i'"; done
    # afterany, not afterok: afterok is never satisfied once a task has
    # failed, even when it is requeued and succeeds. The merge itself waits
    # for every match, and exits 3 if some are still missing at the timeout.
    mergeid=$(sbatch --parsable \
        --job-name=tournament-merge \
        --dependency="afterany:$jobid" \
        --kill-on-invalid-dep=no \
        --cpus-per-task=1 --mem=1G --time=24:00:00 \
        --chdir="$REPO" \
        --output="$SHARED/logs/merge-%j.out" --open-mode=append \
        "$@" \
        --wrap "exec '$JUDGE' merge --wait --timeout '$MERGE_TIMEOUT' --poll 15s --out '$SHARED/results/all' $dirs")
    mergeid=${mergeid%%;*}
    echo "merge: job $mergeid, log $SHARED/logs/merge-$mergeid.out, standings in $SHARED/results/all"
fi
