#include "rill/ops/gradient_ops.h"

#include "rill/core/shape_inference.h"

namespace rill {
namespace {

absl::Status VectorOfInts(InferenceContext& c, int i, const char* what) {
  const auto& s = c.input_shape(i);
  if (!s.unknown_rank() && s.dims() != 1) {
    return errors::InvalidArgument(what, " must be a vector, got shape ", s.DebugString());
  }
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("StopGradient")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .SetShapeFn(shape_fns::Unchanged);

// The identity whose gradient is an error naming `message` (tf.raw_ops.PreventGradient):
// a value that must not be differentiated through says so when someone tries.
RILL_REGISTER_OP("PreventGradient")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .Attr("message", AttrKind::kString, std::string())
    .SetShapeFn(shape_fns::Unchanged);

RILL_REGISTER_OP("BroadcastGradientArgs")
    .Input("s0", "T")
    .Input("s1", "T")
    .Output("r0", "T")
    .Output("r1", "T")
    .TypeAttr("T", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(VectorOfInts(c, 0, "s0"));
      RILL_RETURN_IF_ERROR(VectorOfInts(c, 1, "s1"));
      c.set_output(0, PartialTensorShape({-1}));
      c.set_output(1, PartialTensorShape({-1}));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("ReducedShape")
    .Input("input_shape", DT_INT32)
    .Input("axes", "Tidx")
    .Output("output", DT_INT32)
    .TypeAttr("Tidx", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(VectorOfInts(c, 0, "input_shape"));
      const auto& a = c.input_shape(1);
      if (!a.unknown_rank() && a.dims() > 1) {
        return errors::InvalidArgument("axes must be a scalar or vector, got shape ",
                                       a.DebugString());
      }
      c.set_output(0, c.input_shape(0));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("InvertPermutation")
    .Input("x", "T")
    .Output("y", "T")
    .TypeAttr("T", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(VectorOfInts(c, 0, "x"));
      if (const Tensor* t = c.input_tensor(0)) {
        const int64_t n = t->NumElements();
        std::vector<bool> seen(n);
        for (int64_t i = 0; i < n; ++i) {
          const int64_t v = t->dtype() == DT_INT32 ? t->base<int32_t>()[i] : t->base<int64_t>()[i];
          if (v < 0 || v >= n || seen[v]) {
            return errors::InvalidArgument("x must be a permutation of 0..", n - 1, ", but ", v,
                                           v < 0 || v >= n ? " is out of range" : " appears twice");
          }
          seen[v] = true;
        }
      }
      return shape_fns::Unchanged(c);
    });

RILL_REGISTER_OP("ReluGrad")
    .Input("gradients", "T")
    .Input("features", "T")
    .Output("backprops", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn(shape_fns::SameShapes);
RILL_REGISTER_OP("SigmoidGrad")
    .Input("y", "T")
    .Input("dy", "T")
    .Output("z", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::SameShapes);
RILL_REGISTER_OP("TanhGrad")
    .Input("y", "T")
    .Input("dy", "T")
    .Output("z", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::SameShapes);

namespace ops {
using internal::NodeBuilder;

StopGradient::StopGradient(const Scope& scope, Input input) {
  NodeBuilder(scope, "StopGradient").Input(input).Finalize(this);
}

PreventGradient::PreventGradient(const Scope& scope, Input input, const Attrs& attrs) {
  NodeBuilder(scope, "PreventGradient").Input(input).Attr("message", attrs.message_).Finalize(this);
}

BroadcastGradientArgs::BroadcastGradientArgs(const Scope& scope, Input s0, Input s1) {
  operation = NodeBuilder(scope, "BroadcastGradientArgs").Input(s0).Input(s1).Finalize();
  if (operation.node() != nullptr) {
    r0 = Output(operation, 0);
    r1 = Output(operation, 1);
  }
}

ReducedShape::ReducedShape(const Scope& scope, Input input_shape, Input axes) {
  NodeBuilder(scope, "ReducedShape").Input(input_shape).Input(axes).Finalize(this);
}

InvertPermutation::InvertPermutation(const Scope& scope, Input x) {
  NodeBuilder(scope, "InvertPermutation").Input(x).Finalize(this);
}

ReluGrad::ReluGrad(const Scope& scope, Input gradients, Input features) {
  NodeBuilder(scope, "ReluGrad").Input(gradients).Input(features).Finalize(this);
}
SigmoidGrad::SigmoidGrad(const Scope& scope, Input y, Input dy) {
  NodeBuilder(scope, "SigmoidGrad").Input(y).Input(dy).Finalize(this);
}
TanhGrad::TanhGrad(const Scope& scope, Input y, Input dy) {
  NodeBuilder(scope, "TanhGrad").Input(y).Input(dy).Finalize(this);
}

}  // namespace ops
}  // namespace rill
