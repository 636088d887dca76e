#include "rill/core/in_top_k.h"

#include <cmath>

namespace rill {
namespace {

// Whether `target` is in the top k of row p of `classes` predictions.
template <typename TargetT>
bool InTop(const float* p, int64_t classes, TargetT target, int64_t k) {
  if (target < 0 || target >= classes || !std::isfinite(p[target])) return false;
  const float at = p[target];
  int64_t above = 0;
  for (int64_t c = 0; c < classes; ++c) {
    if (!std::isfinite(p[c])) return false;  // TensorFlow cannot say either
    if (p[c] > at && ++above >= k) return false;
  }
  return above < k;
}

}  // namespace

absl::Status InTopKShape(InferenceContext& c) {
  const PartialTensorShape &p = c.input_shape(0), &t = c.input_shape(1);
  if (!p.unknown_rank() && p.dims() != 2) {
    return errors::InvalidArgument("predictions must be 2-dimensional, got ", p.DebugString());
  }
  if (!t.unknown_rank() && t.dims() != 1) {
    return errors::InvalidArgument("targets must be 1-dimensional, got ", t.DebugString());
  }
  if (c.num_inputs() > 2) RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 2, "k"));
  const int64_t pb = p.unknown_rank() ? -1 : p.dim_size(0);
  const int64_t tb = t.unknown_rank() ? -1 : t.dim_size(0);
  if (pb >= 0 && tb >= 0 && pb != tb) {
    return errors::InvalidArgument("First dimension of predictions ", pb,
                                   " must match length of targets ", tb);
  }
  c.set_output(0, PartialTensorShape({pb >= 0 ? pb : tb}));
  return absl::OkStatus();
}

template <typename TargetT>
absl::Status InTopK(OpKernelContext& ctx, bool k_input, int64_t k_attr) {
  const Tensor &p = ctx.input(0), &t = ctx.input(1);
  if (p.dims() != 2) {
    return errors::InvalidArgument("predictions must be 2-dimensional, got ",
                                   p.shape().DebugString());
  }
  if (t.dims() != 1) {
    return errors::InvalidArgument("targets must be 1-dimensional, got ", t.shape().DebugString());
  }
  if (p.dim_size(0) != t.dim_size(0)) {
    return errors::InvalidArgument("First dimension of predictions ", p.dim_size(0),
                                   " must match length of targets ", t.dim_size(0));
  }
  int64_t k = k_attr;
  if (k_input) {
    const Tensor& kt = ctx.input(2);
    if (kt.dims() != 0) {
      return errors::InvalidArgument("k must be 0-D, got shape ", kt.shape().DebugString());
    }
    k = static_cast<int64_t>(kt.base<TargetT>()[0]);
  }
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({t.dim_size(0)}), &out));
  const int64_t classes = p.dim_size(1);
  for (int64_t b = 0; b < t.dim_size(0); ++b) {
    out->base<bool>()[b] = InTop(p.base<float>() + b * classes, classes, t.base<TargetT>()[b], k);
  }
  return absl::OkStatus();
}

template absl::Status InTopK<int32_t>(OpKernelContext&, bool, int64_t);
template absl::Status InTopK<int64_t>(OpKernelContext&, bool, int64_t);

}  // namespace rill
