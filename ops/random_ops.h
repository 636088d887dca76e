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

}  // namespace rill::ops
