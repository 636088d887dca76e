// The tf.sparse ops (ops/sparse_tensor_ops.h): schemas, shape functions and wrappers
// (kernels: kernels/cpu/sparse_tensor_ops.cc and sparse_reduce_ops.cc; gradients:
// ops/sparse_tensor_grad.cc). Shape functions check what the shapes show
// (core/sparse_tensor.h); what depends on values (indices in range, dense shapes) is the
// kernels' to check.
#include "rill/ops/sparse_tensor_ops.h"

#include "rill/core/sparse_tensor.h"

namespace rill {
namespace {

// Entries of the sparse operand whose indices are input `indices` (-1 when unknown).
int64_t EntriesOf(const InferenceContext& c, int indices) {
  const PartialTensorShape& s = c.input_shape(indices);
  return s.unknown_rank() ? -1 : s.dim_size(0);
}

absl::Status SparseDenseShape(InferenceContext& c) {
  int64_t rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, 1, 2, "sp", &rank));
  const PartialTensorShape& dense = c.input_shape(3);
  if (rank >= 0 && !dense.unknown_rank() && dense.dims() > rank) {
    return errors::InvalidArgument("the dense operand of shape ", dense.DebugString(),
                                   " has more dims than the sparse one (rank ", rank,
                                   "): the op broadcasts dense to "
                                   "sparse only");
  }
  c.set_output(0, PartialTensorShape({EntriesOf(c, 0)}));
  return absl::OkStatus();
}

absl::Status AxesShape(const InferenceContext& c, int i) {
  const PartialTensorShape& s = c.input_shape(i);
  if (!s.unknown_rank() && s.dims() > 1) {
    return errors::InvalidArgument("reduction_axes must be a scalar or a vector, got shape ",
                                   s.DebugString());
  }
  return absl::OkStatus();
}

// The dense result's shape when input_shape and reduction_axes are constants; else of
// the input's rank with keep_dims, or unknown.
absl::Status SparseReduceShape(InferenceContext& c) {
  int64_t rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, 1, 2, "input", &rank));
  RILL_RETURN_IF_ERROR(AxesShape(c, 3));
  const bool keep = c.attr<bool>("keep_dims");
  const Tensor *shape = c.input_tensor(2), *axes = c.input_tensor(3);
  if (shape != nullptr && axes != nullptr && shape->dims() == 1) {
    RILL_ASSIGN_OR_RETURN(std::vector<bool> reduced, ReducedAxes(*axes, shape->NumElements()));
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < shape->NumElements(); ++d) {
      if (!reduced[d]) dims.push_back(shape->base<int64_t>()[d]);
      if (reduced[d] && keep) dims.push_back(1);
    }
    RILL_ASSIGN_OR_RETURN(PartialTensorShape out, PartialTensorShape::Build(dims));
    c.set_output(0, out);
    return absl::OkStatus();
  }
  c.set_output(0, keep && rank >= 0 ? PartialTensorShape::UnknownOfRank(static_cast<int>(rank))
                                    : PartialTensorShape());
  return absl::OkStatus();
}

absl::Status SparseReduceSparseShape(InferenceContext& c) {
  int64_t rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, 1, 2, "input", &rank));
  RILL_RETURN_IF_ERROR(AxesShape(c, 3));
  c.set_output(0, PartialTensorShape({-1, -1}));
  c.set_output(1, PartialTensorShape({-1}));
  c.set_output(2, PartialTensorShape({-1}));
  return absl::OkStatus();
}

absl::Status SparseAddShape(InferenceContext& c) {
  int64_t a_rank, b_rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, 1, 2, "a", &a_rank));
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 3, 4, 5, "b", &b_rank));
  if (a_rank >= 0 && b_rank >= 0 && a_rank != b_rank) {
    return errors::InvalidArgument("SparseAdd's operands differ in rank: ", a_rank, " vs. ",
                                   b_rank);
  }
  const PartialTensorShape& thresh = c.input_shape(6);
  if (!thresh.unknown_rank() && thresh.dims() != 0) {
    return errors::InvalidArgument("thresh must be a scalar, got shape ", thresh.DebugString());
  }
  if (c.attr<DataType>("Treal") != c.attr<DataType>("T")) {
    return errors::InvalidArgument("thresh must have the values' dtype ",
                                   DataTypeString(c.attr<DataType>("T")), ", got ",
                                   DataTypeString(c.attr<DataType>("Treal")));
  }
  const int64_t rank = a_rank >= 0 ? a_rank : b_rank;
  c.set_output(0, PartialTensorShape({-1, rank}));
  c.set_output(1, PartialTensorShape({-1}));
  c.set_output(2, PartialTensorShape({rank}));
  return absl::OkStatus();
}

absl::Status MatrixOrVector(const PartialTensorShape& s, int rank, const char* name) {
  if (s.unknown_rank() || s.dims() == rank) return absl::OkStatus();
  return errors::InvalidArgument(name, " must be a ", rank == 2 ? "matrix" : "vector",
                                 ", got shape ", s.DebugString());
}

absl::Status SparseAddGradShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(MatrixOrVector(c.input_shape(0), 1, "backprop_val_grad"));
  RILL_RETURN_IF_ERROR(MatrixOrVector(c.input_shape(1), 2, "a_indices"));
  RILL_RETURN_IF_ERROR(MatrixOrVector(c.input_shape(2), 2, "b_indices"));
  RILL_RETURN_IF_ERROR(MatrixOrVector(c.input_shape(3), 2, "sum_indices"));
  c.set_output(0, PartialTensorShape({EntriesOf(c, 1)}));
  c.set_output(1, PartialTensorShape({EntriesOf(c, 2)}));
  return absl::OkStatus();
}

absl::Status SparseTensorDenseAddShape(InferenceContext& c) {
  int64_t rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, 1, 2, "a", &rank));
  const PartialTensorShape& b = c.input_shape(3);
  if (rank >= 0 && !b.unknown_rank() && b.dims() != rank) {
    return errors::InvalidArgument("b of shape ", b.DebugString(),
                                   " does not have the sparse operand's rank ", rank);
  }
  c.set_output(0, b);
  return absl::OkStatus();
}

// [M, N] of op(A) op(B); M from a_shape when it is a constant.
absl::Status SparseMatMulShape(InferenceContext& c) {
  int64_t rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, 1, 2, "a", &rank));
  if (rank >= 0 && rank != 2) {
    return errors::InvalidArgument("a must be a sparse matrix (rank 2), got rank ", rank);
  }
  const PartialTensorShape& b = c.input_shape(3);
  RILL_RETURN_IF_ERROR(MatrixOrVector(b, 2, "b"));
  const bool adj_a = c.attr<bool>("adjoint_a"), adj_b = c.attr<bool>("adjoint_b");
  int64_t m = -1, k = -1;
  std::string a_shape;
  if (const Tensor* shape = c.input_tensor(2); shape != nullptr && shape->NumElements() == 2) {
    const int64_t* dims = shape->base<int64_t>();
    m = dims[adj_a ? 1 : 0];
    k = dims[adj_a ? 0 : 1];
    a_shape = DimsString(absl::MakeConstSpan(dims, 2));
  }
  const int64_t b_rows = b.unknown_rank() ? -1 : b.dim_size(adj_b ? 1 : 0);
  if (k >= 0 && b_rows >= 0 && k != b_rows) {
    return errors::InvalidArgument(
        "cannot multiply A and B: the inner dimensions do not match: ", k, " vs. ", b_rows,
        " (a_shape ", a_shape, ", b ", b.DebugString(), ")");
  }
  c.set_output(0, PartialTensorShape({m, b.unknown_rank() ? -1 : b.dim_size(adj_b ? 0 : 1)}));
  return absl::OkStatus();
}

absl::Status SparseReorderShape(InferenceContext& c) {
  int64_t rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, 1, 2, "input", &rank));
  c.set_output(0, c.input_shape(0));
  c.set_output(1, c.input_shape(1));
  return absl::OkStatus();
}

absl::Status SparseReshapeShape(InferenceContext& c) {
  int64_t rank;
  RILL_RETURN_IF_ERROR(CheckSparseShapes(c, 0, -1, 1, "input", &rank));
  const PartialTensorShape& target = c.input_shape(2);
  RILL_RETURN_IF_ERROR(MatrixOrVector(target, 1, "new_shape"));
  const int64_t new_rank = target.unknown_rank() ? -1 : target.dim_size(0);
  c.set_output(0, PartialTensorShape({EntriesOf(c, 0), new_rank}));
  c.set_output(1, PartialTensorShape({new_rank}));
  return absl::OkStatus();
}

}  // namespace

#define RILL_REGISTER_SPARSE_DENSE_OP(name) \
  RILL_REGISTER_OP(name)                    \
      .Input("sp_indices", DT_INT64)        \
      .Input("sp_values", "T")              \
      .Input("sp_shape", DT_INT64)          \
      .Input("dense", "T")                  \
      .Output("output", "T")                \
      .TypeAttr("T", kSignedNumberTypes)    \
      .SetShapeFn(SparseDenseShape);
RILL_REGISTER_SPARSE_DENSE_OP("SparseDenseCwiseAdd")
RILL_REGISTER_SPARSE_DENSE_OP("SparseDenseCwiseMul")
RILL_REGISTER_SPARSE_DENSE_OP("SparseDenseCwiseDiv")
#undef RILL_REGISTER_SPARSE_DENSE_OP

#define RILL_REGISTER_SPARSE_REDUCE_OP(name, outputs, fn)                                  \
  RILL_REGISTER_OP(name)                                                                   \
      .Input("input_indices", DT_INT64)                                                    \
      .Input("input_values", "T")                                                          \
      .Input("input_shape", DT_INT64)                                                      \
      .Input("reduction_axes", DT_INT32) outputs.Attr("keep_dims", AttrKind::kBool, false) \
      .TypeAttr("T", kSignedNumberTypes)                                                   \
      .SetShapeFn(fn);
#define RILL_DENSE_OUTPUT .Output("output", "T")
#define RILL_SPARSE_OUTPUT \
  .Output("output_indices", DT_INT64).Output("output_values", "T").Output("output_shape", DT_INT64)
RILL_REGISTER_SPARSE_REDUCE_OP("SparseReduceSum", RILL_DENSE_OUTPUT, SparseReduceShape)
RILL_REGISTER_SPARSE_REDUCE_OP("SparseReduceMax", RILL_DENSE_OUTPUT, SparseReduceShape)
RILL_REGISTER_SPARSE_REDUCE_OP("SparseReduceSumSparse", RILL_SPARSE_OUTPUT, SparseReduceSparseShape)
RILL_REGISTER_SPARSE_REDUCE_OP("SparseReduceMaxSparse", RILL_SPARSE_OUTPUT, SparseReduceSparseShape)
#undef RILL_SPARSE_OUTPUT
#undef RILL_DENSE_OUTPUT
#undef RILL_REGISTER_SPARSE_REDUCE_OP

RILL_REGISTER_OP("SparseAdd")
    .Input("a_indices", DT_INT64)
    .Input("a_values", "T")
    .Input("a_shape", DT_INT64)
    .Input("b_indices", DT_INT64)
    .Input("b_values", "T")
    .Input("b_shape", DT_INT64)
    .Input("thresh", "Treal")
    .Output("sum_indices", DT_INT64)
    .Output("sum_values", "T")
    .Output("sum_shape", DT_INT64)
    .TypeAttr("T", kSignedNumberTypes)
    .TypeAttr("Treal", kSignedNumberTypes)
    .SetShapeFn(SparseAddShape);

RILL_REGISTER_OP("SparseAddGrad")
    .Input("backprop_val_grad", "T")
    .Input("a_indices", DT_INT64)
    .Input("b_indices", DT_INT64)
    .Input("sum_indices", DT_INT64)
    .Output("a_val_grad", "T")
    .Output("b_val_grad", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn(SparseAddGradShape);

RILL_REGISTER_OP("SparseTensorDenseAdd")
    .Input("a_indices", "Tindices")
    .Input("a_values", "T")
    .Input("a_shape", "Tindices")
    .Input("b", "T")
    .Output("output", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .TypeAttr("Tindices", kIndexTypes)
    .SetShapeFn(SparseTensorDenseAddShape);

RILL_REGISTER_OP("SparseTensorDenseMatMul")
    .Input("a_indices", "Tindices")
    .Input("a_values", "T")
    .Input("a_shape", DT_INT64)
    .Input("b", "T")
    .Output("product", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .TypeAttr("Tindices", kIndexTypes)
    .Attr("adjoint_a", AttrKind::kBool, false)
    .Attr("adjoint_b", AttrKind::kBool, false)
    .SetShapeFn(SparseMatMulShape);

RILL_REGISTER_OP("SparseReorder")
    .Input("input_indices", DT_INT64)
    .Input("input_values", "T")
    .Input("input_shape", DT_INT64)
    .Output("output_indices", DT_INT64)
    .Output("output_values", "T")
    .TypeAttr("T", kAllTypes)
    .SetShapeFn(SparseReorderShape);

RILL_REGISTER_OP("SparseReshape")
    .Input("input_indices", DT_INT64)
    .Input("input_shape", DT_INT64)
    .Input("new_shape", DT_INT64)
    .Output("output_indices", DT_INT64)
    .Output("output_shape", DT_INT64)
    .SetShapeFn(SparseReshapeShape);

namespace ops {

using internal::NodeBuilder;

#define RILL_DEFINE_SPARSE_DENSE_OP(Name)                                                          \
  Name::Name(const Scope& scope, Input sp_indices, Input sp_values, Input sp_shape, Input dense) { \
    NodeBuilder(scope, #Name)                                                                      \
        .Input(sp_indices)                                                                         \
        .Input(sp_values)                                                                          \
        .Input(sp_shape)                                                                           \
        .Input(dense)                                                                              \
        .Finalize(this);                                                                           \
  }
RILL_DEFINE_SPARSE_DENSE_OP(SparseDenseCwiseAdd)
RILL_DEFINE_SPARSE_DENSE_OP(SparseDenseCwiseMul)
RILL_DEFINE_SPARSE_DENSE_OP(SparseDenseCwiseDiv)
#undef RILL_DEFINE_SPARSE_DENSE_OP

namespace {

Operation SparseReduceNode(const Scope& scope, const char* op, Input indices, Input values,
                           Input shape, Input axes, const SparseReduceAttrs& attrs) {
  return NodeBuilder(scope, op)
      .Input(indices)
      .Input(values)
      .Input(shape)
      .Input(axes)
      .Attr("keep_dims", attrs.keep_dims_)
      .Finalize();
}

}  // namespace

#define RILL_DEFINE_SPARSE_REDUCE_OP(Name)                                                   \
  Name::Name(const Scope& scope, Input input_indices, Input input_values, Input input_shape, \
             Input reduction_axes, const Attrs& attrs) {                                     \
    operation = SparseReduceNode(scope, #Name, input_indices, input_values, input_shape,     \
                                 reduction_axes, attrs);                                     \
    if (operation.node() != nullptr) output = Output(operation, 0);                          \
  }
RILL_DEFINE_SPARSE_REDUCE_OP(SparseReduceSum)
RILL_DEFINE_SPARSE_REDUCE_OP(SparseReduceMax)
#undef RILL_DEFINE_SPARSE_REDUCE_OP

#define RILL_DEFINE_SPARSE_REDUCE_SPARSE_OP(Name)                                            \
  Name::Name(const Scope& scope, Input input_indices, Input input_values, Input input_shape, \
             Input reduction_axes, const Attrs& attrs) {                                     \
    operation = SparseReduceNode(scope, #Name, input_indices, input_values, input_shape,     \
                                 reduction_axes, attrs);                                     \
    if (operation.node() != nullptr) {                                                       \
      output_indices = Output(operation, 0);                                                 \
      output_values = Output(operation, 1);                                                  \
      output_shape = Output(operation, 2);                                                   \
    }                                                                                        \
  }
RILL_DEFINE_SPARSE_REDUCE_SPARSE_OP(SparseReduceSumSparse)
RILL_DEFINE_SPARSE_REDUCE_SPARSE_OP(SparseReduceMaxSparse)
#undef RILL_DEFINE_SPARSE_REDUCE_SPARSE_OP

SparseAdd::SparseAdd(const Scope& scope, Input a_indices, Input a_values, Input a_shape,
                     Input b_indices, Input b_values, Input b_shape, Input thresh) {
  operation = NodeBuilder(scope, "SparseAdd")
                  .Input(a_indices)
                  .Input(a_values)
                  .Input(a_shape)
                  .Input(b_indices)
                  .Input(b_values)
                  .Input(b_shape)
                  .Input(thresh)
                  .Finalize();
  if (operation.node() != nullptr) {
    sum_indices = Output(operation, 0);
    sum_values = Output(operation, 1);
    sum_shape = Output(operation, 2);
  }
}

SparseAddGrad::SparseAddGrad(const Scope& scope, Input backprop_val_grad, Input a_indices,
                             Input b_indices, Input sum_indices) {
  operation = NodeBuilder(scope, "SparseAddGrad")
                  .Input(backprop_val_grad)
                  .Input(a_indices)
                  .Input(b_indices)
                  .Input(sum_indices)
                  .Finalize();
  if (operation.node() != nullptr) {
    a_val_grad = Output(operation, 0);
    b_val_grad = Output(operation, 1);
  }
}

SparseTensorDenseAdd::SparseTensorDenseAdd(const Scope& scope, Input a_indices, Input a_values,
                                           Input a_shape, Input b) {
  NodeBuilder(scope, "SparseTensorDenseAdd")
      .Input(a_indices)
      .Input(a_values)
      .Input(a_shape)
      .Input(b)
      .Finalize(this);
}

SparseTensorDenseMatMul::SparseTensorDenseMatMul(const Scope& scope, Input a_indices,
                                                 Input a_values, Input a_shape, Input b,
                                                 const Attrs& attrs) {
  NodeBuilder(scope, "SparseTensorDenseMatMul")
      .Input(a_indices)
      .Input(a_values)
      .Input(a_shape)
      .Input(b)
      .Attr("adjoint_a", attrs.adjoint_a_)
      .Attr("adjoint_b", attrs.adjoint_b_)
      .Finalize(this);
}

SparseReorder::SparseReorder(const Scope& scope, Input input_indices, Input input_values,
                             Input input_shape) {
  operation = NodeBuilder(scope, "SparseReorder")
                  .Input(input_indices)
                  .Input(input_values)
                  .Input(input_shape)
                  .Finalize();
  if (operation.node() != nullptr) {
    output_indices = Output(operation, 0);
    output_values = Output(operation, 1);
  }
}

SparseReshape::SparseReshape(const Scope& scope, Input input_indices, Input input_shape,
                             Input new_shape) {
  operation = NodeBuilder(scope, "SparseReshape")
                  .Input(input_indices)
                  .Input(input_shape)
                  .Input(new_shape)
                  .Finalize();
  if (operation.node() != nullptr) {
    output_indices = Output(operation, 0);
    output_shape = Output(operation, 1);
  }
}

}  // namespace ops
}  // namespace rill
