#!/bin/sh
# A killed rank makes the survivor fail with a Status within the collective timeout, and
# its engine's threads leave, in every one of N trials.
# Usage: dead_rank.sh MPIRUN PROGRAM TRIALS TIMEOUT_SECONDS
mpirun=$1 program=$2 trials=$3 timeout_s=$4
i=1
while [ "$i" -le "$trials" ]; do
  out=$(RILL_COLLECTIVE_TIMEOUT=$timeout_s timeout 120 "$mpirun" --allow-run-as-root \
        --oversubscribe --enable-recovery -x RILL_COLLECTIVE_TIMEOUT -np 2 "$program" 2>&1)
  line=$(printf '%s\n' "$out" | grep '^rank 0: after')
  if ! printf '%s' "$line" | grep -q "DEADLINE_EXCEEDED: .*grad_sum.*not complete after ${timeout_s}s on rank 0 of 2"; then
    printf 'trial %s: no timeout Status from rank 0:\n%s\n' "$i" "$out"
    exit 1
  fi
  if ! printf '%s\n' "$out" | grep -q '^rank 0: the communication thread and the watchdog left'; then
    printf 'trial %s: rank 0 kept the threads of its broken engine:\n%s\n' "$i" "$out"
    exit 1
  fi
  seconds=$(printf '%s' "$line" | sed 's/^rank 0: after \([0-9.]*\) s.*/\1/')
  if ! awk -v s="$seconds" -v t="$timeout_s" 'BEGIN { exit !(s <= t + 1) }'; then
    printf 'trial %s: rank 0 waited %s s, more than the %s s timeout\n' "$i" "$seconds" "$timeout_s"
    exit 1
  fi
  printf 'trial %s: %s\n' "$i" "$line"
  i=$((i + 1))
done
echo "dead rank: the survivor failed with a Status within the timeout in $trials of $trials trials"
