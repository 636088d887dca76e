#include "rill/ops/array_ops.h"

#include "absl/strings/string_view.h"
#include "rill/core/cast_value.h"
#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"

namespace rill {
namespace {

using shape_fns::ConstInts;
using shape_fns::IntValues;
using shape_fns::ScalarInput;
using shape_fns::VectorInput;

PartialTensorShape Known(const shape_util::Dims& d) { return PartialTensorShape(d); }

}  // namespace

RILL_REGISTER_OP("Const")
    .Output("output", "dtype")
    .Attr("value", AttrKind::kTensor)
    .TypeAttr("dtype", kAllTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const Tensor& v = c.attr<Tensor>("value");
      if (!v.IsInitialized()) return errors::InvalidArgument("value is not initialized");
      if (v.dtype() != c.attr<DataType>("dtype")) {
        return errors::InvalidArgument("value has dtype ", DataTypeString(v.dtype()),
                                       " but dtype is ", DataTypeString(c.attr<DataType>("dtype")));
      }
      c.set_output(0, v.shape());
      return absl::OkStatus();
    });

RILL_REGISTER_OP("Placeholder")
    .Output("output", "dtype")
    .TypeAttr("dtype", kAllTypes)
    .Attr("shape", AttrKind::kShape, PartialTensorShape())
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const auto& s = c.attr<PartialTensorShape>("shape");
      if (!s.unknown_rank())
        RILL_RETURN_IF_ERROR(PartialTensorShape::Build(s.dim_sizes()).status());
      c.set_output(0, s);
      return absl::OkStatus();
    });

RILL_REGISTER_OP("Identity")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .SetShapeFn(shape_fns::Unchanged);

RILL_REGISTER_OP("IdentityN")
    .InputTypeList("input", "T")
    .OutputTypeList("output", "T")
    .Attr("T", AttrKind::kTypeList)
    .SetShapeFn([](InferenceContext& c) {
      for (int i = 0; i < c.num_inputs(); ++i) c.set_output(i, c.input_shape(i));
      return absl::OkStatus();
    });

// A copy of `input` in a buffer of its own (tf.raw_ops.Snapshot): later in-place updates of
// what `input` read (a variable's AssignAdd) do not show through it, as they may through
// Identity, which shares the buffer.
RILL_REGISTER_OP("Snapshot")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .SetShapeFn(shape_fns::Unchanged);

RILL_REGISTER_OP("GuaranteeConst")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .SetIsStateful()  // TensorFlow's SetDoNotOptimize
    .SetShapeFn(shape_fns::Unchanged);

RILL_REGISTER_OP("EnsureShape")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .Attr("shape", AttrKind::kShape)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const auto& want = c.attr<PartialTensorShape>("shape");
      const auto& in = c.input_shape(0);
      if (!want.unknown_rank()) {
        RILL_RETURN_IF_ERROR(PartialTensorShape::Build(want.dim_sizes()).status());
      }
      if (!want.IsCompatibleWith(in)) {
        return errors::InvalidArgument("the input's shape ", in.DebugString(),
                                       " does not fit the shape ", want.DebugString());
      }
      if (want.unknown_rank() || in.unknown_rank()) {
        c.set_output(0, want.unknown_rank() ? in : want);
        return absl::OkStatus();
      }
      std::vector<int64_t> dims(want.dim_sizes().begin(), want.dim_sizes().end());
      for (int d = 0; d < in.dims(); ++d) {
        if (dims[d] < 0) dims[d] = in.dim_size(d);
      }
      c.set_output(0, PartialTensorShape(absl::MakeConstSpan(dims)));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("NoOp").SetShapeFn(shape_fns::NoOutputs);

RILL_REGISTER_OP("Reshape")
    .Input("tensor", "T")
    .Input("shape", "Tshape")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tshape", kIndexTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(VectorInput(c, 1, "shape"));
      RILL_ASSIGN_OR_RETURN(auto spec, ConstInts(c, 1, "shape"));
      if (!spec) {
        const auto& s = c.input_shape(1);
        c.set_output(0, s.unknown_rank() || s.dim_size(0) < 0
                            ? PartialTensorShape()
                            : PartialTensorShape::UnknownOfRank(static_cast<int>(s.dim_size(0))));
        return absl::OkStatus();
      }
      const auto& in = c.input_shape(0);
      if (in.unknown_rank()) {
        shape_util::Dims unknown_in = {-1};
        RILL_ASSIGN_OR_RETURN(auto out, shape_util::Reshape(unknown_in, *spec));
        c.set_output(0, Known(out));
        return absl::OkStatus();
      }
      RILL_ASSIGN_OR_RETURN(auto out, shape_util::Reshape(in.dim_sizes(), *spec));
      c.set_output(0, Known(out));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("Transpose")
    .Input("x", "T")
    .Input("perm", "Tperm")
    .Output("y", "T")
    .TypeAttr("T")
    .TypeAttr("Tperm", kIndexTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(VectorInput(c, 1, "perm"));
      const auto& in = c.input_shape(0);
      RILL_ASSIGN_OR_RETURN(auto perm, ConstInts(c, 1, "perm"));
      if (in.unknown_rank()) {
        c.set_output(0, perm ? PartialTensorShape::UnknownOfRank(static_cast<int>(perm->size()))
                             : PartialTensorShape());
        return absl::OkStatus();
      }
      if (!perm) {
        c.set_output(0, PartialTensorShape::UnknownOfRank(in.dims()));
        return absl::OkStatus();
      }
      RILL_ASSIGN_OR_RETURN(auto out, shape_util::Transpose(in.dim_sizes(), *perm));
      c.set_output(0, Known(out));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("ConcatV2")
    .InputList("values", "N", "T")
    .Input("axis", "Tidx")
    .Output("output", "T")
    .Attr("N", AttrKind::kInt)
    .TypeAttr("T")
    .TypeAttr("Tidx", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      int n = c.num_inputs() - 1;
      RILL_RETURN_IF_ERROR(ScalarInput(c, n, "axis"));
      RILL_ASSIGN_OR_RETURN(auto axis, ConstInts(c, n, "axis"));
      std::vector<shape_util::Dims> dims;
      int rank = -1;
      for (int i = 0; i < n; ++i) {
        const auto& s = c.input_shape(i);
        if (s.unknown_rank()) continue;
        if (rank >= 0 && s.dims() != rank) {
          return errors::InvalidArgument("all inputs must have the same rank; input ", i,
                                         " has shape ", s.DebugString());
        }
        rank = s.dims();
        dims.emplace_back(s.dim_sizes().begin(), s.dim_sizes().end());
      }
      if (rank < 0) {
        c.set_output(0, PartialTensorShape());
        return absl::OkStatus();
      }
      if (!axis) {
        c.set_output(0, PartialTensorShape::UnknownOfRank(rank));
        return absl::OkStatus();
      }
      if (static_cast<int>(dims.size()) < n) {  // some unknown-rank input: sum is unknown
        for (auto& d : dims) d.assign(d.size(), -1);
      }
      RILL_ASSIGN_OR_RETURN(auto out, shape_util::Concat(dims, (*axis)[0], nullptr));
      c.set_output(0, Known(out));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("Slice")
    .Input("input", "T")
    .Input("begin", "Index")
    .Input("size", "Index")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Index", kIndexTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(VectorInput(c, 1, "begin"));
      RILL_RETURN_IF_ERROR(VectorInput(c, 2, "size"));
      RILL_ASSIGN_OR_RETURN(auto begin, ConstInts(c, 1, "begin"));
      RILL_ASSIGN_OR_RETURN(auto size, ConstInts(c, 2, "size"));
      const auto& in = c.input_shape(0);
      if (in.unknown_rank()) {
        c.set_output(0, size ? PartialTensorShape::UnknownOfRank(static_cast<int>(size->size()))
                             : PartialTensorShape());
        return absl::OkStatus();
      }
      if (!begin || !size) {
        c.set_output(0, PartialTensorShape::UnknownOfRank(in.dims()));
        return absl::OkStatus();
      }
      RILL_ASSIGN_OR_RETURN(auto out, shape_util::Slice(in.dim_sizes(), *begin, *size));
      c.set_output(0, Known(out));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("ExpandDims")
    .Input("input", "T")
    .Input("dim", "Tdim")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tdim", kIndexTypes)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(ScalarInput(c, 1, "dim"));
      RILL_ASSIGN_OR_RETURN(auto axis, ConstInts(c, 1, "dim"));
      const auto& in = c.input_shape(0);
      if (in.unknown_rank() || !axis) {
        c.set_output(0, in.unknown_rank() ? PartialTensorShape()
                                          : PartialTensorShape::UnknownOfRank(in.dims() + 1));
        return absl::OkStatus();
      }
      RILL_ASSIGN_OR_RETURN(auto out, shape_util::ExpandDims(in.dim_sizes(), (*axis)[0]));
      c.set_output(0, Known(out));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("Squeeze")
    .Input("input", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .Attr("squeeze_dims", AttrKind::kIntList, std::vector<int64_t>{})
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const auto& in = c.input_shape(0);
      const auto& axes = c.attr<std::vector<int64_t>>("squeeze_dims");
      if (in.unknown_rank()) {
        c.set_output(0, PartialTensorShape());
        return absl::OkStatus();
      }
      if (axes.empty()) {
        for (int64_t d : in.dim_sizes()) {
          if (d < 0) {
            c.set_output(0, PartialTensorShape());
            return absl::OkStatus();
          }
        }
      }
      RILL_ASSIGN_OR_RETURN(auto out, shape_util::Squeeze(in.dim_sizes(), axes));
      c.set_output(0, Known(out));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("Shape")
    .Input("input", "T")
    .Output("output", "out_type")
    .TypeAttr("T")
    .TypeAttr("out_type", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      int r = c.input_shape(0).dims();
      c.set_output(0, r < 0 ? PartialTensorShape({-1}) : PartialTensorShape({r}));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("Fill")
    .Input("dims", "index_type")
    .Input("value", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("index_type", kIndexTypes, DT_INT32)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_ASSIGN_OR_RETURN(PartialTensorShape out, shape_fns::ShapeFromShapeInput(c, 0, "dims"));
      RILL_RETURN_IF_ERROR(ScalarInput(c, 1, "value"));
      c.set_output(0, std::move(out));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("ZerosLike")
    .Input("x", "T")
    .Output("y", "T")
    .TypeAttr("T")
    .SetShapeFn(shape_fns::Unchanged);
RILL_REGISTER_OP("OnesLike")
    .Input("x", "T")
    .Output("y", "T")
    .TypeAttr("T")
    .SetShapeFn(shape_fns::Unchanged);

RILL_REGISTER_OP("OneHot")
    .Input("indices", "TI")
    .Input("depth", DT_INT32)
    .Input("on_value", "T")
    .Input("off_value", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("TI", {DT_UINT8, DT_INT32, DT_INT64})
    .Attr("axis", AttrKind::kInt, int64_t{-1})
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(ScalarInput(c, 1, "depth"));
      RILL_RETURN_IF_ERROR(ScalarInput(c, 2, "on_value"));
      RILL_RETURN_IF_ERROR(ScalarInput(c, 3, "off_value"));
      RILL_ASSIGN_OR_RETURN(auto depth, ConstInts(c, 1, "depth"));
      if (depth && (*depth)[0] < 0) {
        return errors::InvalidArgument("depth must be non-negative, got ", (*depth)[0]);
      }
      const auto& in = c.input_shape(0);
      if (in.unknown_rank()) {
        c.set_output(0, PartialTensorShape());
        return absl::OkStatus();
      }
      RILL_ASSIGN_OR_RETURN(auto out, shape_util::OneHot(in.dim_sizes(), depth ? (*depth)[0] : -1,
                                                         c.attr<int64_t>("axis")));
      c.set_output(0, Known(out));
      return absl::OkStatus();
    });

RILL_REGISTER_OP("Cast")
    .Input("x", "SrcT")
    .Output("y", "DstT")
    .TypeAttr("SrcT")
    .TypeAttr("DstT")
    .Attr("Truncate", AttrKind::kBool, false)
    .SetShapeFn(shape_fns::Unchanged);

namespace ops {

using internal::NodeBuilder;

Input::Initializer ConvertInitializer(const Input::Initializer& val, DataType dtype) {
  if (!val.status.ok() || val.tensor.dtype() == dtype) return val;
  Input::Initializer failed = val;
  absl::StatusOr<Tensor> out = Tensor::Create(dtype, val.tensor.shape());
  if (!out.ok()) {
    failed.status = out.status();
    return failed;
  }
  bool converted = false;  // false for a dtype VisitDataType does not cover (complex64)
  VisitDataType(val.tensor.dtype(), [&](auto from) {
    using From = typename decltype(from)::type;
    converted = VisitDataType(dtype, [&](auto to) {
      using To = typename decltype(to)::type;
      const From* src = val.tensor.base<From>();
      To* dst = out->base<To>();
      for (int64_t i = 0; i < val.tensor.NumElements(); ++i) dst[i] = CastValue<To>(src[i]);
    });
  });
  if (!converted) {
    failed.status =
        errors::InvalidArgument("Const: cannot convert a ", DataTypeString(val.tensor.dtype()),
                                " constant to ", DataTypeString(dtype));
    return failed;
  }
  return Input::Initializer(*out);
}

Output Const(const Scope& scope, const Input::Initializer& val) {
  if (!val.status.ok()) {
    scope.UpdateStatus(val.status);
    return Output();
  }
  Operation op = NodeBuilder(scope, "Const")
                     .Attr("value", val.tensor)
                     .Attr("dtype", val.tensor.dtype())
                     .Finalize();
  return op.node() ? Output(op.node(), 0) : Output();
}

Placeholder::Placeholder(const Scope& scope, DataType dtype, const Attrs& attrs) {
  NodeBuilder(scope, "Placeholder").Attr("dtype", dtype).Attr("shape", attrs.shape_).Finalize(this);
}

Identity::Identity(const Scope& scope, Input input) {
  NodeBuilder(scope, "Identity").Input(input).Finalize(this);
}
IdentityN::IdentityN(const Scope& scope, InputList input) {
  Fill(NodeBuilder(scope, "IdentityN").Inputs(input).Finalize());
}
Snapshot::Snapshot(const Scope& scope, Input input) {
  NodeBuilder(scope, "Snapshot").Input(input).Finalize(this);
}
GuaranteeConst::GuaranteeConst(const Scope& scope, Input input) {
  NodeBuilder(scope, "GuaranteeConst").Input(input).Finalize(this);
}

EnsureShape::EnsureShape(const Scope& scope, Input input, const PartialTensorShape& shape) {
  NodeBuilder(scope, "EnsureShape").Input(input).Attr("shape", shape).Finalize(this);
}

NoOp::NoOp(const Scope& scope) { operation = NodeBuilder(scope, "NoOp").Finalize(); }

Reshape::Reshape(const Scope& scope, Input tensor, Input shape) {
  NodeBuilder(scope, "Reshape").Input(tensor).Input(shape).Finalize(this);
}

Transpose::Transpose(const Scope& scope, Input x, Input perm) {
  NodeBuilder(scope, "Transpose").Input(x).Input(perm).Finalize(this);
}

Concat::Concat(const Scope& scope, InputList values, Input axis) {
  NodeBuilder(scope, "ConcatV2").Inputs(values).Input(axis).Finalize(this);
}

Slice::Slice(const Scope& scope, Input input, Input begin, Input size) {
  NodeBuilder(scope, "Slice").Input(input).Input(begin).Input(size).Finalize(this);
}

ExpandDims::ExpandDims(const Scope& scope, Input input, Input axis) {
  NodeBuilder(scope, "ExpandDims").Input(input).Input(axis).Finalize(this);
}

Squeeze::Squeeze(const Scope& scope, Input input, const Attrs& attrs) {
  NodeBuilder(scope, "Squeeze").Input(input).Attr("squeeze_dims", attrs.axis_).Finalize(this);
}

Shape::Shape(const Scope& scope, Input input, const Attrs& attrs) {
  NodeBuilder(scope, "Shape").Input(input).Attr("out_type", attrs.out_type_).Finalize(this);
}

Fill::Fill(const Scope& scope, Input dims, Input value) {
  NodeBuilder(scope, "Fill").Input(dims).Input(value).Finalize(this);
}

ZerosLike::ZerosLike(const Scope& scope, Input x) {
  NodeBuilder(scope, "ZerosLike").Input(x).Finalize(this);
}

OnesLike::OnesLike(const Scope& scope, Input x) {
  NodeBuilder(scope, "OnesLike").Input(x).Finalize(this);
}

OneHot::OneHot(const Scope& scope, Input indices, Input depth, Input on_value, Input off_value,
               const Attrs& attrs) {
  NodeBuilder(scope, "OneHot")
      .Input(indices)
      .Input(depth)
      .Input(on_value)
      .Input(off_value)
      .Attr("axis", attrs.axis_)
      .Finalize(this);
}

Cast::Cast(const Scope& scope, Input x, DataType DstT, const Attrs& attrs) {
  NodeBuilder(scope, "Cast")
      .Input(x)
      .Attr("DstT", DstT)
      .Attr("Truncate", attrs.truncate_)
      .Finalize(this);
}

}  // namespace ops
}  // namespace rill
