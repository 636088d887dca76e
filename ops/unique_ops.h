// Unique with TensorFlow's C++ name: the distinct values of a vector in order of first
// appearance (y) and, for each element, the position of its value in y (idx); its V2 forms
// make the slices along an axis unique.
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

// The distinct slices of x along axis[0] (axis: a vector of one value, or of none for a
// vector x), in order of first appearance (y: x with that dim shortened), and each slice's
// place among them (idx). Slices compare by value: one holding a NaN matches no other.
class UniqueV2 {
 public:
  using Attrs = Unique::Attrs;
  UniqueV2(const Scope& scope, Input x, Input axis) : UniqueV2(scope, x, axis, Attrs()) {}
  UniqueV2(const Scope& scope, Input x, Input axis, const Attrs& attrs);
  static Attrs OutIdx(DataType x) { return Attrs().OutIdx(x); }
  Operation operation;
  Output y, idx;
};

class UniqueWithCountsV2 {
 public:
  using Attrs = Unique::Attrs;
  UniqueWithCountsV2(const Scope& scope, Input x, Input axis)
      : UniqueWithCountsV2(scope, x, axis, Attrs()) {}
  UniqueWithCountsV2(const Scope& scope, Input x, Input axis, const Attrs& attrs);
  static Attrs OutIdx(DataType x) { return Attrs().OutIdx(x); }
  Operation operation;
  Output y, idx, count;
};

}  // namespace rill::ops
