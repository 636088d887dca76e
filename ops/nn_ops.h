// Neural-network activations.
#pragma once

#include "rill/ops/activation_ops.h"
// TensorFlow's nn_ops.h declares TopK and FusedBatchNormV3.
#include "rill/ops/batch_norm_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/topk_ops.h"

namespace rill::ops {

RILL_DECLARE_UNARY_OP(Relu)
RILL_DECLARE_UNARY_OP(Sigmoid)
RILL_DECLARE_UNARY_OP(Tanh)
// Softmax and LogSoftmax over the last dimension (rank >= 1).
RILL_DECLARE_UNARY_OP(Softmax)
RILL_DECLARE_UNARY_OP(LogSoftmax)
// sum(t^2) / 2: a scalar (weight decay's term).
RILL_DECLARE_UNARY_OP(L2Loss)

// Inverted dropout: each element is kept with probability 1 - rate and scaled by
// 1 / (1 - rate), else zeroed. Outputs the result and the mask it used (0 or 1/(1-rate)),
// which is also its gradient's factor. Counter-based random numbers: with Seed or Seed2 set,
// the same sequence of masks in every new Session. In a model, use it only for training.
class Dropout {
 public:
  struct Attrs {
    Attrs Seed(int64_t x) {
      Attrs r = *this;
      r.seed_ = x;
      return r;
    }
    Attrs Seed2(int64_t x) {
      Attrs r = *this;
      r.seed2_ = x;
      return r;
    }
    int64_t seed_ = 0;
    int64_t seed2_ = 0;
  };
  Dropout(const Scope& scope, Input x, float rate) : Dropout(scope, x, rate, Attrs()) {}
  Dropout(const Scope& scope, Input x, float rate, const Attrs& attrs);
  static Attrs Seed(int64_t x) { return Attrs().Seed(x); }
  operator Output() const { return output; }        // NOLINT
  operator Input() const { return Input(output); }  // NOLINT
  Operation operation;
  Output output, mask;
};

// Cross entropy of softmax(features) against label distributions, per row: features and
// labels are [batch, classes]; loss is [batch] and backprop (softmax - labels) the
// gradient of loss with respect to features. Stable for any logits.
class SoftmaxCrossEntropyWithLogits {
 public:
  SoftmaxCrossEntropyWithLogits(const Scope& scope, Input features, Input labels);
  Operation operation;
  Output loss, backprop;
};

// The same with integer class labels [batch] in [0, classes); a label out of range is
// InvalidArgument at run time.
class SparseSoftmaxCrossEntropyWithLogits {
 public:
  SparseSoftmaxCrossEntropyWithLogits(const Scope& scope, Input features, Input labels);
  Operation operation;
  Output loss, backprop;
};

// Keras's categorical cross-entropy of probabilities (an output that is not a softmax),
// fused: per row, q = output / sum(output), clipped to [epsilon, 1 - epsilon], and
// loss = -sum(labels * log q); backprop is the gradient of loss with respect to output
// (zero through the clipped entries, as clip_by_value's). One node and one kernel where
// the composed graph and its gradient take about forty.
class CategoricalCrossentropy {
 public:
  CategoricalCrossentropy(const Scope& scope, Input output, Input labels, float epsilon = 1e-7f);
  Operation operation;
  Output loss, backprop;
};

// Keras's accuracy metrics in one node: the fraction of examples (a float32 scalar; NaN
// for none) whose prediction matches the label. kind "categorical": output and labels
// [batch, classes], a hit where their ArgMax agree; "sparse_categorical": labels are
// class ids (int32 or int64, one per row, any shape); "binary": every element of output
// an example, predicted 1 where output > 0.5, else 0, against a label of the same count.
// What ArgMax, Equal, Cast and Mean compute, in one kernel instead of five.
class Accuracy : public OpWrapper {
 public:
  Accuracy(const Scope& scope, Input output, Input labels, const std::string& kind);
};

// Elementwise logistic loss of logits against labels in [0, 1] (same shapes):
// max(x, 0) - x * z + log(1 + exp(-|x|)), stable for any x.
class SigmoidCrossEntropyWithLogits : public OpWrapper {
 public:
  SigmoidCrossEntropyWithLogits(const Scope& scope, Input logits, Input labels);
};

// Keras's Dense and Conv2D end, fused: activation(value + bias), the bias along the last
// dim, activation "relu", "sigmoid" or "tanh" (rank >= 1). One node and one kernel where
// BiasAdd and the activation take two; its gradient is one BiasActivationGrad.
class BiasActivation : public OpWrapper {
 public:
  BiasActivation(const Scope& scope, Input value, Input bias, const std::string& activation);
};

// The gradient of BiasActivation from its output y and the gradient dy of y: backprops
// (dy times the activation's derivative, read off y) and bias_backprop (backprops summed
// over every dim but the last), in one pass.
class BiasActivationGrad {
 public:
  BiasActivationGrad(const Scope& scope, Input gradients, Input outputs,
                     const std::string& activation);
  Operation operation;
  Output backprops, bias_backprop;
};

// Local response normalization across the depth of a 4-D [batch, height, width, depth]
// input: y_d = x_d / (bias + alpha * sum of x_j^2 for |j - d| <= depth_radius)^beta
// (ops/lrn_ops.cc). TensorFlow's defaults: radius 5, bias 1, alpha 1, beta 0.5.
class LRN : public OpWrapper {
 public:
  struct Attrs {
    Attrs DepthRadius(int64_t x) {
      Attrs r = *this;
      r.depth_radius_ = x;
      return r;
    }
    Attrs Bias(float x) {
      Attrs r = *this;
      r.bias_ = x;
      return r;
    }
    Attrs Alpha(float x) {
      Attrs r = *this;
      r.alpha_ = x;
      return r;
    }
    Attrs Beta(float x) {
      Attrs r = *this;
      r.beta_ = x;
      return r;
    }
    int64_t depth_radius_ = 5;
    float bias_ = 1, alpha_ = 1, beta_ = 0.5f;
  };
  LRN(const Scope& scope, Input input) : LRN(scope, input, Attrs()) {}
  LRN(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs DepthRadius(int64_t x) { return Attrs().DepthRadius(x); }
  static Attrs Bias(float x) { return Attrs().Bias(x); }
  static Attrs Alpha(float x) { return Attrs().Alpha(x); }
  static Attrs Beta(float x) { return Attrs().Beta(x); }
};

// tf.nn.isotonic_regression: each row of the last dim fitted by the nearest non-increasing
// sequence (core/isotonic.h); `output` in OutputDtype (float by default, or double),
// `segments` int32 numbers each element's block in its row. Differentiable in input
// through internal::IsotonicRegressionGrad.
class IsotonicRegression {
 public:
  struct Attrs {
    Attrs OutputDtype(DataType x) {
      Attrs r = *this;
      r.output_dtype_ = x;
      return r;
    }
    DataType output_dtype_ = DT_FLOAT;
  };
  IsotonicRegression(const Scope& scope, Input input) : IsotonicRegression(scope, input, Attrs()) {}
  IsotonicRegression(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs OutputDtype(DataType x) { return Attrs().OutputDtype(x); }
  Operation operation;
  Output output, segments;
};

namespace internal {
// IsotonicRegression's gradient: each gradient replaced by the mean of its segment's.
class IsotonicRegressionGrad : public OpWrapper {
 public:
  IsotonicRegressionGrad(const Scope& scope, Input grads, Input segments);
};

// LRN's gradient at input_image (output_image is LRN's output, checked for its shape).
class LRNGrad : public OpWrapper {
 public:
  LRNGrad(const Scope& scope, Input input_grads, Input input_image, Input output_image,
          const LRN::Attrs& attrs = LRN::Attrs());
};
}  // namespace internal

}  // namespace rill::ops
