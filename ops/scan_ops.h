// Cumulative sums and products along an axis, with TensorFlow's C++ names and attrs.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

struct ScanAttrs {
  ScanAttrs Exclusive(bool x) {
    ScanAttrs r = *this;
    r.exclusive_ = x;
    return r;
  }
  ScanAttrs Reverse(bool x) {
    ScanAttrs r = *this;
    r.reverse_ = x;
    return r;
  }
  bool exclusive_ = false;  // element j combines the elements before it only
  bool reverse_ = false;    // the scan runs from the end of the axis
};

#define RILL_DECLARE_SCAN_OP(Name)                                                   \
  class Name : public OpWrapper {                                                    \
   public:                                                                           \
    using Attrs = ScanAttrs;                                                         \
    Name(const Scope& scope, Input x, Input axis) : Name(scope, x, axis, Attrs()) {} \
    Name(const Scope& scope, Input x, Input axis, const Attrs& attrs);               \
    static Attrs Exclusive(bool x) { return Attrs().Exclusive(x); }                  \
    static Attrs Reverse(bool x) { return Attrs().Reverse(x); }                      \
  };
RILL_DECLARE_SCAN_OP(Cumsum)
RILL_DECLARE_SCAN_OP(Cumprod)
#undef RILL_DECLARE_SCAN_OP

}  // namespace rill::ops
