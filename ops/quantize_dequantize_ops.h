// TensorFlow's QuantizeAndDequantizeV2, V3 and V4 and V4's gradient op, with its C++ names,
// arguments and attrs (core/quantize_dequantize.h has the rule). Float and double; CPU
// kernels (on a GPU placement they run on the CPU).
//   QuantizeAndDequantizeV2(input, input_min, input_max, Attrs): attrs SignedInput (true),
//     NumBits (8), RangeGiven (false: the input's own range), RoundMode ("HALF_TO_EVEN" or
//     "HALF_UP"), NarrowRange (false), Axis (-1: one range; else one per slice of that dim,
//     input_min and input_max then vectors). Its gradient passes straight through.
//   QuantizeAndDequantizeV3(input, input_min, input_max, num_bits, Attrs): num_bits an int32
//     scalar tensor, RangeGiven true by default, always half to even.
//   QuantizeAndDequantizeV4: V2's arguments; its gradient is QuantizeAndDequantizeV4Grad,
//     which passes where input_min <= input <= input_max (zeros for the range).
#pragma once

#include <optional>
#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

// Only the attrs set are given to the node; the op's defaults fill in the rest (V3's
// RangeGiven is true by default, V2's and V4's false).
struct QuantizeAndDequantizeAttrs {
#define RILL_QDQ_SETTER(Name, field, type)        \
  QuantizeAndDequantizeAttrs Name(type x) const { \
    QuantizeAndDequantizeAttrs r = *this;         \
    r.field = x;                                  \
    return r;                                     \
  }
  RILL_QDQ_SETTER(SignedInput, signed_input_, bool)
  RILL_QDQ_SETTER(NumBits, num_bits_, int64_t)
  RILL_QDQ_SETTER(RangeGiven, range_given_, bool)
  RILL_QDQ_SETTER(RoundMode, round_mode_, std::string)
  RILL_QDQ_SETTER(NarrowRange, narrow_range_, bool)
  RILL_QDQ_SETTER(Axis, axis_, int64_t)
#undef RILL_QDQ_SETTER
  std::optional<bool> signed_input_, range_given_, narrow_range_;
  std::optional<int64_t> num_bits_, axis_;
  std::optional<std::string> round_mode_;
};

#define RILL_QDQ_STATIC_SETTERS                                       \
  using Attrs = QuantizeAndDequantizeAttrs;                           \
  static Attrs SignedInput(bool x) { return Attrs().SignedInput(x); } \
  static Attrs RangeGiven(bool x) { return Attrs().RangeGiven(x); }   \
  static Attrs NarrowRange(bool x) { return Attrs().NarrowRange(x); } \
  static Attrs Axis(int64_t x) { return Attrs().Axis(x); }

class QuantizeAndDequantizeV2 : public OpWrapper {
 public:
  RILL_QDQ_STATIC_SETTERS
  static Attrs NumBits(int64_t x) { return Attrs().NumBits(x); }
  static Attrs RoundMode(std::string x) { return Attrs().RoundMode(std::move(x)); }
  QuantizeAndDequantizeV2(const Scope& scope, Input input, Input input_min, Input input_max,
                          const Attrs& attrs = Attrs());
};
class QuantizeAndDequantizeV4 : public OpWrapper {
 public:
  RILL_QDQ_STATIC_SETTERS
  static Attrs NumBits(int64_t x) { return Attrs().NumBits(x); }
  static Attrs RoundMode(std::string x) { return Attrs().RoundMode(std::move(x)); }
  QuantizeAndDequantizeV4(const Scope& scope, Input input, Input input_min, Input input_max,
                          const Attrs& attrs = Attrs());
};
// NumBits and RoundMode are not V3's attrs: given, they are InvalidArgument.
class QuantizeAndDequantizeV3 : public OpWrapper {
 public:
  RILL_QDQ_STATIC_SETTERS
  QuantizeAndDequantizeV3(const Scope& scope, Input input, Input input_min, Input input_max,
                          Input num_bits, const Attrs& attrs = Attrs());
};
// Only Axis is V4Grad's attr.
class QuantizeAndDequantizeV4Grad {
 public:
  RILL_QDQ_STATIC_SETTERS
  QuantizeAndDequantizeV4Grad(const Scope& scope, Input gradients, Input input, Input input_min,
                              Input input_max, const Attrs& attrs = Attrs());
  Operation operation;
  Output input_backprop, input_min_backprop, input_max_backprop;
};
#undef RILL_QDQ_STATIC_SETTERS

}  // namespace rill::ops
