// Bincount and DenseBincount (ops/math_ops.h): schemas, shape functions (core/bincount.h)
// and wrappers. Counts have no slope: neither op is differentiable, as in TensorFlow.
#include "rill/core/bincount.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill {
namespace {
const std::vector<DataType> kBincountWeightTypes = {DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE};
}  // namespace

RILL_REGISTER_OP("Bincount")
    .Input("arr", DT_INT32)
    .Input("size", DT_INT32)
    .Input("weights", "T")
    .Output("bins", "T")
    .TypeAttr("T", kBincountWeightTypes)
    .SetShapeFn(BincountShape);

RILL_REGISTER_OP("DenseBincount")
    .Input("input", "Tidx")
    .Input("size", "Tidx")
    .Input("weights", "T")
    .Output("output", "T")
    .TypeAttr("Tidx", kIndexTypes)
    .TypeAttr("T", kBincountWeightTypes)
    .Attr("binary_output", AttrKind::kBool, false)
    .SetShapeFn(DenseBincountShape);

namespace ops {

Bincount::Bincount(const Scope& scope, Input arr, Input size, Input weights) {
  internal::NodeBuilder(scope, "Bincount").Input(arr).Input(size).Input(weights).Finalize(this);
}

DenseBincount::DenseBincount(const Scope& scope, Input input, Input size, Input weights,
                             const Attrs& attrs) {
  internal::NodeBuilder(scope, "DenseBincount")
      .Input(input)
      .Input(size)
      .Input(weights)
      .Attr("binary_output", attrs.binary_output_)
      .Finalize(this);
}

RILL_REGISTER_NO_GRADIENT("Bincount");
RILL_REGISTER_NO_GRADIENT("DenseBincount");

}  // namespace ops
}  // namespace rill
