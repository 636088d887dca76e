#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test with CTest (the
# unit tests, the examples' checks, a consumer project built against an install), then
#  - the unit tests and examples again under AddressSanitizer and UndefinedBehaviorSanitizer
#    (clang, build/asan, CUDA off), with a smoke run of every libFuzzer target;
#    A failed allocation returns null under both sanitizers, as it does in the release
#    build, so a tensor too large for memory is ResourceExhausted there too (the presets
#    set ASAN_OPTIONS and TSAN_OPTIONS);
#  - the unit tests under ThreadSanitizer (clang, build/tsan). oneDNN's OpenMP runtime is
#    not instrumented, so its GEMMs run on the calling thread there (OMP_NUM_THREADS=1, set
#    by the test preset); every thread rill starts is seen.
# The ports of TensorFlow's fused-op comparisons (Test/FusedConv2DWith*, Test/FusedMatMulWith*:
# the same kernels on TensorFlow's large images, 90 s under ASan and 31 s under TSan on the
# 2-core machine) run in the release pass only (GTEST_FILTER in both sanitizer presets); the
# sanitizers see those kernels' every path through the small cases of FusedOps.*, the op
# cases and the gradient checks. RandomGraphs.OptimizedPlans compares 1,200 random programs
# there instead of release's 4,000 (tests/test_util.h: kSanitizedBuild). No suppressions
# anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --preset release -j "$(nproc)"
echo "== the suite again under ASan + UBSan, and the fuzzers' smoke =="
cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan -j "$(nproc)"
echo "== the unit tests under ThreadSanitizer =="
cmake --preset tsan >/dev/null
cmake --build --preset tsan
ctest --preset tsan -j "$(nproc)"
