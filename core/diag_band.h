// The band of diagonals k[0]..k[1] that TensorFlow's MatrixDiagV2/V3, MatrixDiagPartV2/V3
// and MatrixSetDiagV2/V3 read or write: checks and geometry shared by their shape functions
// and kernels. Diagonal d (column - row) holds min(rows + min(d, 0), cols - max(d, 0))
// elements; packed, the band is [num_diags, max_len] per matrix, k[1]'s diagonal first,
// each row padded on the right ("LEFT") or the left ("RIGHT") as `align` says for super-
// (d >= 0) and subdiagonals (d <= 0). The V2 ops align both LEFT.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rill/core/shape_util.h"

namespace rill {

struct DiagBand {
  int64_t lower = 0, upper = 0;  // k[0], k[1]
  int64_t rows = 0, cols = 0;    // of each matrix
  int64_t max_len = 0;           // each packed diagonal's length
  bool left_super = true, left_sub = true;

  int64_t num_diags() const { return upper - lower + 1; }
  int64_t Length(int64_t d) const {
    return std::min(rows + std::min<int64_t>(d, 0), cols - std::max<int64_t>(d, 0));
  }
  // Where diagonal d's first element sits in its packed row.
  int64_t Offset(int64_t d) const {
    const bool left = (d >= 0 && left_super) || (d <= 0 && left_sub);
    return left ? 0 : max_len - Length(d);
  }
};

// (k[0], k[1]) from k's values (one or two; one is both); InvalidArgument otherwise or when
// k[0] > k[1].
absl::StatusOr<std::pair<int64_t, int64_t>> DiagIndices(absl::Span<const int64_t> k);
// The align attr: LEFT_LEFT, LEFT_RIGHT, RIGHT_LEFT or RIGHT_RIGHT (super, sub).
absl::Status ParseDiagAlign(const std::string& align, DiagBand* band);

// The band of matrices [..., rows, cols] (MatrixDiagPart, MatrixSetDiag): each k within
// (-rows, cols), or 0.
absl::StatusOr<DiagBand> BandOfMatrix(int64_t rows, int64_t cols, int64_t lower, int64_t upper);
// The band that packed diagonals of dims `diag` fill (MatrixDiag), with the matrix size
// given (-1: the smallest that holds them; both -1: square), as TensorFlow's kernel infers
// and checks it.
absl::StatusOr<DiagBand> BandOfDiagonals(absl::Span<const int64_t> diag, int64_t lower,
                                         int64_t upper, int64_t num_rows, int64_t num_cols);
// The packed diagonals' dims for matrices of dims `matrix` ([..., rows, cols]).
shape_util::Dims PackedDiagDims(absl::Span<const int64_t> matrix, const DiagBand& band);

}  // namespace rill
