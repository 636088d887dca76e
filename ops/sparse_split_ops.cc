// SparseSplit (ops/sparse_tensor_ops.h): schema, shape function and wrapper (kernel:
// kernels/cpu/sparse_split_op.cc; gradient: ops/sparse_tensor_grad.cc).
#include "rill/core/shape_inference.h"
#include "rill/core/sparse_tensor.h"
#include "rill/ops/sparse_tensor_ops.h"

namespace rill {
namespace {

absl::Status SparseSplitShape(InferenceContext& c) {
  const int64_t num_split = c.attr<int64_t>("num_split");
  if (num_split < 1) {
    return errors::InvalidArgument("num_split is ", num_split, "; it must be >= 1");
  }
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 0, "split_dim"));
  int64_t rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 1, 2, 3, "input", &rank));
  RILL_ASSIGN_OR_RETURN(auto dim, shape_fns::ConstInts(c, 0, "split_dim"));
  if (dim && rank >= 0) RILL_RETURN_IF_ERROR(SparseSplitAxis((*dim)[0], rank).status());
  for (int64_t i = 0; i < num_split; ++i) {
    c.set_output(static_cast<int>(i), PartialTensorShape({-1, rank}));
    c.set_output(static_cast<int>(num_split + i), PartialTensorShape({-1}));
    c.set_output(static_cast<int>(2 * num_split + i), PartialTensorShape({rank}));
  }
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("SparseSplit")
    .Input("split_dim", DT_INT64)
    .Input("indices", DT_INT64)
    .Input("values", "T")
    .Input("shape", DT_INT64)
    .OutputList("output_indices", "num_split", DT_INT64)
    .OutputList("output_values", "num_split", "T")
    .OutputList("output_shape", "num_split", DT_INT64)
    .Attr("num_split", AttrKind::kInt)
    .TypeAttr("T", kAllTypes)
    .SetShapeFn(SparseSplitShape);

namespace ops {

SparseSplit::SparseSplit(const Scope& scope, Input split_dim, Input indices, Input values,
                         Input shape, int64_t num_split) {
  operation = internal::NodeBuilder(scope, "SparseSplit")
                  .Input(split_dim)
                  .Input(indices)
                  .Input(values)
                  .Input(shape)
                  .Attr("num_split", num_split)
                  .Finalize();
  if (operation.node() == nullptr) return;
  for (int64_t i = 0; i < num_split; ++i) {
    output_indices.emplace_back(operation, static_cast<int>(i));
    output_values.emplace_back(operation, static_cast<int>(num_split + i));
    output_shape.emplace_back(operation, static_cast<int>(2 * num_split + i));
  }
}

}  // namespace ops
}  // namespace rill
