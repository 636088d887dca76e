// StridedSlice and its gradient op, with TensorFlow's C++ names and masks: x[b:e:s] per dim,
// with begin_mask / end_mask (take the dim from its start / to its end), ellipsis_mask (the
// dims not named), new_axis_mask (insert a dim of 1) and shrink_axis_mask (take one index
// and drop the dim), bit i for entry i of begin, end and strides.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

struct StridedSliceAttrs {
#define RILL_MASK_SETTER(Name, field) \
  StridedSliceAttrs Name(int64_t x) { \
    StridedSliceAttrs r = *this;      \
    r.field = x;                      \
    return r;                         \
  }
  RILL_MASK_SETTER(BeginMask, begin_mask_)
  RILL_MASK_SETTER(EndMask, end_mask_)
  RILL_MASK_SETTER(EllipsisMask, ellipsis_mask_)
  RILL_MASK_SETTER(NewAxisMask, new_axis_mask_)
  RILL_MASK_SETTER(ShrinkAxisMask, shrink_axis_mask_)
#undef RILL_MASK_SETTER
  int64_t begin_mask_ = 0, end_mask_ = 0, ellipsis_mask_ = 0, new_axis_mask_ = 0,
          shrink_axis_mask_ = 0;
};

class StridedSlice : public OpWrapper {
 public:
  using Attrs = StridedSliceAttrs;
  StridedSlice(const Scope& scope, Input input, Input begin, Input end, Input strides)
      : StridedSlice(scope, input, begin, end, strides, Attrs()) {}
  StridedSlice(const Scope& scope, Input input, Input begin, Input end, Input strides,
               const Attrs& attrs);
  static Attrs BeginMask(int64_t x) { return Attrs().BeginMask(x); }
  static Attrs EndMask(int64_t x) { return Attrs().EndMask(x); }
  static Attrs EllipsisMask(int64_t x) { return Attrs().EllipsisMask(x); }
  static Attrs NewAxisMask(int64_t x) { return Attrs().NewAxisMask(x); }
  static Attrs ShrinkAxisMask(int64_t x) { return Attrs().ShrinkAxisMask(x); }
};

// A zero tensor of `shape` with dy in the slice StridedSlice takes (its gradient).
class StridedSliceGrad : public OpWrapper {
 public:
  using Attrs = StridedSliceAttrs;
  StridedSliceGrad(const Scope& scope, Input shape, Input begin, Input end, Input strides, Input dy,
                   const Attrs& attrs = Attrs());
};

}  // namespace rill::ops
