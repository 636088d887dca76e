#include "rill/core/piece_copy.h"

#include "rill/core/graph.h"
#include "rill/core/kernel_util.h"
#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"

namespace rill {
namespace {

// The copy of a [outer, inner] block between rows `src_row` and `dst_row` elements long,
// starting at the given offsets.
StridedCopy Block(int64_t outer, int64_t inner, int64_t src_row, int64_t dst_row, int64_t src_base,
                  int64_t dst_base) {
  StridedCopy c;
  PushCopyDim(&c, outer, src_row, dst_row);
  PushCopyDim(&c, inner, 1, 1);
  c.src_base = src_base;
  c.dst_base = dst_base;
  return c;
}

int64_t Product(absl::Span<const int64_t> dims, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t d = from; d < to; ++d) n *= dims[d];
  return n;
}

// The outputs of Split and SplitV: piece i is value[..., offset_i : offset_i + size_i, ...].
absl::StatusOr<PieceCopies> SplitPieces(OpKernelContext& ctx, int value_input, int ax,
                                        const std::vector<int64_t>& sizes) {
  const auto in = ctx.input(value_input).shape().dim_sizes();
  const int64_t outer = Product(in, 0, ax), inner = Product(in, ax + 1, in.size());
  PieceCopies v;
  int64_t offset = 0;
  shape_util::Dims piece(in.begin(), in.end());
  for (size_t i = 0; i < sizes.size(); ++i) {
    piece[ax] = sizes[i];
    RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, static_cast<int>(i), piece));
    AddIfNotEmpty(
        &v, value_input, out,
        Block(outer, sizes[i] * inner, in[ax] * inner, sizes[i] * inner, offset * inner, 0));
    offset += sizes[i];
  }
  return v;
}

}  // namespace

void AddIfNotEmpty(PieceCopies* v, int input, Tensor* out, const StridedCopy& c) {
  if (c.num_elements() > 0 && out->NumElements() > 0) v->push_back({input, out, c});
}

absl::StatusOr<int64_t> ScalarIntInput(const Tensor& t, const char* what) {
  if (t.dims() != 0) {
    return errors::InvalidArgument(what, " must be a scalar, got shape ", t.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::IntValues(t, what));
  return v[0];
}

shape_util::Dims RowMajorStrides(absl::Span<const int64_t> dims) {
  shape_util::Dims s(dims.size());
  int64_t stride = 1;
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    s[d] = stride;
    stride *= dims[d];
  }
  return s;
}

void PushCopyDim(StridedCopy* c, int64_t size, int64_t src_stride, int64_t dst_stride) {
  if (size == 1) return;
  c->dims[c->rank] = size;
  c->src_strides[c->rank] = src_stride;
  c->dst_strides[c->rank] = dst_stride;
  ++c->rank;
}

absl::StatusOr<Tensor*> AllocateOutput(OpKernelContext& ctx, int i,
                                       absl::Span<const int64_t> dims) {
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(i, shape, &out));
  return out;
}

absl::StatusOr<PieceCopies> PrepareTile(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  RILL_ASSIGN_OR_RETURN(auto multiples, IntVectorInput(ctx.input(1), "multiples"));
  const auto in = x.shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, shape_util::Tile(in, multiples));
  bool identity = true;
  for (int64_t m : multiples) identity &= m == 1;
  if (identity) {
    ctx.set_output(0, x);
    return PieceCopies();
  }
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, dims));
  // Over (replica, position) pairs per dim: rank up to 2 * kMaxTensorRank.
  const shape_util::Dims src = RowMajorStrides(in), dst = RowMajorStrides(dims);
  StridedCopy c;
  for (size_t d = 0; d < in.size(); ++d) {
    PushCopyDim(&c, multiples[d], 0, in[d] * dst[d]);
    PushCopyDim(&c, in[d], src[d], dst[d]);
  }
  PieceCopies v;
  AddIfNotEmpty(&v, 0, out, c);
  return v;
}

absl::StatusOr<PieceCopies> PreparePack(OpKernelContext& ctx) {
  const int n = ctx.num_inputs();
  const TensorShape& first = ctx.input(0).shape();
  for (int i = 1; i < n; ++i) {
    if (ctx.input(i).shape() != first) {
      return errors::InvalidArgument("all inputs must have one shape; input 0 has shape ",
                                     first.DebugString(), " but input ", i, " has shape ",
                                     ctx.input(i).shape().DebugString());
    }
  }
  int ax;
  const auto in = first.dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims,
                        shape_util::Pack(in, n, ctx.node().attr<int64_t>("axis"), &ax));
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, dims));
  const int64_t outer = Product(in, 0, ax), inner = Product(in, ax, in.size());
  PieceCopies v;
  for (int i = 0; i < n; ++i)
    AddIfNotEmpty(&v, i, out, Block(outer, inner, inner, n * inner, 0, i * inner));
  return v;
}

absl::StatusOr<PieceCopies> PrepareUnpack(OpKernelContext& ctx) {
  const auto in = ctx.input(0).shape().dim_sizes();
  const int64_t num = ctx.node().attr<int64_t>("num");
  int ax;
  RILL_ASSIGN_OR_RETURN(shape_util::Dims piece,
                        shape_util::Unpack(in, num, ctx.node().attr<int64_t>("axis"), &ax));
  const int64_t outer = Product(in, 0, ax), inner = Product(in, ax + 1, in.size());
  PieceCopies v;
  for (int64_t i = 0; i < num; ++i) {
    RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, static_cast<int>(i), piece));
    AddIfNotEmpty(&v, 0, out, Block(outer, inner, num * inner, inner, i * inner, 0));
  }
  return v;
}

absl::StatusOr<PieceCopies> PrepareSplit(OpKernelContext& ctx) {
  RILL_ASSIGN_OR_RETURN(int64_t axis, ScalarIntInput(ctx.input(0), "split_dim"));
  int ax;
  RILL_ASSIGN_OR_RETURN(
      auto sizes, shape_util::SplitSizes(ctx.input(1).shape().dim_sizes(), axis,
                                         ctx.node().attr<int64_t>("num_split"), nullptr, &ax));
  return SplitPieces(ctx, 1, ax, sizes);
}

absl::StatusOr<PieceCopies> PrepareSplitV(OpKernelContext& ctx) {
  RILL_ASSIGN_OR_RETURN(int64_t axis, ScalarIntInput(ctx.input(2), "split_dim"));
  if (ctx.input(1).dims() != 1) {
    return errors::InvalidArgument("size_splits must be a vector, got shape ",
                                   ctx.input(1).shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto given, shape_fns::IntValues(ctx.input(1), "size_splits"));
  const absl::Span<const int64_t> span(given);
  int ax;
  RILL_ASSIGN_OR_RETURN(auto sizes,
                        shape_util::SplitSizes(ctx.input(0).shape().dim_sizes(), axis,
                                               ctx.node().attr<int64_t>("num_split"), &span, &ax));
  return SplitPieces(ctx, 0, ax, sizes);
}

}  // namespace rill
