#include "rill/core/isotonic.h"

namespace rill {
namespace {

absl::Status AtLeastAVector(const PartialTensorShape& s, const char* what) {
  if (!s.unknown_rank() && s.dims() < 1) {
    return errors::InvalidArgument(what, " must be at least 1-D, got ", s.DebugString());
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status IsotonicShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(AtLeastAVector(c.input_shape(0), "input"));
  c.set_output(0, c.input_shape(0));
  c.set_output(1, c.input_shape(0));
  return absl::OkStatus();
}

absl::Status IsotonicGradShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(AtLeastAVector(c.input_shape(0), "grads"));
  RILL_RETURN_IF_ERROR(AtLeastAVector(c.input_shape(1), "segments"));
  return shape_fns::SameShapes(c);
}

}  // namespace rill
