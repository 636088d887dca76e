// ONNX's training losses as compositions of rill ops, so that their gradients come from
// the ops' own: NegativeLogLikelihoodLoss picks -input[n, target[n, ...], ...] with a one-hot
// mask along the class dim (1), weights it per class, leaves out ignore_index, and reduces
// (none, sum, or the weighted mean); SoftmaxCrossEntropyLoss is NLL of LogSoftmax on dim 1.
#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

std::string ReductionSupport(const SupportView& v) {
  const std::string r = v.attrs.s("reduction", "mean");
  if (r != "mean" && r != "sum" && r != "none") return absl::StrCat("reduction '", r, "'");
  return "";
}

// The loss of log-probabilities `logp` [N, C, d...] for `target` [N, d...].
absl::StatusOr<Output> NllLoss(const NodeContext& c, const Output& logp, Output target,
                               const Output& weight) {
  if (RankOf(logp) < 2) return c.Error("the input must have rank 2 or more, and a known rank");
  if (target.type() != DT_INT64) target = c.Op("Cast", {target}, {{"DstT", DT_INT64}});
  Output safe = target, keep;  // keep: where the target is not ignore_index
  if (c.attrs().has("ignore_index")) {
    Output ignore = c.Const(Tensor(c.attrs().i("ignore_index", 0)));
    keep = c.Op("NotEqual", {target, ignore});
    safe = c.Op("SelectV2", {keep, target, c.Op("ZerosLike", {target})});
  }
  Output depth = DimOf(c, logp, 1, DT_INT32);
  Output hot = c.Op("OneHot", {safe, depth, ScalarLike(c, logp, 1), ScalarLike(c, logp, 0)},
                    {{"axis", int64_t{1}}});
  Output loss = c.Op("Neg", {c.Op("Sum", {c.Op("Mul", {logp, hot}), c.Int64s({1})})});
  Output w;  // per-element weight, or none
  if (weight.node() != nullptr) w = c.Op("GatherV2", {weight, safe, c.Const(Tensor(int64_t{0}))});
  if (keep.node() != nullptr) {
    Output k = c.Op("Cast", {keep}, {{"DstT", logp.type()}});
    w = w.node() != nullptr ? c.Op("Mul", {w, k}) : k;
  }
  if (w.node() != nullptr) loss = c.Op("Mul", {loss, w});
  const std::string reduction = c.attrs().s("reduction", "mean");
  if (reduction == "none") return loss;
  const int64_t rank = RankOf(loss);
  std::vector<int64_t> all;
  for (int64_t d = 0; d < rank; ++d) all.push_back(d);
  if (rank < 0) return c.Error("the loss's rank is not known");
  if (reduction == "sum") return c.Op("Sum", {loss, c.Int64s(all)});
  if (w.node() == nullptr) return c.Op("Mean", {loss, c.Int64s(all)});
  return c.Op("Div", {c.Op("Sum", {loss, c.Int64s(all)}), c.Op("Sum", {w, c.Int64s(all)})});
}

absl::Status ConvertNll(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(Output loss, NllLoss(c, c.input(0), c.input(1), c.input(2)));
  c.set_output(0, loss);
  return absl::OkStatus();
}

absl::Status ConvertSoftmaxCrossEntropy(NodeContext& c) {
  Output scores = c.input(0);
  const int64_t rank = RankOf(scores);
  if (rank < 2) return c.Error("the scores must have rank 2 or more, and a known rank");
  Output logp;
  if (rank == 2) {
    logp = c.Op("LogSoftmax", {scores});
  } else {  // over dim 1: moved last and back
    std::vector<int64_t> perm(rank);
    for (int64_t i = 0; i < rank; ++i) perm[i] = i;
    std::swap(perm[1], perm[rank - 1]);
    Output t = c.Op("LogSoftmax", {c.Op("Transpose", {scores, c.Int64s(perm)})});
    logp = c.Op("Transpose", {t, c.Int64s(perm)});
  }
  RILL_ASSIGN_OR_RETURN(Output loss, NllLoss(c, logp, c.input(1), c.input(2)));
  c.set_output(0, loss);
  c.set_output(1, logp);
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertLossRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"NegativeLogLikelihoodLoss", 12, ReductionSupport, ConvertNll});
  r->Register({"SoftmaxCrossEntropyLoss", 12, ReductionSupport, ConvertSoftmaxCrossEntropy});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
