#!/usr/bin/env bash
# On the lent GPU machine, in the repository root, after scripts/gpu-bundle.sh here and with
# `carry: [".devpack", "data/mnist-digits"]`: the figures half of the GPU run, called by
# scripts/gpu-run.sh after its correctness half (about 3.5 minutes with FIG_SECONDS=200). rill's training steps and matmuls
# alternated with PyTorch's on the same GPU (scripts/torch_peer.py: the same models,
# batches and optimizers, eager mode), the CPU-against-GPU matmul figure's CSV
# ($OUT/matmul_devices.csv: draw it here with `matmul_bench --plot_from=FILE --plot=...`),
# and the GPU micro-benchmarks; a summary in $OUT/figures.txt (printed at the end).
set -uo pipefail
: "${OUT:?the device tool sets OUT}"
source scripts/gpu-env.sh
R=$OUT/figures.txt
{ nvidia-smi -L; date -u; } >> $R
# The run stops starting alternations once FIG_SECONDS have passed (scripts/gpu-run.sh
# runs this after the correctness half, inside one device command), so what ran is whole.
FIG_SECONDS=${FIG_SECONDS:-420}
time_left() { ((SECONDS < FIG_SECONDS)) || { echo "(stopped at ${SECONDS} s: FIG_SECONDS)" >> $R; false; }; }
# The figure first: the CPU-against-GPU matmul CSV, 128 to 8192.
timeout 150 matmul_bench --reps=5 --min_time=0.05 --csv=$OUT/matmul_devices.csv > /dev/null 2>&1
echo "figure run (CPU and GPU, 128 to 8192) rc=$? at ${SECONDS} s" >> $R
# The device tool returns 8 files: the plot's sources are drawn here from the CSV instead.
mkdir -p /tmp/gpu-logs
mv $OUT/matmul_devices.{gp,png,svg} /tmp/gpu-logs/ 2>/dev/null
peer() {
  LD_LIBRARY_PATH=$RILL_SYSTEM_LD_LIBRARY_PATH timeout 120 python3 scripts/torch_peer.py "$@" 2>&1 |
    grep -E "^torch|rror" >> $R
}
# Training steps, three alternations: CIFAR-10 MLP (batch 32, SGD), MNIST CNN (batch 50,
# Adam). rill's ms/step: CIFAR from its table (one epoch of 10,000 synthetic examples),
# MNIST from its second epoch (the first includes planning and the first runs).
for i in 1 2 3; do
  time_left || break
  timeout 90 train_cifar_mlp --device=gpu --epochs=1 --train_examples=10000 --test_examples=100 \
    --nocuda_graphs 2>&1 | grep -A1 ms/step | tail -1 | sed 's/^/rill cifar /' >> $R
  # The same step replayed as a CUDA graph (Keras's default, SessionOptions::cuda_graphs),
  # and whether it was (the "cuda graphs:" line comes before the table).
  timeout 90 train_cifar_mlp --device=gpu --epochs=1 --train_examples=10000 --test_examples=100 \
    --cuda_graphs > /tmp/cifar_graphs.log 2>&1
  { grep "cuda graphs" /tmp/cifar_graphs.log; grep -A1 ms/step /tmp/cifar_graphs.log | tail -1; } |
    sed 's/^/rill cifar graphs /' >> $R
  peer cifar --steps=300
  timeout 90 train_mnist_cnn --data=digits --device=gpu --epochs=2 --nocuda_graphs 2>&1 |
    grep "^epoch 2" |
    sed 's/^/rill mnist /' >> $R
  timeout 90 train_mnist_cnn --data=digits --device=gpu --epochs=2 --cuda_graphs 2>&1 |
    grep -E "^epoch 2|cuda graphs" | sed 's/^/rill mnist graphs /' >> $R
  peer mnist --steps=300
done
# Matmul per size, float32 then TF32, rill (and raw cuBLAS, from matmul_bench) and PyTorch.
for t in "" --tf32; do
  for i in 1 2; do
    time_left || break
    timeout 120 matmul_bench --devices=gpu --sizes=256,1024,2048,4096,8192 --reps=20 $t \
      --csv=/tmp/gpu-logs/matmul_gpu$t.csv 2>&1 | grep -E "gpu |start" | sed "s/^/rill$t /" >> $R
    peer matmul --sizes=256,1024,2048,4096,8192 $t
  done
done
timeout 60 rill_gpu_bench --benchmark_filter='VsCublas|Chain|Launch|FirstRun' --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true 2>&1 |
  grep -E "median|rror" >> $R
echo "benchmarks done at ${SECONDS} s" >> $R
# Issue 30 on a host with more cores than ranks: its CPUs and mpirun's binding, the raw and
# rill's allreduce with Open MPI's transport as set up, 1 against 2 ranks bound and unbound,
# and a traced step of each rank into the logs (scripts/dist-host-check.sh; about a minute).
if time_left; then
  TRACE_DIR=/tmp/gpu-logs timeout 120 scripts/dist-host-check.sh 2>&1 | sed 's/^/dist: /' >> $R
fi
# One traced step of each on the GPU, to read where its time goes (chrome://tracing files).
timeout 60 train_cifar_mlp --device=gpu --epochs=1 --train_examples=2000 --test_examples=100 \
  --trace=$OUT/cifar_gpu.json > /dev/null 2>&1
timeout 60 train_mnist_cnn --data=digits --device=gpu --max_train=1000 --trace=$OUT/cnn_gpu.json \
  > /dev/null 2>&1
cat $R
