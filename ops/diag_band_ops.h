// TensorFlow's band diagonal ops (what tf.linalg.diag, diag_part and set_diag build since
// TensorFlow 2.2), with TensorFlow's C++ names and arguments: MatrixDiagV3, MatrixDiagPartV3
// and MatrixSetDiagV3 (`align`, default RIGHT_LEFT), and their V2 forms (no align: LEFT_LEFT).
// k is an int32 scalar or [k0, k1]: the diagonals k0..k1 (column - row), packed per matrix
// as [k1 - k0 + 1, max_len] rows, k1's first (core/diag_band.h); one diagonal packs as
// [max_len]. Every dtype; CPU kernels.
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

struct DiagAlignAttrs {
  DiagAlignAttrs Align(std::string x) {
    DiagAlignAttrs r = *this;
    r.align_ = std::move(x);
    return r;
  }
  std::string align_ = "RIGHT_LEFT";
};

// Matrices [..., num_rows, num_cols] with `diagonal` as their band k, padding_value
// elsewhere; num_rows / num_cols -1: the least that holds the band (both -1: square).
class MatrixDiagV3 : public OpWrapper {
 public:
  using Attrs = DiagAlignAttrs;
  MatrixDiagV3(const Scope& scope, Input diagonal, Input k, Input num_rows, Input num_cols,
               Input padding_value, const Attrs& attrs = Attrs());
  static Attrs Align(std::string x) { return Attrs().Align(std::move(x)); }
};
class MatrixDiagV2 : public OpWrapper {
 public:
  MatrixDiagV2(const Scope& scope, Input diagonal, Input k, Input num_rows, Input num_cols,
               Input padding_value);
};

// The band k of each matrix of `input`, packed; padding_value where a diagonal is shorter
// than the longest.
class MatrixDiagPartV3 : public OpWrapper {
 public:
  using Attrs = DiagAlignAttrs;
  MatrixDiagPartV3(const Scope& scope, Input input, Input k, Input padding_value,
                   const Attrs& attrs = Attrs());
  static Attrs Align(std::string x) { return Attrs().Align(std::move(x)); }
};
class MatrixDiagPartV2 : public OpWrapper {
 public:
  MatrixDiagPartV2(const Scope& scope, Input input, Input k, Input padding_value);
};

// `input` with its band k replaced by `diagonal` (packed as MatrixDiagPartV3 gives it).
class MatrixSetDiagV3 : public OpWrapper {
 public:
  using Attrs = DiagAlignAttrs;
  MatrixSetDiagV3(const Scope& scope, Input input, Input diagonal, Input k,
                  const Attrs& attrs = Attrs());
  static Attrs Align(std::string x) { return Attrs().Align(std::move(x)); }
};
class MatrixSetDiagV2 : public OpWrapper {
 public:
  MatrixSetDiagV2(const Scope& scope, Input input, Input diagonal, Input k);
};

}  // namespace rill::ops
