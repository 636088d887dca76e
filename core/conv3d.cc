#include "rill/core/conv3d.h"

#include "absl/strings/str_join.h"
#include "rill/core/conv_util.h"

namespace rill {
namespace {

std::string DimsString(absl::Span<const int64_t> dims) {
  return absl::StrCat("[",
                      absl::StrJoin(dims, ",",
                                    [](std::string* out, int64_t d) {
                                      absl::StrAppend(out, d < 0 ? "?" : std::to_string(d));
                                    }),
                      "]");
}

// The channel counts: in_c = groups * the filter's input channels, out_c a multiple of groups.
absl::Status SetChannels(absl::Span<const int64_t> input, absl::Span<const int64_t> filter,
                         Conv3DDims* g) {
  g->in_c = input[4];
  g->out_c = filter[4];
  const int64_t per_group = filter[3];
  if (g->in_c < 0 || per_group < 0) return absl::OkStatus();
  if (per_group == 0 || g->in_c % per_group != 0) {
    return errors::InvalidArgument("input ", DimsString(input), " has ", g->in_c,
                                   " channels, not a multiple of the filter ", DimsString(filter),
                                   "'s ", per_group, " input channels");
  }
  g->groups = g->in_c / per_group;
  if (g->out_c >= 0 && g->out_c % g->groups != 0) {
    return errors::InvalidArgument("the filter ", DimsString(filter), " has ", g->out_c,
                                   " output channels, not a multiple of the ", g->groups,
                                   " groups its input channels make of the input's ", g->in_c);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Conv3DDims> ComputeConv3DDims(absl::Span<const int64_t> input,
                                             absl::Span<const int64_t> filter,
                                             const std::vector<int64_t>& strides,
                                             const std::vector<int64_t>& dilations,
                                             const std::string& padding) {
  if (input.size() != 5 || filter.size() != 5) {
    return errors::InvalidArgument("input ", DimsString(input), " and filter ", DimsString(filter),
                                   " must both have rank 5 (NDHWC and [depth, height, width, "
                                   "in_channels, out_channels])");
  }
  RILL_RETURN_IF_ERROR(CheckChannelsLastList(strides, "NDHWC", "strides"));
  RILL_RETURN_IF_ERROR(CheckChannelsLastList(dilations, "NDHWC", "dilations"));
  if (padding != "SAME" && padding != "VALID") {
    return errors::InvalidArgument("padding must be SAME or VALID, got '", padding, "'");
  }
  Conv3DDims g;
  g.batch = input[0];
  RILL_RETURN_IF_ERROR(SetChannels(input, filter, &g));
  static constexpr const char* kDims[3] = {"depth", "height", "width"};
  for (int d = 0; d < 3; ++d) {
    g.in[d] = input[1 + d];
    g.k[d] = filter[d];
    g.stride[d] = strides[1 + d];
    g.dilation[d] = dilations[1 + d];
    if (g.k[d] < 0) {  // an unknown window: an unknown output
      g.out[d] = -1;
      continue;
    }
    if (g.k[d] == 0) {
      return errors::InvalidArgument("the filter ", DimsString(filter), " has an empty ", kDims[d]);
    }
    RILL_ASSIGN_OR_RETURN(const int64_t span, DilatedSpanOr(g.k[d], g.dilation[d], kDims[d]));
    RILL_RETURN_IF_ERROR(WindowOutputSize(g.in[d], span, g.stride[d], padding == "SAME", kDims[d],
                                          &g.out[d], &g.pad[d]));
  }
  return g;
}

std::vector<int64_t> Conv3DOutputDims(const Conv3DDims& g) {
  return {g.batch, g.out[0], g.out[1], g.out[2], g.out_c};
}

absl::StatusOr<Conv3DDims> PrepareConv3D(OpKernelContext& ctx, ConvMode mode, Tensor** out) {
  TensorShape in_shape, f_shape;
  RILL_RETURN_IF_ERROR(ConvOperandShapes(ctx, mode, 5, &in_shape, &f_shape));
  const Node& node = ctx.node();
  RILL_ASSIGN_OR_RETURN(Conv3DDims g,
                        ComputeConv3DDims(in_shape.dim_sizes(), f_shape.dim_sizes(),
                                          node.attr<std::vector<int64_t>>("strides"),
                                          node.attr<std::vector<int64_t>>("dilations"),
                                          node.attr<std::string>("padding")));
  if (mode != ConvMode::kForward) {
    const TensorShape want(Conv3DOutputDims(g));
    if (ctx.input(2).shape() != want) {
      return errors::InvalidArgument("out_backprop has shape ", ctx.input(2).shape().DebugString(),
                                     ", expected ", want.DebugString(),
                                     " (the convolution's output)");
    }
  }
  const TensorShape out_shape = mode == ConvMode::kForward ? TensorShape(Conv3DOutputDims(g))
                                : mode == ConvMode::kBackpropInput ? in_shape
                                                                   : f_shape;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, out_shape, out));
  return g;
}

}  // namespace rill
