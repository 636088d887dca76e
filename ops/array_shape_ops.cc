// Size, Rank, BroadcastArgs, BroadcastTo and Pad: array ops that the gradients of
// reductions, broadcasting and Slice are built from, and that users call directly too.
#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"
#include "rill/ops/array_ops.h"

namespace rill {

RILL_REGISTER_OP("Size")
    .Input("input", "T")
    .Output("output", "out_type")
    .TypeAttr("T")
    .TypeAttr("out_type", kIndexTypes, DT_INT32)
    .SetShapeFn(shape_fns::Scalar);

RILL_REGISTER_OP("Rank")
    .Input("input", "T")
    .Output("output", DT_INT32)
    .TypeAttr("T")
    .SetShapeFn(shape_fns::Scalar);

// The shape that s0 and s1 broadcast to (tf.broadcast_dynamic_shape).
RILL_REGISTER_OP("BroadcastArgs")
    .Input("s0", "T")
    .Input("s1", "T")
    .Output("r0", "T")
    .TypeAttr("T", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      int64_t rank = 0;
      for (int i = 0; i < 2; ++i) {
        const auto& s = c.input_shape(i);
        if (!s.unknown_rank() && s.dims() != 1) {
          return errors::InvalidArgument(i == 0 ? "s0" : "s1", " must be a vector, got shape ",
                                         s.DebugString());
        }
        const int64_t n = s.unknown_rank() ? -1 : s.dim_size(0);
        rank = rank < 0 || n < 0 ? -1 : std::max(rank, n);
      }
      c.set_output(0, PartialTensorShape({rank}));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("BroadcastTo")
    .Input("input", "T")
    .Input("shape", "Tidx")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tidx", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const auto& s = c.input_shape(1);
      if (!s.unknown_rank() && s.dims() != 1) {
        return errors::InvalidArgument("shape must be a vector, got shape ", s.DebugString());
      }
      const Tensor* t = c.input_tensor(1);
      if (t == nullptr) {
        c.set_output(0, s.unknown_rank() || s.dim_size(0) < 0
                            ? PartialTensorShape()
                            : PartialTensorShape::UnknownOfRank(static_cast<int>(s.dim_size(0))));
        return absl::OkStatus();
      }
      RILL_ASSIGN_OR_RETURN(TensorShape target, shape_fns::ShapeFromTensor(*t, "shape"));
      RILL_ASSIGN_OR_RETURN(PartialTensorShape b,
                            shape_fns::Broadcast(c.input_shape(0), PartialTensorShape(target)));
      if (!b.IsCompatibleWith(PartialTensorShape(target)) ||
          (!b.unknown_rank() && b.dims() != target.dims())) {
        return errors::InvalidArgument("cannot broadcast shape ", c.input_shape(0).DebugString(),
                                       " to ", target.DebugString());
      }
      c.set_output(0, PartialTensorShape(target));
      return absl::OkStatus();
    });

namespace {
// Pad's and PadV2's output: the input grown by constant paddings, else of its rank.
absl::Status PadShape(InferenceContext& c) {
  const auto& in = c.input_shape(0);
  const auto& p = c.input_shape(1);
  if (!p.unknown_rank() && (p.dims() != 2 || (p.dim_size(1) >= 0 && p.dim_size(1) != 2))) {
    return errors::InvalidArgument("paddings must be a [rank, 2] matrix, got shape ",
                                   p.DebugString());
  }
  if (!in.unknown_rank() && !p.unknown_rank() && p.dim_size(0) >= 0 && p.dim_size(0) != in.dims()) {
    return errors::InvalidArgument("paddings has ", p.dim_size(0), " rows but the input ",
                                   in.DebugString(), " has rank ", in.dims());
  }
  const Tensor* t = c.input_tensor(1);
  if (in.unknown_rank() || t == nullptr) {
    c.set_output(
        0, in.unknown_rank() ? PartialTensorShape() : PartialTensorShape::UnknownOfRank(in.dims()));
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto pad, shape_fns::AllIntValues(*t, "paddings"));
  RILL_ASSIGN_OR_RETURN(auto out, shape_util::Pad(in.dim_sizes(), pad));
  RILL_ASSIGN_OR_RETURN(PartialTensorShape s, PartialTensorShape::Build(out));
  c.set_output(0, s);
  return absl::OkStatus();
}
}  // namespace

RILL_REGISTER_OP("Pad")
    .Input("input", "T")
    .Input("paddings", "Tpaddings")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tpaddings", kIndexTypes, DT_INT32)
    .SetShapeFn(PadShape);
// tf.pad with constant_values: the padding filled with that scalar.
RILL_REGISTER_OP("PadV2")
    .Input("input", "T")
    .Input("paddings", "Tpaddings")
    .Input("constant_values", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tpaddings", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 2, "constant_values"));
      return PadShape(c);
    });

namespace ops {
using internal::NodeBuilder;

Size::Size(const Scope& scope, Input input, const Attrs& attrs) {
  NodeBuilder(scope, "Size").Input(input).Attr("out_type", attrs.out_type_).Finalize(this);
}
Rank::Rank(const Scope& scope, Input input) {
  NodeBuilder(scope, "Rank").Input(input).Finalize(this);
}
BroadcastArgs::BroadcastArgs(const Scope& scope, Input s0, Input s1) {
  NodeBuilder(scope, "BroadcastArgs").Input(s0).Input(s1).Finalize(this);
}
BroadcastTo::BroadcastTo(const Scope& scope, Input input, Input shape) {
  NodeBuilder(scope, "BroadcastTo").Input(input).Input(shape).Finalize(this);
}
Pad::Pad(const Scope& scope, Input input, Input paddings) {
  NodeBuilder(scope, "Pad").Input(input).Input(paddings).Finalize(this);
}
PadV2::PadV2(const Scope& scope, Input input, Input paddings, Input constant_values) {
  NodeBuilder(scope, "PadV2").Input(input).Input(paddings).Input(constant_values).Finalize(this);
}

}  // namespace ops
}  // namespace rill
