// Gradients of the rearranging ops (rearrange_ops.h), TensorFlow's formulas: each op's
// gradient is its inverse rearrangement (a roll back, the same reversal, the other of a
// pair), or for the diagonal ops the diagonal taken or placed. Shifts, axes, lengths,
// paddings, block shapes and band bounds get none.
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/rearrange_ops.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;

template <typename... Rest>
absl::Status Push(const Scope& s, GradOut* out, Output dx, Rest... none) {
  out->push_back(dx);
  (out->push_back(none), ...);
  return s.status();
}

absl::Status RollGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  return Push(s, out, Roll(s, g[0], Neg(s, In(op, 1)), In(op, 2)), Output(), Output());
}

absl::Status ReverseSequenceGrad(const Scope& s, const Operation& op, const GradOut& g,
                                 GradOut* out) {
  const Node* n = op.node();
  Output dx = ReverseSequence(s, g[0], In(op, 1), n->attr<int64_t>("seq_dim"),
                              ReverseSequence::BatchDim(n->attr<int64_t>("batch_dim")));
  return Push(s, out, dx, Output());
}

absl::Status MirrorPadGradient(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  const std::string& mode = op.node()->attr<std::string>("mode");
  return Push(s, out, internal::MirrorPadGrad(s, g[0], In(op, 1), mode), Output());
}

absl::Status MirrorPadGradGrad(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  const std::string& mode = op.node()->attr<std::string>("mode");
  return Push(s, out, MirrorPad(s, g[0], In(op, 1), mode), Output());
}

template <bool kToDepth>
absl::Status SpaceDepthGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Node* n = op.node();
  const int64_t b = n->attr<int64_t>("block_size");
  const auto format = SpaceDepthAttrs().DataFormat(n->attr<std::string>("data_format"));
  Output dx = kToDepth ? Output(DepthToSpace(s, g[0], b, format))
                       : Output(SpaceToDepth(s, g[0], b, format));
  return Push(s, out, dx);
}

absl::Status SpaceToBatchGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  return Push(s, out, BatchToSpaceND(s, g[0], In(op, 1), In(op, 2)), Output(), Output());
}

absl::Status BatchToSpaceGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  return Push(s, out, SpaceToBatchND(s, g[0], In(op, 1), In(op, 2)), Output(), Output());
}

absl::Status DiagGrad(const Scope& s, const Operation&, const GradOut& g, GradOut* out) {
  return Push(s, out, DiagPart(s, g[0]));
}
absl::Status DiagPartGrad(const Scope& s, const Operation&, const GradOut& g, GradOut* out) {
  return Push(s, out, Diag(s, g[0]));
}
absl::Status MatrixDiagGrad(const Scope& s, const Operation&, const GradOut& g, GradOut* out) {
  return Push(s, out, MatrixDiagPart(s, g[0]));
}
// The diagonal placed in a zero matrix of the input's shape (square or not).
absl::Status MatrixDiagPartGrad(const Scope& s, const Operation& op, const GradOut& g,
                                GradOut* out) {
  return Push(s, out, MatrixSetDiag(s, ZerosLike(s, In(op, 0)), g[0]));
}
// The input's gradient is dy with its diagonal zeroed; the diagonal's is dy's diagonal.
absl::Status MatrixSetDiagGrad(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  Output dx = MatrixSetDiag(s, g[0], ZerosLike(s, In(op, 1)));
  return Push(s, out, dx, Output(MatrixDiagPart(s, g[0])));
}
absl::Status BandPartGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  return Push(s, out, MatrixBandPart(s, g[0], In(op, 1), In(op, 2)), Output(), Output());
}

}  // namespace

RILL_REGISTER_GRADIENT("Roll", RollGrad);
RILL_REGISTER_GRADIENT("ReverseSequence", ReverseSequenceGrad);
RILL_REGISTER_GRADIENT("MirrorPad", MirrorPadGradient);
RILL_REGISTER_GRADIENT("MirrorPadGrad", MirrorPadGradGrad);
RILL_REGISTER_GRADIENT("SpaceToDepth", SpaceDepthGrad<true>);
RILL_REGISTER_GRADIENT("DepthToSpace", SpaceDepthGrad<false>);
RILL_REGISTER_GRADIENT("SpaceToBatchND", SpaceToBatchGrad);
RILL_REGISTER_GRADIENT("BatchToSpaceND", BatchToSpaceGrad);
RILL_REGISTER_GRADIENT("Diag", DiagGrad);
RILL_REGISTER_GRADIENT("DiagPart", DiagPartGrad);
RILL_REGISTER_GRADIENT("MatrixDiag", MatrixDiagGrad);
RILL_REGISTER_GRADIENT("MatrixDiagPart", MatrixDiagPartGrad);
RILL_REGISTER_GRADIENT("MatrixSetDiag", MatrixSetDiagGrad);
RILL_REGISTER_GRADIENT("MatrixBandPart", BandPartGrad);

}  // namespace rill::ops
