// Shape rules of ops that need them both at graph construction (on partial shapes, -1 for
// an unknown dim) and in kernels (on full shapes). One implementation serves both so the
// two can never disagree. Every function validates its arguments and returns a Status.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace rill::shape_util {

// Dims of any rank rill handles, without a heap allocation up to rank 8 (kernels compute
// output shapes on every run).
using Dims = absl::InlinedVector<int64_t, 8>;

// Reshape `in` to `spec` (one -1 allowed). Unknown input dims give unknown output dims.
absl::StatusOr<Dims> Reshape(absl::Span<const int64_t> in, absl::Span<const int64_t> spec);
// Validates `perm` as a permutation of [0, rank) and permutes.
absl::StatusOr<Dims> Transpose(absl::Span<const int64_t> in, absl::Span<const int64_t> perm);
// Concatenation of `inputs` along `axis` (may be negative); canonical axis in *out_axis.
absl::StatusOr<Dims> Concat(const std::vector<Dims>& inputs, int64_t axis, int* out_axis);
// Slice of `in` from `begin`, `size` elements per dim (-1: to the end); sizes resolved.
absl::StatusOr<Dims> Slice(absl::Span<const int64_t> in, absl::Span<const int64_t> begin,
                           absl::Span<const int64_t> size);
// Pads each dim by paddings[2d] before and paddings[2d+1] after (each >= 0, the sum
// overflow-checked). Unknown dims stay unknown.
absl::StatusOr<Dims> Pad(absl::Span<const int64_t> in, absl::Span<const int64_t> paddings);
absl::StatusOr<Dims> ExpandDims(absl::Span<const int64_t> in, int64_t axis);
absl::StatusOr<Dims> Squeeze(absl::Span<const int64_t> in, absl::Span<const int64_t> axes);
// Reduction over `axes` (empty: none; duplicates allowed). `mask[i]` is set for reduced i.
absl::StatusOr<Dims> Reduce(absl::Span<const int64_t> in, absl::Span<const int64_t> axes,
                            bool keep_dims, std::vector<bool>* mask);
// The input's dims merged into alternating runs of kept and reduced dims: (size, reduced).
std::vector<std::pair<int64_t, bool>> ReductionGroups(absl::Span<const int64_t> in,
                                                      const std::vector<bool>& mask);
absl::StatusOr<Dims> MatMul(absl::Span<const int64_t> a, absl::Span<const int64_t> b,
                            bool transpose_a, bool transpose_b);
absl::StatusOr<Dims> OneHot(absl::Span<const int64_t> indices, int64_t depth, int64_t axis);
absl::StatusOr<Dims> ArgMax(absl::Span<const int64_t> in, int64_t axis, int* out_axis);

// Tile: dim d times multiples[d] (each >= 0, the product overflow-checked).
absl::StatusOr<Dims> Tile(absl::Span<const int64_t> in, absl::Span<const int64_t> multiples);
// Pack (Stack): `n` inputs of shape `in` along a new dim at `axis` in [-(rank+1), rank].
absl::StatusOr<Dims> Pack(absl::Span<const int64_t> in, int64_t n, int64_t axis, int* out_axis);
// Unpack (Unstack): the shape of each of the `num` outputs; in[axis] must be num.
absl::StatusOr<Dims> Unpack(absl::Span<const int64_t> in, int64_t num, int64_t axis, int* out_axis);
// Split's and SplitV's sizes along `axis` of `in`: num_split equal pieces (sizes null), or
// *sizes (num_split entries, one -1 allowed and inferred) summing to in[axis]. An unknown
// in[axis] gives -1 for every piece whose size is not given.
absl::StatusOr<std::vector<int64_t>> SplitSizes(absl::Span<const int64_t> in, int64_t axis,
                                                int64_t num_split,
                                                const absl::Span<const int64_t>* sizes,
                                                int* out_axis);

// The rearranging ops (shape_util_rearrange.cc): each moves elements without arithmetic.
// MirrorPad pads dim d by paddings[2d] before and paddings[2d+1] after with a mirror image
// ("REFLECT" leaves the edge out, so a padding is at most dim - 1; "SYMMETRIC" repeats it,
// at most dim); MirrorPadGrad folds such an output back to the input's dims.
absl::StatusOr<Dims> MirrorPad(absl::Span<const int64_t> in, absl::Span<const int64_t> paddings,
                               const std::string& mode);
absl::StatusOr<Dims> MirrorPadGrad(absl::Span<const int64_t> in, absl::Span<const int64_t> paddings,
                                   const std::string& mode);
// SpaceToDepth moves block x block patches of H and W into channels; DepthToSpace back.
// `in` is [N, H, W, C] (nchw: [N, C, H, W]); block >= 2.
absl::StatusOr<Dims> SpaceToDepth(absl::Span<const int64_t> in, int64_t block, bool nchw);
absl::StatusOr<Dims> DepthToSpace(absl::Span<const int64_t> in, int64_t block, bool nchw);
// SpaceToBatchND pads the M dims after the batch (paddings: 2 per dim) and moves block
// offsets into the batch; BatchToSpaceND undoes it, cropping by `crops`.
absl::StatusOr<Dims> SpaceToBatch(absl::Span<const int64_t> in, absl::Span<const int64_t> block,
                                  absl::Span<const int64_t> paddings);
absl::StatusOr<Dims> BatchToSpace(absl::Span<const int64_t> in, absl::Span<const int64_t> block,
                                  absl::Span<const int64_t> crops);
// Diag: [D1..Dk] -> [D1..Dk, D1..Dk] (1 <= k <= 4); DiagPart the reverse.
absl::StatusOr<Dims> Diag(absl::Span<const int64_t> in);
absl::StatusOr<Dims> DiagPart(absl::Span<const int64_t> in);
// MatrixDiag: [..., K] -> [..., K, K]; MatrixDiagPart: [..., M, N] -> [..., min(M, N)].
absl::StatusOr<Dims> MatrixDiag(absl::Span<const int64_t> in);
absl::StatusOr<Dims> MatrixDiagPart(absl::Span<const int64_t> in);
// ReverseSequence's dims: seq_dim and batch_dim distinct, each in [0, rank).
absl::Status ReverseSequenceDims(absl::Span<const int64_t> in, int64_t seq_dim, int64_t batch_dim);

std::string Str(absl::Span<const int64_t> dims);  // "[2,?,3]"

}  // namespace rill::shape_util
