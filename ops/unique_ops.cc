// Unique and UniqueWithCounts and their V2 forms (unique slices along an axis): schemas,
// shape functions and wrappers (kernels: kernels/cpu/unique_op.cc).
#include "rill/ops/unique_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/ops/gradients.h"

namespace rill {

namespace {

// y (and count) of unknown length; idx of x's shape.
absl::Status UniqueShape(InferenceContext& c) {
  const PartialTensorShape& x = c.input_shape(0);
  if (!x.unknown_rank() && x.dims() != 1) {
    return errors::InvalidArgument("x must be a vector, got shape ", x.DebugString());
  }
  c.set_output(0, PartialTensorShape({-1}));
  c.set_output(1, x.unknown_rank() ? PartialTensorShape({-1}) : x);
  if (c.outputs().size() > 2) c.set_output(2, PartialTensorShape({-1}));
  return absl::OkStatus();
}

// V2: an axis input, a vector of at most one value (none: x is a vector). y is x with the
// axis' dim unknown, idx as long as that dim.
absl::Status UniqueV2Shape(InferenceContext& c) {
  const PartialTensorShape &x = c.input_shape(0), &a = c.input_shape(1);
  if (!a.unknown_rank() && (a.dims() != 1 || a.dim_size(0) > 1)) {
    return errors::InvalidArgument("axis must be a vector of at most one value, got shape ",
                                   a.DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto axis, shape_fns::ConstInts(c, 1, "axis"));
  if (!axis || axis->empty() || x.unknown_rank()) {
    if (axis && axis->empty()) return UniqueShape(c);
    c.set_output(0, PartialTensorShape());
    c.set_output(1, PartialTensorShape({-1}));
    if (c.outputs().size() > 2) c.set_output(2, PartialTensorShape({-1}));
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(int d, shape_fns::CanonicalAxis((*axis)[0], x.dims(), "axis"));
  std::vector<int64_t> dims(x.dim_sizes().begin(), x.dim_sizes().end());
  c.set_output(1, PartialTensorShape({dims[static_cast<size_t>(d)]}));
  dims[static_cast<size_t>(d)] = -1;
  c.set_output(0, shape_fns::Known(dims));
  if (c.outputs().size() > 2) c.set_output(2, PartialTensorShape({-1}));
  return absl::OkStatus();
}

// What all four share: x, y, idx and their dtypes; the V2 ops add the axis.
void UniqueArgs(OpDefBuilder& b) {
  b.Input("x", "T").Output("y", "T").Output("idx", "out_idx");
  b.TypeAttr("T").TypeAttr("out_idx", kIndexTypes, DT_INT32);
}
void AxisArg(OpDefBuilder& b) { b.Input("axis", "Taxis").TypeAttr("Taxis", kIndexTypes, DT_INT64); }

}  // namespace

RILL_REGISTER_OP("Unique").Apply(UniqueArgs).SetShapeFn(UniqueShape);
RILL_REGISTER_OP("UniqueWithCounts")
    .Apply(UniqueArgs)
    .Output("count", "out_idx")
    .SetShapeFn(UniqueShape);
RILL_REGISTER_OP("UniqueV2").Apply(UniqueArgs).Apply(AxisArg).SetShapeFn(UniqueV2Shape);
RILL_REGISTER_OP("UniqueWithCountsV2")
    .Apply(UniqueArgs)
    .Apply(AxisArg)
    .Output("count", "out_idx")
    .SetShapeFn(UniqueV2Shape);

namespace ops {

Unique::Unique(const Scope& scope, Input x, const Attrs& attrs) {
  operation =
      internal::NodeBuilder(scope, "Unique").Input(x).Attr("out_idx", attrs.out_idx_).Finalize();
  if (operation.node() != nullptr) {
    y = Output(operation, 0);
    idx = Output(operation, 1);
  }
}

UniqueWithCounts::UniqueWithCounts(const Scope& scope, Input x, const Attrs& attrs) {
  operation = internal::NodeBuilder(scope, "UniqueWithCounts")
                  .Input(x)
                  .Attr("out_idx", attrs.out_idx_)
                  .Finalize();
  if (operation.node() != nullptr) {
    y = Output(operation, 0);
    idx = Output(operation, 1);
    count = Output(operation, 2);
  }
}

UniqueV2::UniqueV2(const Scope& scope, Input x, Input axis, const Attrs& attrs) {
  operation = internal::NodeBuilder(scope, "UniqueV2")
                  .Input(x)
                  .Input(axis)
                  .Attr("out_idx", attrs.out_idx_)
                  .Finalize();
  if (operation.node() != nullptr) {
    y = Output(operation, 0);
    idx = Output(operation, 1);
  }
}

UniqueWithCountsV2::UniqueWithCountsV2(const Scope& scope, Input x, Input axis,
                                       const Attrs& attrs) {
  operation = internal::NodeBuilder(scope, "UniqueWithCountsV2")
                  .Input(x)
                  .Input(axis)
                  .Attr("out_idx", attrs.out_idx_)
                  .Finalize();
  if (operation.node() != nullptr) {
    y = Output(operation, 0);
    idx = Output(operation, 1);
    count = Output(operation, 2);
  }
}

// As TensorFlow: none is differentiable.
RILL_REGISTER_NO_GRADIENT("Unique");
RILL_REGISTER_NO_GRADIENT("UniqueWithCounts");
RILL_REGISTER_NO_GRADIENT("UniqueV2");
RILL_REGISTER_NO_GRADIENT("UniqueWithCountsV2");

}  // namespace ops
}  // namespace rill
