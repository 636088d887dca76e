#include "rill/ops/random_ops.h"

#include <algorithm>

#include "rill/core/shape_inference.h"

namespace rill {
namespace {

absl::Status RandomShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape out, shape_fns::ShapeFromShapeInput(c, 0, "shape"));
  c.set_output(0, std::move(out));
  return absl::OkStatus();
}

absl::Status RandomUniformIntShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 1, "minval"));
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 2, "maxval"));
  RILL_RETURN_IF_ERROR(RandomShape(c));
  const Tensor *lo = c.input_tensor(1), *hi = c.input_tensor(2);
  const PartialTensorShape& out = c.outputs()[0];
  const auto dims = out.dim_sizes();
  if (lo == nullptr || hi == nullptr || !out.IsFullyDefined() ||
      std::find(dims.begin(), dims.end(), 0) != dims.end()) {
    return absl::OkStatus();  // unknown, or no element drawn: any bounds do
  }
  const bool int32 = lo->dtype() == DT_INT32;
  const int64_t l = int32 ? lo->scalar<int32_t>()() : lo->scalar<int64_t>()();
  const int64_t h = int32 ? hi->scalar<int32_t>()() : hi->scalar<int64_t>()();
  if (!(l < h)) return errors::InvalidArgument("Need minval < maxval: ", l, " >= ", h);
  return absl::OkStatus();
}

absl::Status MultinomialShape(InferenceContext& c) {
  const PartialTensorShape& logits = c.input_shape(0);
  if (!logits.unknown_rank() && logits.dims() != 2) {
    return errors::InvalidArgument("logits must be a matrix [batch, classes], got shape ",
                                   logits.DebugString());
  }
  if (!logits.unknown_rank() && logits.dim_size(1) == 0) {
    return errors::InvalidArgument("logits ", logits.DebugString(), " have no classes");
  }
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 1, "num_samples"));
  int64_t samples = -1;
  if (const Tensor* n = c.input_tensor(1); n != nullptr && n->NumElements() == 1) {
    samples = n->scalar<int32_t>()();
    if (samples < 0) {
      return errors::InvalidArgument("num_samples must not be negative, got ", samples);
    }
  }
  c.set_output(0, PartialTensorShape({logits.unknown_rank() ? -1 : logits.dim_size(0), samples}));
  return absl::OkStatus();
}

}  // namespace

// Integers uniform in [minval, maxval) (tf.random.uniform with an integer dtype).
RILL_REGISTER_OP("RandomUniformInt")
    .Input("shape", "T")
    .Input("minval", "Tout")
    .Input("maxval", "Tout")
    .Output("output", "Tout")
    .TypeAttr("Tout", kIndexTypes)
    .TypeAttr("T", kIndexTypes)
    .Attr("seed", AttrKind::kInt, int64_t{0})
    .Attr("seed2", AttrKind::kInt, int64_t{0})
    .SetIsStateful()
    .SetShapeFn(RandomUniformIntShape);

// num_samples class ids per row of logits [batch, classes] (tf.random.categorical).
RILL_REGISTER_OP("Multinomial")
    .Input("logits", "T")
    .Input("num_samples", DT_INT32)
    .Output("output", "output_dtype")
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("output_dtype", kIndexTypes, DT_INT64)
    .Attr("seed", AttrKind::kInt, int64_t{0})
    .Attr("seed2", AttrKind::kInt, int64_t{0})
    .SetIsStateful()
    .SetShapeFn(MultinomialShape);

// value with its first dim in a random order (tf.random.shuffle); a scalar unchanged.
RILL_REGISTER_OP("RandomShuffle")
    .Input("value", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .Attr("seed", AttrKind::kInt, int64_t{0})
    .Attr("seed2", AttrKind::kInt, int64_t{0})
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unchanged);

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

RandomShuffle::RandomShuffle(const Scope& scope, Input value, const Attrs& attrs) {
  internal::NodeBuilder(scope, "RandomShuffle")
      .Input(value)
      .Attr("seed", attrs.seed_)
      .Attr("seed2", attrs.seed2_)
      .Finalize(this);
}

RandomUniformInt::RandomUniformInt(const Scope& scope, Input shape, Input minval, Input maxval,
                                   const Attrs& attrs) {
  internal::NodeBuilder(scope, "RandomUniformInt")
      .Input(shape)
      .Input(minval)
      .Input(maxval)
      .Attr("seed", attrs.seed_)
      .Attr("seed2", attrs.seed2_)
      .Finalize(this);
}

Multinomial::Multinomial(const Scope& scope, Input logits, Input num_samples, const Attrs& attrs) {
  internal::NodeBuilder(scope, "Multinomial")
      .Input(logits)
      .Input(num_samples)
      .Attr("output_dtype", attrs.output_dtype_)
      .Attr("seed", attrs.seed_)
      .Attr("seed2", attrs.seed2_)
      .Finalize(this);
}

}  // namespace ops
}  // namespace rill
