// TopKV2 with TensorFlow's C++ name (ops::TopK): the k largest entries of each row (the last
// dim) and their int32 indices, largest first, equal values by lower index.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

class TopK {
 public:
  struct Attrs {
    Attrs Sorted(bool x) {
      Attrs r = *this;
      r.sorted_ = x;
      return r;
    }
    bool sorted_ = true;  // rill always sorts; false is accepted, as TensorFlow's
  };
  TopK(const Scope& scope, Input input, Input k) : TopK(scope, input, k, Attrs()) {}
  TopK(const Scope& scope, Input input, Input k, const Attrs& attrs);
  static Attrs Sorted(bool x) { return Attrs().Sorted(x); }
  Operation operation;
  Output values, indices;
};

}  // namespace rill::ops
