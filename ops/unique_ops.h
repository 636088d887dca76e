// Unique with TensorFlow's C++ name: the distinct values of a vector in order of first
// appearance (y) and, for each element, the position of its value in y (idx).
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

class Unique {
 public:
  struct Attrs {
    Attrs OutIdx(DataType x) {
      Attrs r = *this;
      r.out_idx_ = x;
      return r;
    }
    DataType out_idx_ = DT_INT32;
  };
  Unique(const Scope& scope, Input x) : Unique(scope, x, Attrs()) {}
  Unique(const Scope& scope, Input x, const Attrs& attrs);
  static Attrs OutIdx(DataType x) { return Attrs().OutIdx(x); }
  Operation operation;
  Output y, idx;
};

// Unique, and how many times each distinct value occurs (count, of idx's dtype).
class UniqueWithCounts {
 public:
  using Attrs = Unique::Attrs;
  UniqueWithCounts(const Scope& scope, Input x) : UniqueWithCounts(scope, x, Attrs()) {}
  UniqueWithCounts(const Scope& scope, Input x, const Attrs& attrs);
  static Attrs OutIdx(DataType x) { return Attrs().OutIdx(x); }
  Operation operation;
  Output y, idx, count;
};

}  // namespace rill::ops
