// SparseFillEmptyRows and its gradient op (ops/sparse_tensor_ops.h): schemas, shape
// functions and wrappers (kernels: kernels/cpu/sparse_fill_ops.cc; gradient below). Each
// rank check here is repeated by the kernel, which also checks the values.
#include "rill/core/sparse_tensor.h"
#include "rill/ops/gradients.h"
#include "rill/ops/sparse_tensor_ops.h"

namespace rill {
namespace {

absl::Status RankOf(const PartialTensorShape& s, int rank, const char* name) {
  if (s.unknown_rank() || s.dims() == rank) return absl::OkStatus();
  static const char* kinds[] = {"a scalar", "a vector", "a matrix"};
  return errors::InvalidArgument(name, " must be ", kinds[rank], ", saw: ", s.DebugString());
}

int64_t Dim(const PartialTensorShape& s, int d) {
  return s.unknown_rank() || s.dims() <= d ? -1 : s.dim_size(d);
}

absl::Status FillEmptyRowsShape(InferenceContext& c) {
  const PartialTensorShape &indices = c.input_shape(0), &values = c.input_shape(1),
                           &shape = c.input_shape(2);
  RILL_RETURN_IF_ERROR(RankOf(shape, 1, "dense_shape"));
  RILL_RETURN_IF_ERROR(RankOf(c.input_shape(3), 0, "default_value"));
  RILL_RETURN_IF_ERROR(RankOf(indices, 2, "indices"));
  RILL_RETURN_IF_ERROR(RankOf(values, 1, "values"));
  const int64_t n = Dim(indices, 0), rank = Dim(indices, 1);
  if (n >= 0 && Dim(values, 0) >= 0 && n != Dim(values, 0)) {
    return errors::InvalidArgument("The length of `values` (", Dim(values, 0),
                                   ") must match the first dimension of `indices` (", n, ").");
  }
  if (rank >= 0 && Dim(shape, 0) >= 0 && rank != Dim(shape, 0)) {
    return errors::InvalidArgument("The length of `dense_shape` (", Dim(shape, 0),
                                   ") must match the second dimension of `indices` (", rank, ").");
  }
  int64_t rows = -1;
  if (const Tensor* t = c.input_tensor(2); t != nullptr && t->NumElements() > 0) {
    rows = t->base<int64_t>()[0];
  }
  c.set_output(0, PartialTensorShape({-1, rank >= 0 ? rank : Dim(shape, 0)}));
  c.set_output(1, PartialTensorShape({-1}));
  c.set_output(2, PartialTensorShape({rows}));
  c.set_output(3, PartialTensorShape({n}));
  return absl::OkStatus();
}

absl::Status FillEmptyRowsGradShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(RankOf(c.input_shape(0), 1, "reverse_index_map"));
  RILL_RETURN_IF_ERROR(RankOf(c.input_shape(1), 1, "grad_values"));
  c.set_output(0, PartialTensorShape({Dim(c.input_shape(0), 0)}));
  c.set_output(1, PartialTensorShape({}));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("SparseFillEmptyRows")
    .Input("indices", DT_INT64)
    .Input("values", "T")
    .Input("dense_shape", DT_INT64)
    .Input("default_value", "T")
    .Output("output_indices", DT_INT64)
    .Output("output_values", "T")
    .Output("empty_row_indicator", DT_BOOL)
    .Output("reverse_index_map", DT_INT64)
    .TypeAttr("T", kAllTypes)
    .SetShapeFn(FillEmptyRowsShape);

RILL_REGISTER_OP("SparseFillEmptyRowsGrad")
    .Input("reverse_index_map", DT_INT64)
    .Input("grad_values", "T")
    .Output("d_values", "T")
    .Output("d_default_value", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn(FillEmptyRowsGradShape);

namespace ops {
namespace {

// d_values and d_default_value from the output values' gradient (TensorFlow's).
absl::Status SparseFillEmptyRowsGradient(const Scope& s, const Operation& op,
                                         const std::vector<Output>& g, std::vector<Output>* out) {
  const SparseFillEmptyRowsGrad grad(s, Output(op.node(), 3), g[1]);
  *out = {Output(), grad.d_values, Output(), grad.d_default_value};
  return s.status();
}

}  // namespace

SparseFillEmptyRows::SparseFillEmptyRows(const Scope& scope, Input indices, Input values,
                                         Input dense_shape, Input default_value) {
  operation = internal::NodeBuilder(scope, "SparseFillEmptyRows")
                  .Input(indices)
                  .Input(values)
                  .Input(dense_shape)
                  .Input(default_value)
                  .Finalize();
  if (operation.node() != nullptr) {
    output_indices = Output(operation, 0);
    output_values = Output(operation, 1);
    empty_row_indicator = Output(operation, 2);
    reverse_index_map = Output(operation, 3);
  }
}

SparseFillEmptyRowsGrad::SparseFillEmptyRowsGrad(const Scope& scope, Input reverse_index_map,
                                                 Input grad_values) {
  operation = internal::NodeBuilder(scope, "SparseFillEmptyRowsGrad")
                  .Input(reverse_index_map)
                  .Input(grad_values)
                  .Finalize();
  if (operation.node() != nullptr) {
    d_values = Output(operation, 0);
    d_default_value = Output(operation, 1);
  }
}

RILL_REGISTER_GRADIENT("SparseFillEmptyRows", SparseFillEmptyRowsGradient);
RILL_REGISTER_NO_GRADIENT("SparseFillEmptyRowsGrad");

}  // namespace ops
}  // namespace rill
