// The band diagonal ops' schemas, shape functions (core/diag_band.h's checks, shared with
// the kernels, on whatever is known when the node is built) and wrappers. Gradients:
// ops/diag_band_grad.cc.
#include "rill/ops/diag_band_ops.h"

#include <optional>

#include "rill/core/diag_band.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

using shape_fns::Known;
using shape_fns::ScalarInput;

// k (input i) when it is a constant: (k[0], k[1]).
absl::StatusOr<std::optional<std::pair<int64_t, int64_t>>> ConstK(const InferenceContext& c,
                                                                  int i) {
  const PartialTensorShape& s = c.input_shape(i);
  if (!s.unknown_rank() && s.dims() > 1) {
    return errors::InvalidArgument("k must be a scalar or a vector, got shape ", s.DebugString());
  }
  const Tensor* t = c.input_tensor(i);
  if (t == nullptr) return std::nullopt;
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::IntValues(*t, "k"));
  RILL_ASSIGN_OR_RETURN(auto k, DiagIndices(v));
  return k;
}

// Input i, a scalar int32, when it is a constant.
absl::StatusOr<std::optional<int64_t>> ConstScalar(const InferenceContext& c, int i,
                                                   const char* what) {
  RILL_RETURN_IF_ERROR(ScalarInput(c, i, what));
  const Tensor* t = c.input_tensor(i);
  if (t == nullptr) return std::nullopt;
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::IntValues(*t, what));
  return v[0];
}

absl::Status AlignAttr(const InferenceContext& c) {
  if (c.attrs().count("align") == 0) return absl::OkStatus();  // V2
  DiagBand ignored;
  return ParseDiagAlign(c.attr<std::string>("align"), &ignored);
}

absl::Status MatrixDiagShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(AlignAttr(c));
  RILL_ASSIGN_OR_RETURN(auto k, ConstK(c, 1));
  RILL_ASSIGN_OR_RETURN(auto rows, ConstScalar(c, 2, "num_rows"));
  RILL_ASSIGN_OR_RETURN(auto cols, ConstScalar(c, 3, "num_cols"));
  RILL_RETURN_IF_ERROR(ScalarInput(c, 4, "padding_value"));
  const PartialTensorShape& diag = c.input_shape(0);
  if (!k || diag.unknown_rank()) {
    c.set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  const bool one = k->first == k->second;
  std::vector<int64_t> dims(diag.dim_sizes().begin(), diag.dim_sizes().end());
  const bool known = diag.IsFullyDefined() && rows && cols;
  if (known) {
    RILL_ASSIGN_OR_RETURN(DiagBand g, BandOfDiagonals(dims, k->first, k->second, *rows, *cols));
    dims.resize(dims.size() - (one ? 1 : 2));
    dims.push_back(g.rows);
    dims.push_back(g.cols);
  } else {
    if (dims.size() < (one ? 1u : 2u)) {
      return errors::InvalidArgument("the diagonal must have rank >= ", one ? 1 : 2, " for k = [",
                                     k->first, ", ", k->second, "], got ", diag.DebugString());
    }
    dims.resize(dims.size() - (one ? 1 : 2));
    dims.push_back(-1);
    dims.push_back(-1);
  }
  c.set_output(0, Known(dims));
  return absl::OkStatus();
}

// The band of input 0's matrices when k (input `k_input`) and their last two dims are
// known; InvalidArgument for a rank below 2 or a k out of bounds.
absl::StatusOr<std::optional<DiagBand>> KnownMatrixBand(const InferenceContext& c, int k_input) {
  RILL_RETURN_IF_ERROR(AlignAttr(c));
  const PartialTensorShape& in = c.input_shape(0);
  if (!in.unknown_rank() && in.dims() < 2) {
    return errors::InvalidArgument("input must have rank >= 2, got shape ", in.DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto k, ConstK(c, k_input));
  if (!k || in.unknown_rank()) return std::nullopt;
  const int64_t rows = in.dim_size(in.dims() - 2), cols = in.dim_size(in.dims() - 1);
  if (rows < 0 || cols < 0) return std::nullopt;
  RILL_ASSIGN_OR_RETURN(DiagBand g, BandOfMatrix(rows, cols, k->first, k->second));
  return g;
}

absl::Status MatrixDiagPartShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(ScalarInput(c, 2, "padding_value"));
  RILL_ASSIGN_OR_RETURN(auto g, KnownMatrixBand(c, 1));
  const PartialTensorShape& in = c.input_shape(0);
  c.set_output(0, g ? Known(PackedDiagDims(in.dim_sizes(), *g)) : PartialTensorShape());
  return absl::OkStatus();
}

absl::Status MatrixSetDiagShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(auto g, KnownMatrixBand(c, 2));
  const PartialTensorShape &in = c.input_shape(0), &diag = c.input_shape(1);
  if (g) {
    const shape_util::Dims want = PackedDiagDims(in.dim_sizes(), *g);
    if (!diag.IsCompatibleWith(Known(want))) {
      return errors::InvalidArgument("the diagonal must have shape ", shape_util::Str(want),
                                     " for the input ", in.DebugString(), " and k = [", g->lower,
                                     ", ", g->upper, "], got ", diag.DebugString());
    }
  }
  c.set_output(0, in);
  return absl::OkStatus();
}

void AlignAttrDef(OpDefBuilder& b) {
  b.Attr("align", AttrKind::kString, std::string("RIGHT_LEFT"));
}
void NoAttr(OpDefBuilder&) {}

}  // namespace

#define RILL_DIAG_BAND_OPS(version, attrs)   \
  RILL_REGISTER_OP("MatrixDiag" version)     \
      .Input("diagonal", "T")                \
      .Input("k", DT_INT32)                  \
      .Input("num_rows", DT_INT32)           \
      .Input("num_cols", DT_INT32)           \
      .Input("padding_value", "T")           \
      .Output("output", "T")                 \
      .TypeAttr("T")                         \
      .Apply(attrs)                          \
      .SetShapeFn(MatrixDiagShape);          \
  RILL_REGISTER_OP("MatrixDiagPart" version) \
      .Input("input", "T")                   \
      .Input("k", DT_INT32)                  \
      .Input("padding_value", "T")           \
      .Output("diagonal", "T")               \
      .TypeAttr("T")                         \
      .Apply(attrs)                          \
      .SetShapeFn(MatrixDiagPartShape);      \
  RILL_REGISTER_OP("MatrixSetDiag" version)  \
      .Input("input", "T")                   \
      .Input("diagonal", "T")                \
      .Input("k", DT_INT32)                  \
      .Output("output", "T")                 \
      .TypeAttr("T")                         \
      .Apply(attrs)                          \
      .SetShapeFn(MatrixSetDiagShape)
RILL_DIAG_BAND_OPS("V2", NoAttr);
RILL_DIAG_BAND_OPS("V3", AlignAttrDef);
#undef RILL_DIAG_BAND_OPS

namespace ops {

using internal::NodeBuilder;

MatrixDiagV3::MatrixDiagV3(const Scope& scope, Input diagonal, Input k, Input num_rows,
                           Input num_cols, Input padding_value, const Attrs& attrs) {
  NodeBuilder(scope, "MatrixDiagV3")
      .Input(diagonal)
      .Input(k)
      .Input(num_rows)
      .Input(num_cols)
      .Input(padding_value)
      .Attr("align", attrs.align_)
      .Finalize(this);
}
MatrixDiagV2::MatrixDiagV2(const Scope& scope, Input diagonal, Input k, Input num_rows,
                           Input num_cols, Input padding_value) {
  NodeBuilder(scope, "MatrixDiagV2")
      .Input(diagonal)
      .Input(k)
      .Input(num_rows)
      .Input(num_cols)
      .Input(padding_value)
      .Finalize(this);
}
MatrixDiagPartV3::MatrixDiagPartV3(const Scope& scope, Input input, Input k, Input padding_value,
                                   const Attrs& attrs) {
  NodeBuilder(scope, "MatrixDiagPartV3")
      .Input(input)
      .Input(k)
      .Input(padding_value)
      .Attr("align", attrs.align_)
      .Finalize(this);
}
MatrixDiagPartV2::MatrixDiagPartV2(const Scope& scope, Input input, Input k, Input padding_value) {
  NodeBuilder(scope, "MatrixDiagPartV2").Input(input).Input(k).Input(padding_value).Finalize(this);
}
MatrixSetDiagV3::MatrixSetDiagV3(const Scope& scope, Input input, Input diagonal, Input k,
                                 const Attrs& attrs) {
  NodeBuilder(scope, "MatrixSetDiagV3")
      .Input(input)
      .Input(diagonal)
      .Input(k)
      .Attr("align", attrs.align_)
      .Finalize(this);
}
MatrixSetDiagV2::MatrixSetDiagV2(const Scope& scope, Input input, Input diagonal, Input k) {
  NodeBuilder(scope, "MatrixSetDiagV2").Input(input).Input(diagonal).Input(k).Finalize(this);
}

}  // namespace ops
}  // namespace rill
