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

namespace rill::ops {

// tf.math.in_top_k (core/in_top_k.h): `precision` [batch] bool, whether each target class
// is among the k largest predictions of its row (ties at the boundary count as in). InTopK
// takes k as an attr, InTopKV2 as a scalar input of the targets' dtype. Not
// differentiable.
class InTopK : public OpWrapper {
 public:
  InTopK(const Scope& scope, Input predictions, Input targets, int64_t k);
  Output precision;
};
class InTopKV2 : public OpWrapper {
 public:
  InTopKV2(const Scope& scope, Input predictions, Input targets, Input k);
  Output precision;
};

}  // namespace rill::ops
