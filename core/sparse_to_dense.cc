#include "rill/core/sparse_to_dense.h"

#include "absl/strings/str_join.h"

namespace rill {
namespace {

// Index n's ndims coordinates, from int32 or int64 indices.
int64_t Coordinate(const Tensor& indices, int64_t i) {
  return indices.dtype() == DT_INT32 ? indices.base<int32_t>()[i] : indices.base<int64_t>()[i];
}

struct Counts {
  int64_t elems = 1, dims = 1;  // N and ndims
};

absl::StatusOr<Counts> CheckRanks(const TensorShape& indices, const TensorShape& values,
                                  const TensorShape& default_value) {
  if (indices.dims() > 2) {
    return errors::InvalidArgument(
        "sparse_indices should be a scalar, vector, or matrix, got shape ", indices.DebugString());
  }
  Counts n;
  if (indices.dims() > 0) n.elems = indices.dim_size(0);
  if (indices.dims() > 1) n.dims = indices.dim_size(1);
  if (values.dims() != 0 && (values.dims() != 1 || values.dim_size(0) != n.elems)) {
    return errors::InvalidArgument("sparse_values has incorrect shape ", values.DebugString(),
                                   ", should be [] or [", n.elems, "]");
  }
  if (default_value.dims() != 0) {
    return errors::InvalidArgument("default_value should be a scalar, got shape ",
                                   default_value.DebugString());
  }
  return n;
}

// Index n's coordinates (into c), checked against the output's shape and (when validating)
// against index n - 1's (in prev); its flat offset, or TensorFlow's words for the fault.
absl::StatusOr<int64_t> Offset(const Tensor& indices, const TensorShape& shape, int64_t n,
                               bool validate, std::vector<int64_t>& c,
                               const std::vector<int64_t>& prev) {
  const int64_t dims = shape.dims();
  for (int64_t d = 0; d < dims; ++d) c[d] = Coordinate(indices, n * dims + d);
  int64_t offset = 0;
  for (int64_t d = 0; d < dims; ++d) {
    if (c[d] < 0 || c[d] >= shape.dim_size(d)) {
      return errors::InvalidArgument("indices[", n, "] = [", absl::StrJoin(c, ","),
                                     "] is out of bounds: need 0 <= index < ", shape.DebugString());
    }
    offset = offset * shape.dim_size(d) + c[d];
  }
  if (validate && n > 0 && c <= prev) {
    if (c == prev) {
      return errors::InvalidArgument("indices[", n, "] = [", absl::StrJoin(c, ","),
                                     "] is repeated");
    }
    return errors::InvalidArgument("indices[", n, "] = [", absl::StrJoin(c, ","),
                                   "] is out of order. Many sparse ops require sorted indices; "
                                   "use tf.sparse.reorder to create a correctly ordered copy");
  }
  return offset;
}

}  // namespace

absl::Status SparseToDenseShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape out,
                        shape_fns::ShapeFromShapeInput(c, 1, "output_shape"));
  const PartialTensorShape &indices = c.input_shape(0), &values = c.input_shape(2);
  if (!indices.unknown_rank() && indices.dims() > 2) {
    return errors::InvalidArgument(
        "sparse_indices should be a scalar, vector, or matrix, got shape ", indices.DebugString());
  }
  if (!values.unknown_rank() && values.dims() > 1) {
    return errors::InvalidArgument("sparse_values should be a scalar or vector, got shape ",
                                   values.DebugString());
  }
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 3, "default_value"));
  const int64_t n = indices.unknown_rank() ? -1 : (indices.dims() > 0 ? indices.dim_size(0) : 1);
  if (!values.unknown_rank() && values.dims() == 1 && n >= 0 && values.dim_size(0) >= 0 &&
      values.dim_size(0) != n) {
    return errors::InvalidArgument("sparse_values has incorrect shape ", values.DebugString(),
                                   ", should be [] or [", n, "]");
  }
  if (!indices.unknown_rank() && !out.unknown_rank()) {
    const int64_t dims = indices.dims() > 1 ? indices.dim_size(1) : 1;
    if (dims >= 0 && dims != out.dims()) {
      return errors::InvalidArgument("output_shape has ", out.dims(),
                                     " dims but sparse_indices of shape ", indices.DebugString(),
                                     " index ", dims);
    }
  }
  c.set_output(0, out);
  return absl::OkStatus();
}

absl::StatusOr<DenseScatter> PrepareSparseToDense(OpKernelContext& ctx, bool validate_indices) {
  const Tensor &indices = ctx.input(0), &output_shape = ctx.input(1);
  RILL_ASSIGN_OR_RETURN(const Counts n,
                        CheckRanks(indices.shape(), ctx.input(2).shape(), ctx.input(3).shape()));
  if (output_shape.dims() != 1) {
    return errors::InvalidArgument("output_shape must be rank 1, got shape ",
                                   output_shape.shape().DebugString());
  }
  if (output_shape.NumElements() != n.dims) {
    return errors::InvalidArgument("output_shape has incorrect number of elements: ",
                                   output_shape.NumElements(), " should be: ", n.dims);
  }
  DenseScatter s;
  RILL_ASSIGN_OR_RETURN(s.shape, shape_fns::ShapeFromTensor(output_shape, "output_shape"));
  s.scalar_values = ctx.input(2).dims() == 0;
  s.offsets.reserve(static_cast<size_t>(n.elems));
  std::vector<int64_t> coords(static_cast<size_t>(n.dims)), prev(coords.size());
  for (int64_t i = 0; i < n.elems; ++i) {
    RILL_ASSIGN_OR_RETURN(const int64_t at,
                          Offset(indices, s.shape, i, validate_indices, coords, prev));
    s.offsets.push_back(at);
    coords.swap(prev);
  }
  return s;
}

}  // namespace rill
