#!/usr/bin/env bash
# On the lent GPU machine, in the repository root, after scripts/gpu-bundle.sh here and with
# `carry: [".devpack", "data/mnist-digits"]`: both halves of the GPU run in one command,
# for a lease with time for it (about 12 minutes, over one device command's 10: with a
# 15-minute lease run scripts/gpu-check.sh and scripts/gpu-figures.sh as two commands).
set -uo pipefail
: "${OUT:?the device tool sets OUT}"
bash scripts/gpu-check.sh
bash scripts/gpu-figures.sh
