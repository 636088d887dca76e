// Keras-style layers. A layer makes its variables once (Build, when the model learns its
// input shape) and adds its ops each time it is called: once for training, once for
// inference, both sharing the variables.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rill/ops/scope.h"

namespace rill::keras {

class Layer {
 public:
  virtual ~Layer() = default;
  virtual std::string name() const = 0;
  // Makes the variables for inputs of `input_shape` (first dim: the batch, unknown).
  virtual absl::Status Build(const Scope& scope, const PartialTensorShape& input_shape,
                             uint64_t seed) {
    (void)scope, (void)input_shape, (void)seed;
    return absl::OkStatus();
  }
  // The layer's output for x; `training` turns on Dropout.
  virtual Output Call(const Scope& scope, const Output& x, bool training) = 0;
  // Output before the activation of the last Call, for losses computed from logits (else
  // x itself).
  Output logits() const { return logits_; }
  // The activation applied last ("linear" when none).
  virtual std::string activation() const { return "linear"; }
  const std::vector<Output>& variables() const { return variables_; }

 protected:
  // activation(y + bias) for Dense and Conv2D, as BiasAdd then the activation (the graph
  // optimizer fuses the pair, and its gradient, where a kernel does both).
  Output BiasThenActivation(const Scope& scope, const Output& y, const Output& bias,
                            const std::string& activation);

  Output logits_;
  std::vector<Output> variables_;
};

// "relu", "sigmoid", "tanh", "softmax", "linear" (or ""); anything else is InvalidArgument.
absl::Status CheckActivation(const std::string& name);
Output ApplyActivation(const Scope& scope, const Output& x, const std::string& name);

// y = activation(x W + b); W Glorot-uniform, b zeros; x is [batch, features].
class Dense : public Layer {
 public:
  explicit Dense(int64_t units, std::string activation = "linear", bool use_bias = true);
  std::string name() const override { return "dense"; }
  absl::Status Build(const Scope& scope, const PartialTensorShape& input_shape,
                     uint64_t seed) override;
  Output Call(const Scope& scope, const Output& x, bool training) override;
  std::string activation() const override { return activation_; }
  int64_t units() const { return units_; }

 private:
  int64_t units_;
  std::string activation_;
  bool use_bias_;
  Output kernel_, bias_;
};

// [batch, d1, d2, ...] -> [batch, d1 * d2 * ...]
class Flatten : public Layer {
 public:
  std::string name() const override { return "flatten"; }
  absl::Status Build(const Scope& scope, const PartialTensorShape& input_shape,
                     uint64_t seed) override;
  Output Call(const Scope& scope, const Output& x, bool training) override;

 private:
  int64_t features_ = -1;
};

// Zeroes a fraction `rate` of the inputs during training (scaling the rest by
// 1 / (1 - rate)); the identity at evaluation and prediction.
class Dropout : public Layer {
 public:
  explicit Dropout(double rate, int64_t seed = 0) : rate_(rate), seed_(seed) {}
  std::string name() const override { return "dropout"; }
  absl::Status Build(const Scope& scope, const PartialTensorShape& input_shape,
                     uint64_t seed) override;
  Output Call(const Scope& scope, const Output& x, bool training) override;

 private:
  double rate_;
  int64_t seed_;
};

// 2-D convolution over NHWC inputs: kernel [k, k, in_c, filters] (Glorot uniform), bias,
// strides, "same" or "valid" padding, then the activation.
class Conv2D : public Layer {
 public:
  Conv2D(int64_t filters, int64_t kernel_size, std::string activation = "linear",
         std::string padding = "valid", int64_t stride = 1);
  std::string name() const override { return "conv2d"; }
  absl::Status Build(const Scope& scope, const PartialTensorShape& input_shape,
                     uint64_t seed) override;
  Output Call(const Scope& scope, const Output& x, bool training) override;
  std::string activation() const override { return activation_; }

 private:
  int64_t filters_, kernel_size_, stride_;
  std::string activation_, padding_;
  Output kernel_, bias_;
};

// Max pooling over pool x pool windows (stride = pool unless given), "valid" or "same".
class MaxPool2D : public Layer {
 public:
  explicit MaxPool2D(int64_t pool = 2, int64_t stride = 0, std::string padding = "valid")
      : pool_(pool), stride_(stride > 0 ? stride : pool), padding_(std::move(padding)) {}
  std::string name() const override { return "max_pooling2d"; }
  absl::Status Build(const Scope& scope, const PartialTensorShape& input_shape,
                     uint64_t seed) override;
  Output Call(const Scope& scope, const Output& x, bool training) override;

 private:
  int64_t pool_, stride_;
  std::string padding_;
};

class Activation : public Layer {
 public:
  explicit Activation(std::string activation) : activation_(std::move(activation)) {}
  std::string name() const override { return "activation"; }
  absl::Status Build(const Scope& scope, const PartialTensorShape& input_shape,
                     uint64_t seed) override;
  Output Call(const Scope& scope, const Output& x, bool training) override;
  std::string activation() const override { return activation_; }

 private:
  std::string activation_;
};

}  // namespace rill::keras
