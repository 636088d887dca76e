// Random tensors from a counter-based generator (Philox-4x32-10): with seed or seed2 set,
// the same graph gives the same numbers in every Session and on every run sequence.
// With both 0 the generator is seeded from the clock, as in TensorFlow.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

struct RandomAttrs {
  RandomAttrs Seed(int64_t x) {
    RandomAttrs r = *this;
    r.seed_ = x;
    return r;
  }
  RandomAttrs Seed2(int64_t x) {
    RandomAttrs r = *this;
    r.seed2_ = x;
    return r;
  }
  int64_t seed_ = 0;
  int64_t seed2_ = 0;
};

#define RILL_DECLARE_RANDOM_OP(Name)                                                     \
  class Name : public OpWrapper {                                                        \
   public:                                                                               \
    using Attrs = RandomAttrs;                                                           \
    Name(const Scope& scope, Input shape, DataType dtype, const Attrs& attrs = Attrs()); \
    static Attrs Seed(int64_t x) { return Attrs().Seed(x); }                             \
    static Attrs Seed2(int64_t x) { return Attrs().Seed2(x); }                           \
  };
// Uniform in [0, 1).
RILL_DECLARE_RANDOM_OP(RandomUniform)
// Mean 0, standard deviation 1.
RILL_DECLARE_RANDOM_OP(RandomNormal)
// Normal, with values beyond two standard deviations drawn again.
RILL_DECLARE_RANDOM_OP(TruncatedNormal)
#undef RILL_DECLARE_RANDOM_OP

// Integers uniform in [minval, maxval) of minval's dtype (int32 or int64): minval < maxval
// unless the shape has no elements. Element i is Philox block i of the run's draw taken
// modulo the range, as in TensorFlow (for ranges far below 2^32 the bias is negligible).
// tf.random.shuffle: value's rows (along its first dim) in a random order, the same for
// every element of a row; a scalar comes back unchanged. Any dtype; CPU only; not
// differentiable, as TensorFlow's. The order is a Fisher-Yates shuffle whose i-th swap
// draws Philox block i of the run's draw, so seeds give the same order in every Session.
class RandomShuffle : public OpWrapper {
 public:
  using Attrs = RandomAttrs;
  RandomShuffle(const Scope& scope, Input value, const Attrs& attrs = Attrs());
  static Attrs Seed(int64_t x) { return Attrs().Seed(x); }
  static Attrs Seed2(int64_t x) { return Attrs().Seed2(x); }
};

class RandomUniformInt : public OpWrapper {
 public:
  using Attrs = RandomAttrs;
  RandomUniformInt(const Scope& scope, Input shape, Input minval, Input maxval,
                   const Attrs& attrs = Attrs());
  static Attrs Seed(int64_t x) { return Attrs().Seed(x); }
  static Attrs Seed2(int64_t x) { return Attrs().Seed2(x); }
};

// num_samples class ids per row of logits [batch, classes] (unnormalised log
// probabilities; tf.random.categorical): out [batch, num_samples], int64 unless
// OutputDtype says int32. Non-finite logits have probability 0, as in TensorFlow's CPU
// kernel; a row with no finite logit gives `classes` for each of its samples.
class Multinomial : public OpWrapper {
 public:
  struct Attrs {
    Attrs Seed(int64_t x) const {
      Attrs r = *this;
      r.seed_ = x;
      return r;
    }
    Attrs Seed2(int64_t x) const {
      Attrs r = *this;
      r.seed2_ = x;
      return r;
    }
    Attrs OutputDtype(DataType x) const {
      Attrs r = *this;
      r.output_dtype_ = x;
      return r;
    }
    int64_t seed_ = 0;
    int64_t seed2_ = 0;
    DataType output_dtype_ = DT_INT64;
  };
  Multinomial(const Scope& scope, Input logits, Input num_samples)
      : Multinomial(scope, logits, num_samples, Attrs()) {}
  Multinomial(const Scope& scope, Input logits, Input num_samples, const Attrs& attrs);
  static Attrs Seed(int64_t x) { return Attrs().Seed(x); }
  static Attrs Seed2(int64_t x) { return Attrs().Seed2(x); }
  static Attrs OutputDtype(DataType x) { return Attrs().OutputDtype(x); }
};

}  // namespace rill::ops
