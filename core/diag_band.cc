#include "rill/core/diag_band.h"

#include "rill/core/status.h"

namespace rill {

absl::StatusOr<std::pair<int64_t, int64_t>> DiagIndices(absl::Span<const int64_t> k) {
  if (k.empty() || k.size() > 2) {
    return errors::InvalidArgument("k must have one or two elements, got ", k.size());
  }
  const int64_t lower = k[0], upper = k.back();
  if (lower > upper) {
    return errors::InvalidArgument("k[0] must not be larger than k[1]: ", lower, " > ", upper);
  }
  return std::make_pair(lower, upper);
}

absl::Status ParseDiagAlign(const std::string& align, DiagBand* band) {
  if (align != "LEFT_LEFT" && align != "LEFT_RIGHT" && align != "RIGHT_LEFT" &&
      align != "RIGHT_RIGHT") {
    return errors::InvalidArgument(
        "align must be LEFT_LEFT, LEFT_RIGHT, RIGHT_LEFT or "
        "RIGHT_RIGHT, got '",
        align, "'");
  }
  band->left_super = align == "LEFT_LEFT" || align == "LEFT_RIGHT";
  band->left_sub = align == "LEFT_LEFT" || align == "RIGHT_LEFT";
  return absl::OkStatus();
}

absl::StatusOr<DiagBand> BandOfMatrix(int64_t rows, int64_t cols, int64_t lower, int64_t upper) {
  for (const auto& [name, k] : {std::pair{"k[0]", lower}, std::pair{"k[1]", upper}}) {
    if (k != 0 && (k <= -rows || k >= cols)) {
      return errors::InvalidArgument(name, " = ", k, " is out of bounds: it must be between ",
                                     -rows, " and ", cols, " (exclusive) for a ", rows, "x", cols,
                                     " matrix");
    }
  }
  DiagBand b;
  b.lower = lower;
  b.upper = upper;
  b.rows = rows;
  b.cols = cols;
  b.max_len = std::max<int64_t>(
      0, std::min(rows + std::min<int64_t>(upper, 0), cols - std::max<int64_t>(lower, 0)));
  return b;
}

absl::StatusOr<DiagBand> BandOfDiagonals(absl::Span<const int64_t> diag, int64_t lower,
                                         int64_t upper, int64_t num_rows, int64_t num_cols) {
  const int rank = static_cast<int>(diag.size());
  if (rank < 1 || (lower != upper && rank < 2)) {
    return errors::InvalidArgument("the diagonal must have rank >= ", lower == upper ? 1 : 2,
                                   " for k = [", lower, ", ", upper, "], got ",
                                   shape_util::Str(diag));
  }
  const int64_t num_diags = upper - lower + 1;
  if (lower != upper && diag[rank - 2] != num_diags) {
    return errors::InvalidArgument("the diagonal ", shape_util::Str(diag), " must hold ", num_diags,
                                   " diagonals (k = [", lower, ", ", upper,
                                   "]) in its second-last dim");
  }
  // k is an int32 in TensorFlow's schema; int64 here keeps the sums below from wrapping.
  const int64_t len = diag[rank - 1];
  const int64_t min_rows = len - std::min<int64_t>(upper, 0);
  const int64_t min_cols = len + std::max<int64_t>(lower, 0);
  if ((num_rows != -1 && num_rows < min_rows) || (num_cols != -1 && num_cols < min_cols)) {
    return errors::InvalidArgument("num_rows ", num_rows, " and num_cols ", num_cols,
                                   " are too small for diagonals of length ", len, " at k = [",
                                   lower, ", ", upper, "]: at least ", min_rows, " and ", min_cols);
  }
  if (num_rows == -1 && num_cols == -1) num_rows = num_cols = std::max(min_rows, min_cols);
  if (num_rows == -1) num_rows = min_rows;
  if (num_cols == -1) num_cols = min_cols;
  if (num_rows != min_rows && num_cols != min_cols) {
    return errors::InvalidArgument("num_rows ", num_rows, " or num_cols ", num_cols,
                                   " must be the least that holds diagonals of length ", len,
                                   " at k = [", lower, ", ", upper, "] (", min_rows, " or ",
                                   min_cols, ")");
  }
  DiagBand b;
  b.lower = lower;
  b.upper = upper;
  b.rows = num_rows;
  b.cols = num_cols;
  b.max_len = len;
  return b;
}

shape_util::Dims PackedDiagDims(absl::Span<const int64_t> matrix, const DiagBand& band) {
  shape_util::Dims out(matrix.begin(), matrix.end() - 2);
  if (band.num_diags() > 1) out.push_back(band.num_diags());
  out.push_back(band.max_len);
  return out;
}

}  // namespace rill
