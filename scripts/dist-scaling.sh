#!/usr/bin/env bash
# The CIFAR MLP's training throughput on 1 rank and on 2 ranks, one OpenMP thread per rank,
# alternated PAIRS times. Both sides run under mpirun with the same flags ($MPIFLAGS), so
# each rank has what the single rank had: the same binding (Open MPI binds 1 or 2 ranks to
# a core each unless told --bind-to none) and the same threads. Each run trains 2 epochs of
# EXAMPLES and is timed over the second: steps after warm-up, without the first step's plan,
# memory and page faults (over one epoch these weigh twice as much on 2 ranks, which share
# the epoch's examples, as on 1). Prints per pair: per-rank batch, then ms/step and
# examples/s of 1 rank, then of 2 ranks.
# Scaling efficiency = examples/s(2) / (2 x examples/s(1)).
#   scripts/dist-scaling.sh BATCH_PER_RANK EXAMPLES PAIRS [BUILD_DIR]
# (CIFAR_BIN names the program itself instead, as on the GPU machine's bundle.)
set -euo pipefail
batch=${1:?batch per rank} examples=${2:?examples} pairs=${3:?pairs}
bin=${CIFAR_BIN:-${4:-build/release}/examples/train_cifar_mlp}
flags=(--device=cpu --epochs=2 --train_examples="$examples" --batch_size="$batch" --test_examples=32)
figures() { grep "after the first epoch" | awk '{print $6, $8}'; }
ranks() {
  # shellcheck disable=SC2086  # MPIFLAGS is a list of flags
  mpirun --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=1 ${MPIFLAGS:-} -np "$1" \
    "$bin" "${flags[@]}" 2>&1 | figures
}
for _ in $(seq 1 "$pairs"); do
  echo "$batch $(ranks 1) $(ranks 2)"
done
