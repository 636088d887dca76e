// The diagonal ops as strided copies (rearrange_copy.h): a diagonal is a run with stride
// n + 1 through a matrix (or through the flattened [N, N] view of Diag's output); and
// MatrixBandPart's checks and element map.
#include <algorithm>

#include "rill/core/graph.h"
#include "rill/core/kernel_util.h"
#include "rill/core/rearrange_copy.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

// [outer, inner] elements with the given strides per side.
StridedCopy Grid(int64_t outer, int64_t inner, int64_t src_outer, int64_t src_inner,
                 int64_t dst_outer, int64_t dst_inner) {
  StridedCopy c;
  PushCopyDim(&c, outer, src_outer, dst_outer);
  PushCopyDim(&c, inner, src_inner, dst_inner);
  return c;
}

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

// A matrix's geometry: `batch` matrices of [rows, cols], `k` = min(rows, cols) on a diagonal.
struct Matrices {
  int64_t batch, rows, cols, k;
};
Matrices MatricesOf(absl::Span<const int64_t> dims) {
  const int64_t rows = dims[dims.size() - 2], cols = dims.back();
  return {Product(dims.first(dims.size() - 2)), rows, cols, std::min(rows, cols)};
}

}  // namespace

absl::Status CheckBand(int64_t lower, int64_t upper, int64_t rows, int64_t cols) {
  if ((rows >= 0 && lower > rows) || (cols >= 0 && upper > cols)) {
    return errors::InvalidArgument("num_lower ", lower, " and num_upper ", upper,
                                   " must be negative or at most the matrices' rows (", rows,
                                   ") and columns (", cols, ")");
  }
  return absl::OkStatus();
}

absl::StatusOr<PieceCopies> PrepareDiag(OpKernelContext& ctx) {
  const auto in = ctx.input(0).shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, shape_util::Diag(in));
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, dims));
  const int64_t n = Product(in);
  PieceCopies v;
  if (n == 0) return v;
  v.push_back({PieceCopy::kZeroFill, out, {}});
  AddIfNotEmpty(&v, 0, out, Grid(1, n, 0, 1, 0, n + 1));
  return v;
}

absl::StatusOr<PieceCopies> PrepareDiagPart(OpKernelContext& ctx) {
  const auto in = ctx.input(0).shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, shape_util::DiagPart(in));
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, dims));
  const int64_t n = Product(dims);
  PieceCopies v;
  AddIfNotEmpty(&v, 0, out, Grid(1, n, 0, n + 1, 0, 1));
  return v;
}

absl::StatusOr<PieceCopies> PrepareMatrixDiag(OpKernelContext& ctx) {
  const auto in = ctx.input(0).shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, shape_util::MatrixDiag(in));
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, dims));
  PieceCopies v;
  if (out->NumElements() == 0) return v;
  const int64_t k = in.back();
  v.push_back({PieceCopy::kZeroFill, out, {}});
  AddIfNotEmpty(&v, 0, out, Grid(Product(in) / k, k, k, 1, k * k, k + 1));
  return v;
}

absl::StatusOr<PieceCopies> PrepareMatrixDiagPart(OpKernelContext& ctx) {
  const auto in = ctx.input(0).shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, shape_util::MatrixDiagPart(in));
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, dims));
  PieceCopies v;
  if (out->NumElements() == 0) return v;
  const Matrices m = MatricesOf(in);
  AddIfNotEmpty(&v, 0, out, Grid(m.batch, m.k, m.rows * m.cols, m.cols + 1, m.k, 1));
  return v;
}

absl::StatusOr<PieceCopies> PrepareMatrixSetDiag(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const auto in = x.shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims diag, shape_util::MatrixDiagPart(in));
  if (ctx.input(1).shape().dim_sizes() != absl::Span<const int64_t>(diag)) {
    return errors::InvalidArgument("the diagonal must have shape ", shape_util::Str(diag),
                                   " for the input ", x.shape().DebugString(), ", got ",
                                   ctx.input(1).shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, in));
  PieceCopies v;
  if (out->NumElements() == 0) return v;
  const Matrices m = MatricesOf(in);
  AddIfNotEmpty(&v, 0, out, Grid(1, x.NumElements(), 0, 1, 0, 1));
  AddIfNotEmpty(&v, 1, out, Grid(m.batch, m.k, m.k, 1, m.rows * m.cols, m.cols + 1));
  return v;
}

absl::StatusOr<BandMap> PrepareMatrixBandPart(OpKernelContext& ctx, Tensor** out) {
  const Tensor& x = ctx.input(0);
  const auto in = x.shape().dim_sizes();
  if (in.size() < 2) {
    return errors::InvalidArgument("the input must have rank >= 2, got ", x.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(int64_t lower, ScalarIntInput(ctx.input(1), "num_lower"));
  RILL_ASSIGN_OR_RETURN(int64_t upper, ScalarIntInput(ctx.input(2), "num_upper"));
  const Matrices m = MatricesOf(in);
  RILL_RETURN_IF_ERROR(CheckBand(lower, upper, m.rows, m.cols));
  BandMap map{m.rows, m.cols, lower, upper};
  // A band that covers every matrix whole is the input itself.
  if ((lower < 0 || lower >= m.rows - 1) && (upper < 0 || upper >= m.cols - 1)) {
    RILL_RETURN_IF_ERROR(AliasInputAsOutput(ctx, x.shape()));
    *out = nullptr;
    return map;
  }
  RILL_ASSIGN_OR_RETURN(*out, AllocateOutput(ctx, 0, in));
  return map;
}

}  // namespace rill
