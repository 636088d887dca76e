#include "rill/ops/nn_ops.h"

#include "rill/core/kernel_util.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {
absl::Status AtLeastRank1(InferenceContext& c) {
  const auto& s = c.input_shape(0);
  if (!s.unknown_rank() && s.dims() < 1) {
    return errors::InvalidArgument("logits must have rank >= 1, got shape ", s.DebugString());
  }
  return shape_fns::Unchanged(c);
}
RILL_REGISTER_OP("Relu")
    .Input("features", "T")
    .Output("activations", "T")
    .TypeAttr("T", kSignedNumberTypes)
    .SetShapeFn(shape_fns::Unchanged);
RILL_REGISTER_OP("Sigmoid")
    .Input("x", "T")
    .Output("y", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::Unchanged);
RILL_REGISTER_OP("Tanh")
    .Input("x", "T")
    .Output("y", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::Unchanged);
RILL_REGISTER_OP("Softmax")
    .Input("logits", "T")
    .Output("softmax", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(AtLeastRank1);
RILL_REGISTER_OP("LogSoftmax")
    .Input("logits", "T")
    .Output("logsoftmax", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(AtLeastRank1);

// [batch, classes] features; labels as given by `sparse`.
absl::Status XentShape(InferenceContext& c, bool sparse) {
  const auto& f = c.input_shape(0);
  const auto& l = c.input_shape(1);
  if (!f.unknown_rank() && f.dims() != 2) {
    return errors::InvalidArgument("features must be [batch, classes], got shape ",
                                   f.DebugString());
  }
  int64_t batch = f.unknown_rank() ? -1 : f.dim_size(0);
  if (sparse) {
    if (!l.unknown_rank() && l.dims() != 1) {
      return errors::InvalidArgument("labels must be a [batch] vector, got shape ",
                                     l.DebugString());
    }
    if (!l.unknown_rank() && batch >= 0 && l.dim_size(0) >= 0 && l.dim_size(0) != batch) {
      return errors::InvalidArgument("features ", f.DebugString(), " and labels ", l.DebugString(),
                                     " disagree on the batch size");
    }
    if (batch < 0 && !l.unknown_rank()) batch = l.dim_size(0);
  } else {
    if (!l.unknown_rank() && l.dims() != 2) {
      return errors::InvalidArgument("labels must be [batch, classes], got shape ",
                                     l.DebugString());
    }
    if (!f.IsCompatibleWith(l)) {
      return errors::InvalidArgument("features and labels must have the same shape, got ",
                                     f.DebugString(), " and ", l.DebugString());
    }
    if (batch < 0 && !l.unknown_rank()) batch = l.dim_size(0);
  }
  c.set_output(0, PartialTensorShape({batch}));
  c.set_output(1, f.unknown_rank() ? PartialTensorShape({batch, -1})
                                   : PartialTensorShape({batch, f.dim_size(1)}));
  return absl::OkStatus();
}

}  // namespace

// sum(t^2) / 2 over every element: a scalar.
RILL_REGISTER_OP("L2Loss")
    .Input("t", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn(shape_fns::Scalar);

RILL_REGISTER_OP("SoftmaxCrossEntropyWithLogits")
    .Input("features", "T")
    .Input("labels", "T")
    .Output("loss", "T")
    .Output("backprop", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn([](InferenceContext& c) { return XentShape(c, false); });
RILL_REGISTER_OP("SparseSoftmaxCrossEntropyWithLogits")
    .Input("features", "T")
    .Input("labels", "Tlabels")
    .Output("loss", "T")
    .Output("backprop", "T")
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("Tlabels", kIndexTypes, DT_INT64)
    .SetShapeFn([](InferenceContext& c) { return XentShape(c, true); });
RILL_REGISTER_OP("_CategoricalCrossentropy")
    .Input("output", "T")
    .Input("labels", "T")
    .Output("loss", "T")
    .Output("backprop", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("epsilon", AttrKind::kFloat, 1e-7f)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const float eps = c.attr<float>("epsilon");
      if (!(eps >= 0.f && eps < 0.5f)) {
        return errors::InvalidArgument("epsilon must be in [0, 0.5), got ", eps);
      }
      return XentShape(c, false);
    });
RILL_REGISTER_OP("_Accuracy")
    .Input("output", "T")
    .Input("labels", "Tlabels")
    .Output("accuracy", DT_FLOAT)
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("Tlabels", {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64})
    .Attr("kind", AttrKind::kString)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(AccuracyKind kind, ParseAccuracyKind(c.attr<std::string>("kind")));
      const auto& o = c.input_shape(0);
      const auto& l = c.input_shape(1);
      if (kind == AccuracyKind::kSparseCategorical && c.input_type(1) != DT_INT32 &&
          c.input_type(1) != DT_INT64) {
        return errors::InvalidArgument("sparse labels must be int32 or int64, got ",
                                       DataTypeString(c.input_type(1)));
      }
      if (kind != AccuracyKind::kBinary && !o.unknown_rank() && o.dims() != 2) {
        return errors::InvalidArgument("outputs must be [batch, classes], got shape ",
                                       o.DebugString());
      }
      if (kind == AccuracyKind::kCategorical && !o.IsCompatibleWith(l)) {
        return errors::InvalidArgument("outputs and labels must have the same shape, got ",
                                       o.DebugString(), " and ", l.DebugString());
      }
      c.set_output(0, PartialTensorShape({}));
      return absl::OkStatus();
    });
RILL_REGISTER_OP("Dropout")
    .Input("x", "T")
    .Output("output", "T")
    .Output("mask", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("rate", AttrKind::kFloat)
    .Attr("seed", AttrKind::kInt, int64_t{0})
    .Attr("seed2", AttrKind::kInt, int64_t{0})
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const float rate = c.attr<float>("rate");
      if (!(rate >= 0.f && rate < 1.f)) {
        return errors::InvalidArgument("rate must be in [0, 1), got ", rate);
      }
      c.set_output(0, c.input_shape(0));
      c.set_output(1, c.input_shape(0));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("SigmoidCrossEntropyWithLogits")
    .Input("logits", "T")
    .Input("labels", "T")
    .Output("loss", "T")
    .TypeAttr("T", kFloatTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      if (!c.input_shape(0).IsCompatibleWith(c.input_shape(1))) {
        return errors::InvalidArgument("logits and labels must have the same shape, got ",
                                       c.input_shape(0).DebugString(), " and ",
                                       c.input_shape(1).DebugString());
      }
      return shape_fns::Unchanged(c);
    });

// The fused end of a Dense or Conv2D layer, and its gradient (see nn_ops.h).
RILL_REGISTER_OP("_BiasActivation")
    .Input("value", "T")
    .Input("bias", "T")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("activation", AttrKind::kString)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(shape_fns::BiasAdd(c));
      return shape_fns::FusedBiasActivation(c, 1);
    });
RILL_REGISTER_OP("_BiasActivationGrad")
    .Input("gradients", "T")
    .Input("outputs", "T")
    .Output("backprops", "T")
    .Output("bias_backprop", "T")
    .TypeAttr("T", kFloatTypes)
    .Attr("activation", AttrKind::kString)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(shape_fns::FusedActivationAttr(c));
      const auto& g = c.input_shape(0);
      const auto& y = c.input_shape(1);
      if (!g.IsCompatibleWith(y)) {
        return errors::InvalidArgument("gradients and outputs must have the same shape, got ",
                                       g.DebugString(), " and ", y.DebugString());
      }
      const PartialTensorShape& known = g.unknown_rank() ? y : g;
      if (!known.unknown_rank() && known.dims() < 1) {
        return errors::InvalidArgument("outputs must have rank >= 1, got a scalar");
      }
      c.set_output(0, known);
      c.set_output(1, known.unknown_rank()
                          ? PartialTensorShape({-1})
                          : PartialTensorShape({known.dim_size(known.dims() - 1)}));
      return absl::OkStatus();
    });

namespace ops {
using internal::NodeBuilder;

SoftmaxCrossEntropyWithLogits::SoftmaxCrossEntropyWithLogits(const Scope& scope, Input features,
                                                             Input labels) {
  operation =
      NodeBuilder(scope, "SoftmaxCrossEntropyWithLogits").Input(features).Input(labels).Finalize();
  if (operation.node() != nullptr) {
    loss = Output(operation, 0);
    backprop = Output(operation, 1);
  }
}
SparseSoftmaxCrossEntropyWithLogits::SparseSoftmaxCrossEntropyWithLogits(const Scope& scope,
                                                                         Input features,
                                                                         Input labels) {
  operation = NodeBuilder(scope, "SparseSoftmaxCrossEntropyWithLogits")
                  .Input(features)
                  .Input(labels)
                  .Finalize();
  if (operation.node() != nullptr) {
    loss = Output(operation, 0);
    backprop = Output(operation, 1);
  }
}
CategoricalCrossentropy::CategoricalCrossentropy(const Scope& scope, Input output, Input labels,
                                                 float epsilon) {
  operation = NodeBuilder(scope, "_CategoricalCrossentropy")
                  .Input(output)
                  .Input(labels)
                  .Attr("epsilon", epsilon)
                  .Finalize();
  if (operation.node() != nullptr) {
    loss = Output(operation, 0);
    backprop = Output(operation, 1);
  }
}
Accuracy::Accuracy(const Scope& scope, Input output, Input labels, const std::string& kind) {
  NodeBuilder(scope, "_Accuracy", "Accuracy")
      .Input(output)
      .Input(labels)
      .Attr("kind", kind)
      .Finalize(this);
}
Dropout::Dropout(const Scope& scope, Input x, float rate, const Attrs& attrs) {
  operation = NodeBuilder(scope, "Dropout")
                  .Input(x)
                  .Attr("rate", rate)
                  .Attr("seed", attrs.seed_)
                  .Attr("seed2", attrs.seed2_)
                  .Finalize();
  if (operation.node() != nullptr) {
    output = Output(operation, 0);
    mask = Output(operation, 1);
  }
}

SigmoidCrossEntropyWithLogits::SigmoidCrossEntropyWithLogits(const Scope& scope, Input logits,
                                                             Input labels) {
  NodeBuilder(scope, "SigmoidCrossEntropyWithLogits").Input(logits).Input(labels).Finalize(this);
}
BiasActivation::BiasActivation(const Scope& scope, Input value, Input bias,
                               const std::string& activation) {
  NodeBuilder(scope, "_BiasActivation", "BiasActivation")
      .Input(value)
      .Input(bias)
      .Attr("activation", activation)
      .Finalize(this);
}
BiasActivationGrad::BiasActivationGrad(const Scope& scope, Input gradients, Input outputs,
                                       const std::string& activation) {
  operation = NodeBuilder(scope, "_BiasActivationGrad", "BiasActivationGrad")
                  .Input(gradients)
                  .Input(outputs)
                  .Attr("activation", activation)
                  .Finalize();
  if (operation.node() != nullptr) {
    backprops = Output(operation, 0);
    bias_backprop = Output(operation, 1);
  }
}
RILL_DEFINE_UNARY_OP(Relu)
RILL_DEFINE_UNARY_OP(L2Loss)
RILL_DEFINE_UNARY_OP(Sigmoid)
RILL_DEFINE_UNARY_OP(Tanh)
RILL_DEFINE_UNARY_OP(Softmax)
RILL_DEFINE_UNARY_OP(LogSoftmax)
}  // namespace ops
}  // namespace rill
