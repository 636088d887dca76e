#include "rill/core/fused_epilogue.h"

#include <cmath>
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

absl::Status Unsupported(const std::vector<std::string>& fused_ops, bool batch_norm_allowed) {
  std::vector<std::string> names;
  for (const auto& [name, kind] : kActivations) names.push_back(name);
  const std::string acts = absl::StrJoin(names, ", ");
  return errors::InvalidArgument(
      "unsupported fusion [", absl::StrJoin(fused_ops, ", "), "]: fused_ops must be [BiasAdd]",
      batch_norm_allowed ? " or [FusedBatchNorm]" : "", ", alone or followed by one of ", acts);
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

absl::StatusOr<FusedEpilogue> ParseFusedEpilogue(const std::vector<std::string>& fused_ops,
                                                 int64_t num_args, float leakyrelu_alpha,
                                                 float epsilon, bool batch_norm_allowed) {
  FusedEpilogue e;
  e.leakyrelu_alpha = leakyrelu_alpha;
  e.epsilon = epsilon;
  e.batch_norm = batch_norm_allowed && !fused_ops.empty() && fused_ops[0] == "FusedBatchNorm";
  if (fused_ops.empty() || fused_ops.size() > 2 || (fused_ops[0] != "BiasAdd" && !e.batch_norm)) {
    return Unsupported(fused_ops, batch_norm_allowed);
  }
  Kind kind = Kind::kNone;
  if (fused_ops.size() == 2) {
    bool known = false;
    for (const auto& [name, k] : kActivations) {
      if (fused_ops[1] == name) {
        kind = k;
        known = true;
      }
    }
    if (!known) return Unsupported(fused_ops, batch_norm_allowed);
  }
  e.kind = kind;
  if (num_args != e.num_args()) {
    return errors::InvalidArgument("fused_ops [", absl::StrJoin(fused_ops, ", "), "] take ",
                                   e.num_args(), e.batch_norm ? " arguments" : " argument",
                                   ", num_args is ", num_args);
  }
  if (e.batch_norm && !(std::isfinite(epsilon) && epsilon >= 0)) {
    return errors::InvalidArgument("a fused batch norm's epsilon must be finite and >= 0, got ",
                                   epsilon);
  }
  return e;
}

namespace {

absl::StatusOr<FusedEpilogue> ParseAttrs(const AttrMap& attrs, bool batch_norm_allowed) {
  std::vector<std::string> fused_ops;
  int64_t num_args = 0;
  float alpha = 0.2f, epsilon = 0.0001f;
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "fused_ops", &fused_ops));
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "num_args", &num_args));
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "leakyrelu_alpha", &alpha));
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "epsilon", &epsilon));
  return ParseFusedEpilogue(fused_ops, num_args, alpha, epsilon, batch_norm_allowed);
}

}  // namespace

absl::StatusOr<FusedEpilogue> ParseFusedMatMulEpilogue(const AttrMap& attrs) {
  return ParseAttrs(attrs, false);
}

absl::StatusOr<FusedEpilogue> ParseFusedConv2DEpilogue(const AttrMap& attrs) {
  return ParseAttrs(attrs, true);
}

std::vector<std::string> FusedBiasOps(const std::string& activation_op) {
  if (activation_op.empty()) return {"BiasAdd"};
  return {"BiasAdd", activation_op};
}

}  // namespace rill
