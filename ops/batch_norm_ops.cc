// FusedBatchNormV3 and FusedBatchNormGradV3: schemas, shape functions (core/batch_norm.h's
// checks, shared with the kernels) and wrappers. Gradients: ops/batch_norm_grad.cc.
#include "rill/ops/batch_norm_ops.h"

#include "rill/core/batch_norm.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

std::vector<PartialTensorShape> Shapes(const InferenceContext& c, int n) {
  std::vector<PartialTensorShape> v;
  for (int i = 0; i < n; ++i) v.push_back(c.input_shape(i));
  return v;
}

// rill's kernels take statistics in x's own dtype.
absl::Status SameTU(const InferenceContext& c) {
  if (c.attr<DataType>("T") != c.attr<DataType>("U")) {
    return errors::InvalidArgument("U (", DataTypeString(c.attr<DataType>("U")), ") must equal T (",
                                   DataTypeString(c.attr<DataType>("T")),
                                   "): rill normalizes in x's own dtype");
  }
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("FusedBatchNormV3")
    .Input("x", "T")
    .Input("scale", "U")
    .Input("offset", "U")
    .Input("mean", "U")
    .Input("variance", "U")
    .Output("y", "T")
    .Output("batch_mean", "U")
    .Output("batch_variance", "U")
    .Output("reserve_space_1", "U")
    .Output("reserve_space_2", "U")
    .Output("reserve_space_3", "U")
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("U", kFloatTypes)
    .Attr("epsilon", AttrKind::kFloat, 0.0001f)
    .Attr("exponential_avg_factor", AttrKind::kFloat, 1.0f)
    .Attr("data_format", AttrKind::kString, std::string("NHWC"))
    .Attr("is_training", AttrKind::kBool, true)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(SameTU(c));
      RILL_ASSIGN_OR_RETURN(int64_t channels,
                            CheckBatchNormShapes(BatchNormAttrsOf(c.attrs()), Shapes(c, 5)));
      c.set_output(0, c.input_shape(0));
      for (int i = 1; i < 5; ++i) c.set_output(i, PartialTensorShape({channels}));
      c.set_output(5, PartialTensorShape({}));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("FusedBatchNormGradV3")
    .Input("y_backprop", "T")
    .Input("x", "T")
    .Input("scale", "U")
    .Input("reserve_space_1", "U")
    .Input("reserve_space_2", "U")
    .Input("reserve_space_3", "U")
    .Output("x_backprop", "T")
    .Output("scale_backprop", "U")
    .Output("offset_backprop", "U")
    .Output("reserve_space_4", "U")
    .Output("reserve_space_5", "U")
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("U", kFloatTypes)
    .Attr("epsilon", AttrKind::kFloat, 0.0001f)
    .Attr("data_format", AttrKind::kString, std::string("NHWC"))
    .Attr("is_training", AttrKind::kBool, true)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(SameTU(c));
      RILL_ASSIGN_OR_RETURN(int64_t channels,
                            CheckBatchNormGradShapes(BatchNormAttrsOf(c.attrs()), Shapes(c, 5)));
      c.set_output(0, c.input_shape(1).unknown_rank() ? c.input_shape(0) : c.input_shape(1));
      for (int i = 1; i < 3; ++i) c.set_output(i, PartialTensorShape({channels}));
      for (int i = 3; i < 5; ++i) c.set_output(i, PartialTensorShape({0}));
      return absl::OkStatus();
    });

namespace ops {

FusedBatchNormV3::FusedBatchNormV3(const Scope& scope, Input x, Input scale, Input offset,
                                   Input mean, Input variance, const Attrs& attrs) {
  operation = internal::NodeBuilder(scope, "FusedBatchNormV3")
                  .Input(x)
                  .Input(scale)
                  .Input(offset)
                  .Input(mean)
                  .Input(variance)
                  .Attr("epsilon", attrs.epsilon_)
                  .Attr("exponential_avg_factor", attrs.exponential_avg_factor_)
                  .Attr("data_format", attrs.data_format_)
                  .Attr("is_training", attrs.is_training_)
                  .Finalize();
  if (operation.node() == nullptr) return;
  y = Output(operation, 0);
  batch_mean = Output(operation, 1);
  batch_variance = Output(operation, 2);
  reserve_space_1 = Output(operation, 3);
  reserve_space_2 = Output(operation, 4);
  reserve_space_3 = Output(operation, 5);
}

FusedBatchNormGradV3::FusedBatchNormGradV3(const Scope& scope, Input y_backprop, Input x,
                                           Input scale, Input reserve_space_1,
                                           Input reserve_space_2, Input reserve_space_3,
                                           const Attrs& attrs) {
  operation = internal::NodeBuilder(scope, "FusedBatchNormGradV3")
                  .Input(y_backprop)
                  .Input(x)
                  .Input(scale)
                  .Input(reserve_space_1)
                  .Input(reserve_space_2)
                  .Input(reserve_space_3)
                  .Attr("epsilon", attrs.epsilon_)
                  .Attr("data_format", attrs.data_format_)
                  .Attr("is_training", attrs.is_training_)
                  .Finalize();
  if (operation.node() == nullptr) return;
  x_backprop = Output(operation, 0);
  scale_backprop = Output(operation, 1);
  offset_backprop = Output(operation, 2);
  reserve_space_4 = Output(operation, 3);
  reserve_space_5 = Output(operation, 4);
}

}  // namespace ops
}  // namespace rill
