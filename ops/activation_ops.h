// The activations beyond Relu, Sigmoid and Tanh, with TensorFlow's names and attrs, and
// the gradient ops their gradients build (formulas in core/point_activation.h).
#pragma once

#include "rill/ops/math_ops.h"

namespace rill::ops {

RILL_DECLARE_UNARY_OP(Relu6)  // min(max(x, 0), 6)
RILL_DECLARE_UNARY_OP(Elu)    // x < 0 ? e^x - 1 : x
RILL_DECLARE_UNARY_OP(Selu)   // scale * (x < 0 ? alpha * (e^x - 1) : x), TensorFlow's constants

// x > 0 ? x : alpha * x
class LeakyRelu : public OpWrapper {
 public:
  struct Attrs {
    Attrs Alpha(float x) {
      Attrs r = *this;
      r.alpha_ = x;
      return r;
    }
    float alpha_ = 0.2f;
  };
  LeakyRelu(const Scope& scope, Input features) : LeakyRelu(scope, features, Attrs()) {}
  LeakyRelu(const Scope& scope, Input features, const Attrs& attrs);
  static Attrs Alpha(float x) { return Attrs().Alpha(x); }
};

// gradients * (0 < features < 6)
class Relu6Grad : public OpWrapper {
 public:
  Relu6Grad(const Scope& scope, Input gradients, Input features);
};
// outputs < 0 ? gradients * (outputs + 1) : gradients, from Elu's outputs
class EluGrad : public OpWrapper {
 public:
  EluGrad(const Scope& scope, Input gradients, Input outputs);
};
// outputs < 0 ? gradients * (outputs + scale * alpha) : gradients * scale, from Selu's
class SeluGrad : public OpWrapper {
 public:
  SeluGrad(const Scope& scope, Input gradients, Input outputs);
};
// features > 0 ? gradients : gradients * alpha
class LeakyReluGrad : public OpWrapper {
 public:
  using Attrs = LeakyRelu::Attrs;
  LeakyReluGrad(const Scope& scope, Input gradients, Input features)
      : LeakyReluGrad(scope, gradients, features, Attrs()) {}
  LeakyReluGrad(const Scope& scope, Input gradients, Input features, const Attrs& attrs);
  static Attrs Alpha(float x) { return Attrs().Alpha(x); }
};

// TensorFlow's C++ API declares these two in ops::internal (nn_ops_internal.h).
namespace internal {
using ::rill::ops::LeakyRelu;
using ::rill::ops::LeakyReluGrad;
}  // namespace internal

}  // namespace rill::ops
