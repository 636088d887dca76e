#include "rill/ops/math_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"

namespace rill {
namespace {

absl::Status ReductionShape(InferenceContext& c) {
  const auto& axes_shape = c.input_shape(1);
  if (!axes_shape.unknown_rank() && axes_shape.dims() > 1) {
    return errors::InvalidArgument("reduction axes must be a scalar or vector, got shape ",
                                   axes_shape.DebugString());
  }
  const auto& in = c.input_shape(0);
  bool keep = c.attr<bool>("keep_dims");
  const Tensor* axes = c.input_tensor(1);
  if (in.unknown_rank() || axes == nullptr) {
    c.set_output(0, keep && !in.unknown_rank() ? PartialTensorShape::UnknownOfRank(in.dims())
                                               : PartialTensorShape());
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto ax, shape_fns::IntValues(*axes, "reduction axes"));
  RILL_ASSIGN_OR_RETURN(auto out, shape_util::Reduce(in.dim_sizes(), ax, keep, nullptr));
  c.set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}

}  // namespace

#define RILL_REGISTER_BINARY(Name, Types, OutType) \
  RILL_REGISTER_OP(Name)                           \
      .Input("x", "T")                             \
      .Input("y", "T")                             \
      .Output("z", OutType)                        \
      .TypeAttr("T", Types)                        \
      .SetShapeFn(shape_fns::BroadcastBinary)
RILL_REGISTER_BINARY("Add", kNumberTypes, "T");
RILL_REGISTER_BINARY("AddV2", kNumberTypes, "T");  // TensorFlow 2's x + y: Add without strings
RILL_REGISTER_BINARY("Sub", kNumberTypes, "T");
RILL_REGISTER_BINARY("Mul", kNumberTypes, "T");
RILL_REGISTER_BINARY("Div", kNumberTypes, "T");
// TensorFlow's float division by name (Div of floats computes the same).
RILL_REGISTER_BINARY("RealDiv", kFloatTypes, "T");
RILL_REGISTER_BINARY("SquaredDifference", kSignedNumberTypes, "T");  // (x - y)^2
RILL_REGISTER_BINARY("Polygamma", kFloatTypes, "T");  // (a, x): the a-th derivative of digamma
RILL_REGISTER_BINARY("Pow", kSignedNumberTypes, "T");
RILL_REGISTER_BINARY("FloorDiv", kNumberTypes, "T");     // floor(x / y)
RILL_REGISTER_BINARY("FloorMod", kNumberTypes, "T");     // x - floor(x / y) y: the sign of y
RILL_REGISTER_BINARY("TruncateDiv", kNumberTypes, "T");  // x / y rounded toward zero
RILL_REGISTER_BINARY("TruncateMod", kNumberTypes, "T");  // C's remainder: the sign of x
RILL_REGISTER_BINARY("Mod", kNumberTypes, "T");          // TruncateMod's older name
RILL_REGISTER_BINARY("Atan2", kFloatTypes, "T");         // atan2(x, y) (TensorFlow's y, x)
RILL_REGISTER_BINARY("DivNoNan", kFloatTypes, "T");      // x / y, 0 where y is 0
RILL_REGISTER_BINARY("MulNoNan", kFloatTypes, "T");      // x * y, 0 where y is 0
RILL_REGISTER_BINARY("Xlogy", kFloatTypes, "T");         // x log(y), 0 where x is 0
RILL_REGISTER_BINARY("Xlog1py", kFloatTypes, "T");       // x log1p(y), 0 where x is 0
RILL_REGISTER_BINARY("Xdivy", kFloatTypes, "T");         // x / y, 0 where x is 0
RILL_REGISTER_BINARY("Maximum", kNumberTypes, "T");
RILL_REGISTER_BINARY("Minimum", kNumberTypes, "T");
RILL_REGISTER_BINARY("Equal", kAllTypes, DT_BOOL);
RILL_REGISTER_BINARY("Less", kNumberTypes, DT_BOOL);
RILL_REGISTER_BINARY("Greater", kNumberTypes, DT_BOOL);
RILL_REGISTER_BINARY("NotEqual", kAllTypes, DT_BOOL);
RILL_REGISTER_BINARY("LessEqual", kNumberTypes, DT_BOOL);
RILL_REGISTER_BINARY("GreaterEqual", kNumberTypes, DT_BOOL);
#undef RILL_REGISTER_BINARY

#define RILL_REGISTER_UNARY(Name, Types) \
  RILL_REGISTER_OP(Name)                 \
      .Input("x", "T")                   \
      .Output("y", "T")                  \
      .TypeAttr("T", Types)              \
      .SetShapeFn(shape_fns::Unchanged)
RILL_REGISTER_UNARY("Neg", kSignedNumberTypes);
RILL_REGISTER_UNARY("Abs", kSignedNumberTypes);
RILL_REGISTER_UNARY("Square", kSignedNumberTypes);
RILL_REGISTER_UNARY("Sqrt", kFloatTypes);
RILL_REGISTER_UNARY("Exp", kFloatTypes);
RILL_REGISTER_UNARY("Log", kFloatTypes);
RILL_REGISTER_UNARY("Sign", kSignedNumberTypes);
// Float math with formulas in core/unary_math.h.
RILL_REGISTER_UNARY("Rsqrt", kFloatTypes);
// Reciprocal and Round also take integers, as TensorFlow's (1 / x truncated; x itself).
RILL_REGISTER_UNARY("Reciprocal", kSignedNumberTypes);
RILL_REGISTER_UNARY("Floor", kFloatTypes);
RILL_REGISTER_UNARY("Ceil", kFloatTypes);
RILL_REGISTER_UNARY("Round", kSignedNumberTypes);
RILL_REGISTER_UNARY("Sin", kFloatTypes);
RILL_REGISTER_UNARY("Cos", kFloatTypes);
RILL_REGISTER_UNARY("Erf", kFloatTypes);
RILL_REGISTER_UNARY("Softplus", kFloatTypes);
RILL_REGISTER_UNARY("Softsign", kFloatTypes);
RILL_REGISTER_UNARY("Lgamma", kFloatTypes);
RILL_REGISTER_UNARY("Digamma", kFloatTypes);
RILL_REGISTER_UNARY("Expm1", kFloatTypes);
RILL_REGISTER_UNARY("Log1p", kFloatTypes);
RILL_REGISTER_UNARY("Sinh", kFloatTypes);
RILL_REGISTER_UNARY("Cosh", kFloatTypes);
RILL_REGISTER_UNARY("Tan", kFloatTypes);
RILL_REGISTER_UNARY("Asin", kFloatTypes);
RILL_REGISTER_UNARY("Acos", kFloatTypes);
RILL_REGISTER_UNARY("Atan", kFloatTypes);
RILL_REGISTER_UNARY("Asinh", kFloatTypes);
RILL_REGISTER_UNARY("Acosh", kFloatTypes);
RILL_REGISTER_UNARY("Atanh", kFloatTypes);
RILL_REGISTER_UNARY("Erfc", kFloatTypes);  // 1 - erf(x), accurate where erf(x) is near 1
RILL_REGISTER_UNARY("Rint", kFloatTypes);  // the nearest integer, ties to even (Round's)
#undef RILL_REGISTER_UNARY

// Which elements are NaN, infinite or finite (tf.math.is_nan, is_inf, is_finite).
#define RILL_REGISTER_FLOAT_CLASS(Name) \
  RILL_REGISTER_OP(Name)                \
      .Input("x", "T")                  \
      .Output("y", DT_BOOL)             \
      .TypeAttr("T", kFloatTypes)       \
      .SetShapeFn(shape_fns::Unchanged)
RILL_REGISTER_FLOAT_CLASS("IsNan");
RILL_REGISTER_FLOAT_CLASS("IsInf");
RILL_REGISTER_FLOAT_CLASS("IsFinite");
#undef RILL_REGISTER_FLOAT_CLASS

RILL_REGISTER_OP("LogicalAnd")
    .Input("x", DT_BOOL)
    .Input("y", DT_BOOL)
    .Output("z", DT_BOOL)
    .SetShapeFn(shape_fns::BroadcastBinary);
RILL_REGISTER_OP("LogicalOr")
    .Input("x", DT_BOOL)
    .Input("y", DT_BOOL)
    .Output("z", DT_BOOL)
    .SetShapeFn(shape_fns::BroadcastBinary);
RILL_REGISTER_OP("LogicalNot")
    .Input("x", DT_BOOL)
    .Output("y", DT_BOOL)
    .SetShapeFn(shape_fns::Unchanged);

// t clipped to [clip_value_min, clip_value_max]; each bound a scalar or of t's shape.
RILL_REGISTER_OP("ClipByValue")
    .Input("t", "T")
    .Input("clip_value_min", "T")
    .Input("clip_value_max", "T")
    .Output("output", "T")
    .TypeAttr("T", kNumberTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const auto& t = c.input_shape(0);
      for (int i = 1; i <= 2; ++i) {
        const auto& b = c.input_shape(i);
        const bool scalar = !b.unknown_rank() && b.dims() == 0;
        if (!scalar && !b.IsCompatibleWith(t)) {
          return errors::InvalidArgument(i == 1 ? "clip_value_min" : "clip_value_max",
                                         " must be a scalar or of t's shape ", t.DebugString(),
                                         ", got ", b.DebugString());
        }
      }
      return shape_fns::Unchanged(c);
    });

RILL_REGISTER_OP("AddN")
    .InputList("inputs", "N", "T")
    .Output("sum", "T")
    .Attr("N", AttrKind::kInt)
    .TypeAttr("T", kNumberTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      PartialTensorShape out = c.input_shape(0);
      for (int i = 1; i < c.num_inputs(); ++i) {
        const auto& s = c.input_shape(i);
        if (!out.IsCompatibleWith(s)) {
          return errors::InvalidArgument("all inputs must have the same shape; input 0 is ",
                                         c.input_shape(0).DebugString(), ", input ", i, " is ",
                                         s.DebugString());
        }
        if (out.unknown_rank()) out = s;
      }
      c.set_output(0, out);
      return absl::OkStatus();
    });

RILL_REGISTER_OP("MatMul")
    .Input("a", "T")
    .Input("b", "T")
    .Output("product", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .Attr("transpose_a", AttrKind::kBool, false)
    .Attr("transpose_b", AttrKind::kBool, false)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const auto &a = c.input_shape(0), &b = c.input_shape(1);
      auto ad = a.unknown_rank() ? shape_util::Dims{-1, -1}
                                 : shape_util::Dims(a.dim_sizes().begin(), a.dim_sizes().end());
      auto bd = b.unknown_rank() ? shape_util::Dims{-1, -1}
                                 : shape_util::Dims(b.dim_sizes().begin(), b.dim_sizes().end());
      RILL_ASSIGN_OR_RETURN(auto out, shape_util::MatMul(ad, bd, c.attr<bool>("transpose_a"),
                                                         c.attr<bool>("transpose_b")));
      c.set_output(0, PartialTensorShape(out));
      return absl::OkStatus();
    });

#define RILL_REGISTER_REDUCTION(Name, types)     \
  RILL_REGISTER_OP(Name)                         \
      .Input("input", "T")                       \
      .Input("reduction_indices", "Tidx")        \
      .Output("output", "T")                     \
      .TypeAttr("T", types)                      \
      .TypeAttr("Tidx", kIndexTypes, DT_INT32)   \
      .Attr("keep_dims", AttrKind::kBool, false) \
      .SetShapeFn(ReductionShape)
RILL_REGISTER_REDUCTION("Sum", kNumberTypes);
RILL_REGISTER_REDUCTION("Mean", kNumberTypes);
RILL_REGISTER_REDUCTION("Max", kNumberTypes);
RILL_REGISTER_REDUCTION("Min", kNumberTypes);
RILL_REGISTER_REDUCTION("Prod", kNumberTypes);
// tf.math.reduce_euclidean_norm, for floating dtypes only: TensorFlow's integer kernels
// square and sum in the integer type, which overflows (and wraps) for moderate values.
RILL_REGISTER_REDUCTION("EuclideanNorm", kFloatTypes);
#undef RILL_REGISTER_REDUCTION

// The logical AND and OR of bool elements over the axes (tf.reduce_all, tf.reduce_any):
// an empty reduction is true for All, false for Any.
#define RILL_REGISTER_LOGICAL_REDUCTION(Name)    \
  RILL_REGISTER_OP(Name)                         \
      .Input("input", DT_BOOL)                   \
      .Input("reduction_indices", "Tidx")        \
      .Output("output", DT_BOOL)                 \
      .TypeAttr("Tidx", kIndexTypes, DT_INT32)   \
      .Attr("keep_dims", AttrKind::kBool, false) \
      .SetShapeFn(ReductionShape)
RILL_REGISTER_LOGICAL_REDUCTION("All");
RILL_REGISTER_LOGICAL_REDUCTION("Any");
#undef RILL_REGISTER_LOGICAL_REDUCTION

// The gradient of a Mean that reduces x to one element: dy / size(x) in every element of
// a tensor shaped like x (`shape`, on the host). One kernel where Div, BroadcastTo and a
// count made of Size, Maximum, Div and Cast take two kernels, a copy and four host nodes.
RILL_REGISTER_OP("_MeanAllGrad")
    .Input("gradients", "T")
    .Input("shape", "Tshape")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("Tshape", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const auto& dy = c.input_shape(0);
      int64_t elements = 1;
      for (int64_t d : dy.dim_sizes()) elements *= d;
      if (dy.IsFullyDefined() && elements != 1) {
        return errors::InvalidArgument("gradients must have one element, got shape ",
                                       dy.DebugString());
      }
      RILL_ASSIGN_OR_RETURN(PartialTensorShape out, shape_fns::ShapeFromShapeInput(c, 1, "shape"));
      c.set_output(0, std::move(out));
      return absl::OkStatus();
    });

namespace {
// ArgMax and ArgMin: input [..., d, ...] and a scalar dimension -> the input without it.
absl::Status ArgShape(InferenceContext& c) {
  const auto& ds = c.input_shape(1);
  if (!ds.unknown_rank() && ds.dims() != 0) {
    return errors::InvalidArgument("dimension must be a scalar, got shape ", ds.DebugString());
  }
  const auto& in = c.input_shape(0);
  const Tensor* dim = c.input_tensor(1);
  if (!in.unknown_rank() && in.dims() == 0) {
    return errors::InvalidArgument("the input must have rank >= 1, got a scalar");
  }
  if (in.unknown_rank() || dim == nullptr) {
    c.set_output(0, in.unknown_rank() ? PartialTensorShape()
                                      : PartialTensorShape::UnknownOfRank(in.dims() - 1));
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto ax, shape_fns::IntValues(*dim, "dimension"));
  if (ax.size() != 1) return errors::InvalidArgument("dimension must hold one value");
  // The kernels' rule (PrepareArgMax); unknown dims (-1) pass through it.
  RILL_ASSIGN_OR_RETURN(auto out, shape_util::ArgMax(in.dim_sizes(), ax[0], nullptr));
  c.set_output(0, PartialTensorShape(out));
  return absl::OkStatus();
}
}  // namespace

#define RILL_REGISTER_ARG(Name)                       \
  RILL_REGISTER_OP(Name)                              \
      .Input("input", "T")                            \
      .Input("dimension", "Tidx")                     \
      .Output("output", "output_type")                \
      .TypeAttr("T", kNumberTypes)                    \
      .TypeAttr("Tidx", kIndexTypes, DT_INT32)        \
      .TypeAttr("output_type", kIndexTypes, DT_INT64) \
      .SetShapeFn(ArgShape)
RILL_REGISTER_ARG("ArgMax");
RILL_REGISTER_ARG("ArgMin");
#undef RILL_REGISTER_ARG

namespace ops {

using internal::NodeBuilder;

RILL_DEFINE_BINARY_OP(Add)
RILL_DEFINE_BINARY_OP(AddV2)
RILL_DEFINE_BINARY_OP(FloorDiv)
RILL_DEFINE_BINARY_OP(FloorMod)
RILL_DEFINE_BINARY_OP(TruncateDiv)
RILL_DEFINE_BINARY_OP(TruncateMod)
RILL_DEFINE_BINARY_OP(Mod)
RILL_DEFINE_BINARY_OP(Atan2)
RILL_DEFINE_BINARY_OP(DivNoNan)
RILL_DEFINE_BINARY_OP(MulNoNan)
RILL_DEFINE_BINARY_OP(Xlogy)
RILL_DEFINE_BINARY_OP(Xlog1py)
RILL_DEFINE_BINARY_OP(Xdivy)
RILL_DEFINE_BINARY_OP(Sub)
RILL_DEFINE_BINARY_OP(Mul)
RILL_DEFINE_BINARY_OP(Div)
RILL_DEFINE_BINARY_OP(RealDiv)
RILL_DEFINE_BINARY_OP(SquaredDifference)
RILL_DEFINE_BINARY_OP(Polygamma)
RILL_DEFINE_BINARY_OP(Pow)
RILL_DEFINE_BINARY_OP(Maximum)
RILL_DEFINE_BINARY_OP(Minimum)
RILL_DEFINE_BINARY_OP(Equal)
RILL_DEFINE_BINARY_OP(Less)
RILL_DEFINE_BINARY_OP(Greater)
RILL_DEFINE_BINARY_OP(NotEqual)
RILL_DEFINE_BINARY_OP(LessEqual)
RILL_DEFINE_BINARY_OP(GreaterEqual)
RILL_DEFINE_BINARY_OP(LogicalAnd)
RILL_DEFINE_BINARY_OP(LogicalOr)
RILL_DEFINE_UNARY_OP(LogicalNot)
RILL_DEFINE_UNARY_OP(Neg)
RILL_DEFINE_UNARY_OP(Abs)
RILL_DEFINE_UNARY_OP(Square)
RILL_DEFINE_UNARY_OP(Sqrt)
RILL_DEFINE_UNARY_OP(Exp)
RILL_DEFINE_UNARY_OP(Log)
RILL_DEFINE_UNARY_OP(Sign)
RILL_DEFINE_UNARY_OP(Rsqrt)
RILL_DEFINE_UNARY_OP(Reciprocal)
RILL_DEFINE_UNARY_OP(Floor)
RILL_DEFINE_UNARY_OP(Ceil)
RILL_DEFINE_UNARY_OP(Round)
RILL_DEFINE_UNARY_OP(Sin)
RILL_DEFINE_UNARY_OP(Cos)
RILL_DEFINE_UNARY_OP(Erf)
RILL_DEFINE_UNARY_OP(Softplus)
RILL_DEFINE_UNARY_OP(Softsign)
RILL_DEFINE_UNARY_OP(Lgamma)
RILL_DEFINE_UNARY_OP(Digamma)
RILL_DEFINE_UNARY_OP(Expm1)
RILL_DEFINE_UNARY_OP(Log1p)
RILL_DEFINE_UNARY_OP(Sinh)
RILL_DEFINE_UNARY_OP(Cosh)
RILL_DEFINE_UNARY_OP(Tan)
RILL_DEFINE_UNARY_OP(Asin)
RILL_DEFINE_UNARY_OP(Acos)
RILL_DEFINE_UNARY_OP(Atan)
RILL_DEFINE_UNARY_OP(Asinh)
RILL_DEFINE_UNARY_OP(Acosh)
RILL_DEFINE_UNARY_OP(Atanh)
RILL_DEFINE_UNARY_OP(Erfc)
RILL_DEFINE_UNARY_OP(Rint)
RILL_DEFINE_UNARY_OP(IsNan)
RILL_DEFINE_UNARY_OP(IsInf)
RILL_DEFINE_UNARY_OP(IsFinite)

ClipByValue::ClipByValue(const Scope& scope, Input t, Input clip_value_min, Input clip_value_max) {
  NodeBuilder(scope, "ClipByValue")
      .Input(t)
      .Input(clip_value_min)
      .Input(clip_value_max)
      .Finalize(this);
}

AddN::AddN(const Scope& scope, InputList inputs) {
  NodeBuilder(scope, "AddN").Inputs(inputs).Finalize(this);
}

MatMul::MatMul(const Scope& scope, Input a, Input b, const Attrs& attrs) {
  NodeBuilder(scope, "MatMul")
      .Input(a)
      .Input(b)
      .Attr("transpose_a", attrs.transpose_a_)
      .Attr("transpose_b", attrs.transpose_b_)
      .Finalize(this);
}

#define RILL_DEFINE_REDUCTION_OP(Name)                                          \
  Name::Name(const Scope& scope, Input input, Input axis, const Attrs& attrs) { \
    NodeBuilder(scope, #Name)                                                   \
        .Input(input)                                                           \
        .Input(axis)                                                            \
        .Attr("keep_dims", attrs.keep_dims_)                                    \
        .Finalize(this);                                                        \
  }
RILL_DEFINE_REDUCTION_OP(Sum)
RILL_DEFINE_REDUCTION_OP(Mean)
RILL_DEFINE_REDUCTION_OP(Max)
RILL_DEFINE_REDUCTION_OP(Min)
RILL_DEFINE_REDUCTION_OP(EuclideanNorm)
RILL_DEFINE_REDUCTION_OP(Prod)
RILL_DEFINE_REDUCTION_OP(All)
RILL_DEFINE_REDUCTION_OP(Any)

MeanAllGrad::MeanAllGrad(const Scope& scope, Input gradients, Input shape) {
  NodeBuilder(scope, "_MeanAllGrad", "MeanAllGrad").Input(gradients).Input(shape).Finalize(this);
}

#define RILL_DEFINE_ARG_OP(Name)                                                     \
  Name::Name(const Scope& scope, Input input, Input dimension, const Attrs& attrs) { \
    NodeBuilder(scope, #Name)                                                        \
        .Input(input)                                                                \
        .Input(dimension)                                                            \
        .Attr("output_type", attrs.output_type_)                                     \
        .Finalize(this);                                                             \
  }
RILL_DEFINE_ARG_OP(ArgMax)
RILL_DEFINE_ARG_OP(ArgMin)
#undef RILL_DEFINE_ARG_OP

}  // namespace ops
}  // namespace rill
