// FusedBatchNorm, V2 and V3 and their gradient ops with TensorFlow's C++ names, attrs and
// outputs (V1 and V2 have V3's but reserve_space_3; V1 is float throughout).
// Training normalizes x by its batch's per-channel mean and variance; inference by the
// given mean and variance. rill's reserve_space_1 and _2 are the mean and (biased)
// variance y was normalized with on every device (TensorFlow's GPU keeps an inverse
// standard deviation there), reserve_space_3 a scalar 0; T and U are float or double and
// equal (TensorFlow's half and bfloat16 x are not rill dtypes).
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

class FusedBatchNormV3 {
 public:
  struct Attrs {
    Attrs Epsilon(float x) {
      Attrs r = *this;
      r.epsilon_ = x;
      return r;
    }
    Attrs ExponentialAvgFactor(float x) {
      Attrs r = *this;
      r.exponential_avg_factor_ = x;
      return r;
    }
    Attrs DataFormat(const std::string& x) {
      Attrs r = *this;
      r.data_format_ = x;
      return r;
    }
    Attrs IsTraining(bool x) {
      Attrs r = *this;
      r.is_training_ = x;
      return r;
    }
    float epsilon_ = 0.0001f;
    float exponential_avg_factor_ = 1.0f;
    std::string data_format_ = "NHWC";
    bool is_training_ = true;
  };
  FusedBatchNormV3(const Scope& scope, Input x, Input scale, Input offset, Input mean,
                   Input variance)
      : FusedBatchNormV3(scope, x, scale, offset, mean, variance, Attrs()) {}
  FusedBatchNormV3(const Scope& scope, Input x, Input scale, Input offset, Input mean,
                   Input variance, const Attrs& attrs);
  static Attrs Epsilon(float x) { return Attrs().Epsilon(x); }
  static Attrs ExponentialAvgFactor(float x) { return Attrs().ExponentialAvgFactor(x); }
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
  static Attrs IsTraining(bool x) { return Attrs().IsTraining(x); }

  Operation operation;
  Output y, batch_mean, batch_variance, reserve_space_1, reserve_space_2, reserve_space_3;
};

class FusedBatchNormGradV3 {
 public:
  struct Attrs {
    Attrs Epsilon(float x) {
      Attrs r = *this;
      r.epsilon_ = x;
      return r;
    }
    Attrs DataFormat(const std::string& x) {
      Attrs r = *this;
      r.data_format_ = x;
      return r;
    }
    Attrs IsTraining(bool x) {
      Attrs r = *this;
      r.is_training_ = x;
      return r;
    }
    float epsilon_ = 0.0001f;
    std::string data_format_ = "NHWC";
    bool is_training_ = true;
  };
  FusedBatchNormGradV3(const Scope& scope, Input y_backprop, Input x, Input scale,
                       Input reserve_space_1, Input reserve_space_2, Input reserve_space_3)
      : FusedBatchNormGradV3(scope, y_backprop, x, scale, reserve_space_1, reserve_space_2,
                             reserve_space_3, Attrs()) {}
  FusedBatchNormGradV3(const Scope& scope, Input y_backprop, Input x, Input scale,
                       Input reserve_space_1, Input reserve_space_2, Input reserve_space_3,
                       const Attrs& attrs);
  static Attrs Epsilon(float x) { return Attrs().Epsilon(x); }
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
  static Attrs IsTraining(bool x) { return Attrs().IsTraining(x); }

  Operation operation;
  Output x_backprop, scale_backprop, offset_backprop, reserve_space_4, reserve_space_5;
};

namespace internal {

// FusedBatchNorm and FusedBatchNormV2: V3's inputs and attrs, its outputs but the last.
class FusedBatchNormV1V2 {
 public:
  using Attrs = FusedBatchNormV3::Attrs;
  FusedBatchNormV1V2(const char* op, const Scope& scope, Input x, Input scale, Input offset,
                     Input mean, Input variance, const Attrs& attrs);
  static Attrs Epsilon(float x) { return Attrs().Epsilon(x); }
  static Attrs ExponentialAvgFactor(float x) { return Attrs().ExponentialAvgFactor(x); }
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
  static Attrs IsTraining(bool x) { return Attrs().IsTraining(x); }
  Operation operation;
  Output y, batch_mean, batch_variance, reserve_space_1, reserve_space_2;
};

// FusedBatchNormGrad and FusedBatchNormGradV2: V3's without its reserve_space_3 input.
class FusedBatchNormGradV1V2 {
 public:
  using Attrs = FusedBatchNormGradV3::Attrs;
  FusedBatchNormGradV1V2(const char* op, const Scope& scope, Input y_backprop, Input x, Input scale,
                         Input reserve_space_1, Input reserve_space_2, const Attrs& attrs);
  static Attrs Epsilon(float x) { return Attrs().Epsilon(x); }
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
  static Attrs IsTraining(bool x) { return Attrs().IsTraining(x); }
  Operation operation;
  Output x_backprop, scale_backprop, offset_backprop, reserve_space_3, reserve_space_4;
};

}  // namespace internal

class FusedBatchNorm : public internal::FusedBatchNormV1V2 {
 public:
  FusedBatchNorm(const Scope& scope, Input x, Input scale, Input offset, Input mean, Input variance,
                 const Attrs& attrs = Attrs())
      : FusedBatchNormV1V2("FusedBatchNorm", scope, x, scale, offset, mean, variance, attrs) {}
};

class FusedBatchNormV2 : public internal::FusedBatchNormV1V2 {
 public:
  FusedBatchNormV2(const Scope& scope, Input x, Input scale, Input offset, Input mean,
                   Input variance, const Attrs& attrs = Attrs())
      : FusedBatchNormV1V2("FusedBatchNormV2", scope, x, scale, offset, mean, variance, attrs) {}
};

class FusedBatchNormGrad : public internal::FusedBatchNormGradV1V2 {
 public:
  FusedBatchNormGrad(const Scope& scope, Input y_backprop, Input x, Input scale,
                     Input reserve_space_1, Input reserve_space_2, const Attrs& attrs = Attrs())
      : FusedBatchNormGradV1V2("FusedBatchNormGrad", scope, y_backprop, x, scale, reserve_space_1,
                               reserve_space_2, attrs) {}
};

class FusedBatchNormGradV2 : public internal::FusedBatchNormGradV1V2 {
 public:
  FusedBatchNormGradV2(const Scope& scope, Input y_backprop, Input x, Input scale,
                       Input reserve_space_1, Input reserve_space_2, const Attrs& attrs = Attrs())
      : FusedBatchNormGradV1V2("FusedBatchNormGradV2", scope, y_backprop, x, scale, reserve_space_1,
                               reserve_space_2, attrs) {}
};

}  // namespace rill::ops
