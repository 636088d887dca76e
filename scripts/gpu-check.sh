#!/usr/bin/env bash
# On the lent GPU machine, in the repository root, after scripts/gpu-bundle.sh here and with
# `carry: [".devpack", "data/mnist-digits"]`: the correctness half of the GPU run (about 6
# minutes; the figures are scripts/gpu-figures.sh, a second device command). Unpacks the
# bundle and runs ONNX's backend suite with the GPU as default device, the collectives on
# the GPU (NCCL and staged with one rank; staged with two where mpirun exists), the whole test suite
# and compute-sanitizer over the GPU tests; a summary in $OUT/results.txt (printed at the
# end), full logs in $OUT/logs.tgz.
set -uo pipefail
: "${OUT:?the device tool sets OUT}"
source scripts/gpu-env.sh
R=$OUT/results.txt
# Full logs go to $L and back as one archive ($OUT returns at most 8 files).
L=/tmp/gpu-logs
mkdir -p $L
for f in node simple pytorch-converted pytorch-operator; do onnx_conformance --data=.devbundle/onnx-testdata/$f --device=/GPU:0 --expected=tests/onnx/passing/$f.txt --quiet > $L/onnx_$f.log 2>&1; echo "onnx $f gpu rc=$?" >> $R; tail -3 $L/onnx_$f.log >> $R; done
nvidia-smi -L >> $R
timeout 60 rill_onnx_tests > $L/onnx_tests.log 2>&1
echo "onnx tests rc=$?" >> $R
# The collectives on the GPU: NCCL with one rank; with mpirun there, two ranks sharing the
# GPU (staged through pinned host memory).
timeout 120 rill_dist_tests > $L/dist_tests.log 2>&1
echo "dist tests (1 rank, NCCL) rc=$?" >> $R
grep -E "rank 0 of|FAILED|GpuTensors" $L/dist_tests.log | head -8 >> $R
RILL_GPU_COLLECTIVES=MPI timeout 120 rill_dist_tests > $L/dist_tests_staged.log 2>&1
echo "dist tests (1 rank, staged through the host) rc=$?" >> $R
grep -E "rank 0 of|FAILED|GpuTensors" $L/dist_tests_staged.log | head -8 >> $R
# Open MPI's launcher: the machine's, or the bundle's (scripts/bundle-mpi.sh), in a subshell
# so its libraries stay out of the other programs' path.
(
  mpirun --version > /dev/null 2>&1 || source .devbundle/ompi/mpi-env.sh
  timeout 180 mpirun --allow-run-as-root --oversubscribe -np 2 rill_dist_tests > $L/dist_tests_2.log 2>&1
  echo "dist tests (2 ranks on one GPU, staged) rc=$?" >> $R
  grep -E "rank 0 of|FAILED" $L/dist_tests_2.log | head -8 >> $R
)
timeout 200 rill_tests > $L/all_tests.log 2>&1
echo "tests rc=$?" >> $R
grep -E '^\[  (FAILED|PASSED|SKIPPED) ' $L/all_tests.log >> $R
timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --report-api-errors no rill_tests --gtest_filter='Gpu*:Placer*:Session.*:Keras*:Trace*:Losses*:BiasActivation*:TrainingOps*:Accuracy*:MeanAllGrad*:StepGraph.*' > $L/memcheck.log 2>&1
echo "memcheck rc=$?" >> $R
grep -E "ERROR SUMMARY|PASSED  \]|FAILED  \]" $L/memcheck.log >> $R
timeout 90 /usr/local/cuda/bin/compute-sanitizer --tool memcheck rill_dist_tests --gtest_filter='Collectives.GpuTensors*:Collectives.AllReduce*' > $L/memcheck_dist.log 2>&1
echo "memcheck (collectives on the GPU) rc=$?" >> $R
grep -E "ERROR SUMMARY|rank 0 of" $L/memcheck_dist.log >> $R
tar czf $OUT/logs.tgz -C /tmp gpu-logs
cat $R
