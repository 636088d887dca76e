#!/usr/bin/env bash
# Issue 30 on a host with more cores than ranks (the GPU machine's 16): why two ranks of the
# CPU CIFAR MLP scaled badly there (2026-11-28: slower than one at batch 32). About a
# minute. Prints the host's CPUs, where mpirun binds two ranks, the raw MPI_Allreduce and
# rill's against each other as Open MPI's shared-memory transport is set up by default,
# without its single-copy mechanism and unbound, then 1 against 2 ranks with mpirun's
# default binding and with --bind-to none (scripts/dist-scaling.sh: both sides under the
# same flags), and one traced step of each rank ($TRACE_DIR/dist_trace.rank{0,1}.json).
# On the GPU machine: `source scripts/gpu-env.sh` first (gpu-figures.sh does), or run with
# `bash scripts/dist-host-check.sh` and the bundle's paths set.
set -uo pipefail
out=${TRACE_DIR:-/tmp}
mpirun --version > /dev/null 2>&1 || source .devbundle/ompi/mpi-env.sh
M=(mpirun --allow-run-as-root --oversubscribe -x OMP_NUM_THREADS=1)
cifar=$(command -v train_cifar_mlp || echo build/release/examples/train_cifar_mlp)
bench=$(command -v allreduce_bench || echo build/release/examples/allreduce_bench)
echo "host: $(nproc) cpus; $(lscpu 2>/dev/null | grep -E '^(Socket|Thread|Core)' | tr -s ' ' | paste -sd';')"
echo "ptrace_scope $(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo absent);" \
  "/dev/shm $(df -h /dev/shm 2>/dev/null | awk 'NR==2 {print $2}')"
"${M[@]}" --report-bindings -np 2 true 2>&1 | grep -o "rank.*" | head -2
# MPI's own warnings (a single-copy mechanism it cannot use, say) stay in, with the figures.
for flags in "" "--mca btl_vader_single_copy_mechanism none" "--bind-to none"; do
  # shellcheck disable=SC2086  # a list of flags
  timeout 40 "${M[@]}" $flags -np 2 "$bench" --sizes_mib=1,16,36 --reps=5 --latency_elements=0 \
    2>&1 | grep -v "^ *bytes" | sed "s/^/allreduce [${flags:-default}] /"
done
for flags in "" "--bind-to none"; do
  for b in "256 4096" "32 2048"; do
    # shellcheck disable=SC2086  # batch and examples
    MPIFLAGS=$flags CIFAR_BIN=$cifar timeout 60 scripts/dist-scaling.sh $b 2 2>&1 |
      sed "s/^/scaling [${flags:-default}] (batch, 1 rank ms ex\/s, 2 ranks ms ex\/s) /"
  done
done
timeout 40 "${M[@]}" -np 2 "$cifar" --device=cpu --epochs=1 --batch_size=256 --train_examples=2048 \
  --test_examples=32 --trace="$out/dist_trace.json" 2>&1 | grep -E "step:|CollectiveAllReduce "
