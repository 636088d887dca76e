#include "rill/core/batch_norm_global.h"

#include <cmath>

namespace rill {
namespace {

// The op's inputs: t, m, v, beta, gamma (forward) or t, m, v, gamma, backprop (gradient):
// which are the per-channel vectors.
bool IsVector(const std::string& op, int i) {
  return op == "BatchNormWithGlobalNormalizationGrad" ? (i >= 1 && i <= 3) : i >= 1;
}

const char* kNames[2][5] = {{"t", "m", "v", "beta", "gamma"}, {"t", "m", "v", "gamma", "backprop"}};

}  // namespace

absl::Status GlobalNormShape(InferenceContext& c) {
  const std::string& op = c.op_def().name;
  const bool grad = op == "BatchNormWithGlobalNormalizationGrad";
  const float eps = c.attr<float>("variance_epsilon");
  if (!std::isfinite(eps) || eps < 0) {
    return errors::InvalidArgument("variance_epsilon must be finite and >= 0, got ", eps);
  }
  PartialTensorShape t = c.input_shape(0);
  if (!t.unknown_rank() && t.dims() != 4) {
    return errors::InvalidArgument("input must be 4-dimensional, got ", t.DebugString());
  }
  if (grad && !t.IsCompatibleWith(c.input_shape(4))) {
    return errors::InvalidArgument("backprop must have t's shape ", t.DebugString(), ", got ",
                                   c.input_shape(4).DebugString());
  }
  const int64_t channels = t.unknown_rank() ? -1 : t.dim_size(3);
  for (int i = 1; i < 5; ++i) {
    if (!IsVector(op, i)) continue;
    const PartialTensorShape& s = c.input_shape(i);
    if (s.unknown_rank()) continue;
    if (s.dims() != 1) {
      return errors::InvalidArgument(kNames[grad][i], " must be 1-dimensional, got ",
                                     s.DebugString());
    }
    if (channels >= 0 && s.dim_size(0) >= 0 && s.dim_size(0) != channels) {
      return errors::InvalidArgument(kNames[grad][i], " must have one value per channel of t ",
                                     t.DebugString(), ", got ", s.DebugString());
    }
  }
  c.set_output(0, t);
  for (int o = 1; o < static_cast<int>(c.outputs().size()); ++o) {
    c.set_output(o, PartialTensorShape({channels}));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> CheckGlobalNorm(const OpKernelContext& ctx, float epsilon) {
  const std::string& op = ctx.node().type_string();
  const bool grad = op == "BatchNormWithGlobalNormalizationGrad";
  if (!std::isfinite(epsilon) || epsilon < 0) {
    return errors::InvalidArgument("variance_epsilon must be finite and >= 0, got ", epsilon);
  }
  const Tensor& t = ctx.input(0);
  if (t.dims() != 4) {
    return errors::InvalidArgument("input must be 4-dimensional, got ", t.shape().DebugString());
  }
  if (grad && ctx.input(4).shape() != t.shape()) {
    return errors::InvalidArgument("backprop must have t's shape ", t.shape().DebugString(),
                                   ", got ", ctx.input(4).shape().DebugString());
  }
  const int64_t channels = t.dim_size(3);
  for (int i = 1; i < 5; ++i) {
    if (!IsVector(op, i)) continue;
    const Tensor& s = ctx.input(i);
    if (s.dims() != 1 || s.dim_size(0) != channels) {
      return errors::InvalidArgument(
          kNames[grad][i], " must be a vector of one value per channel (", channels, " for t ",
          t.shape().DebugString(), "), got ", s.shape().DebugString());
    }
  }
  return channels;
}

}  // namespace rill
