// Conv3D and its gradients with TensorFlow's C++ names and arguments, over NDHWC tensors
// and [k_d, k_h, k_w, in_c / groups, out_c] filters: strides and dilations are 5-element
// lists ({1, d, h, w, 1}), padding "SAME" or "VALID". An input with a multiple of the
// filter's input channels convolves in groups (as TensorFlow's grouped Conv3D). Dilations
// run on every device (TensorFlow's CPU kernel refuses them).
#pragma once

#include <string>

#include "rill/ops/conv_ops.h"  // IntList
#include "rill/ops/op_builder.h"

namespace rill::ops {

// data_format "NDHWC" (the only layout rill's convolutions take) and dilations.
struct Conv3DAttrs {
  Conv3DAttrs DataFormat(const std::string& x) const {
    Conv3DAttrs r = *this;
    r.data_format_ = x;
    return r;
  }
  Conv3DAttrs Dilations(const IntList& x) const {
    Conv3DAttrs r = *this;
    r.dilations_ = x;
    return r;
  }
  std::string data_format_;
  IntList dilations_;
};

class Conv3D : public OpWrapper {
 public:
  using Attrs = Conv3DAttrs;
  Conv3D(const Scope& scope, Input input, Input filter, const IntList& strides,
         const std::string& padding, const Attrs& attrs = Attrs());
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
  static Attrs Dilations(const IntList& x) { return Attrs().Dilations(x); }
};
// The gradient of Conv3D for its input; input_sizes: the input's 5 dims (int32 or int64).
class Conv3DBackpropInputV2 : public OpWrapper {
 public:
  using Attrs = Conv3DAttrs;
  Conv3DBackpropInputV2(const Scope& scope, Input input_sizes, Input filter, Input out_backprop,
                        const IntList& strides, const std::string& padding,
                        const Attrs& attrs = Attrs());
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
  static Attrs Dilations(const IntList& x) { return Attrs().Dilations(x); }
};
// The gradient of Conv3D for its filter; filter_sizes: the filter's 5 dims (int32).
class Conv3DBackpropFilterV2 : public OpWrapper {
 public:
  using Attrs = Conv3DAttrs;
  Conv3DBackpropFilterV2(const Scope& scope, Input input, Input filter_sizes, Input out_backprop,
                         const IntList& strides, const std::string& padding,
                         const Attrs& attrs = Attrs());
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
  static Attrs Dilations(const IntList& x) { return Attrs().Dilations(x); }
};

}  // namespace rill::ops
