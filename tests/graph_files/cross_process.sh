#!/usr/bin/env bash
# A graph saved by one process and loaded by another gives the same results; its picture
# renders; a damaged file is refused with a non-zero exit. Args: GRAPH_TOOL WORK_DIR
set -euo pipefail
tool=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
"$tool" demo "$dir/demo.rgraph" > "$dir/writer.txt"
"$tool" run "$dir/demo.rgraph" --fetch=probs > "$dir/reader.txt"
want=$(grep '^probs = ' "$dir/writer.txt")
got=$(grep '^probs = ' "$dir/reader.txt")
echo "writer: $want"
echo "reader: $got"
[[ -n $want && $want == "$got" ]] || { echo "FAIL: the two processes disagree"; exit 1; }
# Fetching an intermediate by name:index works too.
"$tool" run "$dir/demo.rgraph" --fetch=dense/Relu:0 | grep -q '^dense/Relu:0 = float \[2,8\]'
"$tool" info "$dir/demo.rgraph" | grep -q '^25 nodes, 4 initializers'
"$tool" dot "$dir/demo.rgraph" "$dir/demo.dot" --fetch=probs
if command -v dot >/dev/null; then
  dot -Tsvg "$dir/demo.dot" -o "$dir/demo.svg"
  grep -q '<svg' "$dir/demo.svg"
  echo "rendered $dir/demo.svg"
fi
# Damaged: truncated mid-node, and a value edited to something that is not a number.
head -c 700 "$dir/demo.rgraph" > "$dir/truncated.rgraph"
sed 's/values: \[0.5,/values: [zero,/' "$dir/demo.rgraph" > "$dir/edited.rgraph"
for bad in truncated edited; do
  if "$tool" run "$dir/$bad.rgraph" --fetch=probs 2> "$dir/$bad.err"; then
    echo "FAIL: $bad file was accepted"; exit 1
  fi
  grep -q 'INVALID_ARGUMENT' "$dir/$bad.err" || { cat "$dir/$bad.err"; exit 1; }
  echo "$bad: $(cat "$dir/$bad.err")"
done
echo "cross-process graph files: OK"
