// The layer fusions the graph optimizer's remapper makes (runtime/passes/remapper.cc),
// as TensorFlow names them: a MatMul or a Conv2D, its bias and its activation in one node;
// and the elementwise chains it fuses (runtime/passes/elementwise.cc).
// They are built by the optimizer from the plain ops; a program may build them itself
// (tests do), and they have gradients, so a graph with them still trains.
#pragma once

#include <string>

#include "rill/ops/conv_ops.h"
#include "rill/ops/math_ops.h"

namespace rill::ops {

// activation(op(a) op(b) + bias): MatMul's attrs, bias [columns of the product],
// `activation` TensorFlow's op name ("Relu", "Relu6", "Elu", "LeakyRelu", "Sigmoid",
// "Tanh"), or "" for the bias alone; the node's fused_ops is ["BiasAdd", activation].
class FusedMatMul : public OpWrapper {
 public:
  FusedMatMul(const Scope& scope, Input a, Input b, Input bias, const std::string& activation,
              const MatMul::Attrs& attrs = {}, float leakyrelu_alpha = 0.2f);
};

// activation(Conv2D(input, filter) + bias): Conv2D's strides and padding (NHWC), bias
// [out channels], `activation` as FusedMatMul's. The op also takes TensorFlow's
// ["FusedBatchNorm", activation] with four arguments (built with its attrs, as
// TensorFlow's tests do).
class FusedConv2D : public OpWrapper {
 public:
  FusedConv2D(const Scope& scope, Input input, Input filter, Input bias, const IntList& strides,
              const std::string& padding, const std::string& activation,
              float leakyrelu_alpha = 0.2f);
};

// A chain of elementwise ops in one pass (core/fused_elementwise.h): `program` is three
// integers per step over the registers `inputs` start; made by the graph optimizer, and by
// tests.
class FusedElementwise : public OpWrapper {
 public:
  FusedElementwise(const Scope& scope, InputList inputs, const std::vector<int64_t>& program);
};

// A convolution whose output an elementwise program finishes (the optimizer's
// runtime/passes/conv_epilogue.cc): register 0 of `program` is Conv2D(input, filter) (or,
// `depthwise`, DepthwiseConv2dNative's), registers 1.. the `operands`, which broadcast
// into the convolution's output without growing it. Strides and padding as the base op's.
class FusedConvElementwise : public OpWrapper {
 public:
  FusedConvElementwise(const Scope& scope, Input input, Input filter, InputList operands,
                       const std::vector<int64_t>& program, const IntList& strides,
                       const std::string& padding, bool depthwise = false);
};

// TensorFlow's _UnaryOpsComposition: op_names' unary ops applied in order to each element
// of x (float or double), in one pass over memory; the ops core/unary_composition.h lists.
// Made by TensorFlow's remapper; rill's optimizer fuses such chains itself, so this is for
// graphs and tests that hold the op. Not differentiable (nor is TensorFlow's).
class UnaryOpsComposition : public OpWrapper {
 public:
  UnaryOpsComposition(const Scope& scope, Input x, const std::vector<std::string>& op_names);
};

}  // namespace rill::ops
