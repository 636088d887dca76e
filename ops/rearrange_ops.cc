// The rearranging ops (rearrange_ops.h): schemas, shape functions (the rules of
// core/shape_util.h and core/rearrange_copy.h, shared with the kernels) and wrappers.
#include "rill/ops/rearrange_ops.h"

#include "rill/core/rearrange_copy.h"
#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"

namespace rill {
namespace {

using shape_fns::ConstInts;
using shape_fns::Known;
using shape_fns::ScalarInput;
using shape_fns::VectorInput;

// Input i's int values when a constant, as a flat list (nullopt otherwise).
absl::StatusOr<std::optional<absl::InlinedVector<int64_t, 8>>> ConstFlat(const InferenceContext& c,
                                                                         int i, const char* what) {
  const Tensor* t = c.input_tensor(i);
  if (t == nullptr) return std::nullopt;
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::AllIntValues(*t, what));
  return v;
}

// A [rows, 2] matrix input (paddings, crops): checked where known.
absl::Status PairsInput(const InferenceContext& c, int i, int64_t rows, const char* what) {
  const PartialTensorShape& p = c.input_shape(i);
  if (p.unknown_rank()) return absl::OkStatus();
  if (p.dims() != 2 || (p.dim_size(1) >= 0 && p.dim_size(1) != 2) ||
      (rows >= 0 && p.dim_size(0) >= 0 && p.dim_size(0) != rows)) {
    return errors::InvalidArgument(what, " must be a [", rows < 0 ? "M" : std::to_string(rows),
                                   ", 2] matrix, got shape ", p.DebugString());
  }
  return absl::OkStatus();
}

// MirrorPad and MirrorPadGrad: the output from `rule` once the paddings are constants.
template <absl::StatusOr<shape_util::Dims> (*kRule)(absl::Span<const int64_t>,
                                                    absl::Span<const int64_t>, const std::string&)>
absl::Status MirrorShape(InferenceContext& c) {
  const PartialTensorShape& in = c.input_shape(0);
  RILL_RETURN_IF_ERROR(PairsInput(c, 1, in.unknown_rank() ? -1 : in.dims(), "paddings"));
  RILL_ASSIGN_OR_RETURN(auto pads, ConstFlat(c, 1, "paddings"));
  if (in.unknown_rank() || !pads) {
    c.set_output(0, in.unknown_rank() ? in : PartialTensorShape::UnknownOfRank(in.dims()));
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto out, kRule(in.dim_sizes(), *pads, c.attr<std::string>("mode")));
  c.set_output(0, Known(out));
  return absl::OkStatus();
}

absl::Status RollShape(InferenceContext& c) {
  for (int i : {1, 2}) {
    const PartialTensorShape& s = c.input_shape(i);
    if (!s.unknown_rank() && s.dims() > 1) {
      return errors::InvalidArgument(i == 1 ? "shift" : "axis",
                                     " must be a scalar or vector, got shape ", s.DebugString());
    }
  }
  RILL_ASSIGN_OR_RETURN(auto shift, ConstFlat(c, 1, "shift"));
  RILL_ASSIGN_OR_RETURN(auto axis, ConstFlat(c, 2, "axis"));
  const PartialTensorShape& in = c.input_shape(0);
  if (shift && axis && !in.unknown_rank())
    RILL_RETURN_IF_ERROR(RollShifts(in.dim_sizes(), *shift, *axis).status());
  c.set_output(0, in);
  return absl::OkStatus();
}

absl::Status ReverseSequenceShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(VectorInput(c, 1, "seq_lengths"));
  const PartialTensorShape& in = c.input_shape(0);
  if (!in.unknown_rank()) {
    const int64_t batch_dim = c.attr<int64_t>("batch_dim");
    RILL_RETURN_IF_ERROR(
        shape_util::ReverseSequenceDims(in.dim_sizes(), c.attr<int64_t>("seq_dim"), batch_dim));
    const PartialTensorShape& lens = c.input_shape(1);
    if (!lens.unknown_rank() && lens.dim_size(0) >= 0 && in.dim_size(batch_dim) >= 0 &&
        lens.dim_size(0) != in.dim_size(batch_dim)) {
      return errors::InvalidArgument("seq_lengths has ", lens.dim_size(0),
                                     " entries but dim batch_dim of ", in.DebugString(), " is ",
                                     in.dim_size(batch_dim));
    }
    RILL_ASSIGN_OR_RETURN(auto values, ConstFlat(c, 1, "seq_lengths"));
    if (values) {
      RILL_RETURN_IF_ERROR(CheckSeqLengths(*values, in.dim_size(c.attr<int64_t>("seq_dim"))));
    }
  }
  c.set_output(0, in);
  return absl::OkStatus();
}

template <bool kToDepth>
absl::Status SpaceDepthShape(InferenceContext& c) {
  const std::string& f = c.attr<std::string>("data_format");
  if (f != "NHWC" && f != "NCHW") {
    return errors::InvalidArgument("data_format must be NHWC or NCHW, got '", f, "'");
  }
  const PartialTensorShape& in = c.input_shape(0);
  const shape_util::Dims any(4, -1);
  const absl::Span<const int64_t> dims = in.unknown_rank() ? any : in.dim_sizes();
  const int64_t b = c.attr<int64_t>("block_size");
  RILL_ASSIGN_OR_RETURN(auto out, kToDepth ? shape_util::SpaceToDepth(dims, b, f == "NCHW")
                                           : shape_util::DepthToSpace(dims, b, f == "NCHW"));
  c.set_output(0, Known(out));
  return absl::OkStatus();
}

template <bool kToBatch>
absl::Status BatchSpaceShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(VectorInput(c, 1, "block_shape"));
  const PartialTensorShape& b = c.input_shape(1);
  const char* what = kToBatch ? "paddings" : "crops";
  RILL_RETURN_IF_ERROR(PairsInput(c, 2, b.unknown_rank() ? -1 : b.dim_size(0), what));
  RILL_ASSIGN_OR_RETURN(auto block, ConstFlat(c, 1, "block_shape"));
  RILL_ASSIGN_OR_RETURN(auto pads, ConstFlat(c, 2, what));
  const PartialTensorShape& in = c.input_shape(0);
  if (in.unknown_rank() || !block || !pads) {
    c.set_output(0, in.unknown_rank() ? in : PartialTensorShape::UnknownOfRank(in.dims()));
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto out, kToBatch
                                      ? shape_util::SpaceToBatch(in.dim_sizes(), *block, *pads)
                                      : shape_util::BatchToSpace(in.dim_sizes(), *block, *pads));
  c.set_output(0, Known(out));
  return absl::OkStatus();
}

template <absl::StatusOr<shape_util::Dims> (*kRule)(absl::Span<const int64_t>)>
absl::Status DiagShape(InferenceContext& c) {
  const PartialTensorShape& in = c.input_shape(0);
  if (in.unknown_rank()) {
    c.set_output(0, in);
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(auto out, kRule(in.dim_sizes()));
  c.set_output(0, Known(out));
  return absl::OkStatus();
}

absl::Status MatrixSetDiagShape(InferenceContext& c) {
  const PartialTensorShape &in = c.input_shape(0), &diag = c.input_shape(1);
  if (!in.unknown_rank()) {
    RILL_ASSIGN_OR_RETURN(auto want, shape_util::MatrixDiagPart(in.dim_sizes()));
    if (!diag.unknown_rank() && !Known(want).IsCompatibleWith(diag)) {
      return errors::InvalidArgument("the diagonal must have shape ", shape_util::Str(want),
                                     " for the input ", in.DebugString(), ", got ",
                                     diag.DebugString());
    }
  }
  c.set_output(0, in);
  return absl::OkStatus();
}

absl::Status BandPartShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(ScalarInput(c, 1, "num_lower"));
  RILL_RETURN_IF_ERROR(ScalarInput(c, 2, "num_upper"));
  const PartialTensorShape& in = c.input_shape(0);
  if (!in.unknown_rank() && in.dims() < 2) {
    return errors::InvalidArgument("the input must have rank >= 2, got ", in.DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto lower, ConstFlat(c, 1, "num_lower"));
  RILL_ASSIGN_OR_RETURN(auto upper, ConstFlat(c, 2, "num_upper"));
  if (lower && upper && lower->size() == 1 && upper->size() == 1 && !in.unknown_rank()) {
    RILL_RETURN_IF_ERROR(CheckBand((*lower)[0], (*upper)[0], in.dim_size(in.dims() - 2),
                                   in.dim_size(in.dims() - 1)));
  }
  c.set_output(0, in);
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("Roll")
    .Input("input", "T")
    .Input("shift", "Tshift")
    .Input("axis", "Taxis")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tshift", kIndexTypes)
    .TypeAttr("Taxis", kIndexTypes)
    .SetShapeFn(RollShape);

RILL_REGISTER_OP("ReverseSequence")
    .Input("input", "T")
    .Input("seq_lengths", "Tlen")
    .Output("output", "T")
    .Attr("seq_dim", AttrKind::kInt)
    .Attr("batch_dim", AttrKind::kInt, int64_t{0})
    .TypeAttr("T")
    .TypeAttr("Tlen", kIndexTypes, DT_INT64)
    .SetShapeFn(ReverseSequenceShape);

RILL_REGISTER_OP("MirrorPad")
    .Input("input", "T")
    .Input("paddings", "Tpaddings")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tpaddings", kIndexTypes, DT_INT32)
    .Attr("mode", AttrKind::kString)
    .SetShapeFn(MirrorShape<shape_util::MirrorPad>);

RILL_REGISTER_OP("MirrorPadGrad")
    .Input("input", "T")
    .Input("paddings", "Tpaddings")
    .Output("output", "T")
    .TypeAttr("T", kNumberTypes)  // uint8 sums wrap, as TensorFlow's
    .TypeAttr("Tpaddings", kIndexTypes, DT_INT32)
    .Attr("mode", AttrKind::kString)
    .SetShapeFn(MirrorShape<shape_util::MirrorPadGrad>);

#define RILL_SPACE_DEPTH_OP(name, to_depth)                        \
  RILL_REGISTER_OP(name)                                           \
      .Input("input", "T")                                         \
      .Output("output", "T")                                       \
      .TypeAttr("T")                                               \
      .Attr("block_size", AttrKind::kInt)                          \
      .Attr("data_format", AttrKind::kString, std::string("NHWC")) \
      .SetShapeFn(SpaceDepthShape<to_depth>)
RILL_SPACE_DEPTH_OP("SpaceToDepth", true);
RILL_SPACE_DEPTH_OP("DepthToSpace", false);

RILL_REGISTER_OP("SpaceToBatchND")
    .Input("input", "T")
    .Input("block_shape", "Tblock_shape")
    .Input("paddings", "Tpaddings")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tblock_shape", kIndexTypes, DT_INT32)
    .TypeAttr("Tpaddings", kIndexTypes, DT_INT32)
    .SetShapeFn(BatchSpaceShape<true>);

RILL_REGISTER_OP("BatchToSpaceND")
    .Input("input", "T")
    .Input("block_shape", "Tblock_shape")
    .Input("crops", "Tcrops")
    .Output("output", "T")
    .TypeAttr("T")
    .TypeAttr("Tblock_shape", kIndexTypes, DT_INT32)
    .TypeAttr("Tcrops", kIndexTypes, DT_INT32)
    .SetShapeFn(BatchSpaceShape<false>);

#define RILL_DIAG_OP(name, in, out, rule) \
  RILL_REGISTER_OP(name).Input(in, "T").Output(out, "T").TypeAttr("T").SetShapeFn(DiagShape<rule>)
RILL_DIAG_OP("Diag", "diagonal", "output", shape_util::Diag);
RILL_DIAG_OP("DiagPart", "input", "diagonal", shape_util::DiagPart);
RILL_DIAG_OP("MatrixDiag", "diagonal", "output", shape_util::MatrixDiag);
RILL_DIAG_OP("MatrixDiagPart", "input", "diagonal", shape_util::MatrixDiagPart);

RILL_REGISTER_OP("MatrixSetDiag")
    .Input("input", "T")
    .Input("diagonal", "T")
    .Output("output", "T")
    .TypeAttr("T")
    .SetShapeFn(MatrixSetDiagShape);

RILL_REGISTER_OP("MatrixBandPart")
    .Input("input", "T")
    .Input("num_lower", "Tindex")
    .Input("num_upper", "Tindex")
    .Output("band", "T")
    .TypeAttr("T")
    .TypeAttr("Tindex", kIndexTypes, DT_INT64)
    .SetShapeFn(BandPartShape);

namespace ops {

using internal::NodeBuilder;

Roll::Roll(const Scope& scope, Input input, Input shift, Input axis) {
  NodeBuilder(scope, "Roll").Input(input).Input(shift).Input(axis).Finalize(this);
}

ReverseSequence::ReverseSequence(const Scope& scope, Input input, Input seq_lengths,
                                 int64_t seq_dim, const Attrs& attrs) {
  NodeBuilder(scope, "ReverseSequence")
      .Input(input)
      .Input(seq_lengths)
      .Attr("seq_dim", seq_dim)
      .Attr("batch_dim", attrs.batch_dim_)
      .Finalize(this);
}

MirrorPad::MirrorPad(const Scope& scope, Input input, Input paddings, const std::string& mode) {
  NodeBuilder(scope, "MirrorPad").Input(input).Input(paddings).Attr("mode", mode).Finalize(this);
}

internal::MirrorPadGrad::MirrorPadGrad(const Scope& scope, Input input, Input paddings,
                                       const std::string& mode) {
  NodeBuilder(scope, "MirrorPadGrad")
      .Input(input)
      .Input(paddings)
      .Attr("mode", mode)
      .Finalize(this);
}

SpaceToDepth::SpaceToDepth(const Scope& scope, Input input, int64_t block_size,
                           const Attrs& attrs) {
  NodeBuilder(scope, "SpaceToDepth")
      .Input(input)
      .Attr("block_size", block_size)
      .Attr("data_format", attrs.data_format_)
      .Finalize(this);
}

DepthToSpace::DepthToSpace(const Scope& scope, Input input, int64_t block_size,
                           const Attrs& attrs) {
  NodeBuilder(scope, "DepthToSpace")
      .Input(input)
      .Attr("block_size", block_size)
      .Attr("data_format", attrs.data_format_)
      .Finalize(this);
}

SpaceToBatchND::SpaceToBatchND(const Scope& scope, Input input, Input block_shape, Input paddings) {
  NodeBuilder(scope, "SpaceToBatchND")
      .Input(input)
      .Input(block_shape)
      .Input(paddings)
      .Finalize(this);
}

BatchToSpaceND::BatchToSpaceND(const Scope& scope, Input input, Input block_shape, Input crops) {
  NodeBuilder(scope, "BatchToSpaceND").Input(input).Input(block_shape).Input(crops).Finalize(this);
}

SpaceToBatch::SpaceToBatch(const Scope& scope, Input input, Input paddings, int64_t block_size) {
  NodeBuilder(scope, "SpaceToBatchND")
      .Input(input)
      .Input(Input({block_size, block_size}))
      .Input(paddings)
      .Finalize(this);
}

BatchToSpace::BatchToSpace(const Scope& scope, Input input, Input crops, int64_t block_size) {
  NodeBuilder(scope, "BatchToSpaceND")
      .Input(input)
      .Input(Input({block_size, block_size}))
      .Input(crops)
      .Finalize(this);
}

Diag::Diag(const Scope& scope, Input diagonal) {
  NodeBuilder(scope, "Diag").Input(diagonal).Finalize(this);
}
DiagPart::DiagPart(const Scope& scope, Input input) {
  NodeBuilder(scope, "DiagPart").Input(input).Finalize(this);
}
MatrixDiag::MatrixDiag(const Scope& scope, Input diagonal) {
  NodeBuilder(scope, "MatrixDiag").Input(diagonal).Finalize(this);
}
MatrixDiagPart::MatrixDiagPart(const Scope& scope, Input input) {
  NodeBuilder(scope, "MatrixDiagPart").Input(input).Finalize(this);
}
MatrixSetDiag::MatrixSetDiag(const Scope& scope, Input input, Input diagonal) {
  NodeBuilder(scope, "MatrixSetDiag").Input(input).Input(diagonal).Finalize(this);
}
MatrixBandPart::MatrixBandPart(const Scope& scope, Input input, Input num_lower, Input num_upper) {
  NodeBuilder(scope, "MatrixBandPart")
      .Input(input)
      .Input(num_lower)
      .Input(num_upper)
      .Finalize(this);
}

}  // namespace ops
}  // namespace rill
