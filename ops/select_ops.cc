// Range, LinSpace, Select, SelectV2 and Where: schemas, shape functions (the rules of core/range.h
// and core/select.h, shared with the kernels) and wrappers.
#include "rill/ops/select_ops.h"

#include "rill/core/range.h"
#include "rill/core/select.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

absl::Status RangeShape(InferenceContext& c) {
  const char* names[] = {"start", "limit", "delta"};
  for (int i = 0; i < 3; ++i) RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, i, names[i]));
  const Tensor *start = c.input_tensor(0), *limit = c.input_tensor(1), *delta = c.input_tensor(2);
  if (start == nullptr || limit == nullptr || delta == nullptr) {
    c.set_output(0, PartialTensorShape({-1}));
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(int64_t n, RangeSizeOf(*start, *limit, *delta));
  c.set_output(0, PartialTensorShape({n}));
  return absl::OkStatus();
}

template <bool kV2>
absl::Status SelectShapeFn(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(
      PartialTensorShape out,
      (kV2 ? SelectV2Shape : SelectShape)(c.input_shape(0), c.input_shape(1), c.input_shape(2)));
  c.set_output(0, std::move(out));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("Range")
    .Input("start", "Tidx")
    .Input("limit", "Tidx")
    .Input("delta", "Tidx")
    .Output("output", "Tidx")
    .TypeAttr("Tidx", kSignedNumberTypes, DT_INT32)
    .SetShapeFn(RangeShape);

// num values evenly spaced from start to stop, both included (tf.linspace's op).
RILL_REGISTER_OP("LinSpace")
    .Input("start", "T")
    .Input("stop", "T")
    .Input("num", "Tidx")
    .Output("output", "T")
    .TypeAttr("T", kFloatTypes)
    .TypeAttr("Tidx", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const char* names[] = {"start", "stop", "num"};
      for (int i = 0; i < 3; ++i) {
        const auto& s = c.input_shape(i);
        if (!s.unknown_rank() && s.dims() != 0) {
          return errors::InvalidArgument(names[i], " must be a scalar, got shape ",
                                         s.DebugString());
        }
      }
      int64_t num = -1;
      if (const Tensor* t = c.input_tensor(2); t != nullptr && t->NumElements() == 1) {
        RILL_ASSIGN_OR_RETURN(auto v, shape_fns::IntValues(*t, "num"));
        if (v[0] < 1) return errors::InvalidArgument("num must be at least 1, got ", v[0]);
        num = v[0];
      }
      c.set_output(0, PartialTensorShape({num}));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("Select")
    .Input("condition", DT_BOOL)
    .Input("t", "T")
    .Input("e", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .SetShapeFn(SelectShapeFn<false>);

RILL_REGISTER_OP("SelectV2")
    .Input("condition", DT_BOOL)
    .Input("t", "T")
    .Input("e", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .SetShapeFn(SelectShapeFn<true>);

RILL_REGISTER_OP("Where")
    .Input("input", "T")
    .Output("index", DT_INT64)
    .TypeAttr("T", kAllTypes, DT_BOOL)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const PartialTensorShape& in = c.input_shape(0);
      c.set_output(0, in.unknown_rank() ? PartialTensorShape({-1, -1})
                                        : PartialTensorShape({-1, in.dims()}));
      return absl::OkStatus();
    });

namespace ops {

using internal::NodeBuilder;

Range::Range(const Scope& scope, Input start, Input limit, Input delta) {
  NodeBuilder(scope, "Range").Input(start).Input(limit).Input(delta).Finalize(this);
}
LinSpace::LinSpace(const Scope& scope, Input start, Input stop, Input num) {
  NodeBuilder(scope, "LinSpace").Input(start).Input(stop).Input(num).Finalize(this);
}
Select::Select(const Scope& scope, Input condition, Input t, Input e) {
  NodeBuilder(scope, "Select").Input(condition).Input(t).Input(e).Finalize(this);
}
SelectV2::SelectV2(const Scope& scope, Input condition, Input t, Input e) {
  NodeBuilder(scope, "SelectV2").Input(condition).Input(t).Input(e).Finalize(this);
}
Where::Where(const Scope& scope, Input condition) {
  NodeBuilder(scope, "Where").Input(condition).Finalize(this);
}

}  // namespace ops
}  // namespace rill
