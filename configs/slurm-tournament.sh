#!/bin/bash
# A tournament split into 8 shards as a Slurm job array; the merge runs
# once every shard is done (see docs/scale-out.md).
#
#   jobid=$(sbatch --parsable configs/slurm-tournament.sh)
#   sbatch --dependency=afterok:$jobid --wrap \
#       "bin/judge merge --out $SHARED/results/all $SHARED/results/shard-*"
#
# $SHARED is a directory every node sees (NFS, Lustre, BeeGFS).
#SBATCH --job-name=tournament
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --output=logs/tournament-%A_%a.out
set -euo pipefail
SHARED=${SHARED:-$HOME/tournament}
N=8
I=${SLURM_ARRAY_TASK_ID}
# A requeued task resumes its shard: only the matches not yet recorded run.
exec bin/judge tournament \
    --config configs/tournament-splix.toml \
    --bots "$SHARED/bots" \
    --seed 20240601 \
    --jobs "${SLURM_CPUS_PER_TASK}" \
    --shard "$I/$N" \
    --cache "${TMPDIR:-/tmp}/judge-cache" \
    --out "$SHARED/results/shard-$I"
