#include "rill/core/index_sets.h"

#include <limits>
#include <unordered_set>

#include "rill/core/checked_math.h"

namespace rill {
namespace {

// prod(dims), each dim checked non-negative and the product for overflow.
template <typename Tidx>
absl::StatusOr<int64_t> UnravelVolume(const Tensor& dims) {
  int64_t n = 1;
  for (int64_t i = 0; i < dims.NumElements(); ++i) {
    const int64_t d = dims.base<Tidx>()[i];
    if (d < 0) return errors::InvalidArgument("dims must not be negative, got ", d, " at ", i);
    RILL_ASSIGN_OR_RETURN(n, checked::MulOr(n, d, "the product of dims"));
  }
  return n;
}

}  // namespace

absl::Status UnravelIndexShape(InferenceContext& c) {
  const PartialTensorShape &indices = c.input_shape(0), &dims = c.input_shape(1);
  if (!indices.unknown_rank() && indices.dims() > 1) {
    return errors::InvalidArgument("indices should be a scalar or a vector, got shape ",
                                   indices.DebugString());
  }
  RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, 1, "dims"));
  const int64_t ndims = dims.unknown_rank() ? -1 : dims.dim_size(0);
  if (indices.unknown_rank()) {
    c.set_output(0, PartialTensorShape::UnknownRank());
  } else {
    c.set_output(0, indices.dims() == 0 ? PartialTensorShape({ndims})
                                        : PartialTensorShape({ndims, indices.dim_size(0)}));
  }
  return absl::OkStatus();
}

absl::Status ListDiffShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, 0, "x"));
  RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, 1, "y"));
  c.set_output(0, PartialTensorShape({-1}));
  c.set_output(1, PartialTensorShape({-1}));
  return absl::OkStatus();
}

template <typename Tidx>
absl::Status UnravelIndex(OpKernelContext& ctx) {
  const Tensor &indices = ctx.input(0), &dims = ctx.input(1);
  if (indices.dims() > 1) {
    return errors::InvalidArgument("indices should be a scalar or a vector, got shape ",
                                   indices.shape().DebugString());
  }
  if (dims.dims() != 1) {
    return errors::InvalidArgument("dims should be a vector, got shape ",
                                   dims.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(const int64_t volume, UnravelVolume<Tidx>(dims));
  const int64_t n = indices.NumElements(), ndims = dims.NumElements();
  for (int64_t j = 0; j < n; ++j) {
    const int64_t at = indices.base<Tidx>()[j];
    if (at < 0 || at >= volume) {
      return errors::InvalidArgument("index ", at, " (at ", j, ") is out of bounds: not in [0, ",
                                     volume, ")");
    }
  }
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(
      0, indices.dims() == 0 ? TensorShape({ndims}) : TensorShape({ndims, n}), &out));
  Tidx* y = out->base<Tidx>();
  for (int64_t j = 0; j < n; ++j) {
    int64_t rest = indices.base<Tidx>()[j];
    for (int64_t d = ndims - 1; d >= 0; --d) {  // the last dim varies fastest
      const int64_t size = dims.base<Tidx>()[d];
      y[d * n + j] = static_cast<Tidx>(rest % size);
      rest /= size;
    }
  }
  return absl::OkStatus();
}

template <typename T>
absl::Status ListDiff(OpKernelContext& ctx) {
  const Tensor &x = ctx.input(0), &y = ctx.input(1);
  if (x.dims() != 1 || y.dims() != 1) {
    return errors::InvalidArgument("x and y should be vectors, got shapes ",
                                   x.shape().DebugString(), " and ", y.shape().DebugString());
  }
  const bool wide = ctx.output_type(1) == DT_INT64;
  if (!wide && x.NumElements() > std::numeric_limits<int32_t>::max()) {
    return errors::InvalidArgument("x has ", x.NumElements(),
                                   " elements: its positions need out_idx int64");
  }
  const T* xs = x.base<T>();
  const std::unordered_set<T> drop(y.base<T>(), y.base<T>() + y.NumElements());
  int64_t kept = 0;
  for (int64_t i = 0; i < x.NumElements(); ++i) kept += drop.count(xs[i]) == 0;
  Tensor *out, *idx;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({kept}), &out));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(1, TensorShape({kept}), &idx));
  for (int64_t i = 0, k = 0; i < x.NumElements(); ++i) {
    if (drop.count(xs[i]) != 0) continue;
    out->base<T>()[k] = xs[i];
    if (wide) {
      idx->base<int64_t>()[k] = i;
    } else {
      idx->base<int32_t>()[k] = static_cast<int32_t>(i);
    }
    ++k;
  }
  return absl::OkStatus();
}

template absl::Status UnravelIndex<int32_t>(OpKernelContext&);
template absl::Status UnravelIndex<int64_t>(OpKernelContext&);
#define RILL_INSTANTIATE_LIST_DIFF(T, unused) template absl::Status ListDiff<T>(OpKernelContext&);
RILL_FOR_ALL_TYPES(RILL_INSTANTIATE_LIST_DIFF, _)
#undef RILL_INSTANTIATE_LIST_DIFF

}  // namespace rill
