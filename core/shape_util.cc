#include "rill/core/shape_util.h"

#include <algorithm>

#include "absl/strings/str_join.h"
#include "rill/core/checked_math.h"
#include "rill/core/shape_inference.h"
#include "rill/core/status.h"
#include "rill/core/tensor_shape.h"

namespace rill::shape_util {

std::string Str(absl::Span<const int64_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += dims[i] < 0 ? "?" : absl::StrCat(dims[i]);
  }
  return s + "]";
}

namespace {
absl::Status CheckRank(size_t rank) {
  if (rank > static_cast<size_t>(kMaxTensorRank)) {
    return errors::InvalidArgument("result would have rank ", rank, "; at most ", kMaxTensorRank,
                                   " is supported");
  }
  return absl::OkStatus();
}
}  // namespace

absl::StatusOr<Dims> Reshape(absl::Span<const int64_t> in, absl::Span<const int64_t> spec) {
  RILL_RETURN_IF_ERROR(CheckRank(spec.size()));
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] == -1) {
      if (infer >= 0) {
        return errors::InvalidArgument("only one dimension of shape ", Str(spec), " may be -1");
      }
      infer = static_cast<int>(i);
    } else if (spec[i] < 0) {
      return errors::InvalidArgument("shape [", absl::StrJoin(spec, ","),
                                     "] has a negative dimension ", spec[i]);
    } else {
      known = MultiplyWithoutOverflow(known, spec[i]);
      if (known < 0) return errors::InvalidArgument("shape ", Str(spec), " overflows int64");
    }
  }
  int64_t n = 1;
  for (int64_t d : in) {
    if (d < 0) {
      n = -1;
      break;
    }
    n = MultiplyWithoutOverflow(n, d);
  }
  Dims out(spec.begin(), spec.end());
  if (n < 0) return out;  // input not fully known: -1 stays unknown
  if (infer >= 0) {
    if (known == 0 || n % known != 0) {
      if (known == 0 && n == 0) {
        out[infer] = 0;  // ambiguous, as in TensorFlow: 0
        return out;
      }
      return errors::InvalidArgument("cannot reshape a tensor with ", n, " elements to ", Str(spec),
                                     " (input shape ", Str(in), ")");
    }
    out[infer] = n / known;
  } else if (known != n) {
    return errors::InvalidArgument("cannot reshape a tensor with ", n, " elements to shape ",
                                   Str(spec), " (", known, " elements); input shape ", Str(in));
  }
  return out;
}

absl::StatusOr<Dims> Transpose(absl::Span<const int64_t> in, absl::Span<const int64_t> perm) {
  if (perm.size() != in.size()) {
    return errors::InvalidArgument("perm [", absl::StrJoin(perm, ","), "] has ", perm.size(),
                                   " entries but the input ", Str(in), " has rank ", in.size());
  }
  std::vector<bool> seen(in.size(), false);
  Dims out(in.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    int64_t p = perm[i];
    if (p < 0 || p >= static_cast<int64_t>(in.size()) || seen[p]) {
      // The values as given: Str would show a negative entry as an unknown dim ("?").
      return errors::InvalidArgument("perm [", absl::StrJoin(perm, ","),
                                     "] is not a permutation of [0, ", in.size(), ")");
    }
    seen[p] = true;
    out[i] = in[p];
  }
  return out;
}

absl::StatusOr<Dims> Concat(const std::vector<Dims>& inputs, int64_t axis, int* out_axis) {
  if (inputs.empty()) return errors::InvalidArgument("Concat needs at least one input");
  const Dims& first = inputs[0];
  int rank = static_cast<int>(first.size());
  if (rank == 0) return errors::InvalidArgument("cannot concatenate scalars; use Stack");
  RILL_ASSIGN_OR_RETURN(int ax, shape_fns::CanonicalAxis(axis, rank, "concat axis"));
  Dims out = first;
  for (size_t k = 1; k < inputs.size(); ++k) {
    const Dims& d = inputs[k];
    if (static_cast<int>(d.size()) != rank) {
      return errors::InvalidArgument("input 0 has shape ", Str(first), " but input ", k,
                                     " has shape ", Str(d), "; ranks differ");
    }
    for (int i = 0; i < rank; ++i) {
      if (i == ax) {
        if (out[i] < 0 || d[i] < 0) {
          out[i] = -1;
        } else {
          RILL_ASSIGN_OR_RETURN(out[i], checked::AddOr(out[i], d[i], "the concatenated dimension"));
        }
      } else if (out[i] >= 0 && d[i] >= 0 && out[i] != d[i]) {
        return errors::InvalidArgument("input 0 has shape ", Str(first), " but input ", k,
                                       " has shape ", Str(d), "; dimension ", i,
                                       " must match except on the concat axis ", ax);
      } else if (out[i] < 0) {
        out[i] = d[i];
      }
    }
  }
  if (out_axis) *out_axis = ax;
  return out;
}

absl::StatusOr<Dims> Slice(absl::Span<const int64_t> in, absl::Span<const int64_t> begin,
                           absl::Span<const int64_t> size) {
  if (begin.size() != in.size() || size.size() != in.size()) {
    return errors::InvalidArgument("begin ", Str(begin), " and size ", Str(size),
                                   " must both have one entry per dimension of the input ",
                                   Str(in));
  }
  Dims out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t b = begin[i], s = size[i], d = in[i];
    if (b < 0 || (d >= 0 && b > d)) {
      return errors::InvalidArgument("begin[", i, "] = ", b, " is out of range for dimension ", i,
                                     " of size ", d, " (input ", Str(in), ")");
    }
    if (s < -1) return errors::InvalidArgument("size[", i, "] = ", s, " is invalid");
    if (s == -1) {
      out[i] = d < 0 ? -1 : d - b;
    } else {
      if (d >= 0 && (s > d || b > d - s)) {
        return errors::InvalidArgument("slice begin ", b, " + size ", s, " exceeds dimension ", i,
                                       " of size ", d, " (input ", Str(in), ")");
      }
      out[i] = s;
    }
  }
  return out;
}

absl::StatusOr<Dims> Pad(absl::Span<const int64_t> in, absl::Span<const int64_t> paddings) {
  if (paddings.size() != 2 * in.size()) {
    return errors::InvalidArgument("paddings must have 2 entries per dimension of the input ",
                                   Str(in), ", got ", paddings.size());
  }
  Dims out(in.begin(), in.end());
  for (size_t d = 0; d < in.size(); ++d) {
    const int64_t before = paddings[2 * d], after = paddings[2 * d + 1];
    if (before < 0 || after < 0) {
      return errors::InvalidArgument("paddings must be >= 0, got ", before, ", ", after,
                                     " for dim ", d);
    }
    if (in[d] < 0) continue;  // unknown stays unknown
    auto total = checked::Add(before, after);
    auto dim = total ? checked::Add(in[d], *total) : std::nullopt;
    if (!dim) {
      return errors::InvalidArgument("padding dim ", d, " of ", Str(in), " by ", before, " and ",
                                     after, " gives a size beyond int64");
    }
    out[d] = *dim;
  }
  return out;
}

absl::StatusOr<Dims> ExpandDims(absl::Span<const int64_t> in, int64_t axis) {
  int rank = static_cast<int>(in.size());
  RILL_RETURN_IF_ERROR(CheckRank(in.size() + 1));
  RILL_ASSIGN_OR_RETURN(int ax, shape_fns::CanonicalAxis(axis, rank + 1, "ExpandDims axis"));
  Dims out(in.begin(), in.end());
  out.insert(out.begin() + ax, 1);
  return out;
}

absl::StatusOr<Dims> Squeeze(absl::Span<const int64_t> in, absl::Span<const int64_t> axes) {
  int rank = static_cast<int>(in.size());
  std::vector<bool> drop(rank, false);
  for (int64_t a : axes) {
    RILL_ASSIGN_OR_RETURN(int ax, shape_fns::CanonicalAxis(a, rank, "squeeze axis"));
    if (in[ax] >= 0 && in[ax] != 1) {
      return errors::InvalidArgument("cannot squeeze dimension ", ax, " of size ", in[ax],
                                     " (input ", Str(in), "); only size-1 dims can be squeezed");
    }
    drop[ax] = true;
  }
  Dims out;
  for (int i = 0; i < rank; ++i) {
    if (axes.empty() ? in[i] == 1 : drop[i]) continue;
    out.push_back(in[i]);
  }
  return out;
}

absl::StatusOr<Dims> Reduce(absl::Span<const int64_t> in, absl::Span<const int64_t> axes,
                            bool keep_dims, std::vector<bool>* mask) {
  int rank = static_cast<int>(in.size());
  std::vector<bool> m(rank, false);
  for (int64_t a : axes) {
    RILL_ASSIGN_OR_RETURN(int ax, shape_fns::CanonicalAxis(a, rank, "reduction axis"));
    m[ax] = true;
  }
  Dims out;
  for (int i = 0; i < rank; ++i) {
    if (!m[i]) {
      out.push_back(in[i]);
    } else if (keep_dims) {
      out.push_back(1);
    }
  }
  if (mask) *mask = std::move(m);
  return out;
}

std::vector<std::pair<int64_t, bool>> ReductionGroups(absl::Span<const int64_t> in,
                                                      const std::vector<bool>& mask) {
  std::vector<std::pair<int64_t, bool>> g;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!g.empty() && g.back().second == mask[i]) {
      g.back().first *= in[i];
    } else {
      g.push_back({in[i], mask[i]});
    }
  }
  return g;
}

absl::StatusOr<Dims> MatMul(absl::Span<const int64_t> a, absl::Span<const int64_t> b,
                            bool transpose_a, bool transpose_b) {
  if (a.size() != 2 || b.size() != 2) {
    return errors::InvalidArgument("MatMul needs two matrices (rank 2), got shapes ", Str(a),
                                   " and ", Str(b));
  }
  int64_t m = transpose_a ? a[1] : a[0], ka = transpose_a ? a[0] : a[1];
  int64_t kb = transpose_b ? b[1] : b[0], n = transpose_b ? b[0] : b[1];
  if (ka >= 0 && kb >= 0 && ka != kb) {
    return errors::InvalidArgument("matrix size-incompatible: In[0]: ", Str(a), ", In[1]: ", Str(b),
                                   " (transpose_a=", transpose_a, ", transpose_b=", transpose_b,
                                   "): inner dims ", ka, " vs. ", kb);
  }
  return Dims{m, n};
}

absl::StatusOr<Dims> OneHot(absl::Span<const int64_t> indices, int64_t depth, int64_t axis) {
  if (depth < -1) return errors::InvalidArgument("depth must be non-negative, got ", depth);
  int rank = static_cast<int>(indices.size());
  RILL_RETURN_IF_ERROR(CheckRank(indices.size() + 1));
  if (axis < -1 || axis > rank) {
    return errors::InvalidArgument("OneHot axis ", axis, " must be -1 or in [0, ", rank, "]");
  }
  Dims out(indices.begin(), indices.end());
  out.insert(out.begin() + (axis == -1 ? rank : axis), depth);
  for (int64_t d : out) {
    if (d < 0) return out;
  }
  RILL_RETURN_IF_ERROR(TensorShape::Build(out).status());
  return out;
}

absl::StatusOr<Dims> ArgMax(absl::Span<const int64_t> in, int64_t axis, int* out_axis) {
  int rank = static_cast<int>(in.size());
  if (rank == 0) return errors::InvalidArgument("the input must have rank >= 1, got a scalar");
  RILL_ASSIGN_OR_RETURN(int ax, shape_fns::CanonicalAxis(axis, rank, "dimension"));
  if (in[ax] == 0) {
    return errors::InvalidArgument("cannot take an index over the empty dimension ", ax, " of ",
                                   Str(in));
  }
  Dims out(in.begin(), in.end());
  out.erase(out.begin() + ax);
  if (out_axis) *out_axis = ax;
  return out;
}

}  // namespace rill::shape_util
