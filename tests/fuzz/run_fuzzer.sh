#!/usr/bin/env bash
# Builds a libFuzzer target with clang, AddressSanitizer and UndefinedBehaviorSanitizer
# and runs it for SECONDS on its seed corpus (CI: a short smoke; longer runs by hand).
# Args: TARGET SOURCE_DIR BUILD_DIR SECONDS
set -euo pipefail
target=$1 src=$2 build=$3 seconds=$4
out="$build/fuzz"
mkdir -p "$out" "$out/corpus_$target"
sources=("$src/tests/fuzz/${target}_fuzzer.cc")
core=("$src/core/tensor.cc" "$src/core/tensor_shape.cc" "$src/core/allocator.cc" "$src/core/types.cc")
libs=()
case $target in
  checkpoint) sources+=("$src/runtime/checkpoint.cc" "$src/runtime/file_util.cc" "${core[@]}") ;;
  idx) sources+=("$src/runtime/data/idx.cc" "${core[@]}"); libs+=(-lz) ;;
  cifar) sources+=("$src/runtime/data/cifar.cc" "${core[@]}") ;;
  graph_text) sources+=("$src/runtime/io/text_format.cc" "$src/runtime/io/attr_text.cc"
                        "$src/core/attr_value.cc" "${core[@]}") ;;
  *) echo "run_fuzzer: unknown target $target" >&2; exit 2 ;;
esac
if [[ ! -x $out/$target || $0 -nt $out/$target ]] || find "${sources[@]}" -newer "$out/$target" | grep -q .; then
  clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I"$build/include" -isystem /usr/include/eigen3 "${sources[@]}" \
    $(pkg-config --libs absl_status absl_statusor absl_strings absl_raw_hash_set absl_hash) \
    "${libs[@]}" -o "$out/$target"
fi
cp -n "$src/tests/fuzz/corpus/$target/"* "$out/corpus_$target/" 2>/dev/null || true
"$out/$target" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
  "$out/corpus_$target" 2>&1 | tail -n 12
