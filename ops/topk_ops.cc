// TopKV2: schema, shape function (core/topk_prepare.h's rule, shared with the kernels),
// wrapper and gradient (TensorFlow's: each value's gradient back at its index).
#include "rill/ops/topk_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/core/topk_prepare.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill {

RILL_REGISTER_OP("TopKV2")
    .Input("input", "T")
    .Input("k", DT_INT32)
    .Output("values", "T")
    .Output("indices", DT_INT32)
    .TypeAttr("T", kNumberTypes)
    .Attr("sorted", AttrKind::kBool, true)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 1, "k"));
      RILL_ASSIGN_OR_RETURN(auto k, shape_fns::ConstInts(c, 1, "k"));
      const PartialTensorShape& in = c.input_shape(0);
      PartialTensorShape out;
      if (!in.unknown_rank()) {
        if (in.dims() == 0)
          return errors::InvalidArgument("input must have rank >= 1, got a scalar");
        RILL_ASSIGN_OR_RETURN(auto dims, TopKDims(in.dim_sizes(), k ? (*k)[0] : 0));
        if (!k) dims.back() = -1;
        out = PartialTensorShape(dims);
      }
      c.set_output(0, out);
      c.set_output(1, out);
      return absl::OkStatus();
    });

namespace ops {

TopK::TopK(const Scope& scope, Input input, Input k, const Attrs& attrs) {
  operation = internal::NodeBuilder(scope, "TopKV2")
                  .Input(input)
                  .Input(k)
                  .Attr("sorted", attrs.sorted_)
                  .Finalize();
  if (operation.node() != nullptr) {
    values = Output(operation, 0);
    indices = Output(operation, 1);
  }
}

namespace {

// The values' gradient summed into a zero tensor of the input's shape at each row's
// indices (flattened: row r's index i lands at r * n + i).
absl::Status TopKGrad(const Scope& s, const Operation& op, const std::vector<Output>& g,
                      std::vector<Output>* out) {
  const Output x = grad::In(op, 0), indices(op.node(), 1);
  Output shape = Shape(s, x), size = Size(s, x);
  Output last = Sub(s, Size(s, shape), Const(s, 1));
  Output n = Reshape(s, Slice(s, shape, Reshape(s, last, {1}), {1}), grad::IntVector(s, {}));
  Output k = Reshape(s, Slice(s, Shape(s, indices), Reshape(s, last, {1}), {1}), {1});
  Output rows = Reshape(s, indices, Concat(s, {Const(s, {-1}), k}, 0));
  // Row starts; a step of at least 1 (n is 0 only when there is nothing to place).
  Output starts = Range(s, Const(s, 0), size, Maximum(s, n, Const(s, 1)));
  Output at = Add(s, rows, ExpandDims(s, starts, 1));
  Output flat = UnsortedSegmentSum(s, Reshape(s, g[0], {-1}), Reshape(s, at, {-1}), size);
  out->push_back(Reshape(s, flat, shape));
  out->push_back(Output());
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("TopKV2", TopKGrad);

}  // namespace ops
}  // namespace rill
