#!/usr/bin/env bash
# The main job: install what is missing, build, then run the matmul benchmark on every
# device present (CSV in build/release/matmul.csv), the hello_graph demo and a short
# training demo (train_linear).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo "== matmul_bench (float32, every device present) =="
build/release/examples/matmul_bench --csv=build/release/matmul.csv "$@"
echo "== hello_graph =="
build/release/examples/hello_graph
echo "== train_linear (a short training demo: Keras-style Fit, 5 epochs) =="
build/release/examples/train_linear
