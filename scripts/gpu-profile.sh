#!/usr/bin/env bash
# On the lent GPU machine, after scripts/gpu-bundle.sh here (`carry: [".devpack",
# "data/mnist-digits"]`): where the replayed training steps spend their time. The CIFAR-10
# MLP and MNIST CNN steps replayed as CUDA graphs, timed as the figures half times them,
# then profiled with Nsight Systems when the machine has it (each kernel of the replayed
# graph is traced: the GPU's own time per step against the step's wall time), and the
# host-time benchmarks. Summary in $OUT/profile.txt; about 2 minutes without Nsight.
set -uo pipefail
: "${OUT:?the device tool sets OUT}"
source scripts/gpu-env.sh
R=$OUT/profile.txt
{ nvidia-smi -L; date -u; } >> $R
CIFAR=(train_cifar_mlp --device=gpu --epochs=1 --train_examples=10000 --test_examples=100
  --cuda_graphs)
MNIST=(train_mnist_cnn --data=digits --device=gpu --epochs=2 --cuda_graphs)
# Alternated, float32 then TF32 (SessionOptions::allow_tf32).
for i in 1 2; do
  for t in "" --tf32; do
    timeout 90 "${CIFAR[@]}" $t 2>&1 | grep -E -A1 "cuda graphs|ms/step" | grep -v "^--" |
      sed "s/^/cifar graphs$t /" >> $R
    timeout 90 "${MNIST[@]}" $t 2>&1 | grep -E "^epoch|cuda graphs" | sed "s/^/mnist graphs$t /" >> $R
  done
done
# The training steps' host and GPU time apart (tests/bench/gpu_step_bench.cc), the host time of
# 100 nodes, and matmul at n = 1024 against cuBLAS.
timeout 120 rill_gpu_bench --benchmark_filter='TrainStep|Chain|Launch|FirstRun|VsCublas/1024/' \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>&1 |
  grep -E "median|ERROR" >> $R
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys \
  /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -1)
if [[ -z $NSYS ]]; then
  echo "no nsys on this machine" >> $R
  exit 0
fi
echo "nsys: $NSYS" >> $R
profile() {  # name, command...
  local name=$1
  shift
  timeout 120 "$NSYS" profile --trace=cuda --cuda-graph-trace=node --force-overwrite=true \
    -o /tmp/prof_$name "$@" > /tmp/prof_$name.log 2>&1
  echo "nsys $name rc=$?" >> $R
  for rep in cuda_gpu_kern_sum cuda_gpu_mem_time_sum cuda_api_sum; do
    timeout 60 "$NSYS" stats --report $rep --format csv /tmp/prof_$name.nsys-rep 2>/dev/null |
      head -16 | sed "s/^/$name $rep /" >> $R
  done
}
profile cifar "${CIFAR[@]}"
profile mnist "${MNIST[@]}"
cat $R
