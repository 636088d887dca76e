// Convolutional-network ops over NHWC tensors, named and shaped as TensorFlow's: Conv2D
// (filter [k_h, k_w, in_c, out_c]), DepthwiseConv2dNative, MaxPool, AvgPool, BiasAdd, and
// their gradients.
// strides and ksize are 4-element NHWC lists ({1, s, s, 1}); padding is "SAME" or "VALID",
// or for the convolutions "EXPLICIT" with explicit_paddings {0, 0, top, bottom, left,
// right, 0, 0}; Conv2D and its gradients take dilations {1, d_h, d_w, 1} (TensorFlow's
// atrous convolution) through their Attrs.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "rill/ops/op_builder.h"

namespace rill::ops {

// A list of ints taken as TensorFlow's gtl::ArraySlice<int> is: from a brace list, a
// std::vector<int> (as TensorFlow's own tests pass ksize and strides) or a
// std::vector<int64_t>.
class IntList : public std::vector<int64_t> {
 public:
  IntList() = default;
  IntList(std::initializer_list<int64_t> v) : std::vector<int64_t>(v) {}            // NOLINT
  IntList(const std::vector<int64_t>& v) : std::vector<int64_t>(v) {}               // NOLINT
  IntList(const std::vector<int>& v) : std::vector<int64_t>(v.begin(), v.end()) {}  // NOLINT
};

// TensorFlow's optional attributes of the 2-D convolutions (Conv2D::Attrs and the others'):
// explicit paddings (with padding "EXPLICIT"), dilations {1, d_h, d_w, 1} (Conv2D and its
// gradients; the depthwise ops take 1 only, as TensorFlow's kernels) and data_format
// ("NHWC", the only layout rill's convolutions take).
class ConvAttrs {
 public:
  ConvAttrs() = default;
  ConvAttrs ExplicitPaddings(const IntList& x) const {
    ConvAttrs r = *this;
    r.explicit_paddings_ = x;
    return r;
  }
  ConvAttrs Dilations(const IntList& x) const {
    ConvAttrs r = *this;
    r.dilations_ = x;
    return r;
  }
  ConvAttrs DataFormat(const std::string& x) const {
    ConvAttrs r = *this;
    r.data_format_ = x;
    return r;
  }
  IntList explicit_paddings_, dilations_;
  std::string data_format_;
};
// The static starters TensorFlow's wrappers have: Conv2D::Dilations({1, 2, 2, 1}).
#define RILL_CONV_ATTR_STARTERS                                                           \
  using Attrs = ConvAttrs;                                                                \
  static Attrs ExplicitPaddings(const IntList& x) { return Attrs().ExplicitPaddings(x); } \
  static Attrs Dilations(const IntList& x) { return Attrs().Dilations(x); }               \
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }

class Conv2D : public OpWrapper {
 public:
  RILL_CONV_ATTR_STARTERS
  Conv2D(const Scope& scope, Input input, Input filter, const IntList& strides,
         const std::string& padding, const IntList& explicit_paddings = {});
  Conv2D(const Scope& scope, Input input, Input filter, const IntList& strides,
         const std::string& padding, const Attrs& attrs);
};
// The gradient of Conv2D for its input (input_sizes: int32 [4]) and for its filter.
class Conv2DBackpropInput : public OpWrapper {
 public:
  RILL_CONV_ATTR_STARTERS
  Conv2DBackpropInput(const Scope& scope, Input input_sizes, Input filter, Input out_backprop,
                      const IntList& strides, const std::string& padding,
                      const IntList& explicit_paddings = {});
  Conv2DBackpropInput(const Scope& scope, Input input_sizes, Input filter, Input out_backprop,
                      const IntList& strides, const std::string& padding, const Attrs& attrs);
};
class Conv2DBackpropFilter : public OpWrapper {
 public:
  RILL_CONV_ATTR_STARTERS
  Conv2DBackpropFilter(const Scope& scope, Input input, Input filter_sizes, Input out_backprop,
                       const IntList& strides, const std::string& padding,
                       const IntList& explicit_paddings = {});
  Conv2DBackpropFilter(const Scope& scope, Input input, Input filter_sizes, Input out_backprop,
                       const IntList& strides, const std::string& padding, const Attrs& attrs);
};

// tf.nn.depthwise_conv2d's op: filter [k_h, k_w, c, m] (m filters per input channel),
// output [n, oh, ow, c * m] whose channel ch * m + q convolves input channel ch with filter
// column (ch, q) alone.
class DepthwiseConv2dNative : public OpWrapper {
 public:
  RILL_CONV_ATTR_STARTERS
  DepthwiseConv2dNative(const Scope& scope, Input input, Input filter, const IntList& strides,
                        const std::string& padding, const IntList& explicit_paddings = {});
  DepthwiseConv2dNative(const Scope& scope, Input input, Input filter, const IntList& strides,
                        const std::string& padding, const Attrs& attrs);
};
class DepthwiseConv2dNativeBackpropInput : public OpWrapper {
 public:
  RILL_CONV_ATTR_STARTERS
  DepthwiseConv2dNativeBackpropInput(const Scope& scope, Input input_sizes, Input filter,
                                     Input out_backprop, const IntList& strides,
                                     const std::string& padding,
                                     const IntList& explicit_paddings = {});
  DepthwiseConv2dNativeBackpropInput(const Scope& scope, Input input_sizes, Input filter,
                                     Input out_backprop, const IntList& strides,
                                     const std::string& padding, const Attrs& attrs);
};
class DepthwiseConv2dNativeBackpropFilter : public OpWrapper {
 public:
  RILL_CONV_ATTR_STARTERS
  DepthwiseConv2dNativeBackpropFilter(const Scope& scope, Input input, Input filter_sizes,
                                      Input out_backprop, const IntList& strides,
                                      const std::string& padding,
                                      const IntList& explicit_paddings = {});
  DepthwiseConv2dNativeBackpropFilter(const Scope& scope, Input input, Input filter_sizes,
                                      Input out_backprop, const IntList& strides,
                                      const std::string& padding, const Attrs& attrs);
};
#undef RILL_CONV_ATTR_STARTERS

// Padding never wins a max, and is not counted in an average (as TensorFlow).
class MaxPool : public OpWrapper {
 public:
  MaxPool(const Scope& scope, Input input, const IntList& ksize, const IntList& strides,
          const std::string& padding);
};
class MaxPoolGrad : public OpWrapper {
 public:
  MaxPoolGrad(const Scope& scope, Input orig_input, Input orig_output, Input grad,
              const IntList& ksize, const IntList& strides, const std::string& padding);
};
class AvgPool : public OpWrapper {
 public:
  AvgPool(const Scope& scope, Input value, const IntList& ksize, const IntList& strides,
          const std::string& padding);
};
class AvgPoolGrad : public OpWrapper {
 public:
  AvgPoolGrad(const Scope& scope, Input orig_input_shape, Input grad, const IntList& ksize,
              const IntList& strides, const std::string& padding);
};

// value + bias along the last dimension; bias is [channels].
class BiasAdd : public OpWrapper {
 public:
  BiasAdd(const Scope& scope, Input value, Input bias);
};
// The sum of out_backprop over every dimension but the last.
class BiasAddGrad : public OpWrapper {
 public:
  BiasAddGrad(const Scope& scope, Input out_backprop);
};

}  // namespace rill::ops
