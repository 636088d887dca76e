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

// tf.nn.max_pool_with_argmax's op (NHWC, ksize and strides {1, h, w, 1}, SAME or VALID):
// `output` as MaxPool's and `argmax`, per output element the flat index of its window's
// first maximal element, (y * width + x) * channels + c, with the batch in front when
// IncludeBatchInIndex(true); Targmax int64 (default) or int32.
struct ArgmaxAttrs {
  ArgmaxAttrs Targmax(DataType x) const {
    ArgmaxAttrs r = *this;
    r.targmax_ = x;
    return r;
  }
  ArgmaxAttrs IncludeBatchInIndex(bool x) const {
    ArgmaxAttrs r = *this;
    r.include_batch_in_index_ = x;
    return r;
  }
  DataType targmax_ = DT_INT64;
  bool include_batch_in_index_ = false;
};
class MaxPoolWithArgmax {
 public:
  using Attrs = ArgmaxAttrs;
  MaxPoolWithArgmax(const Scope& scope, Input input, const IntList& ksize, const IntList& strides,
                    const std::string& padding, const Attrs& attrs = Attrs());
  static Attrs Targmax(DataType x) { return Attrs().Targmax(x); }
  static Attrs IncludeBatchInIndex(bool x) { return Attrs().IncludeBatchInIndex(x); }
  Operation operation;
  Output output, argmax;
};
// The gradient through MaxPoolWithArgmax: each grad value added at its argmax (an index
// outside its image is InvalidArgument).
class MaxPoolGradWithArgmax : public OpWrapper {
 public:
  using Attrs = ArgmaxAttrs;
  MaxPoolGradWithArgmax(const Scope& scope, Input input, Input grad, Input argmax,
                        const IntList& ksize, const IntList& strides, const std::string& padding,
                        const Attrs& attrs = Attrs());
  static Attrs IncludeBatchInIndex(bool x) { return Attrs().IncludeBatchInIndex(x); }
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
