#!/usr/bin/env bash
# Runs a libFuzzer target (built by the asan preset: build/asan/tests/fuzz/T_fuzzer) for
# SECONDS, starting from the seed corpus in the repository; new inputs go to WORKDIR, the
# repository's corpus is only read. Allocations over 1 GiB fail (as on a small machine), so
# that a graph asking for a huge tensor gives ResourceExhausted rather than filling memory.
# Args: FUZZER SEED_CORPUS WORKDIR SECONDS
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3 seconds=$4
mkdir -p "$work/corpus"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=1024"
"$fuzzer" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$work/" "$work/corpus" "$seeds" 2>&1 | tail -n 12
