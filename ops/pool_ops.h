// The poolings beyond conv_ops.h's MaxPool and AvgPool, with TensorFlow's C++ names and
// arguments: MaxPoolV2 (ksize and strides as int32 inputs, so they may be computed),
// MaxPool3D and AvgPool3D over NDHWC tensors, and their gradients MaxPool3DGrad,
// AvgPool3DGrad and internal::MaxPoolGradV2. As the 2-D ops: padding SAME or VALID;
// padding never wins a max and is not counted in an average; a max's gradient goes to the
// first maximal element of its window.
#pragma once

#include <string>

#include "rill/ops/conv_ops.h"  // IntList
#include "rill/ops/op_builder.h"

namespace rill::ops {

// data_format: "NHWC" for MaxPoolV2, "NDHWC" for the 3-D ops (the only layouts rill's
// poolings take; TensorFlow's CPU kernels take no other either).
struct PoolAttrs {
  PoolAttrs DataFormat(const std::string& x) {
    PoolAttrs r = *this;
    r.data_format_ = x;
    return r;
  }
  std::string data_format_;
};

class MaxPoolV2 : public OpWrapper {
 public:
  using Attrs = PoolAttrs;
  MaxPoolV2(const Scope& scope, Input input, Input ksize, Input strides, const std::string& padding,
            const Attrs& attrs = Attrs());
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
};

// ksize and strides: 5 values [1, depth, height, width, 1].
class MaxPool3D : public OpWrapper {
 public:
  using Attrs = PoolAttrs;
  MaxPool3D(const Scope& scope, Input input, const IntList& ksize, const IntList& strides,
            const std::string& padding, const Attrs& attrs = Attrs());
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
};
class AvgPool3D : public OpWrapper {
 public:
  using Attrs = PoolAttrs;
  AvgPool3D(const Scope& scope, Input input, const IntList& ksize, const IntList& strides,
            const std::string& padding, const Attrs& attrs = Attrs());
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
};
class MaxPool3DGrad : public OpWrapper {
 public:
  using Attrs = PoolAttrs;
  MaxPool3DGrad(const Scope& scope, Input orig_input, Input orig_output, Input grad,
                const IntList& ksize, const IntList& strides, const std::string& padding,
                const Attrs& attrs = Attrs());
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
};
// orig_input_shape: the 5 dims of the pooled input (int32).
class AvgPool3DGrad : public OpWrapper {
 public:
  using Attrs = PoolAttrs;
  AvgPool3DGrad(const Scope& scope, Input orig_input_shape, Input grad, const IntList& ksize,
                const IntList& strides, const std::string& padding, const Attrs& attrs = Attrs());
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
};

namespace internal {
class MaxPoolGradV2 : public OpWrapper {
 public:
  using Attrs = PoolAttrs;
  MaxPoolGradV2(const Scope& scope, Input orig_input, Input orig_output, Input grad, Input ksize,
                Input strides, const std::string& padding, const Attrs& attrs = Attrs());
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
};
}  // namespace internal

}  // namespace rill::ops
