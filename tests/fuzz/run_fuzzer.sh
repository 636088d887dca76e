#!/usr/bin/env bash
# Runs a libFuzzer target (built by the asan preset: build/asan/tests/fuzz/T_fuzzer) for
# SECONDS, starting from the seed corpus in the repository; new inputs go to WORKDIR, the
# repository's corpus is only read.
# KIND (default graph) sets the memory limits:
#   file   the file readers (checkpoint, idx, cifar, graph_text): inputs are at most 4 KiB,
#          so any single allocation over 64 MiB (-malloc_limit_mb) or a resident set over
#          2 GiB (-rss_limit_mb) is a finding: a reader allocated by a size the bytes
#          declared without holding it (a gzip bomb, a wrapped length);
#   graph  graphs, Sessions and Keras: a graph may legitimately ask for a huge tensor, so
#          allocations over 1 GiB fail (allocator_may_return_null) and must come back as
#          ResourceExhausted; the resident set is limited to 4 GiB.
# An input that runs over 120 s is a finding too (-timeout): a loop a value steers (a float
# counter that stops counting, an order of 10^30) hangs rather than crashes.
# With RILL_FUZZ_RUNS=N in the environment the run also stops after N executions.
# Args: FUZZER SEED_CORPUS WORKDIR SECONDS [KIND]
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3 seconds=$4 kind=${5:-graph}
mkdir -p "$work/corpus"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=1024"
case "$kind" in
  file) limits=(-rss_limit_mb=2048 -malloc_limit_mb=64) ;;
  graph) limits=(-rss_limit_mb=4096) ;;
  *) echo "run_fuzzer.sh: KIND must be file or graph, got '$kind'" >&2; exit 2 ;;
esac
[[ -n ${RILL_FUZZ_RUNS:-} ]] && limits+=(-runs="$RILL_FUZZ_RUNS")
"$fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=120 "${limits[@]}" -print_final_stats=1 \
  -artifact_prefix="$work/" "$work/corpus" "$seeds" 2>&1 | tail -n 12
