#!/usr/bin/env bash
# Installs what rill needs from Debian's packages, skipping what is already there.
# Used by scripts/main.sh and scripts/test.sh; safe to run again.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config libeigen3-dev libabsl-dev libdnnl-dev
          libgtest-dev libgmock-dev libbenchmark-dev zlib1g-dev clang-format gnuplot-nox
          dataset-fashion-mnist graphviz
          clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: everything is installed"
fi
