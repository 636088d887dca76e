// Tile, Pack, Unpack, Split, SplitV, ReverseV2 and Reverse: schemas, shape functions (the rules of
// core/shape_util.h, shared with the kernels) and wrappers.
#include "rill/ops/piece_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"
#include "rill/core/strided_copy.h"

namespace rill {
namespace {

using shape_fns::ConstInts;
using shape_fns::Known;
using shape_fns::ScalarInput;
using shape_fns::VectorInput;

void SetAll(InferenceContext& c, const PartialTensorShape& s) {
  for (size_t i = 0; i < c.outputs().size(); ++i) c.set_output(static_cast<int>(i), s);
}

absl::Status TileShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(VectorInput(c, 1, "multiples"));
  const PartialTensorShape& in = c.input_shape(0);
  const PartialTensorShape& m = c.input_shape(1);
  if (!in.unknown_rank() && !m.unknown_rank() && m.dim_size(0) >= 0 && m.dim_size(0) != in.dims()) {
    return errors::InvalidArgument("multiples has ", m.dim_size(0), " entries but the input ",
                                   in.DebugString(), " has rank ", in.dims());
  }
  RILL_ASSIGN_OR_RETURN(auto multiples, ConstInts(c, 1, "multiples"));
  if (in.unknown_rank()) {
    c.set_output(0, multiples
                        ? PartialTensorShape::UnknownOfRank(static_cast<int>(multiples->size()))
                        : PartialTensorShape());
    return absl::OkStatus();
  }
  if (!multiples) {
    c.set_output(0, PartialTensorShape::UnknownOfRank(in.dims()));
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto out, shape_util::Tile(in.dim_sizes(), *multiples));
  c.set_output(0, Known(out));
  return absl::OkStatus();
}

// The shape every input of Pack agrees with: known dims merged, a conflict refused.
absl::StatusOr<PartialTensorShape> MergedInputs(const InferenceContext& c) {
  PartialTensorShape merged;
  for (int i = 0; i < c.num_inputs(); ++i) {
    const PartialTensorShape& s = c.input_shape(i);
    if (s.unknown_rank()) continue;
    if (merged.unknown_rank()) {
      merged = s;
      continue;
    }
    bool ok = s.dims() == merged.dims();
    shape_util::Dims d(merged.dim_sizes().begin(), merged.dim_sizes().end());
    for (int k = 0; ok && k < s.dims(); ++k) {
      if (d[k] >= 0 && s.dim_size(k) >= 0 && d[k] != s.dim_size(k)) ok = false;
      if (d[k] < 0) d[k] = s.dim_size(k);
    }
    if (!ok) {
      return errors::InvalidArgument("all inputs must have one shape; input ", i, " has shape ",
                                     s.DebugString(), ", others ", merged.DebugString());
    }
    merged = Known(d);
  }
  return merged;
}

absl::Status PackShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape in, MergedInputs(c));
  if (in.unknown_rank()) {
    c.set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(
      auto out, shape_util::Pack(in.dim_sizes(), c.num_inputs(), c.attr<int64_t>("axis"), nullptr));
  c.set_output(0, Known(out));
  return absl::OkStatus();
}

absl::Status UnpackShape(InferenceContext& c) {
  const PartialTensorShape& in = c.input_shape(0);
  if (in.unknown_rank()) {
    SetAll(c, PartialTensorShape());
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto out, shape_util::Unpack(in.dim_sizes(), c.attr<int64_t>("num"),
                                                     c.attr<int64_t>("axis"), nullptr));
  SetAll(c, Known(out));
  return absl::OkStatus();
}

// Split and SplitV: input `value` cut along the scalar input `axis_input`; `sizes`, when
// known, are SplitV's size_splits.
absl::Status SplitShape(InferenceContext& c, int value, int axis_input,
                        const std::optional<std::vector<int64_t>>& sizes) {
  const int64_t num_split = c.attr<int64_t>("num_split");
  if (num_split < 1)
    return errors::InvalidArgument("num_split is ", num_split, "; it must be >= 1");
  RILL_RETURN_IF_ERROR(ScalarInput(c, axis_input, "split_dim"));
  RILL_ASSIGN_OR_RETURN(auto axis, ConstInts(c, axis_input, "split_dim"));
  const PartialTensorShape& in = c.input_shape(value);
  if (in.unknown_rank() || !axis) {
    SetAll(c,
           in.unknown_rank() ? PartialTensorShape() : PartialTensorShape::UnknownOfRank(in.dims()));
    return absl::OkStatus();
  }
  shape_util::Dims dims(in.dim_sizes().begin(), in.dim_sizes().end());
  if (c.num_inputs() == 3 && !sizes) {  // SplitV with sizes known only at run time
    if (in.dims() == 0) return errors::InvalidArgument("cannot split a scalar");
    RILL_ASSIGN_OR_RETURN(int ax, shape_fns::CanonicalAxis((*axis)[0], in.dims(), "split axis"));
    dims[ax] = -1;
    SetAll(c, Known(dims));
    return absl::OkStatus();
  }
  absl::Span<const int64_t> span;
  if (sizes) span = *sizes;
  int ax;
  RILL_ASSIGN_OR_RETURN(auto pieces, shape_util::SplitSizes(dims, (*axis)[0], num_split,
                                                            sizes ? &span : nullptr, &ax));
  for (int64_t i = 0; i < num_split; ++i) {
    dims[ax] = pieces[i];
    c.set_output(static_cast<int>(i), Known(dims));
  }
  return absl::OkStatus();
}

absl::Status ReverseShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(VectorInput(c, 1, "axis"));
  RILL_ASSIGN_OR_RETURN(auto axis, ConstInts(c, 1, "axis"));
  const PartialTensorShape& in = c.input_shape(0);
  if (axis && !in.unknown_rank()) RILL_RETURN_IF_ERROR(ReverseAxes(*axis, in.dims()).status());
  c.set_output(0, in);
  return absl::OkStatus();
}

// TensorFlow's first Reverse: dims, a bool per dim of the tensor, says which are reversed.
absl::Status ReverseDimsShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(VectorInput(c, 1, "dims"));
  const PartialTensorShape &in = c.input_shape(0), &dims = c.input_shape(1);
  if (!in.unknown_rank() && !dims.unknown_rank() && dims.dim_size(0) >= 0) {
    RILL_RETURN_IF_ERROR(ReverseDimsCount(dims.dim_size(0), in.dims()));
  }
  c.set_output(0, in);
  return absl::OkStatus();
}

}  // namespace

// TensorFlow's first Reverse (gen_array_ops.reverse, tf.compat.v1's reverse_v1, in old
// graphs): the elements in reverse order along each dim whose flag in `dims` is true.
RILL_REGISTER_OP("Reverse")
    .Input("tensor", "T")
    .Input("dims", DT_BOOL)
    .Output("output", "T")
    .TypeAttr("T")
    .SetShapeFn(ReverseDimsShape);

// TensorFlow's ReverseV2 (the C++ API's ops::Reverse): the elements in reverse order along
// each dim in `axis`.
RILL_REGISTER_OP("ReverseV2")
    .Input("tensor", "T")
    .Input("axis", "Tidx")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tidx", kIndexTypes, DT_INT32)
    .SetShapeFn(ReverseShape);

RILL_REGISTER_OP("Tile")
    .Input("input", "T")
    .Input("multiples", "Tmultiples")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tmultiples", kIndexTypes, DT_INT32)
    .SetShapeFn(TileShape);

RILL_REGISTER_OP("Pack")
    .InputList("values", "N", "T")
    .Output("output", "T")
    .Attr("N", AttrKind::kInt)
    .TypeAttr("T")
    .Attr("axis", AttrKind::kInt, int64_t{0})
    .SetShapeFn(PackShape);

RILL_REGISTER_OP("Unpack")
    .Input("value", "T")
    .OutputList("output", "num", "T")
    .Attr("num", AttrKind::kInt)
    .TypeAttr("T")
    .Attr("axis", AttrKind::kInt, int64_t{0})
    .SetShapeFn(UnpackShape);

RILL_REGISTER_OP("Split")
    .Input("split_dim", DT_INT32)
    .Input("value", "T")
    .OutputList("output", "num_split", "T")
    .Attr("num_split", AttrKind::kInt)
    .TypeAttr("T")
    .SetShapeFn([](InferenceContext& c) { return SplitShape(c, 1, 0, std::nullopt); });

RILL_REGISTER_OP("SplitV")
    .Input("value", "T")
    .Input("size_splits", "Tlen")
    .Input("split_dim", DT_INT32)
    .OutputList("output", "num_split", "T")
    .Attr("num_split", AttrKind::kInt)
    .TypeAttr("T")
    .TypeAttr("Tlen", kIndexTypes, DT_INT64)
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      RILL_RETURN_IF_ERROR(VectorInput(c, 1, "size_splits"));
      const PartialTensorShape& s = c.input_shape(1);
      const int64_t num_split = c.attr<int64_t>("num_split");
      if (!s.unknown_rank() && s.dim_size(0) >= 0 && s.dim_size(0) != num_split) {
        return errors::InvalidArgument("size_splits has ", s.dim_size(0),
                                       " entries but num_split is ", num_split);
      }
      RILL_ASSIGN_OR_RETURN(auto sizes, ConstInts(c, 1, "size_splits"));
      return SplitShape(c, 0, 2, sizes);
    });

namespace ops {

using internal::NodeBuilder;

Tile::Tile(const Scope& scope, Input input, Input multiples) {
  NodeBuilder(scope, "Tile").Input(input).Input(multiples).Finalize(this);
}

Reverse::Reverse(const Scope& scope, Input tensor, Input axis) {
  NodeBuilder(scope, "ReverseV2").Input(tensor).Input(axis).Finalize(this);
}

Stack::Stack(const Scope& scope, InputList values, const Attrs& attrs) {
  NodeBuilder(scope, "Pack").Inputs(values).Attr("axis", attrs.axis_).Finalize(this);
}

void MultiOutputWrapper::Fill(Operation op) {
  operation = op;
  for (int i = 0; i < op.num_outputs(); ++i) output.push_back(Output(op, i));
}

Unstack::Unstack(const Scope& scope, Input value, int64_t num, const Attrs& attrs) {
  Fill(NodeBuilder(scope, "Unpack")
           .Input(value)
           .Attr("num", num)
           .Attr("axis", attrs.axis_)
           .Finalize());
}

Split::Split(const Scope& scope, Input axis, Input value, int64_t num_split) {
  Fill(
      NodeBuilder(scope, "Split").Input(axis).Input(value).Attr("num_split", num_split).Finalize());
}

SplitV::SplitV(const Scope& scope, Input value, Input size_splits, Input axis, int64_t num_split) {
  Fill(NodeBuilder(scope, "SplitV")
           .Input(value)
           .Input(size_splits)
           .Input(axis)
           .Attr("num_split", num_split)
           .Finalize());
}

}  // namespace ops
}  // namespace rill
