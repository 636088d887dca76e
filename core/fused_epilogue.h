// The end of a _FusedMatMul or _FusedConv2D as TensorFlow's attrs describe it: `fused_ops`
// ["BiasAdd"] or ["BiasAdd", <activation>] (one argument, the bias), for _FusedConv2D also
// ["FusedBatchNorm"] or ["FusedBatchNorm", <activation>] (four: scale, offset, mean and
// variance, an inference batch norm with `epsilon`); `num_args`; `leakyrelu_alpha`. One
// parse for the shape functions, the kernels of both devices and the gradients, so all
// accept the same lists and read them alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rill/core/activation.h"
#include "rill/core/attr_value.h"
#include "rill/core/point_activation.h"

namespace rill {

struct FusedEpilogue {
  enum class Kind { kNone, kRelu, kSigmoid, kTanh, kRelu6, kElu, kLeakyRelu };
  Kind kind = Kind::kNone;  // the activation
  bool batch_norm = false;  // FusedBatchNorm's four arguments instead of a bias
  float leakyrelu_alpha = 0.2f;
  float epsilon = 0.0001f;  // the batch norm's

  int num_args() const { return batch_norm ? 4 : 1; }
  // Relu, Sigmoid and Tanh run in the bias-activation row functions; nullopt otherwise.
  std::optional<FusedActivation> bias_activation() const;
  // Relu6, Elu and LeakyRelu run as their ops' point functions; nullopt otherwise.
  std::optional<PointActivation> point_activation() const;
  // TensorFlow's op name of the activation ("Relu", ...), "" for none.
  const char* activation_op() const;
};

// InvalidArgument for a list TensorFlow's CPU kernels refuse too (an unknown or misplaced
// op, no "BiasAdd" or "FusedBatchNorm" first, a batch norm where `batch_norm_allowed` is
// false), for num_args other than the list's, and for a batch norm's negative or
// non-finite epsilon.
absl::StatusOr<FusedEpilogue> ParseFusedEpilogue(const std::vector<std::string>& fused_ops,
                                                 int64_t num_args, float leakyrelu_alpha,
                                                 float epsilon, bool batch_norm_allowed);
// From a node's attrs (fused_ops, num_args, leakyrelu_alpha, epsilon): _FusedMatMul's
// (BiasAdd only) and _FusedConv2D's.
absl::StatusOr<FusedEpilogue> ParseFusedMatMulEpilogue(const AttrMap& attrs);
absl::StatusOr<FusedEpilogue> ParseFusedConv2DEpilogue(const AttrMap& attrs);

// The fused_ops attr of a bias followed by `activation_op` (a TensorFlow op name, "" for
// none).
std::vector<std::string> FusedBiasOps(const std::string& activation_op);

}  // namespace rill
