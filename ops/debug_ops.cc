// CheckNumerics, Assert, Print and Timestamp: schemas, wrappers and gradients. CheckNumerics
// is not stateful: it is the identity or an error, so folding or merging two alike changes neither
// result. Assert and Print are, as TensorFlow's: each run must check, and print.
#include "rill/ops/debug_ops.h"

#include "absl/strings/str_cat.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/gradients.h"

namespace rill {

RILL_REGISTER_OP("CheckNumerics")
    .Input("tensor", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("message", AttrKind::kString)
    .SetShapeFn(shape_fns::Unchanged);

namespace {
// TensorFlow's check: "In[0] should be a scalar".
absl::Status AssertShape(InferenceContext& c) {
  const PartialTensorShape& cond = c.input_shape(0);
  if (!cond.unknown_rank() && cond.dims() != 0) {
    return errors::InvalidArgument("In[0] should be a scalar: ", cond.DebugString());
  }
  return absl::OkStatus();
}
}  // namespace

RILL_REGISTER_OP("Assert")
    .Input("condition", DT_BOOL)
    .InputTypeList("data", "T")
    .Attr("T", AttrKind::kTypeList)
    .Attr("summarize", AttrKind::kInt, int64_t{3})
    .SetIsStateful()
    .SetShapeFn(AssertShape);

RILL_REGISTER_OP("Print")
    .Input("input", "T")
    .InputTypeList("data", "U")
    .Output("output", "T")
    .TypeAttr("T")
    .Attr("U", AttrKind::kTypeList)
    .Attr("message", AttrKind::kString, std::string())
    .Attr("first_n", AttrKind::kInt, int64_t{-1})
    .Attr("summarize", AttrKind::kInt, int64_t{3})
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unchanged);

// Seconds since the epoch, a float64 scalar (tf.timestamp). Stateful: each run reads the
// clock again.
RILL_REGISTER_OP("Timestamp").Output("ts", DT_DOUBLE).SetIsStateful().SetShapeFn(shape_fns::Scalar);

namespace ops {

Timestamp::Timestamp(const Scope& scope) {
  internal::NodeBuilder(scope, "Timestamp").Finalize(this);
}

Assert::Assert(const Scope& scope, Input condition, InputList data, const Attrs& attrs) {
  operation = internal::NodeBuilder(scope, "Assert")
                  .Input(condition)
                  .Inputs(data)
                  .Attr("summarize", attrs.summarize_)
                  .Finalize();
}

Print::Print(const Scope& scope, Input input, InputList data, const Attrs& attrs) {
  internal::NodeBuilder(scope, "Print")
      .Input(input)
      .Inputs(data)
      .Attr("message", attrs.message_)
      .Attr("first_n", attrs.first_n_)
      .Attr("summarize", attrs.summarize_)
      .Finalize(this);
}

CheckNumerics::CheckNumerics(const Scope& scope, Input tensor, const std::string& message) {
  internal::NodeBuilder(scope, "CheckNumerics")
      .Input(tensor)
      .Attr("message", message)
      .Finalize(this);
}

namespace {
// The gradient checked too, as TensorFlow's.
absl::Status CheckNumericsGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                               std::vector<Output>* out) {
  const std::string message =
      absl::StrCat("Not a number (NaN) or infinity (Inf) values detected in gradient. ",
                   op.node()->attr<std::string>("message"));
  out->push_back(CheckNumerics(s, g[0], message));
  return s.status();
}
}  // namespace

RILL_REGISTER_GRADIENT("CheckNumerics", CheckNumericsGrad);
RILL_REGISTER_NO_GRADIENT("Assert");
RILL_REGISTER_NO_GRADIENT("Timestamp");

namespace {
// The input's gradient passes through (TensorFlow's _PrintGrad); the data get none.
absl::Status PrintGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                       std::vector<Output>* out) {
  out->push_back(g[0]);
  for (int i = 1; i < op.node()->num_inputs(); ++i) out->push_back(NoGradient());
  return s.status();
}
}  // namespace

RILL_REGISTER_GRADIENT("Print", PrintGrad);

}  // namespace ops
}  // namespace rill
