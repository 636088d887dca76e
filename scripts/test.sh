#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test with CTest (the
# unit tests, the examples' checks, a consumer project built against an install, a
# fuzzing smoke), then the unit tests and examples again under AddressSanitizer and
# UndefinedBehaviorSanitizer (build/asan, CUDA off), with no suppressions.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --preset release -j "$(nproc)"
echo "== the suite again under ASan + UBSan =="
cmake --preset asan >/dev/null
cmake --build --preset asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 ctest --preset asan -j "$(nproc)"
