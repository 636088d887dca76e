// SparseToDense (ops/sparse_ops.h): schema, shape function (core/sparse_to_dense.h's
// checks), wrapper and gradient. As TensorFlow's: sparse_values get the output's gradient
// gathered at their indices (summed, for one scalar value), default_value the sum of the
// rest; built of GatherNd, Sum and Sub, so it is differentiable in turn.
#include "rill/ops/sparse_ops.h"

#include "rill/core/sparse_to_dense.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/gather_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill {

RILL_REGISTER_OP("SparseToDense")
    .Input("sparse_indices", "Tindices")
    .Input("output_shape", "Tindices")
    .Input("sparse_values", "T")
    .Input("default_value", "T")
    .Output("dense", "T")
    .Attr("validate_indices", AttrKind::kBool, true)
    .TypeAttr("T")
    .TypeAttr("Tindices", kIndexTypes)
    .SetShapeFn(SparseToDenseShape);

namespace ops {
namespace {

Output SumAll(const Scope& s, const Output& x) {
  return Sum(s, Reshape(s, x, grad::IntVector(s, {-1})), grad::IntVector(s, {0}));
}

absl::Status SparseToDenseGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                               std::vector<Output>* out) {
  const Output indices = grad::In(op, 0), values = grad::In(op, 2);
  // indices as [N, ndims] whatever their rank (a scalar or a vector indexes a 1-D output).
  const Output ndims = Shape(s, grad::In(op, 1), Shape::OutType(indices.type()));
  const Output spec = Concat(s, {Cast(s, Const(s, {-1}), indices.type()), ndims}, Const(s, 0));
  const Output gathered = GatherNd(s, g[0], Reshape(s, indices, spec));
  out->push_back(Output());
  out->push_back(Output());
  out->push_back(grad::ReduceToOperand(s, gathered, values, gathered.shape(), gathered));
  out->push_back(Sub(s, SumAll(s, g[0]), SumAll(s, gathered)));
  return s.status();
}

}  // namespace

SparseToDense::SparseToDense(const Scope& scope, Input sparse_indices, Input output_shape,
                             Input sparse_values, Input default_value, const Attrs& attrs) {
  internal::NodeBuilder(scope, "SparseToDense")
      .Input(sparse_indices)
      .Input(output_shape)
      .Input(sparse_values)
      .Input(default_value)
      .Attr("validate_indices", attrs.validate_indices_)
      .Finalize(this);
}

RILL_REGISTER_GRADIENT("SparseToDense", SparseToDenseGrad);

}  // namespace ops
}  // namespace rill
