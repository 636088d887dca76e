// Gradients of Tile, ReverseV2, Reverse, Pack, Unpack, Split, SplitV, Select and SelectV2; Range
// and Where are not differentiable (their outputs are indices), as in TensorFlow.
#include "rill/core/shape_inference.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;
using grad::Out;

// Tile with constant multiples and the dims from the first tiled one on known: the replicas
// of each tiled dim d folded in turn, viewing the gradient as [rest, m_d, n_d, inner] and
// summing over m_d; every view has rank 4, whatever the input's rank. False when the
// shapes do not allow it.
bool StaticTileGrad(const Scope& s, const Operation& op, const Output& g, GradOut* out) {
  const Output x = In(op, 0);
  const Tensor* mt = In(op, 1).node()->constant_value();
  if (mt == nullptr || x.shape().unknown_rank()) return false;
  auto m = shape_fns::IntValues(*mt, "multiples");
  const auto n = x.shape().dim_sizes();
  if (!m.ok() || m->size() != n.size()) return false;
  for (int64_t k : *m) {
    if (k == 0) {  // the output is empty: nothing flows back
      out->push_back(ZerosLike(s, x));
      return true;
    }
  }
  // Each fold needs n_d and every dim after d known (the -1 of a view takes the rest).
  std::vector<int64_t> inner(n.size(), 1);  // the product of the gradient's dims after d
  for (int d = static_cast<int>(n.size()) - 2; d >= 0; --d) {
    const int64_t after = n[d + 1] < 0 ? -1 : n[d + 1] * (*m)[d + 1];
    inner[d] = inner[d + 1] < 0 || after < 0 ? -1 : inner[d + 1] * after;
  }
  for (size_t d = 0; d < n.size(); ++d) {
    if ((*m)[d] != 1 && (n[d] < 0 || inner[d] < 0)) return false;
  }
  Output cur = g;
  for (size_t d = 0; d < n.size(); ++d) {
    if ((*m)[d] == 1) continue;
    // Dims after d are still tiled (folded later), so inner[d] is the right row length.
    Output view = Reshape(s, cur, grad::IntVector(s, {-1, (*m)[d], n[d], inner[d]}));
    cur = Sum(s, view, grad::IntVector(s, {1}));
  }
  out->push_back(Reshape(s, cur, grad::ReshapeSpecOf(s, x)));
  return true;
}

// Otherwise TensorFlow's formulation: the gradient viewed as [m_0, n_0, m_1, n_1, ...] and
// summed over the even axes (a view of twice the input's rank: inputs up to rank 4).
absl::Status TileGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  if (!StaticTileGrad(s, op, g[0], out)) {
    const Output x = In(op, 0), multiples = In(op, 1);
    Output shape = Shape(s, x, Shape::OutType(multiples.type()));
    Output split = Reshape(s, Transpose(s, Stack(s, {multiples, shape}), {1, 0}), {-1});
    Output zero = grad::Scalar(s, 0, DT_INT32), two = grad::Scalar(s, 2, DT_INT32);
    Output axes = Range(s, zero, Size(s, split), two);
    out->push_back(Reshape(s, Sum(s, Reshape(s, g[0], split), axes), Shape(s, x)));
  }
  out->push_back(Output());
  return s.status();
}

absl::Status PackGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const int64_t n = op.node()->num_inputs();
  Unstack pieces(s, g[0], n, Unstack::Axis(op.node()->attr<int64_t>("axis")));
  if (!s.ok()) return s.status();
  for (const Output& p : pieces.output) out->push_back(p);
  return s.status();
}

absl::Status UnpackGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Stack(s, g, Stack::Axis(op.node()->attr<int64_t>("axis"))));
  return s.status();
}

absl::Status SplitGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Output());
  out->push_back(Concat(s, g, In(op, 0)));
  return s.status();
}

absl::Status SplitVGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Concat(s, g, In(op, 2)));
  out->push_back(Output());
  out->push_back(Output());
  return s.status();
}

// condition ? g : 0 to t and condition ? 0 : g to e; SelectV2's sums each back to its
// operand's shape. No gradient for the condition.
template <bool kV2>
absl::Status SelectGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output c = In(op, 0), zeros = ZerosLike(s, g[0]);
  out->push_back(Output());
  if constexpr (kV2) {
    const Output y = Out(op);
    out->push_back(grad::ReduceToOperand(s, SelectV2(s, c, g[0], zeros), In(op, 1), y.shape(), y));
    out->push_back(grad::ReduceToOperand(s, SelectV2(s, c, zeros, g[0]), In(op, 2), y.shape(), y));
  } else {
    out->push_back(Select(s, c, g[0], zeros));
    out->push_back(Select(s, c, zeros, g[0]));
  }
  return s.status();
}

// Reversing is its own inverse: the gradient is dy reversed along the same axes. No
// gradient for the axes.
absl::Status ReverseGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(Reverse(s, g[0], In(op, 1)));
  out->push_back(Output());
  return s.status();
}

// The same for the first Reverse, whose dims flag the reversed dims.
absl::Status ReverseDimsGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  out->push_back(
      Output(internal::NodeBuilder(s, "Reverse").Input(g[0]).Input(In(op, 1)).Finalize().node()));
  out->push_back(Output());
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("Tile", TileGrad);
RILL_REGISTER_GRADIENT("ReverseV2", ReverseGrad);
RILL_REGISTER_GRADIENT("Reverse", ReverseDimsGrad);
RILL_REGISTER_GRADIENT("Pack", PackGrad);
RILL_REGISTER_GRADIENT("Unpack", UnpackGrad);
RILL_REGISTER_GRADIENT("Split", SplitGrad);
RILL_REGISTER_GRADIENT("SplitV", SplitVGrad);
RILL_REGISTER_GRADIENT("Select", SelectGrad<false>);
RILL_REGISTER_GRADIENT("SelectV2", SelectGrad<true>);
RILL_REGISTER_NO_GRADIENT("Range");
RILL_REGISTER_NO_GRADIENT("LinSpace");  // as TensorFlow's raw op
RILL_REGISTER_NO_GRADIENT("Where");

}  // namespace rill::ops
