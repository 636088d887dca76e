// The end of a _FusedMatMul or _FusedConv2D on the GPU, over its product `y` (n values,
// `channels` last) in place: Relu, Sigmoid and Tanh in one kernel with the bias (as
// _BiasActivation's); the bias, then the activation op's own kernel, for Relu6, Elu and
// LeakyRelu; the bias alone. A batch norm is InvalidArgument, as on TensorFlow's GPU
// kernel: that fusion runs on the CPU only.
#pragma once

#include <optional>

#include "rill/core/fused_epilogue.h"
#include "rill/core/status.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {

// InvalidArgument for an end the GPU does not run (a batch norm), checked before the
// product is computed.
inline absl::Status CheckFusedEpilogueGpu(const FusedEpilogue& e) {
  if (!e.batch_norm) return absl::OkStatus();
  return errors::InvalidArgument(
      "fused_ops [FusedBatchNorm, ...] run on the CPU only (place the node on /CPU:0)");
}

template <typename T>
absl::Status FusedEpilogueGpu(const FusedEpilogue& e, T* y, const T* bias, int64_t n,
                              int64_t channels, cudaStream_t stream) {
  RILL_RETURN_IF_ERROR(CheckFusedEpilogueGpu(e));
  if (const std::optional<FusedActivation> a = e.bias_activation()) {
    RILL_CUDA_CHECK(LaunchBiasActivation<T>(*a, y, bias, y, n, channels, stream));
    return absl::OkStatus();
  }
  RILL_CUDA_CHECK(LaunchBiasAdd<T>(y, bias, y, n, channels, stream));
  const T alpha = static_cast<T>(e.leakyrelu_alpha);
  cudaError_t err = cudaSuccess;
  switch (e.point_activation().value_or(PointActivation::kSelu)) {
    case PointActivation::kRelu6:
      err = LaunchPointActivation<PointActivation::kRelu6, T>(y, y, alpha, n, stream);
      break;
    case PointActivation::kElu:
      err = LaunchPointActivation<PointActivation::kElu, T>(y, y, alpha, n, stream);
      break;
    case PointActivation::kLeakyRelu:
      err = LaunchPointActivation<PointActivation::kLeakyRelu, T>(y, y, alpha, n, stream);
      break;
    default:  // the bias alone (no fused op is Selu)
      break;
  }
  RILL_CUDA_CHECK(err);
  return absl::OkStatus();
}

}  // namespace rill::gpu
