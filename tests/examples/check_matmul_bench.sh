#!/usr/bin/env bash
# Runs matmul_bench on tiny sizes and checks what it writes: the CSV's columns, positive
# times, verified results, and the figure as PNG and SVG. Args: MATMUL_BENCH WORK_DIR
set -euo pipefail
bench=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
"$bench" --sizes=8,33,64 --reps=3 --min_time=0.05 --csv="$work/mm.csv" > "$work/out.txt"
fail() { echo "check_matmul_bench: $*" >&2; cat "$work/out.txt" >&2; exit 1; }
header=$(head -n 1 "$work/mm.csv")
[[ $header == "device,n,first_run_ms,median_ms,min_ms,max_ms,gflops,raw_median_ms,ratio_vs_raw,verified" ]] ||
  fail "unexpected header: $header"
rows=$(tail -n +2 "$work/mm.csv" | grep -c . || true)
(( rows >= 3 )) || fail "expected at least 3 rows (3 sizes x devices), got $rows"
awk -F, 'NR > 1 {
  for (i = 3; i <= 9; ++i) if (!($i > 0)) { print "row " NR ": column " i " is not positive: " $0; bad = 1 }
  if ($10 != 1) { print "row " NR ": result not verified: " $0; bad = 1 }
} END { exit bad }' "$work/mm.csv" || fail "bad values"
[[ $(head -c 8 "$work/mm.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "mm.png is not a PNG"
grep -q "<svg" "$work/mm.svg" || fail "mm.svg is not an SVG"
grep -q "device start-up" "$work/out.txt" || fail "no start-up line"
echo "check_matmul_bench: $rows rows verified, figure written"
