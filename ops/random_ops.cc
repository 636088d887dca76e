#include "rill/ops/random_ops.h"

#include "rill/core/shape_inference.h"

namespace rill {
namespace {

absl::Status RandomShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape out, shape_fns::ShapeFromShapeInput(c, 0, "shape"));
  c.set_output(0, std::move(out));
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
