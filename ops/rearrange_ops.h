// Ops that rearrange a tensor's elements, with TensorFlow's C++ names and arguments: Roll,
// ReverseSequence, MirrorPad, SpaceToDepth, DepthToSpace, SpaceToBatchND, BatchToSpaceND
// (and SpaceToBatch, BatchToSpace, which build the ND ops), Diag, DiagPart, MatrixDiag,
// MatrixDiagPart, MatrixSetDiag and MatrixBandPart; internal::MirrorPadGrad.
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

// `input` rolled: shift[i] positions along dim axis[i] (shift and axis scalars or vectors
// of one length; an axis may repeat, its shifts add up), elements leaving one end coming
// back at the other.
class Roll : public OpWrapper {
 public:
  Roll(const Scope& scope, Input input, Input shift, Input axis);
};

// For each b along batch_dim: the first seq_lengths[b] elements along seq_dim reversed,
// the rest unchanged.
class ReverseSequence : public OpWrapper {
 public:
  struct Attrs {
    Attrs BatchDim(int64_t x) {
      Attrs r = *this;
      r.batch_dim_ = x;
      return r;
    }
    int64_t batch_dim_ = 0;
  };
  ReverseSequence(const Scope& scope, Input input, Input seq_lengths, int64_t seq_dim)
      : ReverseSequence(scope, input, seq_lengths, seq_dim, Attrs()) {}
  ReverseSequence(const Scope& scope, Input input, Input seq_lengths, int64_t seq_dim,
                  const Attrs& attrs);
  static Attrs BatchDim(int64_t x) { return Attrs().BatchDim(x); }
};

// `input` padded with its mirror image: paddings is [rank, 2] (before, after per dim);
// mode "REFLECT" (the edge not repeated) or "SYMMETRIC" (repeated).
class MirrorPad : public OpWrapper {
 public:
  MirrorPad(const Scope& scope, Input input, Input paddings, const std::string& mode);
};

namespace internal {
// MirrorPad's gradient: the padded `input` folded back, mirrored elements summed.
class MirrorPadGrad : public OpWrapper {
 public:
  MirrorPadGrad(const Scope& scope, Input input, Input paddings, const std::string& mode);
};
}  // namespace internal

// block_size x block_size patches of H and W moved into the depth (and back).
struct SpaceDepthAttrs {
  SpaceDepthAttrs DataFormat(const std::string& x) {
    SpaceDepthAttrs r = *this;
    r.data_format_ = x;
    return r;
  }
  std::string data_format_ = "NHWC";
};
class SpaceToDepth : public OpWrapper {
 public:
  using Attrs = SpaceDepthAttrs;
  SpaceToDepth(const Scope& scope, Input input, int64_t block_size)
      : SpaceToDepth(scope, input, block_size, Attrs()) {}
  SpaceToDepth(const Scope& scope, Input input, int64_t block_size, const Attrs& attrs);
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
};
class DepthToSpace : public OpWrapper {
 public:
  using Attrs = SpaceDepthAttrs;
  DepthToSpace(const Scope& scope, Input input, int64_t block_size)
      : DepthToSpace(scope, input, block_size, Attrs()) {}
  DepthToSpace(const Scope& scope, Input input, int64_t block_size, const Attrs& attrs);
  static Attrs DataFormat(const std::string& x) { return Attrs().DataFormat(x); }
};

// The M dims after the batch padded (paddings [M, 2]) and cut into block_shape blocks whose
// offsets become batch entries; BatchToSpaceND is its inverse, cropping by crops [M, 2].
class SpaceToBatchND : public OpWrapper {
 public:
  SpaceToBatchND(const Scope& scope, Input input, Input block_shape, Input paddings);
};
class BatchToSpaceND : public OpWrapper {
 public:
  BatchToSpaceND(const Scope& scope, Input input, Input block_shape, Input crops);
};
// TensorFlow's 4-D forms with a square block: they build SpaceToBatchND/BatchToSpaceND
// with block_shape [block_size, block_size].
class SpaceToBatch : public OpWrapper {
 public:
  SpaceToBatch(const Scope& scope, Input input, Input paddings, int64_t block_size);
};
class BatchToSpace : public OpWrapper {
 public:
  BatchToSpace(const Scope& scope, Input input, Input crops, int64_t block_size);
};

// Diag: [D1..Dk] -> [D1..Dk, D1..Dk] with the values on the diagonal, zeros elsewhere;
// DiagPart takes that diagonal back.
class Diag : public OpWrapper {
 public:
  Diag(const Scope& scope, Input diagonal);
};
class DiagPart : public OpWrapper {
 public:
  DiagPart(const Scope& scope, Input input);
};
// Batched: [..., K] -> [..., K, K]; [..., M, N] -> [..., min(M, N)]; the input with its
// diagonals replaced.
class MatrixDiag : public OpWrapper {
 public:
  MatrixDiag(const Scope& scope, Input diagonal);
};
class MatrixDiagPart : public OpWrapper {
 public:
  MatrixDiagPart(const Scope& scope, Input input);
};
class MatrixSetDiag : public OpWrapper {
 public:
  MatrixSetDiag(const Scope& scope, Input input, Input diagonal);
};
// Each matrix's band: element (i, j) kept where i - j <= num_lower and j - i <= num_upper
// (a negative bound keeps that whole triangle), zero elsewhere.
class MatrixBandPart : public OpWrapper {
 public:
  MatrixBandPart(const Scope& scope, Input input, Input num_lower, Input num_upper);
};

}  // namespace rill::ops
