#include "rill/core/strided_copy.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "rill/core/broadcast.h"
#include "rill/core/kernel_util.h"
#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"

namespace rill {
namespace {

// Row-major strides of `dims` into s[0..rank).
void RowMajor(int rank, const int64_t* dims, int64_t* s) {
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    s[d] = stride;
    stride *= dims[d];
  }
}

// A copy over `out`'s positions into a fresh contiguous output.
StridedCopy OverOutput(const TensorShape& out) {
  StridedCopy c;
  c.rank = out.dims();
  for (int d = 0; d < c.rank; ++d) c.dims[d] = out.dim_size(d);
  RowMajor(c.rank, c.dims.data(), c.dst_strides.data());
  return c;
}

}  // namespace

int64_t StridedCopy::num_elements() const {
  int64_t n = 1;
  for (int d = 0; d < rank; ++d) n *= dims[d];
  return n;
}

absl::StatusOr<CopyJob> PrepareTranspose(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  RILL_ASSIGN_OR_RETURN(auto perm, IntVectorInput(ctx.input(1), "perm"));
  RILL_ASSIGN_OR_RETURN(auto dims, shape_util::Transpose(x.shape().dim_sizes(), perm));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  CopyJob job;
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity &= perm[i] == static_cast<int64_t>(i);
  if (identity) {
    job.done = true;
    RILL_RETURN_IF_ERROR(AliasInputAsOutput(ctx, shape));
    return job;
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &job.out));
  std::vector<int> p(perm.begin(), perm.end());  // validated by shape_util::Transpose
  job.copy = PermutationCopy(x.shape().dim_sizes(), p);
  return job;
}

absl::StatusOr<std::vector<bool>> ReverseAxes(absl::Span<const int64_t> axis, int rank) {
  std::vector<bool> flip(static_cast<size_t>(rank), false);
  for (int64_t a : axis) {
    if (a < -rank || a >= rank) {
      return errors::InvalidArgument("axis ", a, " is out of range [", -rank, ", ", rank,
                                     ") for a tensor of rank ", rank);
    }
    const size_t d = static_cast<size_t>(a < 0 ? a + rank : a);
    if (flip[d]) return errors::InvalidArgument("axis ", d, " is given more than once");
    flip[d] = true;
  }
  return flip;
}

absl::Status ReverseDimsCount(int64_t flags, int rank) {
  if (flags != rank) {
    return errors::InvalidArgument(
        "'dims' must have the same number of values as 'input' has dimensions: input has ", rank,
        ", dims has ", flags);
  }
  return absl::OkStatus();
}

namespace {

// The copy that reverses x along the dims flagged in `flip` (x itself when that moves
// nothing).
absl::StatusOr<CopyJob> ReverseJob(OpKernelContext& ctx, const std::vector<bool>& flip) {
  const Tensor& x = ctx.input(0);
  bool moves = false;  // reversing dims of size 0 or 1 moves nothing
  for (int d = 0; d < x.dims(); ++d) moves |= flip[d] && x.dim_size(d) > 1;
  CopyJob job;
  if (!moves) {
    job.done = true;
    RILL_RETURN_IF_ERROR(AliasInputAsOutput(ctx, x.shape()));
    return job;
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &job.out));
  job.copy = OverOutput(x.shape());
  RowMajor(x.dims(), job.copy.dims.data(), job.copy.src_strides.data());
  for (int d = 0; d < x.dims(); ++d) {
    if (!flip[d]) continue;
    job.copy.src_base += (x.dim_size(d) - 1) * job.copy.src_strides[d];
    job.copy.src_strides[d] = -job.copy.src_strides[d];
  }
  return job;
}

}  // namespace

absl::StatusOr<CopyJob> PrepareReverse(OpKernelContext& ctx) {
  const Tensor& axis_t = ctx.input(1);
  if (axis_t.dims() != 1) {
    return errors::InvalidArgument("axis must be a vector, got shape ",
                                   axis_t.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto axis, IntVectorInput(axis_t, "axis"));
  RILL_ASSIGN_OR_RETURN(std::vector<bool> flip, ReverseAxes(axis, ctx.input(0).dims()));
  return ReverseJob(ctx, flip);
}

absl::StatusOr<CopyJob> PrepareReverseDims(OpKernelContext& ctx) {
  const Tensor& dims = ctx.input(1);
  if (dims.dims() != 1) {
    return errors::InvalidArgument("'dims' must be 1-dimension, not ", dims.dims(), " (shape ",
                                   dims.shape().DebugString(), ")");
  }
  RILL_RETURN_IF_ERROR(ReverseDimsCount(dims.NumElements(), ctx.input(0).dims()));
  const bool* d = dims.base<bool>();
  return ReverseJob(ctx, std::vector<bool>(d, d + dims.NumElements()));
}

absl::StatusOr<CopyJob> PrepareSlice(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  RILL_ASSIGN_OR_RETURN(auto begin, IntVectorInput(ctx.input(1), "begin"));
  RILL_ASSIGN_OR_RETURN(auto size, IntVectorInput(ctx.input(2), "size"));
  RILL_ASSIGN_OR_RETURN(auto dims, shape_util::Slice(x.shape().dim_sizes(), begin, size));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  CopyJob job;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &job.out));
  job.copy = OverOutput(shape);
  std::vector<int64_t> in_dims(x.shape().dim_sizes().begin(), x.shape().dim_sizes().end());
  RowMajor(x.dims(), in_dims.data(), job.copy.src_strides.data());
  for (int d = 0; d < x.dims(); ++d) job.copy.src_base += begin[d] * job.copy.src_strides[d];
  return job;
}

absl::StatusOr<CopyJob> PreparePad(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& pt = ctx.input(1);
  const int rank = x.dims();
  if (pt.dims() != 2 || pt.dim_size(0) != rank || pt.dim_size(1) != 2) {
    return errors::InvalidArgument("paddings must be [", rank, ", 2] for input of shape ",
                                   x.shape().DebugString(), ", got ", pt.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto pad, shape_fns::AllIntValues(pt, "paddings"));
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, shape_util::Pad(x.shape().dim_sizes(), pad));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  // Over the input's positions, into the output's interior.
  CopyJob job;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &job.out));
  job.zero_fill = true;
  job.copy = OverOutput(x.shape());
  job.copy.src_strides = job.copy.dst_strides;
  RowMajor(rank, dims.data(), job.copy.dst_strides.data());
  for (int d = 0; d < rank; ++d) job.copy.dst_base += pad[2 * d] * job.copy.dst_strides[d];
  return job;
}

absl::StatusOr<CopyJob> PreparePadV2(OpKernelContext& ctx) {
  const Tensor& v = ctx.input(2);
  if (v.dims() != 0) {
    return errors::InvalidArgument("constant_values must be a scalar, got shape ",
                                   v.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(CopyJob job, PreparePad(ctx));
  job.zero_fill = false;
  job.fill = 2;
  return job;
}

absl::StatusOr<CopyJob> PrepareBroadcastTo(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (ctx.input(1).dims() != 1) return errors::InvalidArgument("shape must be a vector");
  RILL_ASSIGN_OR_RETURN(TensorShape target, shape_fns::ShapeFromTensor(ctx.input(1), "shape"));
  auto b = shape_fns::Broadcast(x.shape(), target);
  if (!b.ok() || *b != target) {
    return errors::InvalidArgument("cannot broadcast shape ", x.shape().DebugString(), " to ",
                                   target.DebugString());
  }
  CopyJob job;
  if (x.shape() == target) {
    job.done = true;
    ctx.set_output(0, x);
    return job;
  }
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, target, &job.out));
  if (target.num_elements() == 0) {
    job.done = true;
    return job;
  }
  const BroadcastPlan p = MakeBroadcastPlan(x.shape(), target, target);
  job.copy.rank = p.rank;
  for (int d = 0; d < p.rank; ++d) {
    job.copy.dims[d] = p.dims[d];
    job.copy.src_strides[d] = p.a_strides[d];
  }
  RowMajor(p.rank, job.copy.dims.data(), job.copy.dst_strides.data());
  return job;
}

absl::StatusOr<std::vector<StridedCopy>> PrepareConcat(OpKernelContext& ctx, Tensor** out) {
  const int n = ctx.num_inputs() - 1;
  const Tensor& axis_t = ctx.input(n);
  if (axis_t.dims() != 0) {
    return errors::InvalidArgument("axis must be a scalar, got shape ",
                                   axis_t.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto axis, shape_fns::IntValues(axis_t, "axis"));
  std::vector<shape_util::Dims> dims;
  for (int i = 0; i < n; ++i) {
    auto d = ctx.input(i).shape().dim_sizes();
    dims.emplace_back(d.begin(), d.end());
  }
  int ax;
  RILL_ASSIGN_OR_RETURN(auto out_dims, shape_util::Concat(dims, axis[0], &ax));
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(out_dims));
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, out));
  // Each value as [outer, its inner], into the output's [outer, inner] at its column.
  int64_t outer = 1;
  for (int i = 0; i < ax; ++i) outer *= shape.dim_size(i);
  const int64_t out_inner = outer == 0 ? 0 : shape.num_elements() / outer;
  std::vector<StridedCopy> copies;
  int64_t column = 0;
  for (int i = 0; i < n; ++i) {
    const int64_t inner = outer == 0 ? 0 : ctx.input(i).NumElements() / outer;
    StridedCopy c;
    c.rank = 2;
    c.dims = {outer, inner};
    c.src_strides = {inner, 1};
    c.dst_strides = {out_inner, 1};
    c.dst_base = column;
    column += inner;
    copies.push_back(c);
  }
  return copies;
}

StridedCopy PermutationCopy(absl::Span<const int64_t> dims, absl::Span<const int> perm) {
  StridedCopy c;
  c.rank = static_cast<int>(perm.size());
  int64_t in_strides[kMaxTensorRank];
  RowMajor(static_cast<int>(dims.size()), dims.data(), in_strides);
  for (int d = 0; d < c.rank; ++d) {
    c.dims[d] = dims[perm[d]];
    c.src_strides[d] = in_strides[perm[d]];
  }
  RowMajor(c.rank, c.dims.data(), c.dst_strides.data());
  return c;
}

namespace {

// Calls fn(src_offset, dst_offset) for every position of c's dims except `skip_a` and
// `skip_b` (each -1 or a dim to leave to fn), in row-major order: an odometer.
template <typename Fn>
void ForEachOuter(const StridedCopy& c, int skip_a, int skip_b, Fn fn) {
  int64_t idx[kMaxCopyRank] = {0};
  int64_t so = 0, doff = 0;
  for (;;) {
    fn(so, doff);
    int d = c.rank - 1;
    for (; d >= 0; --d) {
      if (d == skip_a || d == skip_b) continue;
      so += c.src_strides[d];
      doff += c.dst_strides[d];
      if (++idx[d] < c.dims[d]) break;
      so -= c.src_strides[d] * c.dims[d];
      doff -= c.dst_strides[d] * c.dims[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

// The copy with elements of type T: rows copied whole where both sides are contiguous; a
// transpose (the innermost dim contiguous on one side, another dim on the other) in
// 16 x 16 tiles, so that neither side is read or written a cache line per element.
template <typename T>
void CopyTyped(const StridedCopy& c, const T* s, T* o) {
  const int last = c.rank - 1;
  const int64_t inner = c.dims[last];
  if (c.src_strides[last] == 1 && c.dst_strides[last] == 1) {
    ForEachOuter(c, last, -1, [&](int64_t so, int64_t doff) {
      std::memcpy(o + doff, s + so, inner * sizeof(T));
    });
    return;
  }
  int k = -1;  // a dim read contiguously when the last one is not
  for (int d = last - 1; d >= 0 && k < 0; --d) {
    if (c.src_strides[d] == 1 && c.dims[d] > 1) k = d;
  }
  if (k < 0) {
    const int64_t ss = c.src_strides[last], ds = c.dst_strides[last];
    ForEachOuter(c, last, -1, [&](int64_t so, int64_t doff) {
      for (int64_t i = 0; i < inner; ++i) o[doff + i * ds] = s[so + i * ss];
    });
    return;
  }
  constexpr int64_t kTile = 16;
  const int64_t nk = c.dims[k], sk = c.src_strides[k], dk = c.dst_strides[k];
  const int64_t sl = c.src_strides[last], dl = c.dst_strides[last];
  ForEachOuter(c, last, k, [&](int64_t so, int64_t doff) {
    for (int64_t k0 = 0; k0 < nk; k0 += kTile) {
      const int64_t k1 = std::min(nk, k0 + kTile);
      for (int64_t l0 = 0; l0 < inner; l0 += kTile) {
        const int64_t l1 = std::min(inner, l0 + kTile);
        for (int64_t a = k0; a < k1; ++a) {
          for (int64_t b = l0; b < l1; ++b) o[doff + a * dk + b * dl] = s[so + a * sk + b * sl];
        }
      }
    }
  });
}

// Elements of any size, one memcpy each (no dtype of rill's has another size today).
void CopyBytes(const StridedCopy& c, const char* s, char* o, size_t es) {
  const int last = c.rank - 1;
  ForEachOuter(c, last, -1, [&](int64_t so, int64_t doff) {
    for (int64_t i = 0; i < c.dims[last]; ++i) {
      std::memcpy(o + (doff + i * c.dst_strides[last]) * es,
                  s + (so + i * c.src_strides[last]) * es, es);
    }
  });
}

}  // namespace

void RunStridedCopyOnHost(const StridedCopy& c, const void* src, void* dst, size_t es) {
  const int64_t n = c.num_elements();
  if (n == 0) return;
  const char* s = static_cast<const char*>(src) + c.src_base * es;
  char* o = static_cast<char*>(dst) + c.dst_base * es;
  if (c.rank == 0) {
    std::memcpy(o, s, es);
    return;
  }
  switch (es) {
    case 1:
      return CopyTyped(c, reinterpret_cast<const uint8_t*>(s), reinterpret_cast<uint8_t*>(o));
    case 2:
      return CopyTyped(c, reinterpret_cast<const uint16_t*>(s), reinterpret_cast<uint16_t*>(o));
    case 4:
      return CopyTyped(c, reinterpret_cast<const uint32_t*>(s), reinterpret_cast<uint32_t*>(o));
    case 8:
      return CopyTyped(c, reinterpret_cast<const uint64_t*>(s), reinterpret_cast<uint64_t*>(o));
    default:
      return CopyBytes(c, s, o, es);
  }
}

}  // namespace rill
