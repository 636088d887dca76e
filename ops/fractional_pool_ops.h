// FractionalMaxPool and FractionalAvgPool with TensorFlow's C++ names, attributes and
// outputs (core/fractional_pool.h describes the regions), and their gradient ops
// internal::FractionalMaxPoolGrad and internal::FractionalAvgPoolGrad. NHWC, CPU only (as
// TensorFlow's). pooling_ratio: 4 values, 1 for the batch and the channels, >= 1 for the
// rows and columns. The regions are drawn at random on every run unless `deterministic`,
// which cuts the same regions on every run of a plan: from seed and seed2 when set, else
// from seeds drawn once; seed and seed2 must stay 0 when not deterministic (TensorFlow's
// rule). A max region of NaNs pools to the type's lowest value, as TensorFlow's.
#pragma once

#include <vector>

#include "rill/ops/op_builder.h"

namespace rill::ops {

struct FractionalPoolAttrs {
  FractionalPoolAttrs PseudoRandom(bool x) {
    FractionalPoolAttrs r = *this;
    r.pseudo_random_ = x;
    return r;
  }
  FractionalPoolAttrs Overlapping(bool x) {
    FractionalPoolAttrs r = *this;
    r.overlapping_ = x;
    return r;
  }
  FractionalPoolAttrs Deterministic(bool x) {
    FractionalPoolAttrs r = *this;
    r.deterministic_ = x;
    return r;
  }
  FractionalPoolAttrs Seed(int64_t x) {
    FractionalPoolAttrs r = *this;
    r.seed_ = x;
    return r;
  }
  FractionalPoolAttrs Seed2(int64_t x) {
    FractionalPoolAttrs r = *this;
    r.seed2_ = x;
    return r;
  }
  bool pseudo_random_ = false;
  bool overlapping_ = false;
  bool deterministic_ = false;
  int64_t seed_ = 0;
  int64_t seed2_ = 0;
};

#define RILL_DECLARE_FRACTIONAL_POOL(Name)                                            \
  class Name {                                                                        \
   public:                                                                            \
    using Attrs = FractionalPoolAttrs;                                                \
    Name(const Scope& scope, Input value, const std::vector<float>& pooling_ratio,    \
         const Attrs& attrs = Attrs());                                               \
    static Attrs PseudoRandom(bool x) { return Attrs().PseudoRandom(x); }             \
    static Attrs Overlapping(bool x) { return Attrs().Overlapping(x); }               \
    static Attrs Deterministic(bool x) { return Attrs().Deterministic(x); }           \
    static Attrs Seed(int64_t x) { return Attrs().Seed(x); }                          \
    static Attrs Seed2(int64_t x) { return Attrs().Seed2(x); }                        \
    Operation operation;                                                              \
    Output output, row_pooling_sequence, col_pooling_sequence; /* sequences: int64 */ \
  };
RILL_DECLARE_FRACTIONAL_POOL(FractionalMaxPool)
RILL_DECLARE_FRACTIONAL_POOL(FractionalAvgPool)
#undef RILL_DECLARE_FRACTIONAL_POOL

namespace internal {
struct FractionalPoolGradAttrs {
  FractionalPoolGradAttrs Overlapping(bool x) {
    FractionalPoolGradAttrs r = *this;
    r.overlapping_ = x;
    return r;
  }
  bool overlapping_ = false;
};
// The gradient goes to the first maximal element of each region (regions that overlap
// add theirs); orig_output is checked for its shape.
class FractionalMaxPoolGrad : public OpWrapper {
 public:
  using Attrs = FractionalPoolGradAttrs;
  FractionalMaxPoolGrad(const Scope& scope, Input orig_input, Input orig_output, Input out_backprop,
                        Input row_pooling_sequence, Input col_pooling_sequence,
                        const Attrs& attrs = Attrs());
  static Attrs Overlapping(bool x) { return Attrs().Overlapping(x); }
};
// orig_input_tensor_shape: the 4 dims of the pooled input (int64). Each region's gradient
// is shared evenly among its elements.
class FractionalAvgPoolGrad : public OpWrapper {
 public:
  using Attrs = FractionalPoolGradAttrs;
  FractionalAvgPoolGrad(const Scope& scope, Input orig_input_tensor_shape, Input out_backprop,
                        Input row_pooling_sequence, Input col_pooling_sequence,
                        const Attrs& attrs = Attrs());
  static Attrs Overlapping(bool x) { return Attrs().Overlapping(x); }
};
}  // namespace internal

}  // namespace rill::ops
