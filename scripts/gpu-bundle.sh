#!/usr/bin/env bash
# For a session lent the GPU machine: builds here, packs the test and benchmark binaries
# with the Debian libraries that machine lacks into .devbundle/ (ignored by git), and
# prints the one command to run there (GPU tests, compute-sanitizer, benchmarks; logs in
# $OUT). The CPU-and-GPU figure comes back as its CSV, matmul_devices.csv: draw it here
# with `matmul_bench --plot_from=FILE --plot=docs/img/NAME`.
# Pass the bundle and the converted MNIST digits as
# `carry: [".devbundle", "data/mnist-digits"]` to the device tool.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
../shared/tools/device-bundle.sh .devbundle \
  build/release/tests/rill_tests build/release/tests/bench/rill_gpu_bench \
  build/release/tests/bench/rill_bench build/release/examples/matmul_bench \
  build/release/examples/train_cifar_mlp build/release/examples/train_mnist_cnn
# Symbols are not needed there: stripping rill's own binaries saves about 3 MiB of the
# tool's 64 (the bundle was 63 MiB with Open MPI's libraries, 60 stripped).
strip --strip-unneeded .devbundle/bin/* .devbundle/lib/librill.so.*
echo "gpu-bundle: $(du -sm .devbundle | cut -f1) MiB after stripping"
cat <<'CMD'
Run on the device (one command; about 3 minutes on an H100):
source .devbundle/env.sh; R=$OUT/results.txt; nvidia-smi -L >> $R; timeout 200 rill_tests > $OUT/all_tests.log 2>&1; echo "tests rc=$?" >> $R; grep -E '^\[  (FAILED|PASSED|SKIPPED) ' $OUT/all_tests.log >> $R; timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --report-api-errors no rill_tests --gtest_filter='Gpu*:Placer*:Session.*:Keras*:Trace*:Losses*:BiasActivation*:TrainingOps*:Accuracy*:MeanAllGrad*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?" >> $R; grep -E "ERROR SUMMARY|PASSED  \]|FAILED  \]" $OUT/memcheck.log >> $R; timeout 120 rill_gpu_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>&1 | grep -E "median|rror" >> $R; for t in "" --tf32; do matmul_bench --devices=gpu --sizes=256,1024,2048,4096,8192 --reps=20 $t --csv=$OUT/matmul$t.csv --plot=/tmp/mm$t 2>&1 | grep -E "gpu |start" >> $R; done; matmul_bench --reps=5 --min_time=0.05 --csv=$OUT/matmul_devices.csv --plot=/tmp/mmd > /dev/null 2>&1; echo "figure run rc=$?" >> $R; for i in 1 2 3; do timeout 60 train_cifar_mlp --device=gpu --epochs=1 --test_examples=100 2>&1 | grep -A1 ms/step | tail -1 >> $R; echo "(steps waiting, as before:)" >> $R; RILL_WAIT_FOR_DEVICES=1 timeout 60 train_cifar_mlp --device=gpu --epochs=1 --test_examples=100 2>&1 | grep -A1 ms/step | tail -1 >> $R; done; timeout 90 train_cifar_mlp --device=both --epochs=1 --test_examples=1000 --trace=$OUT/cifar.json 2>&1 | tail -5 >> $R; for i in 1 2; do timeout 60 train_mnist_cnn --data=digits --device=gpu --epochs=3 2>&1 | grep "ms/step" >> $R; done; timeout 90 train_mnist_cnn --data=digits --device=gpu --epochs=15 --learning_rate=0.0005 --trace=$OUT/cnn_gpu.json 2>&1 | grep -E "accuracy 0|epoch (1|2|15):" >> $R; timeout 60 train_mnist_cnn --data=digits --device=cpu --epochs=1 2>&1 | grep "ms/step" >> $R; cat $R
CMD
