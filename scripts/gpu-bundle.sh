#!/usr/bin/env bash
# For a session lent the GPU machine: builds here, packs the test and benchmark binaries
# with the Debian libraries that machine lacks into .devbundle/ (ignored by git), and
# prints the one command to run there (GPU tests, compute-sanitizer, benchmarks; logs in
# $OUT). The CPU-and-GPU figure comes back as its CSV, matmul_devices.csv: draw it here
# with `matmul_bench --plot_from=FILE --plot=docs/img/NAME`.
# The bundle travels packed (.devpack/bundle.tar.xz, about 20 MiB: oneDNN alone is 40 MiB
# unpacked, and rill with ONNX, protobuf and Open MPI took the bundle past the tool's 64);
# the device command unpacks it first. It holds ONNX's backend test data too, which the GPU
# machine lacks. Pass `carry: [".devpack", "data/mnist-digits"]` to the device tool.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
../shared/tools/device-bundle.sh .devbundle \
  build/release/tests/rill_tests build/release/tests/bench/rill_gpu_bench \
  build/release/tests/bench/rill_bench build/release/examples/matmul_bench \
  build/release/examples/train_cifar_mlp build/release/examples/train_mnist_cnn \
  build/release/examples/onnx_run build/release/tests/onnx/onnx_conformance \
  build/release/tests/onnx/rill_onnx_tests build/release/tests/dist/rill_dist_tests \
  build/release/examples/allreduce_bench
# Symbols are not needed there: stripping rill's own binaries saves about 3 MiB of the
# tool's 64 (the bundle was 63 MiB with Open MPI's libraries, 60 stripped).
strip --strip-unneeded .devbundle/bin/* .devbundle/lib/librill.so.*
# Open MPI's launcher, relocatable: the GPU machine has no MPI, and the collectives' test
# of two ranks sharing its GPU (the staged path) runs under mpirun.
scripts/bundle-mpi.sh .devbundle/ompi
mkdir -p .devbundle/onnx-testdata
cp -r /usr/share/libonnx-testdata/data/{node,simple,pytorch-converted,pytorch-operator} .devbundle/onnx-testdata/
# (device-bundle.sh's warning about 60 MiB is about this unpacked folder: the archive travels.)
echo "gpu-bundle: $(du -sm .devbundle | cut -f1) MiB unpacked, after stripping"
mkdir -p .devpack
tar cJf .devpack/bundle.tar.xz .devbundle
echo "gpu-bundle: .devpack/bundle.tar.xz is $(du -sm .devpack/bundle.tar.xz | cut -f1) MiB (the tool carries 64)"
echo "Run on the device, as one command of about 7 minutes (timeout_s 560): bash scripts/gpu-run.sh"
