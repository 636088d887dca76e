// SparseSoftmax, SparseSlice (with SparseSliceGrad), SparseConcat and
// SparseSparseMaximum/Minimum
// (ops/sparse_tensor_ops.h): schemas, shape functions and wrappers (kernels:
// kernels/cpu/sparse_slice_ops.cc; gradients: ops/sparse_tensor_grad.cc).
#include "absl/strings/str_cat.h"
#include "rill/core/sparse_tensor.h"
#include "rill/ops/sparse_tensor_ops.h"

namespace rill {
namespace {

int64_t Rows(const InferenceContext& c, int i) {
  const PartialTensorShape& s = c.input_shape(i);
  return s.unknown_rank() ? -1 : s.dim_size(0);
}

absl::Status SparseSoftmaxShape(InferenceContext& c) {
  int64_t rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, 1, 2, "sp", &rank));
  if (rank >= 0 && rank < 2) {
    return errors::InvalidArgument("SparseSoftmax needs a sparse tensor of rank >= 2, got rank ",
                                   rank);
  }
  c.set_output(0, PartialTensorShape({Rows(c, 0)}));
  return absl::OkStatus();
}

absl::Status VectorOf(const InferenceContext& c, int i, int64_t rank, const char* name) {
  const PartialTensorShape& s = c.input_shape(i);
  if (s.unknown_rank()) return absl::OkStatus();
  if (s.dims() != 1 || (rank >= 0 && s.dim_size(0) >= 0 && s.dim_size(0) != rank)) {
    return errors::InvalidArgument(name, " must be a vector of ", rank,
                                   " entries (the sparse rank), got shape ", s.DebugString());
  }
  return absl::OkStatus();
}

absl::Status SparseSliceShape(InferenceContext& c) {
  int64_t rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, 1, 2, "input", &rank));
  RILL_RETURN_IF_ERROR(VectorOf(c, 3, rank, "start"));
  RILL_RETURN_IF_ERROR(VectorOf(c, 4, rank, "size"));
  c.set_output(0, PartialTensorShape({-1, rank}));
  c.set_output(1, PartialTensorShape({-1}));
  c.set_output(2, PartialTensorShape({rank}));
  return absl::OkStatus();
}

absl::Status SparseSliceGradShape(InferenceContext& c) {
  const PartialTensorShape &g = c.input_shape(0), &in = c.input_shape(1);
  if (!g.unknown_rank() && g.dims() != 1) {
    return errors::InvalidArgument("backprop_val_grad must be a vector, got shape ",
                                   g.DebugString());
  }
  if (!in.unknown_rank() && in.dims() != 2) {
    return errors::InvalidArgument("input_indices must be a matrix, got shape ", in.DebugString());
  }
  c.set_output(0, PartialTensorShape({Rows(c, 1)}));
  return absl::OkStatus();
}

absl::Status SparseConcatShape(InferenceContext& c) {
  const int n = c.num_inputs() / 3;
  if (n < 2) return errors::InvalidArgument("SparseConcat needs N >= 2 sparse tensors, got ", n);
  int64_t rank = -1;
  for (int i = 0; i < n; ++i) {
    int64_t r;
    RILL_RETURN_IF_ERROR(CheckSparseShapes(c, i, n + i, 2 * n + i, absl::StrCat("input", i), &r));
    if (r >= 0 && rank >= 0 && r != rank) {
      return errors::InvalidArgument("SparseConcat's inputs differ in rank: ", rank, " vs. ", r,
                                     " (input ", i, ")");
    }
    if (r >= 0) rank = r;
  }
  const int64_t dim = c.attr<int64_t>("concat_dim");
  if (rank >= 0 && (dim < -rank || dim >= rank)) {
    return errors::InvalidArgument("concat_dim ", dim, " is out of range for rank ", rank);
  }
  c.set_output(0, PartialTensorShape({-1, rank}));
  c.set_output(1, PartialTensorShape({-1}));
  c.set_output(2, PartialTensorShape({rank}));
  return absl::OkStatus();
}

absl::Status SparseSparseShape(InferenceContext& c) {
  int64_t a_rank, b_rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, 1, 2, "a", &a_rank));
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 3, 4, 5, "b", &b_rank));
  if (a_rank >= 0 && b_rank >= 0 && a_rank != b_rank) {
    return errors::InvalidArgument("the operands differ in rank: ", a_rank, " vs. ", b_rank);
  }
  c.set_output(0, PartialTensorShape({-1, a_rank >= 0 ? a_rank : b_rank}));
  c.set_output(1, PartialTensorShape({-1}));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("SparseSoftmax")
    .Input("sp_indices", DT_INT64)
    .Input("sp_values", "T")
    .Input("sp_shape", DT_INT64)
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(SparseSoftmaxShape);

RILL_REGISTER_OP("SparseSlice")
    .Input("indices", DT_INT64)
    .Input("values", "T")
    .Input("shape", DT_INT64)
    .Input("start", DT_INT64)
    .Input("size", DT_INT64)
    .Output("output_indices", DT_INT64)
    .Output("output_values", "T")
    .Output("output_shape", DT_INT64)
    .TypeAttr("T", kAllTypes)
    .SetShapeFn(SparseSliceShape);

RILL_REGISTER_OP("SparseSliceGrad")
    .Input("backprop_val_grad", "T")
    .Input("input_indices", DT_INT64)
    .Input("input_start", DT_INT64)
    .Input("output_indices", DT_INT64)
    .Output("val_grad", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn(SparseSliceGradShape);

RILL_REGISTER_OP("SparseConcat")
    .InputList("indices", "N", DT_INT64)
    .InputList("values", "N", "T")
    .InputList("shapes", "N", DT_INT64)
    .Output("output_indices", DT_INT64)
    .Output("output_values", "T")
    .Output("output_shape", DT_INT64)
    .Attr("concat_dim", AttrKind::kInt)
    .Attr("N", AttrKind::kInt)
    .TypeAttr("T", kAllTypes)
    .SetShapeFn(SparseConcatShape);

#define RILL_REGISTER_SPARSE_SPARSE_OP(name) \
  RILL_REGISTER_OP(name)                     \
      .Input("a_indices", DT_INT64)          \
      .Input("a_values", "T")                \
      .Input("a_shape", DT_INT64)            \
      .Input("b_indices", DT_INT64)          \
      .Input("b_values", "T")                \
      .Input("b_shape", DT_INT64)            \
      .Output("output_indices", DT_INT64)    \
      .Output("output_values", "T")          \
      .TypeAttr("T", kSignedNumberTypes)     \
      .SetShapeFn(SparseSparseShape);
RILL_REGISTER_SPARSE_SPARSE_OP("SparseSparseMaximum")
RILL_REGISTER_SPARSE_SPARSE_OP("SparseSparseMinimum")
#undef RILL_REGISTER_SPARSE_SPARSE_OP

namespace ops {

using internal::NodeBuilder;

SparseSoftmax::SparseSoftmax(const Scope& scope, Input sp_indices, Input sp_values,
                             Input sp_shape) {
  NodeBuilder(scope, "SparseSoftmax")
      .Input(sp_indices)
      .Input(sp_values)
      .Input(sp_shape)
      .Finalize(this);
}

SparseSlice::SparseSlice(const Scope& scope, Input indices, Input values, Input shape, Input start,
                         Input size) {
  operation = NodeBuilder(scope, "SparseSlice")
                  .Input(indices)
                  .Input(values)
                  .Input(shape)
                  .Input(start)
                  .Input(size)
                  .Finalize();
  if (operation.node() != nullptr) {
    output_indices = Output(operation, 0);
    output_values = Output(operation, 1);
    output_shape = Output(operation, 2);
  }
}

SparseConcat::SparseConcat(const Scope& scope, InputList indices, InputList values,
                           InputList shapes, int64_t concat_dim) {
  operation = NodeBuilder(scope, "SparseConcat")
                  .Inputs(indices)
                  .Inputs(values)
                  .Inputs(shapes)
                  .Attr("concat_dim", concat_dim)
                  .Finalize();
  if (operation.node() != nullptr) {
    output_indices = Output(operation, 0);
    output_values = Output(operation, 1);
    output_shape = Output(operation, 2);
  }
}

SparseSliceGrad::SparseSliceGrad(const Scope& scope, Input backprop_val_grad, Input input_indices,
                                 Input input_start, Input output_indices) {
  NodeBuilder(scope, "SparseSliceGrad")
      .Input(backprop_val_grad)
      .Input(input_indices)
      .Input(input_start)
      .Input(output_indices)
      .Finalize(this);
}

#define RILL_DEFINE_SPARSE_SPARSE_OP(Name)                                                        \
  Name::Name(const Scope& scope, Input a_indices, Input a_values, Input a_shape, Input b_indices, \
             Input b_values, Input b_shape) {                                                     \
    operation = NodeBuilder(scope, #Name)                                                         \
                    .Input(a_indices)                                                             \
                    .Input(a_values)                                                              \
                    .Input(a_shape)                                                               \
                    .Input(b_indices)                                                             \
                    .Input(b_values)                                                              \
                    .Input(b_shape)                                                               \
                    .Finalize();                                                                  \
    if (operation.node() != nullptr) {                                                            \
      output_indices = Output(operation, 0);                                                      \
      output_values = Output(operation, 1);                                                       \
    }                                                                                             \
  }
RILL_DEFINE_SPARSE_SPARSE_OP(SparseSparseMaximum)
RILL_DEFINE_SPARSE_SPARSE_OP(SparseSparseMinimum)
#undef RILL_DEFINE_SPARSE_SPARSE_OP

}  // namespace ops
}  // namespace rill
