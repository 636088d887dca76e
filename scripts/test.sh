#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test with CTest (the
# unit tests, the examples' smoke tests, and a consumer project built against an install).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --preset release -j "$(nproc)"
