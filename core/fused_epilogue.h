// The end of a _FusedMatMul as TensorFlow's attrs describe it: `fused_ops` ["BiasAdd"] or
// ["BiasAdd", <activation>], `num_args` (the bias: 1) and `leakyrelu_alpha`. One parse for
// the shape function, the kernels of both devices and the gradient, so all accept the
// same lists and read them alike.
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
  enum class Kind { kBiasAdd, kRelu, kSigmoid, kTanh, kRelu6, kElu, kLeakyRelu };
  Kind kind = Kind::kBiasAdd;
  float leakyrelu_alpha = 0.2f;

  // Relu, Sigmoid and Tanh run in the bias-activation row functions; nullopt otherwise.
  std::optional<FusedActivation> bias_activation() const;
  // Relu6, Elu and LeakyRelu run as their ops' point functions after the bias; nullopt
  // otherwise.
  std::optional<PointActivation> point_activation() const;
  // TensorFlow's op name of the activation ("Relu", ...), "" for the bias alone.
  const char* activation_op() const;
};

// InvalidArgument for a list TensorFlow's kernels refuse too (an unknown or misplaced op, a
// fusion without "BiasAdd" first) and for num_args other than 1.
absl::StatusOr<FusedEpilogue> ParseFusedMatMulEpilogue(const std::vector<std::string>& fused_ops,
                                                       int64_t num_args, float leakyrelu_alpha);
// The same from a node's attrs (fused_ops, num_args, leakyrelu_alpha).
absl::StatusOr<FusedEpilogue> ParseFusedMatMulEpilogue(const AttrMap& attrs);

// The fused_ops attr of a bias followed by `activation_op` (a TensorFlow op name, "" for none).
std::vector<std::string> FusedMatMulOps(const std::string& activation_op);

}  // namespace rill
