// Ops that gradient functions build: StopGradient, PreventGradient, the shape helpers of
// broadcasting and reduction gradients, and the fused activation gradients.
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

// Identity forward; no gradient flows through it.
class StopGradient : public OpWrapper {
 public:
  StopGradient(const Scope& scope, Input input);
};

// `input` itself; differentiating through it is an InvalidArgument carrying `message`.
class PreventGradient : public OpWrapper {
 public:
  struct Attrs {
    Attrs Message(const std::string& x) {
      Attrs r = *this;
      r.message_ = x;
      return r;
    }
    std::string message_;
  };
  PreventGradient(const Scope& scope, Input input) : PreventGradient(scope, input, Attrs()) {}
  PreventGradient(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs Message(const std::string& x) { return Attrs().Message(x); }
};

// The axes to sum a broadcast result's gradient over, for each of two shapes: r0 for s0,
// r1 for s1 (TensorFlow's BroadcastGradientArgs).
class BroadcastGradientArgs {
 public:
  BroadcastGradientArgs(const Scope& scope, Input s0, Input s1);
  Output r0, r1;
  Operation operation;
};

// input_shape with every reduced axis set to 1 (the keep_dims shape of a reduction).
class ReducedShape : public OpWrapper {
 public:
  ReducedShape(const Scope& scope, Input input_shape, Input axes);
};

// y[x[i]] = i.
class InvertPermutation : public OpWrapper {
 public:
  InvertPermutation(const Scope& scope, Input x);
};

// gradients * (features > 0)
class ReluGrad : public OpWrapper {
 public:
  ReluGrad(const Scope& scope, Input gradients, Input features);
};
// dy * y * (1 - y), with y = sigmoid(x)
class SigmoidGrad : public OpWrapper {
 public:
  SigmoidGrad(const Scope& scope, Input y, Input dy);
};
// dy * (1 - y^2), with y = tanh(x)
class TanhGrad : public OpWrapper {
 public:
  TanhGrad(const Scope& scope, Input y, Input dy);
};

// TensorFlow's C++ API declares these in ops::internal (nn_ops_internal.h, ...).
namespace internal {
using ::rill::ops::ReluGrad;
using ::rill::ops::SigmoidGrad;
using ::rill::ops::TanhGrad;
}  // namespace internal

}  // namespace rill::ops
