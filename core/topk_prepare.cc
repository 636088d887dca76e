#include "rill/core/topk_prepare.h"

#include <limits>

#include "rill/core/shape_inference.h"

namespace rill {

absl::StatusOr<shape_util::Dims> TopKDims(absl::Span<const int64_t> input, int64_t k) {
  if (input.empty()) return errors::InvalidArgument("input must have rank >= 1, got a scalar");
  if (k < 0) return errors::InvalidArgument("k must be >= 0, got ", k);
  const int64_t last = input.back();
  if (last >= 0 && k > last) {
    return errors::InvalidArgument("k (", k, ") is more than the last dimension of the input ",
                                   shape_util::Str(input));
  }
  if (last > std::numeric_limits<int32_t>::max()) {
    return errors::InvalidArgument("the last dimension of ", shape_util::Str(input),
                                   " does not fit the int32 indices");
  }
  shape_util::Dims out(input.begin(), input.end());
  out.back() = k;
  return out;
}

absl::StatusOr<TopKGeometry> PrepareTopK(OpKernelContext& ctx, Tensor** values, Tensor** indices) {
  const Tensor& x = ctx.input(0);
  if (ctx.input(1).dims() != 0) {
    return errors::InvalidArgument("k must be a scalar, got shape ",
                                   ctx.input(1).shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto k, shape_fns::IntValues(ctx.input(1), "k"));
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, TopKDims(x.shape().dim_sizes(), k[0]));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, values));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(1, shape, indices));
  TopKGeometry g;
  g.n = x.dim_size(x.dims() - 1);
  g.rows = g.n == 0 ? 0 : x.NumElements() / g.n;  // n 0: k is 0 too, nothing to pick
  g.k = k[0];
  return g;
}

}  // namespace rill
