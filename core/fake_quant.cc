#include "rill/core/fake_quant.h"

#include <cmath>

#include "rill/core/shape_inference.h"

namespace rill {

QuantRange NudgeQuantRange(float min, float max, int num_bits, bool narrow_range) {
  const float quant_min = narrow_range ? 1.0f : 0.0f;
  const float quant_max = static_cast<float>((1 << num_bits) - 1);
  if (max == min) return {min, min, 0.0f, 0.0f};
  const float scale = (max - min) / (quant_max - quant_min);
  // The level that real 0.0 falls on, made a whole level inside [quant_min, quant_max].
  const float zero_from_min = quant_min - min / scale;
  const float zero = zero_from_min < quant_min   ? quant_min
                     : zero_from_min > quant_max ? quant_max
                                                 : std::round(zero_from_min);
  return {(quant_min - zero) * scale, (quant_max - zero) * scale, scale, zero - quant_min};
}

absl::StatusOr<QuantAttrs> ReadQuantAttrs(const AttrMap& attrs, bool with_range) {
  QuantAttrs a;
  const int64_t bits = GetNodeAttrOr<int64_t>(attrs, "num_bits", 8);
  if (bits < 2 || bits > 16) {
    return errors::InvalidArgument("num_bits must be between 2 and 16, inclusive, got ", bits);
  }
  a.num_bits = static_cast<int>(bits);
  a.narrow_range = GetNodeAttrOr<bool>(attrs, "narrow_range", false);
  if (with_range) {
    a.min = GetNodeAttrOr<float>(attrs, "min", -6.0f);
    a.max = GetNodeAttrOr<float>(attrs, "max", 6.0f);
    if (!(a.min < a.max) || !std::isfinite(a.min) || !std::isfinite(a.max)) {
      return errors::InvalidArgument("min has to be smaller than max, was: ", a.min, ", ", a.max);
    }
  }
  return a;
}

absl::StatusOr<std::vector<QuantRange>> ReadQuantRanges(const Tensor& inputs, const Tensor& min,
                                                        const Tensor& max, bool per_channel,
                                                        const QuantAttrs& a) {
  const int rank = per_channel ? 1 : 0;
  for (const Tensor* t : {&min, &max}) {
    if (t->dims() != rank) {
      return errors::InvalidArgument(t == &min ? "`min`" : "`max`", " must be rank ", rank,
                                     " but is rank ", t->dims(), " (shape ",
                                     t->shape().DebugString(), ")");
    }
  }
  int64_t channels = 1;
  if (per_channel) {
    if (inputs.dims() < 1) return errors::InvalidArgument("inputs must be at least 1-D, got []");
    channels = inputs.dim_size(inputs.dims() - 1);
    if (min.dim_size(0) != channels || max.dim_size(0) != channels) {
      return errors::InvalidArgument("min and max must have one value per channel, ", channels,
                                     " (inputs ", inputs.shape().DebugString(), "), got ",
                                     min.shape().DebugString(), " and ", max.shape().DebugString());
    }
  }
  std::vector<QuantRange> ranges(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) {
    const float lo = min.base<float>()[c], hi = max.base<float>()[c];
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) {
      return errors::InvalidArgument("min must be finite and at most max, got min ", lo,
                                     " and max ", hi, per_channel ? " for channel " : "",
                                     per_channel ? std::to_string(c) : "");
    }
    ranges[c] = NudgeQuantRange(lo, hi, a.num_bits, a.narrow_range);
  }
  return ranges;
}

absl::Status FakeQuantArgsShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(ReadQuantAttrs(c.attrs(), true).status());
  return c.num_inputs() == 1 ? shape_fns::Unchanged(c) : shape_fns::SameShapes(c);
}

absl::Status FakeQuantVarsShape(InferenceContext& c, bool per_channel) {
  RILL_RETURN_IF_ERROR(ReadQuantAttrs(c.attrs(), false).status());
  const int x = c.num_inputs() == 4 ? 1 : 0;  // the gradient's inputs follow its gradients
  const PartialTensorShape& in = c.input_shape(x);
  for (int i = x + 1; i < x + 3; ++i) {
    const PartialTensorShape& r = c.input_shape(i);
    if (r.unknown_rank()) continue;
    if (r.dims() != (per_channel ? 1 : 0)) {
      return errors::InvalidArgument(i == x + 1 ? "`min`" : "`max`", " must be rank ",
                                     per_channel ? 1 : 0, " but is rank ", r.dims());
    }
    if (per_channel && !in.unknown_rank() && in.dims() >= 1 && r.dim_size(0) >= 0 &&
        in.dim_size(in.dims() - 1) >= 0 && r.dim_size(0) != in.dim_size(in.dims() - 1)) {
      return errors::InvalidArgument("min and max must have one value per channel of inputs ",
                                     in.DebugString(), ", got ", r.DebugString());
    }
  }
  if (x == 1 && !c.input_shape(0).IsCompatibleWith(in)) {
    return errors::InvalidArgument("gradients and inputs must have one shape, got ",
                                   c.input_shape(0).DebugString(), " and ", in.DebugString());
  }
  for (size_t o = 0; o < c.outputs().size(); ++o) {
    c.set_output(static_cast<int>(o), o == 0 ? in : c.input_shape(x + 1));
  }
  return absl::OkStatus();
}

}  // namespace rill
