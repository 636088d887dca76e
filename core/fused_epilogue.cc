#include "rill/core/fused_epilogue.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rill/core/status.h"

namespace rill {
namespace {

using Kind = FusedEpilogue::Kind;

constexpr std::pair<const char*, Kind> kActivations[] = {
    {"Relu", Kind::kRelu},   {"Sigmoid", Kind::kSigmoid}, {"Tanh", Kind::kTanh},
    {"Relu6", Kind::kRelu6}, {"Elu", Kind::kElu},         {"LeakyRelu", Kind::kLeakyRelu}};

absl::Status Unsupported(const std::vector<std::string>& fused_ops) {
  std::vector<std::string> names;
  for (const auto& [name, kind] : kActivations) names.push_back(name);
  return errors::InvalidArgument("unsupported fusion [", absl::StrJoin(fused_ops, ", "),
                                 "]: fused_ops must be [BiasAdd] or [BiasAdd, one of ",
                                 absl::StrJoin(names, ", "), "]");
}

}  // namespace

std::optional<FusedActivation> FusedEpilogue::bias_activation() const {
  switch (kind) {
    case Kind::kRelu:
      return FusedActivation::kRelu;
    case Kind::kSigmoid:
      return FusedActivation::kSigmoid;
    case Kind::kTanh:
      return FusedActivation::kTanh;
    default:
      return std::nullopt;
  }
}

std::optional<PointActivation> FusedEpilogue::point_activation() const {
  switch (kind) {
    case Kind::kRelu6:
      return PointActivation::kRelu6;
    case Kind::kElu:
      return PointActivation::kElu;
    case Kind::kLeakyRelu:
      return PointActivation::kLeakyRelu;
    default:
      return std::nullopt;
  }
}

const char* FusedEpilogue::activation_op() const {
  for (const auto& [name, k] : kActivations) {
    if (k == kind) return name;
  }
  return "";
}

absl::StatusOr<FusedEpilogue> ParseFusedMatMulEpilogue(const std::vector<std::string>& fused_ops,
                                                       int64_t num_args, float leakyrelu_alpha) {
  if (fused_ops.empty() || fused_ops.size() > 2 || fused_ops[0] != "BiasAdd") {
    return Unsupported(fused_ops);
  }
  if (num_args != 1) {
    return errors::InvalidArgument("fused_ops [", absl::StrJoin(fused_ops, ", "),
                                   "] take one argument (the bias), num_args is ", num_args);
  }
  FusedEpilogue e;
  e.leakyrelu_alpha = leakyrelu_alpha;
  if (fused_ops.size() == 1) return e;
  for (const auto& [name, kind] : kActivations) {
    if (fused_ops[1] == name) {
      e.kind = kind;
      return e;
    }
  }
  return Unsupported(fused_ops);
}

absl::StatusOr<FusedEpilogue> ParseFusedMatMulEpilogue(const AttrMap& attrs) {
  std::vector<std::string> fused_ops;
  int64_t num_args = 0;
  float alpha = 0.2f;
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "fused_ops", &fused_ops));
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "num_args", &num_args));
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "leakyrelu_alpha", &alpha));
  return ParseFusedMatMulEpilogue(fused_ops, num_args, alpha);
}

std::vector<std::string> FusedMatMulOps(const std::string& activation_op) {
  if (activation_op.empty()) return {"BiasAdd"};
  return {"BiasAdd", activation_op};
}

}  // namespace rill
