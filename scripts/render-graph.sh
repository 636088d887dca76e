#!/usr/bin/env bash
# Renders a Graphviz file written by rill (WriteDot, graph_tool dot, train_mnist_cnn
# --graph_dot) with Debian's graphviz: render-graph.sh IN.dot OUT.svg|OUT.png
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 IN.dot OUT.svg|OUT.png" >&2
  exit 2
fi
in=$1 out=$2
format=${out##*.}
case $format in
  svg | png | pdf) ;;
  *) echo "render-graph: OUT must end in .svg, .png or .pdf" >&2; exit 2 ;;
esac
if ! command -v dot >/dev/null; then
  echo "render-graph: Graphviz is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
dot -T"$format" "$in" -o "$out"
echo "render-graph: wrote $out"
