#include "rill/core/batch_norm.h"

#include <cmath>

#include "absl/container/inlined_vector.h"
#include "rill/core/graph.h"

namespace rill {
namespace {

// Folds one input's length into the channel count (-1: not known yet); `what` names it.
absl::Status MatchChannels(const PartialTensorShape& s, const char* what, int64_t* channels) {
  if (s.unknown_rank()) return absl::OkStatus();
  if (s.dims() != 1) {
    return errors::InvalidArgument(what, " must be 1-dimensional, got shape ", s.DebugString());
  }
  const int64_t n = s.dim_size(0);
  if (n < 0) return absl::OkStatus();
  if (*channels >= 0 && n != *channels) {
    return errors::InvalidArgument(what, " must have the same number of elements as the channels",
                                   " of x (", *channels, "), got shape ", s.DebugString());
  }
  *channels = n;
  return absl::OkStatus();
}

// x's channel count (-1 when unknown) after checking its rank against the format.
absl::StatusOr<int64_t> ChannelsOfX(const BatchNormAttrs& a, const PartialTensorShape& x,
                                    const char* what) {
  absl::StatusOr<int> axis = BatchNormChannelAxis(a.data_format, x.dims());
  if (!axis.ok()) {
    return errors::InvalidArgument(what, " ", x.DebugString(), ": ", axis.status().message());
  }
  return *axis < 0 ? -1 : x.dim_size(*axis);
}

absl::Status CheckEpsilon(const BatchNormAttrs& a) {
  // A negative epsilon can make variance + epsilon negative and every output NaN.
  if (!(a.epsilon >= 0) || std::isinf(a.epsilon)) {
    return errors::InvalidArgument("epsilon must be finite and >= 0, got ", a.epsilon);
  }
  return absl::OkStatus();
}

BatchNormGeometry GeometryOf(const BatchNormAttrs& a, const TensorShape& x) {
  const int axis = *BatchNormChannelAxis(a.data_format, x.dims());
  BatchNormGeometry g;
  g.outer = 1;
  g.channels = x.dim_size(axis);
  for (int d = 0; d < x.dims(); ++d) {
    if (d < axis) g.outer *= x.dim_size(d);
    if (d > axis) g.inner *= x.dim_size(d);
  }
  return g;
}

// The first n inputs' shapes, after checking they share input 0's dtype (rill's kernels
// take U == T; a graph file could say otherwise).
// Inline storage: the kernels call this on every run, which should not allocate.
using InputShapeList = absl::InlinedVector<PartialTensorShape, 5>;
absl::StatusOr<InputShapeList> InputShapes(const OpKernelContext& ctx, int n) {
  InputShapeList v;
  for (int i = 0; i < n; ++i) {
    if (ctx.input(i).dtype() != ctx.input(0).dtype()) {
      return errors::InvalidArgument("input ", i, " is ", DataTypeString(ctx.input(i).dtype()),
                                     ", input 0 ", DataTypeString(ctx.input(0).dtype()),
                                     ": U must equal T");
    }
    v.emplace_back(ctx.input(i).shape());
  }
  return v;
}

}  // namespace

BatchNormAttrs BatchNormAttrsOf(const AttrMap& attrs) {
  BatchNormAttrs a;
  a.epsilon = GetNodeAttrOr<float>(attrs, "epsilon", a.epsilon);
  a.exponential_avg_factor =
      GetNodeAttrOr<float>(attrs, "exponential_avg_factor", a.exponential_avg_factor);
  a.data_format = GetNodeAttrOr<std::string>(attrs, "data_format", a.data_format);
  a.is_training = GetNodeAttrOr<bool>(attrs, "is_training", a.is_training);
  return a;
}

absl::StatusOr<int> BatchNormChannelAxis(const std::string& data_format, int rank) {
  int axis, length;
  if (data_format == "NHWC" || data_format == "NDHWC") {
    length = static_cast<int>(data_format.size());
    axis = length - 1;
  } else if (data_format == "NCHW" || data_format == "NCDHW") {
    length = static_cast<int>(data_format.size());
    axis = 1;
  } else {
    return errors::InvalidArgument("data_format must be NHWC, NCHW, NDHWC or NCDHW, got '",
                                   data_format, "'");
  }
  if (rank < 0) return -1;
  if (rank != length) {
    return errors::InvalidArgument("data_format ", data_format, " needs a rank-", length,
                                   " x, got rank ", rank);
  }
  return axis;
}

absl::StatusOr<int64_t> CheckBatchNormShapes(const BatchNormAttrs& a,
                                             absl::Span<const PartialTensorShape> in) {
  RILL_RETURN_IF_ERROR(CheckEpsilon(a));
  if (!(std::isfinite(a.exponential_avg_factor))) {
    return errors::InvalidArgument("exponential_avg_factor must be finite, got ",
                                   a.exponential_avg_factor);
  }
  RILL_ASSIGN_OR_RETURN(int64_t channels, ChannelsOfX(a, in[0], "x"));
  RILL_RETURN_IF_ERROR(MatchChannels(in[1], "scale", &channels));
  RILL_RETURN_IF_ERROR(MatchChannels(in[2], "offset", &channels));
  if (a.UsesMeanAndVariance()) {
    RILL_RETURN_IF_ERROR(MatchChannels(in[3], "mean", &channels));
    RILL_RETURN_IF_ERROR(MatchChannels(in[4], "variance", &channels));
  } else {
    // Ignored in this mode, but still vectors (TensorFlow passes empty ones).
    for (int i : {3, 4}) {
      if (!in[i].unknown_rank() && in[i].dims() != 1) {
        return errors::InvalidArgument(i == 3 ? "mean" : "variance",
                                       " must be 1-dimensional, got shape ", in[i].DebugString());
      }
    }
  }
  return channels;
}

absl::StatusOr<int64_t> CheckBatchNormGradShapes(const BatchNormAttrs& a,
                                                 absl::Span<const PartialTensorShape> in) {
  RILL_RETURN_IF_ERROR(CheckEpsilon(a));
  if (!in[0].IsCompatibleWith(in[1])) {
    return errors::InvalidArgument("y_backprop and x must have the same shape, got ",
                                   in[0].DebugString(), " and ", in[1].DebugString());
  }
  RILL_RETURN_IF_ERROR(ChannelsOfX(a, in[0], "y_backprop").status());
  RILL_ASSIGN_OR_RETURN(int64_t channels, ChannelsOfX(a, in[1], "x"));
  RILL_RETURN_IF_ERROR(MatchChannels(in[2], "scale", &channels));
  RILL_RETURN_IF_ERROR(MatchChannels(in[3], "reserve_space_1", &channels));
  RILL_RETURN_IF_ERROR(MatchChannels(in[4], "reserve_space_2", &channels));
  return channels;
}

absl::StatusOr<BatchNormGeometry> PrepareBatchNorm(OpKernelContext& ctx, const BatchNormAttrs& a,
                                                   Tensor* out[6]) {
  RILL_ASSIGN_OR_RETURN(auto shapes, InputShapes(ctx, 5));
  RILL_RETURN_IF_ERROR(CheckBatchNormShapes(a, shapes).status());
  const BatchNormGeometry g = GeometryOf(a, ctx.input(0).shape());
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, ctx.input(0).shape(), &out[0]));
  for (int i = 1; i < 5; ++i) {
    RILL_RETURN_IF_ERROR(ctx.allocate_output(i, TensorShape({g.channels}), &out[i]));
  }
  out[5] = nullptr;  // V1 and V2 have no reserve_space_3
  if (ctx.node().num_outputs() > 5) {
    RILL_RETURN_IF_ERROR(ctx.allocate_output(5, TensorShape({}), &out[5]));
  }
  return g;
}

absl::StatusOr<BatchNormGeometry> PrepareBatchNormGrad(OpKernelContext& ctx,
                                                       const BatchNormAttrs& a, Tensor* out[5]) {
  RILL_ASSIGN_OR_RETURN(auto shapes, InputShapes(ctx, 5));
  RILL_RETURN_IF_ERROR(CheckBatchNormGradShapes(a, shapes).status());
  const BatchNormGeometry g = GeometryOf(a, ctx.input(1).shape());
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, ctx.input(1).shape(), &out[0]));
  for (int i = 1; i < 3; ++i) {
    RILL_RETURN_IF_ERROR(ctx.allocate_output(i, TensorShape({g.channels}), &out[i]));
  }
  for (int i = 3; i < 5; ++i)
    RILL_RETURN_IF_ERROR(ctx.allocate_output(i, TensorShape({0}), &out[i]));
  return g;
}

}  // namespace rill
