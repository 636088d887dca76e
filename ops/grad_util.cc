#include "rill/ops/grad_util.h"

#include "rill/ops/array_ops.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/math_ops.h"

namespace rill::ops::grad {

Tensor ScalarTensor(double v, DataType dt) {
  Tensor t(dt, TensorShape({}));
  VisitDataType(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    t.base<T>()[0] = static_cast<T>(v);
  });
  return t;
}

Output Scalar(const Scope& s, double v, DataType dt) {
  return Const(s, Input::Initializer(ScalarTensor(v, dt)));
}

Output IntVector(const Scope& s, const std::vector<int64_t>& v) {
  Tensor t(DT_INT32, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.base<int32_t>()[i] = static_cast<int32_t>(v[i]);
  return Const(s, Input::Initializer(t));
}

Output ShapeOf(const Scope& s, const Output& x) {
  const PartialTensorShape& p = x.shape();
  if (p.IsFullyDefined()) return IntVector(s, {p.dim_sizes().begin(), p.dim_sizes().end()});
  return Shape(s, x);
}

Output ReshapeSpecOf(const Scope& s, const Output& x) {
  const PartialTensorShape& p = x.shape();
  if (!p.unknown_rank()) {
    int unknown = 0;
    for (int64_t d : p.dim_sizes()) unknown += d < 0;
    if (unknown <= 1) return IntVector(s, {p.dim_sizes().begin(), p.dim_sizes().end()});
  }
  return Shape(s, x);
}

namespace {

// The axes of the output that x was broadcast along, and how many of them are leading
// (absent from x); false when the shapes known at construction cannot decide it.
bool StaticAxes(const PartialTensorShape& x, const PartialTensorShape& other,
                std::vector<int64_t>* axes, int* leading) {
  if (x.unknown_rank() || other.unknown_rank()) return false;
  const int rank = std::max(x.dims(), other.dims());
  *leading = rank - x.dims();
  for (int d = 0; d < rank; ++d) {
    const int xi = d - (rank - x.dims()), oi = d - (rank - other.dims());
    if (xi < 0) {
      axes->push_back(d);
      continue;
    }
    const int64_t xd = x.dim_size(xi);
    const int64_t od = oi < 0 ? 1 : other.dim_size(oi);
    if (xd == 1) {
      if (od != 1) axes->push_back(d);  // summing a size-1 axis is harmless anyway
      continue;
    }
    if (xd > 1) continue;
    if (od == 1) continue;  // x's unknown dim is the output's
    return false;
  }
  return true;
}

}  // namespace

Output ReduceToOperand(const Scope& s, const Output& g, const Output& x,
                       const PartialTensorShape& other, const Output& other_value) {
  std::vector<int64_t> axes;
  int leading = 0;
  if (StaticAxes(x.shape(), other, &axes, &leading)) {
    if (axes.empty()) return g;
    Output summed = Sum(s, g, IntVector(s, axes), Sum::KeepDims(leading == 0));
    if (leading == 0) return summed;
    return Reshape(s, summed, ReshapeSpecOf(s, x));
  }
  BroadcastGradientArgs args(s, Shape(s, x), Shape(s, other_value));
  return Reshape(s, Sum(s, g, args.r0), Shape(s, x));
}

void ReduceBinary(const Scope& s, const Output& x, const Output& y, const Output& gx_full,
                  const Output& gy_full, std::vector<Output>* grads) {
  grads->push_back(gx_full.node() ? ReduceToOperand(s, gx_full, x, y.shape(), y) : Output());
  grads->push_back(gy_full.node() ? ReduceToOperand(s, gy_full, y, x.shape(), x) : Output());
}

}  // namespace rill::ops::grad
