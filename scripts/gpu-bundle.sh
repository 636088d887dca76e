#!/usr/bin/env bash
# For a session lent the GPU machine: builds here, packs the test and benchmark binaries
# with the Debian libraries that machine lacks into .devbundle/ (ignored by git), and
# prints the one command to run there (GPU tests, compute-sanitizer, benchmarks; logs in
# $OUT). Pass the bundle and the converted MNIST digits as
# `carry: [".devbundle", "data/mnist-digits"]` to the device tool.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
../shared/tools/device-bundle.sh .devbundle \
  build/release/tests/rill_tests build/release/tests/bench/rill_gpu_bench \
  build/release/tests/bench/rill_bench build/release/examples/matmul_bench \
  build/release/examples/train_cifar_mlp build/release/examples/train_mnist_cnn
cat <<'CMD'
Run on the device (one command):
source .devbundle/env.sh && nvidia-smi -L | tee $OUT/device.txt; rill_tests --gtest_filter='Gpu*:Placer*:Session.*' 2>&1 | tee $OUT/gpu_tests.log; (command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer) >/dev/null && $(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer) --tool memcheck rill_tests --gtest_filter='Gpu*' > $OUT/memcheck.log 2>&1; rill_gpu_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>&1 | tee $OUT/gpu_bench.txt; matmul_bench --sizes=128,256,512,1024,2048,4096,8192 --reps=20 --csv=$OUT/matmul_gpu.csv 2>&1 | tee $OUT/matmul.txt; train_cifar_mlp --device=both --epochs=1 --trace=$OUT/cifar.json 2>&1 | tail -30 | tee $OUT/cifar.txt; for d in cpu gpu; do train_mnist_cnn --data=digits --device=$d --epochs=2 --trace=$OUT/cnn_$d.json 2>&1 | tail -16 | tee $OUT/cnn_$d.txt; done
CMD
