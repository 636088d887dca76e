#include "rill/ops/random_ops.h"

#include "rill/core/shape_inference.h"

namespace rill {
namespace {

absl::Status RandomShape(InferenceContext& c) {
  const auto& s = c.input_shape(0);
  if (!s.unknown_rank() && s.dims() != 1) {
    return errors::InvalidArgument("shape must be a vector, got shape ", s.DebugString());
  }
  if (const Tensor* t = c.input_tensor(0)) {
    RILL_ASSIGN_OR_RETURN(TensorShape out, shape_fns::ShapeFromTensor(*t, "shape"));
    c.set_output(0, out);
  } else {
    c.set_output(0, s.unknown_rank() || s.dim_size(0) < 0
                        ? PartialTensorShape()
                        : PartialTensorShape::UnknownOfRank(static_cast<int>(s.dim_size(0))));
  }
  return absl::OkStatus();
}

}  // namespace

#define RILL_REGISTER_RANDOM(Name)               \
  RILL_REGISTER_OP(Name)                         \
      .Input("shape", "T")                       \
      .Output("output", "dtype")                 \
      .TypeAttr("T", kIndexTypes)                \
      .TypeAttr("dtype", kFloatTypes)            \
      .Attr("seed", AttrKind::kInt, int64_t{0})  \
      .Attr("seed2", AttrKind::kInt, int64_t{0}) \
      .SetIsStateful()                           \
      .SetShapeFn(RandomShape)
RILL_REGISTER_RANDOM("RandomUniform");
RILL_REGISTER_RANDOM("RandomStandardNormal");
RILL_REGISTER_RANDOM("TruncatedNormal");
#undef RILL_REGISTER_RANDOM

namespace ops {

#define RILL_DEFINE_RANDOM_OP(Name, Op)                                             \
  Name::Name(const Scope& scope, Input shape, DataType dtype, const Attrs& attrs) { \
    internal::NodeBuilder(scope, Op)                                                \
        .Input(shape)                                                               \
        .Attr("dtype", dtype)                                                       \
        .Attr("seed", attrs.seed_)                                                  \
        .Attr("seed2", attrs.seed2_)                                                \
        .Finalize(this);                                                            \
  }
RILL_DEFINE_RANDOM_OP(RandomUniform, "RandomUniform")
RILL_DEFINE_RANDOM_OP(RandomNormal, "RandomStandardNormal")
RILL_DEFINE_RANDOM_OP(TruncatedNormal, "TruncatedNormal")
#undef RILL_DEFINE_RANDOM_OP

}  // namespace ops
}  // namespace rill
