// The shape rules of the ops that rearrange elements without arithmetic: MirrorPad and
// MirrorPadGrad, SpaceToDepth and DepthToSpace, SpaceToBatchND and BatchToSpaceND, the
// diagonal ops and ReverseSequence (shape_util.h). An unknown dim (-1) stays unknown and
// skips the checks that need its size.
#include "absl/strings/str_join.h"
#include "rill/core/checked_math.h"
#include "rill/core/limits.h"
#include "rill/core/shape_util.h"
#include "rill/core/status.h"
#include "rill/core/tensor_shape.h"

namespace rill::shape_util {
namespace {

absl::Status CheckMirrorMode(const std::string& mode) {
  if (mode == "REFLECT" || mode == "SYMMETRIC") return absl::OkStatus();
  return errors::InvalidArgument("mode must be REFLECT or SYMMETRIC, got '", mode, "'");
}

// A mirror padding of `dim` (the unpadded size) by (before, after).
absl::Status CheckMirrorPadding(int64_t dim, int64_t before, int64_t after, size_t d,
                                const std::string& mode) {
  if (before < 0 || after < 0) {
    return errors::InvalidArgument("paddings must be >= 0, got ", before, ", ", after, " for dim ",
                                   d);
  }
  if (dim < 0) return absl::OkStatus();
  const int64_t most = mode == "REFLECT" ? dim - 1 : dim;
  if (before > most || after > most) {
    return errors::InvalidArgument("paddings ", before, ", ", after, " of dim ", d, " (size ", dim,
                                   ") must be at most ", most, " in mode ", mode);
  }
  return absl::OkStatus();
}

absl::Status CheckPairs(absl::Span<const int64_t> in, absl::Span<const int64_t> pairs, size_t dims,
                        const char* what) {
  if (pairs.size() != 2 * dims) {
    return errors::InvalidArgument(what, " must have 2 entries per dim (", dims, " dims) of ",
                                   Str(in), ", got ", pairs.size());
  }
  for (int64_t p : pairs) {
    if (p < 0)
      return errors::InvalidArgument(what, " must be >= 0, got [", absl::StrJoin(pairs, ","), "]");
  }
  return absl::OkStatus();
}

// The block shape of SpaceToBatchND/BatchToSpaceND: M >= 1 sizes, each >= 1, for an input of
// rank >= 1 + M; their product (the batch factor) in *product.
absl::Status CheckBlock(absl::Span<const int64_t> in, absl::Span<const int64_t> block,
                        int64_t* product) {
  if (block.empty()) return errors::InvalidArgument("block_shape must have at least one entry");
  if (in.size() < 1 + block.size()) {
    return errors::InvalidArgument("the input ", Str(in), " needs rank >= ", 1 + block.size(),
                                   " for block_shape [", absl::StrJoin(block, ","), "]");
  }
  *product = 1;
  for (int64_t b : block) {
    if (b < 1) {
      return errors::InvalidArgument("block_shape [", absl::StrJoin(block, ","),
                                     "] must be >= 1 in every entry");
    }
    *product = MultiplyWithoutOverflow(*product, b);
    if (*product < 0) return errors::InvalidArgument("block_shape's product overflows int64");
  }
  return absl::OkStatus();
}

absl::Status CheckBlockSize(absl::Span<const int64_t> in, int64_t block) {
  if (in.size() != 4) return errors::InvalidArgument("the input must have rank 4, got ", Str(in));
  // The upper bound keeps block * block within int64.
  if (block < 2 || block > (int64_t{1} << 31)) {
    return errors::InvalidArgument("block_size must be in [2, 2^31], got ", block);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Dims> MirrorPad(absl::Span<const int64_t> in, absl::Span<const int64_t> paddings,
                               const std::string& mode) {
  RILL_RETURN_IF_ERROR(CheckMirrorMode(mode));
  RILL_RETURN_IF_ERROR(CheckPairs(in, paddings, in.size(), "paddings"));
  for (size_t d = 0; d < in.size(); ++d) {
    RILL_RETURN_IF_ERROR(CheckMirrorPadding(in[d], paddings[2 * d], paddings[2 * d + 1], d, mode));
  }
  return Pad(in, paddings);
}

absl::StatusOr<Dims> MirrorPadGrad(absl::Span<const int64_t> in, absl::Span<const int64_t> paddings,
                                   const std::string& mode) {
  RILL_RETURN_IF_ERROR(CheckMirrorMode(mode));
  RILL_RETURN_IF_ERROR(CheckPairs(in, paddings, in.size(), "paddings"));
  Dims out(in.begin(), in.end());
  for (size_t d = 0; d < in.size(); ++d) {
    const int64_t before = paddings[2 * d], after = paddings[2 * d + 1];
    if (in[d] < 0) continue;
    if (before > in[d] || after > in[d] - before) {
      return errors::InvalidArgument("paddings ", before, ", ", after, " of dim ", d,
                                     " exceed its size ", in[d], " in ", Str(in));
    }
    out[d] = in[d] - before - after;
    RILL_RETURN_IF_ERROR(CheckMirrorPadding(out[d], before, after, d, mode));
  }
  return out;
}

absl::StatusOr<Dims> SpaceToDepth(absl::Span<const int64_t> in, int64_t block, bool nchw) {
  RILL_RETURN_IF_ERROR(CheckBlockSize(in, block));
  const int h = nchw ? 2 : 1, w = h + 1, c = nchw ? 1 : 3;
  Dims out(in.begin(), in.end());
  for (int d : {h, w}) {
    if (in[d] < 0) continue;
    if (in[d] % block != 0) {
      return errors::InvalidArgument("dim ", d, " of the input ", Str(in),
                                     " must be divisible by block_size ", block);
    }
    out[d] = in[d] / block;
  }
  if (in[c] >= 0) {
    out[c] = MultiplyWithoutOverflow(in[c], block * block);
    if (out[c] < 0) {
      return errors::InvalidArgument("the depth of ", Str(in), " times block_size ", block,
                                     " squared overflows int64");
    }
  }
  return out;
}

absl::StatusOr<Dims> DepthToSpace(absl::Span<const int64_t> in, int64_t block, bool nchw) {
  RILL_RETURN_IF_ERROR(CheckBlockSize(in, block));
  const int h = nchw ? 2 : 1, w = h + 1, c = nchw ? 1 : 3;
  const int64_t square = block * block;
  Dims out(in.begin(), in.end());
  if (in[c] >= 0) {
    if (in[c] % square != 0) {
      return errors::InvalidArgument("the depth of the input ", Str(in),
                                     " must be divisible by block_size squared, ", square);
    }
    out[c] = in[c] / square;
  }
  for (int d : {h, w}) {
    if (in[d] < 0) continue;
    out[d] = MultiplyWithoutOverflow(in[d], block);
    if (out[d] < 0) return errors::InvalidArgument("dim ", d, " times ", block, " overflows int64");
  }
  return out;
}

absl::StatusOr<Dims> SpaceToBatch(absl::Span<const int64_t> in, absl::Span<const int64_t> block,
                                  absl::Span<const int64_t> paddings) {
  int64_t product;
  RILL_RETURN_IF_ERROR(CheckBlock(in, block, &product));
  RILL_RETURN_IF_ERROR(CheckPairs(in, paddings, block.size(), "paddings"));
  Dims out(in.begin(), in.end());
  for (size_t i = 0; i < block.size(); ++i) {
    if (in[1 + i] < 0) continue;
    auto padded = checked::Add(in[1 + i], paddings[2 * i]);
    if (padded) padded = checked::Add(*padded, paddings[2 * i + 1]);
    if (!padded) return errors::InvalidArgument("padding dim ", 1 + i, " overflows int64");
    if (*padded % block[i] != 0) {
      return errors::InvalidArgument("dim ", 1 + i, " of ", Str(in), " padded to ", *padded,
                                     " is not divisible by block size ", block[i]);
    }
    out[1 + i] = *padded / block[i];
  }
  if (in[0] >= 0) {
    out[0] = MultiplyWithoutOverflow(in[0], product);
    if (out[0] < 0) return errors::InvalidArgument("the batch times the block overflows int64");
  }
  return out;
}

absl::StatusOr<Dims> BatchToSpace(absl::Span<const int64_t> in, absl::Span<const int64_t> block,
                                  absl::Span<const int64_t> crops) {
  int64_t product;
  RILL_RETURN_IF_ERROR(CheckBlock(in, block, &product));
  RILL_RETURN_IF_ERROR(CheckPairs(in, crops, block.size(), "crops"));
  Dims out(in.begin(), in.end());
  if (in[0] >= 0) {
    if (in[0] % product != 0) {
      return errors::InvalidArgument("the batch of ", Str(in),
                                     " must be divisible by the product of block_shape, ", product);
    }
    out[0] = in[0] / product;
  }
  for (size_t i = 0; i < block.size(); ++i) {
    if (in[1 + i] < 0) continue;
    auto full = checked::Mul(in[1 + i], block[i]);
    auto kept = full ? checked::Sub(*full, crops[2 * i]) : std::nullopt;
    if (kept) kept = checked::Sub(*kept, crops[2 * i + 1]);
    if (!kept || *kept < 0) {
      return errors::InvalidArgument("crops ", crops[2 * i], ", ", crops[2 * i + 1], " of dim ",
                                     1 + i, " exceed its size times the block in ", Str(in));
    }
    out[1 + i] = *kept;
  }
  return out;
}

absl::StatusOr<Dims> Diag(absl::Span<const int64_t> in) {
  if (in.empty() || 2 * in.size() > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("the diagonal must have rank 1 to ", kMaxTensorRank / 2,
                                   ", got ", Str(in));
  }
  Dims out(in.begin(), in.end());
  out.insert(out.end(), in.begin(), in.end());
  return out;
}

absl::StatusOr<Dims> DiagPart(absl::Span<const int64_t> in) {
  if (in.empty() || in.size() % 2 != 0) {
    return errors::InvalidArgument("the input must have an even rank >= 2, got ", Str(in));
  }
  const size_t k = in.size() / 2;
  Dims out(in.begin(), in.begin() + k);
  for (size_t d = 0; d < k; ++d) {
    if (in[d] >= 0 && in[d + k] >= 0 && in[d] != in[d + k]) {
      return errors::InvalidArgument("dims ", d, " and ", d + k, " of ", Str(in), " must be equal");
    }
    if (out[d] < 0) out[d] = in[d + k];
  }
  return out;
}

absl::StatusOr<Dims> MatrixDiag(absl::Span<const int64_t> in) {
  if (in.empty() || in.size() + 1 > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("the diagonal must have rank 1 to ", kMaxTensorRank - 1,
                                   ", got ", Str(in));
  }
  Dims out(in.begin(), in.end());
  out.push_back(in.back());
  return out;
}

absl::StatusOr<Dims> MatrixDiagPart(absl::Span<const int64_t> in) {
  if (in.size() < 2) return errors::InvalidArgument("the input must have rank >= 2, got ", Str(in));
  const int64_t m = in[in.size() - 2], n = in.back();
  Dims out(in.begin(), in.end() - 2);
  out.push_back(m < 0 || n < 0 ? (m == 0 || n == 0 ? 0 : -1) : std::min(m, n));
  return out;
}

absl::Status ReverseSequenceDims(absl::Span<const int64_t> in, int64_t seq_dim, int64_t batch_dim) {
  const int64_t rank = static_cast<int64_t>(in.size());
  if (seq_dim < 0 || seq_dim >= rank || batch_dim < 0 || batch_dim >= rank) {
    return errors::InvalidArgument("seq_dim ", seq_dim, " and batch_dim ", batch_dim,
                                   " must be in [0, ", rank, ") for the input ", Str(in));
  }
  if (seq_dim == batch_dim) {
    return errors::InvalidArgument("seq_dim and batch_dim must differ, both are ", seq_dim);
  }
  return absl::OkStatus();
}

}  // namespace rill::shape_util
