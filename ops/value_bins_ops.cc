// Bucketize, HistogramFixedWidth (ops/math_ops.h), UnravelIndex and ListDiff
// (ops/array_ops.h, ListDiff's wrapper SetDiff1D): schemas, shape functions
// (core/value_bins.h, core/index_sets.h) and wrappers. None is differentiable, as in
// TensorFlow: their outputs are counts, bins, coordinates and a selection.
#include "rill/core/index_sets.h"
#include "rill/core/value_bins.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill {
namespace {
const std::vector<DataType> kBinnedTypes = {DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE};
}  // namespace

RILL_REGISTER_OP("Bucketize")
    .Input("input", "T")
    .Output("output", DT_INT32)
    .TypeAttr("T", kBinnedTypes)
    .Attr("boundaries", AttrKind::kFloatList)
    .SetShapeFn(BucketizeShape);

RILL_REGISTER_OP("HistogramFixedWidth")
    .Input("values", "T")
    .Input("value_range", "T")
    .Input("nbins", DT_INT32)
    .Output("out", "dtype")
    .TypeAttr("T", kBinnedTypes)
    .TypeAttr("dtype", kIndexTypes, DT_INT32)
    .SetShapeFn(HistogramShape);

RILL_REGISTER_OP("UnravelIndex")
    .Input("indices", "Tidx")
    .Input("dims", "Tidx")
    .Output("output", "Tidx")
    .TypeAttr("Tidx", kIndexTypes, DT_INT32)
    .SetShapeFn(UnravelIndexShape);

RILL_REGISTER_OP("ListDiff")
    .Input("x", "T")
    .Input("y", "T")
    .Output("out", "T")
    .Output("idx", "out_idx")
    .TypeAttr("T", kAllTypes)
    .TypeAttr("out_idx", kIndexTypes, DT_INT32)
    .SetShapeFn(ListDiffShape);

namespace ops {

Bucketize::Bucketize(const Scope& scope, Input input, const std::vector<float>& boundaries) {
  internal::NodeBuilder(scope, "Bucketize")
      .Input(input)
      .Attr("boundaries", boundaries)
      .Finalize(this);
}

HistogramFixedWidth::HistogramFixedWidth(const Scope& scope, Input values, Input value_range,
                                         Input nbins, const Attrs& attrs) {
  internal::NodeBuilder(scope, "HistogramFixedWidth")
      .Input(values)
      .Input(value_range)
      .Input(nbins)
      .Attr("dtype", attrs.dtype_)
      .Finalize(this);
}

UnravelIndex::UnravelIndex(const Scope& scope, Input indices, Input dims) {
  internal::NodeBuilder(scope, "UnravelIndex").Input(indices).Input(dims).Finalize(this);
}

SetDiff1D::SetDiff1D(const Scope& scope, Input x, Input y, const Attrs& attrs)
    : operation(internal::NodeBuilder(scope, "ListDiff")
                    .Input(x)
                    .Input(y)
                    .Attr("out_idx", attrs.out_idx_)
                    .Finalize()) {
  if (operation.node() == nullptr) return;
  out = Output(operation, 0);
  idx = Output(operation, 1);
}

RILL_REGISTER_NO_GRADIENT("Bucketize");
RILL_REGISTER_NO_GRADIENT("HistogramFixedWidth");
RILL_REGISTER_NO_GRADIENT("UnravelIndex");
RILL_REGISTER_NO_GRADIENT("ListDiff");

}  // namespace ops
}  // namespace rill
