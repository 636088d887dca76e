#include "rill/runtime/keras/layers.h"

#include <cmath>
#include <limits>
#include <random>

#include "rill/core/checked_math.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/conv_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/nn_ops.h"
#include "rill/ops/random_ops.h"
#include "rill/ops/state_ops.h"

namespace rill::keras {

absl::Status CheckActivation(const std::string& a) {
  if (a.empty() || a == "linear" || a == "relu" || a == "sigmoid" || a == "tanh" ||
      a == "softmax") {
    return absl::OkStatus();
  }
  return errors::InvalidArgument("unknown activation '", a,
                                 "'; use relu, sigmoid, tanh, softmax or linear");
}

Output ApplyActivation(const Scope& s, const Output& x, const std::string& a) {
  if (a == "relu") return ops::Relu(s, x);
  if (a == "sigmoid") return ops::Sigmoid(s, x);
  if (a == "tanh") return ops::Tanh(s, x);
  if (a == "softmax") return ops::Softmax(s, x);
  return x;
}

Output Layer::BiasThenActivation(const Scope& s, const Output& y, const Output& bias,
                                 const std::string& a) {
  logits_ = ops::BiasAdd(s, y, bias);
  return ApplyActivation(s, logits_, a);
}

namespace {
// Glorot uniform over `shape` with fans (fan_in, fan_out), from `seed`. A shape too
// large for memory (Dense(2^40)) is ResourceExhausted, not a write through null.
absl::StatusOr<Tensor> GlorotUniform(const TensorShape& shape, int64_t fan_in, int64_t fan_out,
                                     uint64_t seed) {
  RILL_ASSIGN_OR_RETURN(Tensor w, Tensor::Create(DT_FLOAT, shape));
  const double fans = static_cast<double>(fan_in) + static_cast<double>(fan_out);
  const float limit = static_cast<float>(std::sqrt(6.0 / fans));
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> u(-limit, limit);
  for (int64_t i = 0; i < w.NumElements(); ++i) w.base<float>()[i] = u(gen);
  return w;
}

absl::StatusOr<Tensor> Zeros(int64_t n) {
  RILL_ASSIGN_OR_RETURN(Tensor b, Tensor::Create(DT_FLOAT, TensorShape({n})));
  b.flat<float>().setZero();
  return b;
}

absl::StatusOr<std::string> KerasPadding(const std::string& p) {
  if (p == "valid" || p == "VALID") return std::string("VALID");
  if (p == "same" || p == "SAME") return std::string("SAME");
  return errors::InvalidArgument("padding must be 'valid' or 'same', got '", p, "'");
}

absl::Status NeedsNhwc(const PartialTensorShape& in, const char* layer) {
  if (in.unknown_rank() || in.dims() != 4 || in.dim_size(3) < 0) {
    return errors::InvalidArgument(layer,
                                   " expects inputs [batch, height, width, channels] "
                                   "with channels known, got ",
                                   in.DebugString());
  }
  return absl::OkStatus();
}
}  // namespace

Dense::Dense(int64_t units, std::string activation, bool use_bias)
    : units_(units), activation_(std::move(activation)), use_bias_(use_bias) {}

absl::Status Dense::Build(const Scope& s, const PartialTensorShape& in, uint64_t seed) {
  RILL_RETURN_IF_ERROR(CheckActivation(activation_));
  if (units_ < 1) return errors::InvalidArgument("Dense needs units >= 1, got ", units_);
  if (in.unknown_rank() || in.dims() != 2 || in.dim_size(1) < 0) {
    return errors::InvalidArgument(
        "Dense expects inputs [batch, features] with features known, "
        "got ",
        in.DebugString(), " (add a Flatten layer first?)");
  }
  const int64_t fan_in = in.dim_size(1);
  RILL_ASSIGN_OR_RETURN(Tensor w,
                        GlorotUniform(TensorShape({fan_in, units_}), fan_in, units_, seed));
  kernel_ = ops::Variable(s.WithOpName("kernel"), w);
  variables_ = {kernel_};
  if (use_bias_) {
    RILL_ASSIGN_OR_RETURN(Tensor b, Zeros(units_));
    bias_ = ops::Variable(s.WithOpName("bias"), b);
    variables_.push_back(bias_);
  }
  return s.status();
}

Output Dense::Call(const Scope& s, const Output& x, bool) {
  Output y = ops::MatMul(s, x, kernel_);
  if (use_bias_) return BiasThenActivation(s, y, bias_, activation_);
  logits_ = y;
  return ApplyActivation(s, y, activation_);
}

Conv2D::Conv2D(int64_t filters, int64_t kernel_size, std::string activation, std::string padding,
               int64_t stride)
    : filters_(filters),
      kernel_size_(kernel_size),
      stride_(stride),
      activation_(std::move(activation)),
      padding_(std::move(padding)) {}

absl::Status Conv2D::Build(const Scope& s, const PartialTensorShape& in, uint64_t seed) {
  RILL_RETURN_IF_ERROR(CheckActivation(activation_));
  RILL_ASSIGN_OR_RETURN(padding_, KerasPadding(padding_));
  RILL_RETURN_IF_ERROR(NeedsNhwc(in, "Conv2D"));
  if (filters_ < 1 || kernel_size_ < 1 || stride_ < 1) {
    return errors::InvalidArgument("Conv2D needs filters, kernel_size and stride >= 1, got ",
                                   filters_, ", ", kernel_size_, ", ", stride_);
  }
  const int64_t c = in.dim_size(3), k = kernel_size_;
  // The fans only scale the initializer; a shape this large is refused by Create below.
  const int64_t kk = checked::Mul(k, k).value_or(INT64_MAX);
  RILL_ASSIGN_OR_RETURN(
      Tensor w,
      GlorotUniform(TensorShape({k, k, c, filters_}), checked::Mul(kk, c).value_or(INT64_MAX),
                    checked::Mul(kk, filters_).value_or(INT64_MAX), seed));
  kernel_ = ops::Variable(s.WithOpName("kernel"), w);
  RILL_ASSIGN_OR_RETURN(Tensor b, Zeros(filters_));
  bias_ = ops::Variable(s.WithOpName("bias"), b);
  variables_ = {kernel_, bias_};
  return s.status();
}

Output Conv2D::Call(const Scope& s, const Output& x, bool) {
  Output y = ops::Conv2D(s, x, kernel_, {1, stride_, stride_, 1}, padding_);
  return BiasThenActivation(s, y, bias_, activation_);
}

absl::Status MaxPool2D::Build(const Scope&, const PartialTensorShape& in, uint64_t) {
  RILL_ASSIGN_OR_RETURN(padding_, KerasPadding(padding_));
  RILL_RETURN_IF_ERROR(NeedsNhwc(in, "MaxPool2D"));
  if (pool_ < 1 || stride_ < 1) {
    return errors::InvalidArgument("MaxPool2D needs pool and stride >= 1, got ", pool_, ", ",
                                   stride_);
  }
  return absl::OkStatus();
}

Output MaxPool2D::Call(const Scope& s, const Output& x, bool) {
  logits_ = ops::MaxPool(s, x, {1, pool_, pool_, 1}, {1, stride_, stride_, 1}, padding_);
  return logits_;
}

absl::Status Flatten::Build(const Scope&, const PartialTensorShape& in, uint64_t) {
  if (in.unknown_rank() || in.dims() < 1) {
    return errors::InvalidArgument("Flatten needs inputs of known rank >= 1, got ",
                                   in.DebugString());
  }
  features_ = 1;
  for (int d = 1; d < in.dims(); ++d) {
    if (in.dim_size(d) < 0) {
      return errors::InvalidArgument("Flatten needs every dim but the first known, got ",
                                     in.DebugString());
    }
    features_ *= in.dim_size(d);
  }
  return absl::OkStatus();
}

Output Flatten::Call(const Scope& s, const Output& x, bool) {
  // An int32 shape, as TensorFlow's: on a GPU it stays in host memory, where Reshape reads it.
  logits_ = features_ <= std::numeric_limits<int32_t>::max()
                ? ops::Reshape(s, x, {-1, static_cast<int32_t>(features_)})
                : ops::Reshape(s, x, {int64_t{-1}, features_});
  return logits_;
}

absl::Status Dropout::Build(const Scope&, const PartialTensorShape&, uint64_t seed) {
  if (!(rate_ >= 0 && rate_ < 1)) {
    return errors::InvalidArgument("Dropout rate must be in [0, 1), got ", rate_);
  }
  if (seed_ == 0) seed_ = static_cast<int64_t>(seed & 0x7fffffffffffffff);
  return absl::OkStatus();
}

Output Dropout::Call(const Scope& s, const Output& x, bool training) {
  logits_ = x;
  if (!training || rate_ == 0) return x;
  return ops::Dropout(s, x, static_cast<float>(rate_), ops::Dropout::Seed(seed_)).output;
}

absl::Status Activation::Build(const Scope&, const PartialTensorShape&, uint64_t) {
  return CheckActivation(activation_);
}

Output Activation::Call(const Scope& s, const Output& x, bool) {
  logits_ = x;
  return ApplyActivation(s, x, activation_);
}

}  // namespace rill::keras
