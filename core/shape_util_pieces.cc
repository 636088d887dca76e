// The shape rules of the ops that cut a tensor into pieces or assemble it from pieces:
// Tile, Pack, Unpack, Split and SplitV (shape_util.h).
#include "absl/strings/str_join.h"
#include "rill/core/checked_math.h"
#include "rill/core/limits.h"
#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"
#include "rill/core/status.h"

namespace rill::shape_util {

absl::StatusOr<Dims> Tile(absl::Span<const int64_t> in, absl::Span<const int64_t> multiples) {
  if (multiples.size() != in.size()) {
    return errors::InvalidArgument("multiples [", absl::StrJoin(multiples, ","), "] has ",
                                   multiples.size(), " entries but the input ", Str(in),
                                   " has rank ", in.size());
  }
  Dims out(in.size());
  for (size_t d = 0; d < in.size(); ++d) {
    if (multiples[d] < 0) {
      return errors::InvalidArgument("multiples [", absl::StrJoin(multiples, ","),
                                     "] has a negative entry at dimension ", d);
    }
    if (in[d] < 0) {
      out[d] = multiples[d] == 0 ? 0 : -1;
      continue;
    }
    out[d] = MultiplyWithoutOverflow(in[d], multiples[d]);
    if (out[d] < 0) {
      return errors::InvalidArgument("tiling ", Str(in), " by [", absl::StrJoin(multiples, ","),
                                     "] overflows int64");
    }
  }
  // The element count too: each dim may fit while their product does not.
  int64_t n = 1;
  for (int64_t d : out) {
    if (d < 0) continue;
    n = MultiplyWithoutOverflow(n, d);
    if (n < 0) return errors::InvalidArgument("tiling ", Str(in), " gives too many elements");
  }
  return out;
}

absl::StatusOr<Dims> Pack(absl::Span<const int64_t> in, int64_t n, int64_t axis, int* out_axis) {
  if (in.size() + 1 > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("stacking inputs of shape ", Str(in), " gives rank ",
                                   in.size() + 1, "; at most ", kMaxTensorRank, " is supported");
  }
  RILL_ASSIGN_OR_RETURN(
      int ax, shape_fns::CanonicalAxis(axis, static_cast<int>(in.size()) + 1, "stack axis"));
  Dims out(in.begin(), in.end());
  out.insert(out.begin() + ax, n);
  if (out_axis) *out_axis = ax;
  return out;
}

absl::StatusOr<Dims> Unpack(absl::Span<const int64_t> in, int64_t num, int64_t axis,
                            int* out_axis) {
  if (in.empty())
    return errors::InvalidArgument("cannot unstack a scalar; the input needs rank >= 1");
  RILL_ASSIGN_OR_RETURN(
      int ax, shape_fns::CanonicalAxis(axis, static_cast<int>(in.size()), "unstack axis"));
  if (in[ax] >= 0 && in[ax] != num) {
    return errors::InvalidArgument("num is ", num, " but dimension ", ax, " of the input ", Str(in),
                                   " has size ", in[ax]);
  }
  Dims out(in.begin(), in.end());
  out.erase(out.begin() + ax);
  if (out_axis) *out_axis = ax;
  return out;
}

namespace {

// SplitV's sizes with the -1 resolved against `dim` (unknown: -1).
absl::StatusOr<std::vector<int64_t>> ResolveSizes(int64_t dim, absl::Span<const int64_t> sizes,
                                                  const std::string& where) {
  std::vector<int64_t> out(sizes.begin(), sizes.end());
  int infer = -1;
  int64_t sum = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1 && infer < 0) {
      infer = static_cast<int>(i);
    } else if (sizes[i] < 0) {
      return errors::InvalidArgument(
          "size_splits [", absl::StrJoin(sizes, ","), "] ",
          sizes[i] == -1 ? "has more than one -1" : "has a negative size");
    } else {
      RILL_ASSIGN_OR_RETURN(sum, checked::AddOr(sum, sizes[i], "the sum of size_splits"));
    }
  }
  if (dim < 0) return out;
  if (infer >= 0) {
    if (sum > dim) {
      return errors::InvalidArgument("size_splits [", absl::StrJoin(sizes, ","), "] add up to ",
                                     sum, ", more than ", where);
    }
    out[infer] = dim - sum;
  } else if (sum != dim) {
    return errors::InvalidArgument("size_splits [", absl::StrJoin(sizes, ","), "] add up to ", sum,
                                   " but must add up to ", where);
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> SplitSizes(absl::Span<const int64_t> in, int64_t axis,
                                                int64_t num_split,
                                                const absl::Span<const int64_t>* sizes,
                                                int* out_axis) {
  if (in.empty())
    return errors::InvalidArgument("cannot split a scalar; the input needs rank >= 1");
  RILL_ASSIGN_OR_RETURN(int ax,
                        shape_fns::CanonicalAxis(axis, static_cast<int>(in.size()), "split axis"));
  if (out_axis) *out_axis = ax;
  const int64_t dim = in[ax];
  const std::string where =
      absl::StrCat("dimension ", ax, " of the input ", Str(in), " (", dim, ")");
  if (num_split < 1)
    return errors::InvalidArgument("num_split is ", num_split, "; it must be >= 1");
  if (sizes != nullptr) {
    if (static_cast<int64_t>(sizes->size()) != num_split) {
      return errors::InvalidArgument("size_splits has ", sizes->size(),
                                     " entries but num_split is ", num_split);
    }
    return ResolveSizes(dim, *sizes, where);
  }
  if (dim >= 0 && dim % num_split != 0) {
    return errors::InvalidArgument("num_split ", num_split, " does not evenly divide ", where);
  }
  return std::vector<int64_t>(num_split, dim < 0 ? -1 : dim / num_split);
}

}  // namespace rill::shape_util
