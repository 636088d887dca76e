#!/bin/bash
# Measures how far a TensorFlow C++ source is from compiling against rill when only its
# includes and namespace change (issue 28's "literal port"): every
# #include "tensorflow/..." becomes rill's headers (once), Eigen's third_party path its
# system one, and "tensorflow" rill; then each file is compiled with -fsyntax-only and its
# "error:" lines are counted.
#   scripts/tf-literal-port.sh DIR_OF_TF_SOURCES [BUILD_DIR]   (BUILD_DIR: build/release)
# TensorFlow's sources are not part of this repository: bring your own copies.
set -euo pipefail
src=${1:?usage: $0 DIR_OF_TF_SOURCES [BUILD_DIR]}
build=${2:-build/release}
include="$(cd "$build" && pwd)/include"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
block='#include "gtest/gtest.h"
#include "rill/rill.h"
#include "rill/core/tf_compat.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/runtime/testing/testutil.h"
#include "rill/runtime/testing/ops_testutil.h"'
total=0
for f in "$src"/*.cc; do
  name=$(basename "$f")
  BLOCK="$block" awk '
    /^#include "tensorflow\// { if (!done) { print ENVIRON["BLOCK"]; done = 1 } next }
    /^#include "third_party\/eigen3\// { sub(/"third_party\/eigen3\//, "<"); sub(/"$/, ">"); print; next }
    { print }' "$f" | sed -e 's/namespace tensorflow/namespace rill/g' -e 's/tensorflow::/rill::/g' \
    >"$work/$name"
  n=$(c++ -std=c++20 -fsyntax-only -fmax-errors=0 -I"$include" -isystem /usr/include/eigen3 \
        -DNDEBUG -DGTEST_HAS_PTHREAD=1 "$work/$name" 2>&1 | grep -c ": error:" || true)
  echo "$name $n"
  total=$((total + n))
done
echo "total $total"
