#include "rill/core/quantize_dequantize.h"

namespace rill {
namespace {

// Input i (min or max) of rank 0 (axis -1) or 1, and as long as input's dim `axis`.
absl::Status CheckRangeInput(const InferenceContext& c, int i, int x, int64_t axis) {
  const PartialTensorShape &r = c.input_shape(i), &in = c.input_shape(x);
  const int rank = axis == -1 ? 0 : 1;
  const char* what = i == x + 1 ? "input_min" : "input_max";
  if (!r.unknown_rank() && r.dims() != rank) {
    return errors::InvalidArgument(what, " must be rank ", rank, " for axis ", axis, ", got shape ",
                                   r.DebugString());
  }
  if (axis == -1 || in.unknown_rank()) return absl::OkStatus();
  if (in.dims() <= axis) {
    return errors::InvalidArgument("axis ", axis, " is not a dim of the input of shape ",
                                   in.DebugString());
  }
  const int64_t depth = in.dim_size(static_cast<int>(axis));
  if (!r.unknown_rank() && r.dim_size(0) >= 0 && depth >= 0 && r.dim_size(0) != depth) {
    return errors::InvalidArgument(what, " has shape ", r.DebugString(), " but dim ", axis,
                                   " of the input of shape ", in.DebugString(), " is ", depth);
  }
  return absl::OkStatus();
}

absl::Status CheckAxis(int64_t axis) {
  if (axis < -1) return errors::InvalidArgument("axis should be at least -1, got ", axis);
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckNumBits(int64_t num_bits, bool signed_input) {
  if (num_bits < 1 || num_bits > (signed_input ? 61 : 62)) {
    return errors::InvalidArgument("num_bits is out of range: ", num_bits, " with signed_input ",
                                   signed_input ? "true" : "false", " (1 to ",
                                   signed_input ? 61 : 62, ")");
  }
  return absl::OkStatus();
}

absl::StatusOr<QdqAttrs> ReadQdqAttrs(const AttrMap& attrs) {
  QdqAttrs a;
  a.signed_input = GetNodeAttrOr<bool>(attrs, "signed_input", true);
  a.num_bits = GetNodeAttrOr<int64_t>(attrs, "num_bits", 8);
  a.range_given = GetNodeAttrOr<bool>(attrs, "range_given", false);
  a.narrow_range = GetNodeAttrOr<bool>(attrs, "narrow_range", false);
  a.axis = GetNodeAttrOr<int64_t>(attrs, "axis", -1);
  const std::string mode = GetNodeAttrOr<std::string>(attrs, "round_mode", "HALF_TO_EVEN");
  if (mode != "HALF_TO_EVEN" && mode != "HALF_UP") {
    return errors::InvalidArgument("Round mode string must be 'HALF_UP' or 'HALF_TO_EVEN', is '",
                                   mode, "'");
  }
  a.half_up = mode == "HALF_UP";
  RILL_RETURN_IF_ERROR(CheckNumBits(a.num_bits, a.signed_input));
  RILL_RETURN_IF_ERROR(CheckAxis(a.axis));
  return a;
}

absl::StatusOr<QdqSlices> SlicesOf(const TensorShape& input, int64_t axis) {
  QdqSlices s;
  if (axis == -1) return s;
  if (axis < -1 || axis >= input.dims()) {
    return errors::InvalidArgument("Axis requested is larger than input dimensions. Axis: ", axis,
                                   " Input Dimensions: ", input.dims(), " (shape ",
                                   input.DebugString(), ")");
  }
  s.depth = input.dim_size(static_cast<int>(axis));
  for (int d = static_cast<int>(axis) + 1; d < input.dims(); ++d) s.inner *= input.dim_size(d);
  return s;
}

absl::Status CheckRangeShapes(const Tensor& min, const Tensor& max, const QdqSlices& s,
                              int64_t axis) {
  for (const Tensor* t : {&min, &max}) {
    const char* what = t == &min ? "input_min" : "input_max";
    if (axis == -1 && t->dims() != 0) {
      return errors::InvalidArgument(what, " must be a scalar if axis is unspecified, got shape ",
                                     t->shape().DebugString());
    }
    if (axis != -1 && (t->dims() != 1 || t->dim_size(0) != s.depth)) {
      return errors::InvalidArgument(what, " must be a vector of ", s.depth, " values (dim ", axis,
                                     " of the input), got shape ", t->shape().DebugString());
    }
  }
  return absl::OkStatus();
}

absl::Status QdqShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(const QdqAttrs a, ReadQdqAttrs(c.attrs()));
  RILL_RETURN_IF_ERROR(CheckRangeInput(c, 1, 0, a.axis));
  RILL_RETURN_IF_ERROR(CheckRangeInput(c, 2, 0, a.axis));
  if (c.num_inputs() == 4) RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 3, "num_bits"));
  c.set_output(0, c.input_shape(0));
  return absl::OkStatus();
}

absl::Status QdqGradShape(InferenceContext& c) {
  const int64_t axis = GetNodeAttrOr<int64_t>(c.attrs(), "axis", -1);
  RILL_RETURN_IF_ERROR(CheckAxis(axis));
  RILL_RETURN_IF_ERROR(CheckRangeInput(c, 2, 1, axis));
  RILL_RETURN_IF_ERROR(CheckRangeInput(c, 3, 1, axis));
  const PartialTensorShape &g = c.input_shape(0), &x = c.input_shape(1);
  if (!g.IsCompatibleWith(x)) {
    return errors::InvalidArgument("gradient and input must be the same size, got ",
                                   g.DebugString(), " and ", x.DebugString());
  }
  c.set_output(0, x.unknown_rank() ? g : x);
  const PartialTensorShape& range = c.input_shape(2);
  c.set_output(1, range.unknown_rank() ? c.input_shape(3) : range);
  c.set_output(2, c.outputs()[1]);
  return absl::OkStatus();
}

}  // namespace rill
