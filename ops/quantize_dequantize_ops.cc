// QuantizeAndDequantizeV2, V3, V4 and V4Grad (ops/quantize_dequantize_ops.h): schemas, shape
// functions (core/quantize_dequantize.h's checks), wrappers and gradients. As TensorFlow's:
// V2's and V3's gradients pass straight through; V4's is V4Grad, whose own gradient passes
// the incoming one through the same mask (V4Grad is linear in its gradients).
#include "rill/ops/quantize_dequantize_ops.h"

#include "rill/core/quantize_dequantize.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

void QdqAttrDefs(OpDefBuilder& b, bool v3) {
  b.Attr("signed_input", AttrKind::kBool, true)
      .Attr("range_given", AttrKind::kBool, v3)
      .Attr("narrow_range", AttrKind::kBool, false)
      .Attr("axis", AttrKind::kInt, int64_t{-1})
      .TypeAttr("T", kFloatTypes, DT_FLOAT);
  if (!v3) {
    b.Attr("num_bits", AttrKind::kInt, int64_t{8})
        .Attr("round_mode", AttrKind::kString, std::string("HALF_TO_EVEN"));
  }
}
void V2AttrDefs(OpDefBuilder& b) { QdqAttrDefs(b, false); }
void V3AttrDefs(OpDefBuilder& b) { QdqAttrDefs(b, true); }

}  // namespace

#define RILL_REGISTER_QDQ(Name) \
  RILL_REGISTER_OP(Name)        \
      .Input("input", "T")      \
      .Input("input_min", "T")  \
      .Input("input_max", "T")  \
      .Output("output", "T")    \
      .Apply(V2AttrDefs)        \
      .SetShapeFn(QdqShape);
RILL_REGISTER_QDQ("QuantizeAndDequantizeV2")
RILL_REGISTER_QDQ("QuantizeAndDequantizeV4")
#undef RILL_REGISTER_QDQ

RILL_REGISTER_OP("QuantizeAndDequantizeV3")
    .Input("input", "T")
    .Input("input_min", "T")
    .Input("input_max", "T")
    .Input("num_bits", DT_INT32)
    .Output("output", "T")
    .Apply(V3AttrDefs)
    .SetShapeFn(QdqShape);

RILL_REGISTER_OP("QuantizeAndDequantizeV4Grad")
    .Input("gradients", "T")
    .Input("input", "T")
    .Input("input_min", "T")
    .Input("input_max", "T")
    .Output("input_backprop", "T")
    .Output("input_min_backprop", "T")
    .Output("input_max_backprop", "T")
    .Attr("axis", AttrKind::kInt, int64_t{-1})
    .TypeAttr("T", kFloatTypes, DT_FLOAT)
    .SetShapeFn(QdqGradShape);

namespace ops {
namespace {

using internal::NodeBuilder;

NodeBuilder& WithAttrs(NodeBuilder& b, const QuantizeAndDequantizeAttrs& a) {
  if (a.signed_input_) b.Attr("signed_input", *a.signed_input_);
  if (a.num_bits_) b.Attr("num_bits", *a.num_bits_);
  if (a.range_given_) b.Attr("range_given", *a.range_given_);
  if (a.round_mode_) b.Attr("round_mode", *a.round_mode_);
  if (a.narrow_range_) b.Attr("narrow_range", *a.narrow_range_);
  if (a.axis_) b.Attr("axis", *a.axis_);
  return b;
}

// V2 and V3: the identity for input; nothing for the range (or num_bits).
absl::Status StraightThrough(const Scope& s, const Operation& op, const std::vector<Output>& g,
                             std::vector<Output>* out) {
  out->push_back(g[0]);
  for (int i = 1; i < op.node()->num_inputs(); ++i) out->push_back(Output());
  return s.status();
}

absl::Status V4Grad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                    std::vector<Output>* out) {
  const auto axis = QuantizeAndDequantizeV4Grad::Axis(op.node()->attr<int64_t>("axis"));
  QuantizeAndDequantizeV4Grad d(s, g[0], grad::In(op, 0), grad::In(op, 1), grad::In(op, 2), axis);
  *out = {d.input_backprop, d.input_min_backprop, d.input_max_backprop};
  return s.status();
}

// d(input_backprop)/d(gradients) is the mask itself; the rest is zero where it is defined.
absl::Status V4GradGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                        std::vector<Output>* out) {
  const auto axis = QuantizeAndDequantizeV4Grad::Axis(op.node()->attr<int64_t>("axis"));
  QuantizeAndDequantizeV4Grad d(s, g[0], grad::In(op, 1), grad::In(op, 2), grad::In(op, 3), axis);
  *out = {d.input_backprop, Output(), Output(), Output()};
  return s.status();
}

}  // namespace

QuantizeAndDequantizeV2::QuantizeAndDequantizeV2(const Scope& scope, Input input, Input input_min,
                                                 Input input_max, const Attrs& attrs) {
  NodeBuilder b(scope, "QuantizeAndDequantizeV2");
  WithAttrs(b.Input(input).Input(input_min).Input(input_max), attrs).Finalize(this);
}
QuantizeAndDequantizeV4::QuantizeAndDequantizeV4(const Scope& scope, Input input, Input input_min,
                                                 Input input_max, const Attrs& attrs) {
  NodeBuilder b(scope, "QuantizeAndDequantizeV4");
  WithAttrs(b.Input(input).Input(input_min).Input(input_max), attrs).Finalize(this);
}
QuantizeAndDequantizeV3::QuantizeAndDequantizeV3(const Scope& scope, Input input, Input input_min,
                                                 Input input_max, Input num_bits,
                                                 const Attrs& attrs) {
  NodeBuilder b(scope, "QuantizeAndDequantizeV3");
  WithAttrs(b.Input(input).Input(input_min).Input(input_max).Input(num_bits), attrs).Finalize(this);
}
QuantizeAndDequantizeV4Grad::QuantizeAndDequantizeV4Grad(const Scope& scope, Input gradients,
                                                         Input input, Input input_min,
                                                         Input input_max, const Attrs& attrs) {
  NodeBuilder b(scope, "QuantizeAndDequantizeV4Grad");
  operation = WithAttrs(b.Input(gradients).Input(input).Input(input_min).Input(input_max), attrs)
                  .Finalize();
  input_backprop = Output(operation.node(), 0);
  input_min_backprop = Output(operation.node(), 1);
  input_max_backprop = Output(operation.node(), 2);
}

RILL_REGISTER_GRADIENT("QuantizeAndDequantizeV2", StraightThrough);
RILL_REGISTER_GRADIENT("QuantizeAndDequantizeV3", StraightThrough);
RILL_REGISTER_GRADIENT("QuantizeAndDequantizeV4", V4Grad);
RILL_REGISTER_GRADIENT("QuantizeAndDequantizeV4Grad", V4GradGrad);

}  // namespace ops
}  // namespace rill
