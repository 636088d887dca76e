// Argument checks and output allocation shared by the CPU and GPU kernels of the
// convolution, pooling and bias ops (as kernel_util.h does for the others), so the two
// devices accept the same inputs and name the same problems.
#pragma once

#include "rill/core/activation.h"
#include "rill/core/conv_util.h"
#include "rill/core/depthwise_row.h"
#include "rill/core/kernel.h"
#include "rill/core/pool_argmax_row.h"

namespace rill {

// Conv2D(input, filter), Conv2DBackpropInput(input_sizes, filter, out_backprop) and
// Conv2DBackpropFilter(input, filter_sizes, out_backprop): kMode 0, 1 and 2. The sizes
// inputs are host tensors. Allocates output 0 (the output, the input's or the filter's
// gradient). `depthwise`: the DepthwiseConv2dNative ops, whose filter is [k_h, k_w, c, m]
// (the geometry has out_c = c * m and groups = c).
enum class ConvMode { kForward = 0, kBackpropInput = 1, kBackpropFilter = 2 };
absl::StatusOr<Conv2DGeometry> PrepareConv2D(OpKernelContext& ctx, ConvMode mode, Tensor** out,
                                             bool depthwise = false);
// The input's and the filter's shapes of a convolution pass of `rank`-D tensors (4: 2-D,
// 5: 3-D): from the tensors, or from the backprops' host sizes inputs (input_sizes,
// filter_sizes), each checked to hold `rank` valid dims.
absl::Status ConvOperandShapes(OpKernelContext& ctx, ConvMode mode, int rank, TensorShape* input,
                               TensorShape* filter);
// A pass's two tensor operands: (input, filter) forward, (filter, out_backprop) for the
// input's gradient, (input, out_backprop) for the filter's.
inline const Tensor& ConvOperandA(OpKernelContext& ctx, ConvMode mode) {
  return mode == ConvMode::kBackpropInput ? ctx.input(1) : ctx.input(0);
}
inline const Tensor& ConvOperandB(OpKernelContext& ctx, ConvMode mode) {
  return mode == ConvMode::kForward ? ctx.input(1) : ctx.input(2);
}
// Whether input i of `node` is a Const node's value (which never changes: a kernel may
// keep work derived from it, such as reordered weights).
bool InputIsConstant(const Node& node, int i);

// A depthwise geometry (groups = in_c) in the plain form the shared row functions take.
DepthwiseDims DepthwiseDimsOf(const Conv2DGeometry& g);

// How a geometry maps onto a library that pads both sides alike (cuDNN): the input's
// height and width as the library sees them and its padding per side. `padded_copy`: the
// input must first be copied into a zero buffer of that size at (pad_top, pad_left), and
// the library told no padding (a SAME geometry with one more row or column after than
// before).
struct SymmetricPadLayout {
  int64_t h, w, pad_h, pad_w;
  bool padded_copy;
};
SymmetricPadLayout SymmetricPadLayoutOf(const Conv2DGeometry& g);

// The geometry of a MaxPool / AvgPool node over an input of this shape.
absl::StatusOr<Conv2DGeometry> PoolGeometry(const Node& node, const TensorShape& input);
// The same from 4-element NHWC ksize and strides lists.
absl::StatusOr<Conv2DGeometry> PoolGeometryOf(const TensorShape& input,
                                              const std::vector<int64_t>& ksize,
                                              const std::vector<int64_t>& strides,
                                              const std::string& padding);
// MaxPool and AvgPool(input): allocates the pooled output. `window_input` >= 0: ksize and
// strides are that int32 host input and the next (MaxPoolV2), not attrs.
absl::StatusOr<Conv2DGeometry> PreparePool(OpKernelContext& ctx, Tensor** out,
                                           int window_input = -1);
// MaxPoolGrad(orig_input, orig_output, grad): allocates the input's gradient
// (`window_input` 3: MaxPoolGradV2's ksize and strides inputs).
absl::StatusOr<Conv2DGeometry> PrepareMaxPoolGrad(OpKernelContext& ctx, Tensor** out,
                                                  int window_input = -1);
// MaxPoolWithArgmax(input): allocates the pooled output and the argmax (Targmax).
absl::StatusOr<ArgmaxPoolDims> PrepareMaxPoolWithArgmax(OpKernelContext& ctx, Tensor** out,
                                                        Tensor** argmax);
// MaxPoolGradWithArgmax(input, grad, argmax): grad and argmax of the pooled shape;
// allocates the input's gradient.
absl::StatusOr<ArgmaxPoolDims> PrepareMaxPoolGradWithArgmax(OpKernelContext& ctx, Tensor** out);
// AvgPoolGrad(orig_input_shape (host), grad): allocates the input's gradient.
absl::StatusOr<Conv2DGeometry> PrepareAvgPoolGrad(OpKernelContext& ctx, Tensor** out);

// BiasAdd(value, bias): output 0 (value's buffer when it may be reused); returns the
// number of channels (bias length).
absl::StatusOr<int64_t> PrepareBiasAdd(OpKernelContext& ctx, Tensor** out);
// BiasAddGrad(out_backprop): output [channels]; returns {rows, channels}.
struct BiasGradGeometry {
  int64_t rows, channels;
};
absl::StatusOr<BiasGradGeometry> PrepareBiasAddGrad(OpKernelContext& ctx, Tensor** out);

// The bias (input `i`) of _FusedMatMul or _FusedConv2D: a vector as long as the last dim of
// the output `out`.
absl::Status CheckFusedBias(const OpKernelContext& ctx, int i, const TensorShape& out);

// _BiasActivation's activation attr (the op's shape function refuses any other name).
FusedActivation ParseFusedActivation(const std::string& name);
// _BiasActivationGrad(gradients, outputs): backprops (gradients' buffer when it may be
// reused) and bias_backprop [channels]; returns {rows, channels}.
absl::StatusOr<BiasGradGeometry> PrepareBiasActivationGrad(OpKernelContext& ctx, Tensor** backprops,
                                                           Tensor** bias_backprop);

}  // namespace rill
