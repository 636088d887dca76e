#include "rill/core/pool3d.h"

#include <string>

#include "absl/strings/str_join.h"
#include "rill/core/conv_util.h"
#include "rill/core/shape_inference.h"
#include "rill/core/status.h"

namespace rill {

absl::StatusOr<Pool3DDims> ComputePool3DDims(absl::Span<const int64_t> input,
                                             const std::vector<int64_t>& ksize,
                                             const std::vector<int64_t>& strides,
                                             const std::string& padding) {
  if (input.size() != 5) {
    return errors::InvalidArgument(
        "input must be 5-D [batch, depth, height, width, channels], got shape [",
        absl::StrJoin(input, ",",
                      [](std::string* out, int64_t d) {
                        absl::StrAppend(out, d < 0 ? "?" : std::to_string(d));
                      }),
        "]");
  }
  RILL_RETURN_IF_ERROR(CheckChannelsLastList(ksize, "NDHWC", "ksize"));
  RILL_RETURN_IF_ERROR(CheckChannelsLastList(strides, "NDHWC", "strides"));
  if (padding != "SAME" && padding != "VALID") {
    return errors::InvalidArgument("padding must be SAME or VALID, got '", padding, "'");
  }
  static constexpr const char* kDims[3] = {"depth", "height", "width"};
  Pool3DDims g;
  g.batch = input[0];
  g.channels = input[4];
  for (int d = 0; d < 3; ++d) {
    g.in[d] = input[1 + d];
    g.k[d] = ksize[1 + d];
    g.stride[d] = strides[1 + d];
    RILL_RETURN_IF_ERROR(WindowOutputSize(g.in[d], g.k[d], g.stride[d], padding == "SAME", kDims[d],
                                          &g.out[d], &g.pad[d]));
  }
  return g;
}

TensorShape Pool3DOutputShape(const Pool3DDims& g) {
  return TensorShape({g.batch, g.out[0], g.out[1], g.out[2], g.channels});
}

namespace {

absl::StatusOr<Pool3DDims> NodeDims(const Node& node, const TensorShape& input) {
  return ComputePool3DDims(input.dim_sizes(), node.attr<std::vector<int64_t>>("ksize"),
                           node.attr<std::vector<int64_t>>("strides"),
                           node.attr<std::string>("padding"));
}

// The gradient (and for MaxPool3DGrad orig_output) must have the pooled shape.
absl::Status CheckPooled(const Pool3DDims& g, const Tensor& t, const char* what) {
  const TensorShape want = Pool3DOutputShape(g);
  if (t.shape() != want) {
    return errors::InvalidArgument(what, " has shape ", t.shape().DebugString(), ", expected ",
                                   want.DebugString(), " (the pooled input's)");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Pool3DDims> PreparePool3D(OpKernelContext& ctx, Tensor** out) {
  RILL_ASSIGN_OR_RETURN(Pool3DDims g, NodeDims(ctx.node(), ctx.input(0).shape()));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, Pool3DOutputShape(g), out));
  return g;
}

absl::StatusOr<Pool3DDims> PrepareMaxPool3DGrad(OpKernelContext& ctx, Tensor** out) {
  const Tensor& x = ctx.input(0);
  RILL_ASSIGN_OR_RETURN(Pool3DDims g, NodeDims(ctx.node(), x.shape()));
  RILL_RETURN_IF_ERROR(CheckPooled(g, ctx.input(1), "orig_output"));
  RILL_RETURN_IF_ERROR(CheckPooled(g, ctx.input(2), "grad"));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), out));
  return g;
}

absl::StatusOr<Pool3DDims> PrepareAvgPool3DGrad(OpKernelContext& ctx, Tensor** out) {
  const Tensor& sizes = ctx.input(0);
  if (sizes.dims() != 1 || sizes.NumElements() != 5) {
    return errors::InvalidArgument("orig_input_shape must be a 5-element vector, got shape ",
                                   sizes.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(TensorShape in_shape,
                        shape_fns::ShapeFromTensor(sizes, "orig_input_shape"));
  RILL_ASSIGN_OR_RETURN(Pool3DDims g, NodeDims(ctx.node(), in_shape));
  RILL_RETURN_IF_ERROR(CheckPooled(g, ctx.input(1), "grad"));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, in_shape, out));
  return g;
}

}  // namespace rill
