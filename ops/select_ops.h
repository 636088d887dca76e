// Range, LinSpace, and the ops that pick elements by a condition, with TensorFlow's C++ names:
// Select (Where3 in old TensorFlow), SelectV2 and Where.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

// [start, start + delta, ...) up to limit (exclusive); scalars of one dtype (int32 default).
class Range : public OpWrapper {
 public:
  Range(const Scope& scope, Input start, Input limit, Input delta);
};

// num (int32 or int64, >= 1) values evenly spaced from start to stop (float scalars), both
// included: tf.linspace.
class LinSpace : public OpWrapper {
 public:
  LinSpace(const Scope& scope, Input start, Input stop, Input num);
};

// condition ? t : e elementwise. t and e have one shape; condition is a scalar, of their
// shape, or a vector choosing whole rows (TensorFlow's Select).
class Select : public OpWrapper {
 public:
  Select(const Scope& scope, Input condition, Input t, Input e);
};

// TensorFlow's C++ API also names Select Where3.
using Where3 = Select;

// condition ? t : e with the three broadcast together (NumPy rules).
class SelectV2 : public OpWrapper {
 public:
  SelectV2(const Scope& scope, Input condition, Input t, Input e);
};

// The coordinates of the true (nonzero) elements of `condition`: int64 [count, rank].
class Where : public OpWrapper {
 public:
  Where(const Scope& scope, Input condition);
};

}  // namespace rill::ops
