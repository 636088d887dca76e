#!/usr/bin/env bash
# Runs matmul_bench on tiny sizes and checks what it writes: the CSV's columns, positive
# times, verified results, and the figure as PNG and SVG; then draws that CSV again with
# --plot_from (as for a CSV brought from another machine) and feeds it files that are not
# its CSV. Args: MATMUL_BENCH WORK_DIR
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

"$bench" --plot_from="$work/mm.csv" --plot="$work/again" > "$work/replot.txt" ||
  fail "--plot_from failed on its own CSV"
[[ $(head -c 8 "$work/again.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "again.png is not a PNG"
grep -q "cpu (rill)" "$work/again.svg" || fail "again.svg has no cpu line"
grep -q "device start-up" "$work/replot.txt" && fail "--plot_from started the devices"
printf 'device,n\ncpu,8\n' > "$work/other.csv"
{ head -n 2 "$work/mm.csv"; echo "tpu,8,1,1,1,1,1,1,1,1"; } > "$work/bad_row.csv"
for bad in other.csv:1 bad_row.csv:3 "absent.csv: cannot be read"; do
  if "$bench" --plot_from="$work/${bad%%:*}" 2> "$work/err.txt"; then fail "--plot_from accepted $bad"; fi
  grep -qF "$bad" "$work/err.txt" || fail "the error does not say '$bad': $(cat "$work/err.txt")"
done
echo "check_matmul_bench: $rows rows verified, figure written"
