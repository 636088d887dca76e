#!/usr/bin/env bash
# graph_tool against what the November 2026 attack sent it: --feed as its help documents
# it, values a placeholder's dtype cannot hold, a graph file whose Pad paddings overflow
# int64 (accepted by 'info', a crash in 'run' before the fix), a directory, a missing file.
# Every bad input must exit with a message and a code below 124 (no signal, no abort).
# Args: GRAPH_TOOL WORK_DIR
set -uo pipefail
tool=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
cat > "$dir/feed.rgraph" <<'GRAPH'
version: 1
node {
  name: "x"
  op: "Placeholder"
  attr { key: "dtype" type: int32 }
  attr { key: "shape" shape: [-1] }
}
node {
  name: "y"
  op: "Identity"
  input: "x:0"
  attr { key: "T" type: int32 }
}
GRAPH
cat > "$dir/pad.rgraph" <<'GRAPH'
version: 1
node {
  name: "x"
  op: "Const"
  attr { key: "dtype" type: float }
  attr { key: "value" tensor { dtype: float shape: [4] values: [1, 2, 3, 4] } }
}
node {
  name: "p"
  op: "Const"
  attr { key: "dtype" type: int64 }
  attr { key: "value" tensor { dtype: int64 shape: [1, 2] values: [9223372036854775807, 9223372036854775807] } }
}
node {
  name: "pad"
  op: "Pad"
  input: "x:0"
  input: "p:0"
  attr { key: "T" type: float }
  attr { key: "Tpaddings" type: int64 }
}
GRAPH
fail=0
expect_ok() {  # ARGS... ; the output must contain $want
  local out
  out=$("$tool" "$@" 2>&1)
  if [[ $? -ne 0 || $out != *"$want"* ]]; then echo "FAIL: $* -> $out"; fail=1; else echo "ok: $*"; fi
}
expect_error() {  # ARGS... ; exit 1..123 with a message containing $want
  local out rc
  out=$("$tool" "$@" 2>&1)
  rc=$?
  if [[ $rc -eq 0 || $rc -ge 124 || $out != *"$want"* ]]; then
    echo "FAIL: $* -> exit $rc: $out"; fail=1
  else
    echo "refused (exit $rc): $out"
  fi
}
want='y = int32 [3] [1, 2, 3]' expect_ok run "$dir/feed.rgraph" --fetch=y --feed=x=1,2,3
want='y = int32 [1] [-2147483648]' expect_ok run "$dir/feed.rgraph" --fetch=y --feed=x=-2147483648
for v in 1e300 nan inf 2147483648 -2147483649 0.5; do
  want='--feed x' expect_error run "$dir/feed.rgraph" --fetch=y --feed=x=$v
done
want='NAME=' expect_error run "$dir/feed.rgraph" --fetch=y --feed=1,2
want='no node' expect_error run "$dir/feed.rgraph" --fetch=y --feed=z=1
want='x:3' expect_error run "$dir/feed.rgraph" --fetch=x:3
want='beyond int64' expect_error info "$dir/pad.rgraph"
want='beyond int64' expect_error run "$dir/pad.rgraph" --fetch=pad
want='directory' expect_error info "$dir"
want='does not exist' expect_error run "$dir/absent.rgraph" --fetch=y
[[ $fail -eq 0 ]] && echo "graph_tool hostile inputs: OK"
exit $fail
