// BatchMatMulV2: schema, shape function (core/batch_matmul.h's rule, shared with the
// kernels), wrapper and gradient (TensorFlow's, summed over broadcast batch dims).
#include "rill/core/batch_matmul.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill {

RILL_REGISTER_OP("BatchMatMulV2")
    .Input("x", "T")
    .Input("y", "T")
    .Output("output", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .Attr("adj_x", AttrKind::kBool, false)
    .Attr("adj_y", AttrKind::kBool, false)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const PartialTensorShape &x = c.input_shape(0), &y = c.input_shape(1);
      if (x.unknown_rank() || y.unknown_rank()) {
        c.set_output(0, PartialTensorShape());
        return absl::OkStatus();
      }
      RILL_ASSIGN_OR_RETURN(auto out,
                            BatchMatMulDims(x.dim_sizes(), y.dim_sizes(), c.attr<bool>("adj_x"),
                                            c.attr<bool>("adj_y")));
      c.set_output(0, PartialTensorShape(out));
      return absl::OkStatus();
    });

namespace ops {

BatchMatMulV2::BatchMatMulV2(const Scope& scope, Input x, Input y, const Attrs& attrs) {
  internal::NodeBuilder(scope, "BatchMatMulV2")
      .Input(x)
      .Input(y)
      .Attr("adj_x", attrs.adj_x_)
      .Attr("adj_y", attrs.adj_y_)
      .Finalize(this);
}

namespace {

using GradOut = std::vector<Output>;
using grad::In;

// The batch dims of x (all but the last two), as a shape vector.
Output BatchShape(const Scope& s, const Output& x) {
  Output shape = Shape(s, x);
  return Slice(s, shape, {0}, Reshape(s, Sub(s, Size(s, shape), Const(s, 2)), {1}));
}

bool SameKnownBatch(const Output& x, const Output& y) {
  const PartialTensorShape &a = x.shape(), &b = y.shape();
  if (!a.IsFullyDefined() || !b.IsFullyDefined() || a.dims() != b.dims()) return false;
  for (int d = 0; d < a.dims() - 2; ++d) {
    if (a.dim_size(d) != b.dim_size(d)) return false;
  }
  return true;
}

absl::Status BatchMatMulGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const Output x = In(op, 0), y = In(op, 1);
  const bool ax = op.node()->attr<bool>("adj_x"), ay = op.node()->attr<bool>("adj_y");
  auto bmm = [&](Output a, Output b, bool adj_a, bool adj_b) {
    return Output(BatchMatMulV2(s, a, b, BatchMatMulV2::AdjX(adj_a).AdjY(adj_b)));
  };
  // TensorFlow's four cases: d/dx and d/dy of op(x) op(y).
  Output gx = !ax ? (!ay ? bmm(g[0], y, false, true) : bmm(g[0], y, false, false))
                  : (!ay ? bmm(y, g[0], false, true) : bmm(y, g[0], true, true));
  Output gy = !ay ? (!ax ? bmm(x, g[0], true, false) : bmm(x, g[0], false, false))
                  : (!ax ? bmm(g[0], x, true, false) : bmm(g[0], x, true, true));
  if (SameKnownBatch(x, y)) {
    out->push_back(gx);
    out->push_back(gy);
    return s.status();
  }
  // Broadcast batch dims: each operand's gradient summed over the dims it was repeated in.
  BroadcastGradientArgs args(s, BatchShape(s, x), BatchShape(s, y));
  out->push_back(Reshape(s, Sum(s, gx, args.r0), Shape(s, x)));
  out->push_back(Reshape(s, Sum(s, gy, args.r1), Shape(s, y)));
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("BatchMatMulV2", BatchMatMulGrad);

}  // namespace ops
}  // namespace rill
