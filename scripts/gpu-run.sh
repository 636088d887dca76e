#!/usr/bin/env bash
# On the lent GPU machine, in the repository root, after scripts/gpu-bundle.sh here and with
# `carry: [".devpack", "data/mnist-digits"]`: unpacks the bundle and runs ONNX's backend
# suite with the GPU as default device, the whole test suite, compute-sanitizer over the GPU
# tests, the GPU benchmarks and the example programs; a summary in $OUT/results.txt (printed
# at the end), full logs beside it.
set -uo pipefail
: "${OUT:?the device tool sets OUT}"
tar xJf .devpack/bundle.tar.xz
source .devbundle/env.sh
# NCCL (the collectives' GPU path) comes with the machine's PyTorch when the toolkit lacks it.
nccl=$(python3 -c "import nvidia.nccl,os; print(os.path.join(list(nvidia.nccl.__path__)[0],'lib'))" 2>/dev/null)
[[ -n $nccl ]] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$nccl"
R=$OUT/results.txt
for f in node simple pytorch-converted pytorch-operator; do onnx_conformance --data=.devbundle/onnx-testdata/$f --device=/GPU:0 --expected=tests/onnx/passing/$f.txt --quiet > $OUT/onnx_$f.log 2>&1; echo "onnx $f gpu rc=$?" >> $R; tail -3 $OUT/onnx_$f.log >> $R; done
nvidia-smi -L >> $R
timeout 60 rill_onnx_tests > $OUT/onnx_tests.log 2>&1
echo "onnx tests rc=$?" >> $R
# The collectives on the GPU: NCCL with one rank; with mpirun there, two ranks sharing the
# GPU (staged through pinned host memory).
timeout 120 rill_dist_tests > $OUT/dist_tests.log 2>&1
echo "dist tests (1 rank, NCCL) rc=$?" >> $R
grep -E "rank 0 of|FAILED|GpuTensors" $OUT/dist_tests.log | head -8 >> $R
if command -v mpirun > /dev/null; then
  timeout 180 mpirun --allow-run-as-root --oversubscribe -np 2 rill_dist_tests > $OUT/dist_tests_2.log 2>&1
  echo "dist tests (2 ranks on one GPU, staged) rc=$?" >> $R
  grep -E "rank 0 of|FAILED" $OUT/dist_tests_2.log | head -8 >> $R
fi
timeout 200 rill_tests > $OUT/all_tests.log 2>&1
echo "tests rc=$?" >> $R
grep -E '^\[  (FAILED|PASSED|SKIPPED) ' $OUT/all_tests.log >> $R
timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --report-api-errors no rill_tests --gtest_filter='Gpu*:Placer*:Session.*:Keras*:Trace*:Losses*:BiasActivation*:TrainingOps*:Accuracy*:MeanAllGrad*' > $OUT/memcheck.log 2>&1
echo "memcheck rc=$?" >> $R
grep -E "ERROR SUMMARY|PASSED  \]|FAILED  \]" $OUT/memcheck.log >> $R
timeout 120 rill_gpu_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>&1 | grep -E "median|rror" >> $R
for t in "" --tf32; do matmul_bench --devices=gpu --sizes=256,1024,2048,4096,8192 --reps=20 $t --csv=$OUT/matmul$t.csv --plot=/tmp/mm$t 2>&1 | grep -E "gpu |start" >> $R; done
matmul_bench --reps=5 --min_time=0.05 --csv=$OUT/matmul_devices.csv --plot=/tmp/mmd > /dev/null 2>&1
echo "figure run rc=$?" >> $R
for i in 1 2 3; do timeout 60 train_cifar_mlp --device=gpu --epochs=1 --test_examples=100 2>&1 | grep -A1 ms/step | tail -1 >> $R; echo "(steps waiting, as before:)" >> $R; RILL_WAIT_FOR_DEVICES=1 timeout 60 train_cifar_mlp --device=gpu --epochs=1 --test_examples=100 2>&1 | grep -A1 ms/step | tail -1 >> $R; done
timeout 90 train_cifar_mlp --device=both --epochs=1 --test_examples=1000 --trace=$OUT/cifar.json 2>&1 | tail -5 >> $R
for i in 1 2; do timeout 60 train_mnist_cnn --data=digits --device=gpu --epochs=3 2>&1 | grep "ms/step" >> $R; done
timeout 90 train_mnist_cnn --data=digits --device=gpu --epochs=15 --learning_rate=0.0005 --trace=$OUT/cnn_gpu.json 2>&1 | grep -E "accuracy 0|epoch (1|2|15):" >> $R
timeout 60 train_mnist_cnn --data=digits --device=cpu --epochs=1 2>&1 | grep "ms/step" >> $R
cat $R
