// TensorFlow's fake quantization ops, with its C++ names, arguments and attrs
// (core/fake_quant.h has the rule): FakeQuantWithMinMaxArgs (the range as attrs),
// FakeQuantWithMinMaxVars (scalar min and max tensors, so that training moves them) and
// FakeQuantWithMinMaxVarsPerChannel (one min and max per channel of the last dim), each
// with its gradient op. Float only, as TensorFlow's; CPU kernels.
#pragma once

#include "rill/ops/op_builder.h"
#include "rill/ops/piece_ops.h"

namespace rill::ops {

struct FakeQuantAttrs {
  FakeQuantAttrs Min(float x) {
    FakeQuantAttrs r = *this;
    r.min_ = x;
    return r;
  }
  FakeQuantAttrs Max(float x) {
    FakeQuantAttrs r = *this;
    r.max_ = x;
    return r;
  }
  FakeQuantAttrs NumBits(int64_t x) {
    FakeQuantAttrs r = *this;
    r.num_bits_ = x;
    return r;
  }
  FakeQuantAttrs NarrowRange(bool x) {
    FakeQuantAttrs r = *this;
    r.narrow_range_ = x;
    return r;
  }
  float min_ = -6, max_ = 6;  // the Args ops only
  int64_t num_bits_ = 8;
  bool narrow_range_ = false;
};

#define RILL_FAKE_QUANT_ATTR_SETTERS                             \
  using Attrs = FakeQuantAttrs;                                  \
  static Attrs NumBits(int64_t x) { return Attrs().NumBits(x); } \
  static Attrs NarrowRange(bool x) { return Attrs().NarrowRange(x); }

class FakeQuantWithMinMaxArgs : public OpWrapper {
 public:
  RILL_FAKE_QUANT_ATTR_SETTERS
  static Attrs Min(float x) { return Attrs().Min(x); }
  static Attrs Max(float x) { return Attrs().Max(x); }
  FakeQuantWithMinMaxArgs(const Scope& scope, Input inputs, const Attrs& attrs = Attrs());
};
// gradients where inputs lie inside the nudged range, else 0.
class FakeQuantWithMinMaxArgsGradient : public OpWrapper {
 public:
  RILL_FAKE_QUANT_ATTR_SETTERS
  static Attrs Min(float x) { return Attrs().Min(x); }
  static Attrs Max(float x) { return Attrs().Max(x); }
  FakeQuantWithMinMaxArgsGradient(const Scope& scope, Input gradients, Input inputs,
                                  const Attrs& attrs = Attrs());
};
class FakeQuantWithMinMaxVars : public OpWrapper {
 public:
  RILL_FAKE_QUANT_ATTR_SETTERS
  FakeQuantWithMinMaxVars(const Scope& scope, Input inputs, Input min, Input max,
                          const Attrs& attrs = Attrs());
};
class FakeQuantWithMinMaxVarsPerChannel : public OpWrapper {
 public:
  RILL_FAKE_QUANT_ATTR_SETTERS
  FakeQuantWithMinMaxVarsPerChannel(const Scope& scope, Input inputs, Input min, Input max,
                                    const Attrs& attrs = Attrs());
};
// The Vars ops' gradients: [0] for inputs (gradients inside the nudged range), [1] for min
// (the sum of those below it), [2] for max (the sum of those above), per channel for the
// per-channel op.
class FakeQuantWithMinMaxVarsGradient : public MultiOutputWrapper {
 public:
  RILL_FAKE_QUANT_ATTR_SETTERS
  FakeQuantWithMinMaxVarsGradient(const Scope& scope, Input gradients, Input inputs, Input min,
                                  Input max, const Attrs& attrs = Attrs());
};
class FakeQuantWithMinMaxVarsPerChannelGradient : public MultiOutputWrapper {
 public:
  RILL_FAKE_QUANT_ATTR_SETTERS
  FakeQuantWithMinMaxVarsPerChannelGradient(const Scope& scope, Input gradients, Input inputs,
                                            Input min, Input max, const Attrs& attrs = Attrs());
};
#undef RILL_FAKE_QUANT_ATTR_SETTERS

}  // namespace rill::ops
