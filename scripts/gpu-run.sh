#!/usr/bin/env bash
# On the lent GPU machine, in the repository root, after scripts/gpu-bundle.sh here and with
# `carry: [".devpack", "data/mnist-digits"]`: the whole GPU run as ONE device command of
# about 7 minutes (435 s on an H200, 2026-11-28), for a 15-minute lease whose start-up
# (about 2 minutes) leaves no time for two long ones.
# The correctness half runs its independent parts side by side (the test suite, memcheck
# over the GPU tests and over every op's cases, racecheck, the ONNX suite and the
# collectives: no timing is read there), then the figures half runs alone, as
# scripts/gpu-figures.sh does (its timings must not share the machine). Summaries in
# $OUT/results.txt and $OUT/figures.txt, written as each part ends; logs in $OUT/logs.tgz.
set -uo pipefail
: "${OUT:?the device tool sets OUT}"
source scripts/gpu-env.sh
L=/tmp/gpu-logs
mkdir -p $L
# By path: gtest's death tests re-execute argv[0], which a bare name from PATH is not.
T=$(command -v rill_tests)
R=$OUT/results.txt
{ nvidia-smi -L; date -u; } >> $R
# Each part writes its own summary; they are joined in a fixed order at the end.
part_tests() {
  timeout 150 "$T" > $L/all_tests.log 2>&1
  echo "tests rc=$?"
  grep -E '^\[  (FAILED|PASSED|SKIPPED) ' $L/all_tests.log
  # The control-flow training tests again and again while the sanitizers load the GPU:
  # an illegal address came once in one of them so (2026-11-28) and not when run alone.
  timeout 90 "$T" --gtest_filter='ControlFlowGrad.*:BuildWhileLoop.*:Cond.*' --gtest_repeat=10 \
    > $L/control_flow_repeat.log 2>&1
  echo "control flow x10 under load rc=$? failed=$(grep -c '^\[  FAILED  \]' $L/control_flow_repeat.log)"
  grep -m3 -i "illegal" $L/control_flow_repeat.log
}
# The whole suite again with every Session replaying its steps as CUDA graphs where a plan
# qualifies (RILL_CUDA_GRAPHS=1): graph mode must never change a result.
part_tests_graphs() {
  RILL_CUDA_GRAPHS=1 timeout 220 "$T" --gtest_filter='-*DeathTest*' > $L/all_tests_graphs.log 2>&1
  echo "tests with RILL_CUDA_GRAPHS=1 rc=$?"
  grep -E '^\[  (FAILED|PASSED) ' $L/all_tests_graphs.log
}
part_memcheck() {
  timeout 220 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --report-api-errors no "$T" \
    --gtest_filter="$1" > $L/memcheck_$2.log 2>&1
  echo "memcheck ($2) rc=$?"
  grep -E "ERROR SUMMARY|PASSED  \]|FAILED  \]" $L/memcheck_$2.log
  grep -m5 -E "^========= (Invalid|Program hit|Leaked)" $L/memcheck_$2.log
}
part_racecheck() {
  timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool racecheck "$T" \
    --gtest_filter='Registered/OpCases*:Gpu.*:Losses*:Accuracy*' > $L/racecheck.log 2>&1
  echo "racecheck rc=$?"
  grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED  \]|FAILED  \]" $L/racecheck.log
  grep -m5 -E "^========= (Error|Warning)" $L/racecheck.log
}
part_onnx_dist() {
  for f in node simple pytorch-converted pytorch-operator; do
    onnx_conformance --data=.devbundle/onnx-testdata/$f --device=/GPU:0 \
      --expected=tests/onnx/passing/$f.txt \
      --errata=tests/onnx/passing/errata.txt --quiet > $L/onnx_$f.log 2>&1
    echo "onnx $f gpu rc=$?"
    tail -3 $L/onnx_$f.log
  done
  timeout 60 rill_onnx_tests > $L/onnx_tests.log 2>&1
  echo "onnx tests rc=$?"
  grep -E '^\[  (FAILED|PASSED|SKIPPED) ' $L/onnx_tests.log
  timeout 60 rill_dist_tests > $L/dist_tests.log 2>&1
  echo "dist tests (1 rank, NCCL) rc=$?"
  grep -E "rank 0 of|FAILED|GpuTensors" $L/dist_tests.log | head -8
  RILL_GPU_COLLECTIVES=MPI timeout 60 rill_dist_tests > $L/dist_staged.log 2>&1
  echo "dist tests (1 rank, staged through the host) rc=$?"
  grep -E "rank 0 of|FAILED|GpuTensors" $L/dist_staged.log | head -8
  (
    mpirun --version > /dev/null 2>&1 || source .devbundle/ompi/mpi-env.sh
    timeout 90 mpirun --allow-run-as-root --oversubscribe -np 2 rill_dist_tests \
      > $L/dist_2.log 2>&1
    echo "dist tests (2 ranks on one GPU, staged) rc=$?"
    grep -E "rank 0 of|FAILED" $L/dist_2.log | head -8
  )
  # API errors not reported: NCCL's start-up probes kernels of other GPUs (8 "no kernel
  # image" errors it handles itself, 2026-11-28 on the H200).
  timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --report-api-errors no \
    rill_dist_tests \
    --gtest_filter='Collectives.GpuTensors*:Collectives.AllReduce*' > $L/memcheck_dist.log 2>&1
  echo "memcheck (collectives on the GPU) rc=$?"
  grep -E "ERROR SUMMARY|rank 0 of" $L/memcheck_dist.log
}
export -f part_tests part_tests_graphs part_memcheck part_racecheck part_onnx_dist
export L T
# Not the death tests: their forked child never attaches, and the sanitizer waits for it.
GPU_TESTS='Gpu*:Placer*:Session.*:Keras*:Trace*:Losses*:BiasActivation*:TrainingOps*:Accuracy*:MeanAllGrad*:StepGraph.*:MemoryPlan*:-*DeathTest*'
part_tests > $L/r1 2>&1 &
part_memcheck "$GPU_TESTS" gpu_tests > $L/r2 2>&1 &
part_memcheck 'Registered/OpCases*:TensorScatter*:AdaptiveUpdates*' op_cases > $L/r3 2>&1 &
part_racecheck > $L/r4 2>&1 &
part_onnx_dist > $L/r5 2>&1 &
part_tests_graphs > $L/r6 2>&1 &
wait
cat $L/r1 $L/r6 $L/r2 $L/r3 $L/r4 $L/r5 >> $R
tar czf $OUT/logs.tgz -C /tmp gpu-logs
echo "correctness half done at $(date -u +%T)" >> $R
# The figures half, alone on the machine (RILL_GPU_FIGURES=none: a re-check after fixes,
# leaving the lease's time to another script).
if [[ ${RILL_GPU_FIGURES:-all} != none ]]; then
  FIG_SECONDS=230 bash scripts/gpu-figures.sh > /dev/null 2>&1
fi
tar czf $OUT/logs.tgz -C /tmp gpu-logs
cat $R $OUT/figures.txt 2>/dev/null
