// Ops that rearrange a tensor's elements without arithmetic, planned as strided copies
// (piece_copy.h) that the CPU and GPU kernels both run, with the argument checks they share:
// Roll, MirrorPad, SpaceToDepth, DepthToSpace, SpaceToBatchND and BatchToSpaceND
// (rearrange_copy.cc) and the diagonal ops Diag, DiagPart, MatrixDiag, MatrixDiagPart and
// MatrixSetDiag (diag_copy.cc). Each copy list is short and bounded by the rank, never by
// the sizes or the data: a roll over k dims is 2^k copies, a mirror padding at most 3 per
// padded dim, a space-to-batch at most 3 per block dim. ReverseSequence and MatrixBandPart,
// whose copies would be one per batch entry or row, are element maps instead.
#pragma once

#include "rill/core/element_map.h"
#include "rill/core/mirror_pad_row.h"
#include "rill/core/piece_copy.h"

namespace rill {

// Roll's shift per dim of `dims` in [0, dims[d]): shift[i] added to dim axis[i] (shift and
// axis of one length, an axis in [-rank, rank) and possibly repeated). Unknown dims
// (-1, at graph construction) get shift 0 after their axes are checked.
absl::StatusOr<shape_util::Dims> RollShifts(absl::Span<const int64_t> dims,
                                            absl::Span<const int64_t> shift,
                                            absl::Span<const int64_t> axis);

// ReverseSequence's lengths, each in [0, seq_size] (an unknown seq_size, -1, checks >= 0).
absl::Status CheckSeqLengths(absl::Span<const int64_t> lens, int64_t seq_size);
// MatrixBandPart's bounds: each negative or at most the rows (lower) / columns (upper);
// unknown rows or columns (-1) skip that check.
absl::Status CheckBand(int64_t lower, int64_t upper, int64_t rows, int64_t cols);

absl::StatusOr<PieceCopies> PrepareRoll(OpKernelContext& ctx);          // (input, shift, axis)
absl::StatusOr<PieceCopies> PrepareMirrorPad(OpKernelContext& ctx);     // (input, paddings)
absl::StatusOr<PieceCopies> PrepareSpaceToDepth(OpKernelContext& ctx);  // (input)
absl::StatusOr<PieceCopies> PrepareDepthToSpace(OpKernelContext& ctx);  // (input)
// (input, block_shape, paddings) and (input, block_shape, crops)
absl::StatusOr<PieceCopies> PrepareSpaceToBatchND(OpKernelContext& ctx);
absl::StatusOr<PieceCopies> PrepareBatchToSpaceND(OpKernelContext& ctx);

absl::StatusOr<PieceCopies> PrepareDiag(OpKernelContext& ctx);            // (diagonal)
absl::StatusOr<PieceCopies> PrepareDiagPart(OpKernelContext& ctx);        // (input)
absl::StatusOr<PieceCopies> PrepareMatrixDiag(OpKernelContext& ctx);      // (diagonal)
absl::StatusOr<PieceCopies> PrepareMatrixDiagPart(OpKernelContext& ctx);  // (input)
absl::StatusOr<PieceCopies> PrepareMatrixSetDiag(OpKernelContext& ctx);   // (input, diagonal)

// ReverseSequence (input, seq_lengths) and MatrixBandPart (input, num_lower, num_upper):
// element maps (core/element_map.h), not copies. Each checks, allocates output 0 (or
// aliases the input, *out then null) and returns the map; ReverseSequence's lengths are
// left in *lens, an int64 host tensor, for the kernel to point the map at (or upload).
absl::StatusOr<ReverseSequenceMap> PrepareReverseSequence(OpKernelContext& ctx, Tensor** out,
                                                          Tensor* lens);
absl::StatusOr<BandMap> PrepareMatrixBandPart(OpKernelContext& ctx, Tensor** out);

// MirrorPadGrad (input, paddings), mode: checks, allocates output 0 (zero elements: nothing
// to fold) and returns the geometry MirrorPadGradAt reads.
absl::StatusOr<MirrorFold> PrepareMirrorPadGrad(OpKernelContext& ctx, Tensor** out);

// `t` as a [rows, cols] matrix of int32 or int64, row-major (paddings, crops).
absl::StatusOr<absl::InlinedVector<int64_t, 8>> IntMatrixInput(const Tensor& t, int64_t rows,
                                                               int64_t cols,
                                                               absl::string_view what);

}  // namespace rill
