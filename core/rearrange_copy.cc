// Roll, ReverseSequence, MirrorPad, SpaceToDepth/DepthToSpace and SpaceToBatchND/
// BatchToSpaceND as strided copies (rearrange_copy.h); the shape rules are shape_util's.
#include "rill/core/rearrange_copy.h"

#include <algorithm>
#include <array>
#include <vector>

#include "absl/strings/str_join.h"
#include "rill/core/graph.h"
#include "rill/core/kernel_util.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

// One dim of a copy: `size` elements from `src_start` (stepping by `src_step`, +1 or -1)
// into `dst_start` onward.
struct Run {
  int64_t size, src_start, src_step, dst_start;
};

// The copy of one region: runs[d] along dim d, between tensors of the given strides.
StridedCopy RegionCopy(absl::Span<const Run> runs, absl::Span<const int64_t> src_strides,
                       absl::Span<const int64_t> dst_strides) {
  StridedCopy c;
  for (size_t d = 0; d < runs.size(); ++d) {
    const Run& r = runs[d];
    PushCopyDim(&c, r.size, r.src_step * src_strides[d], dst_strides[d]);
    c.src_base += r.src_start * src_strides[d];
    c.dst_base += r.dst_start * dst_strides[d];
  }
  return c;
}

// One copy per choice of a run in every dim (the odometer over `choices`).
void AddRegions(const std::vector<std::vector<Run>>& choices, absl::Span<const int64_t> src_strides,
                absl::Span<const int64_t> dst_strides, Tensor* out, PieceCopies* v) {
  std::vector<size_t> pick(choices.size(), 0);
  std::vector<Run> runs(choices.size());
  while (true) {
    for (size_t d = 0; d < choices.size(); ++d) runs[d] = choices[d][pick[d]];
    AddIfNotEmpty(v, 0, out, RegionCopy(runs, src_strides, dst_strides));
    size_t d = choices.size();
    while (d > 0 && ++pick[d - 1] == choices[d - 1].size()) pick[--d] = 0;
    if (d == 0) return;
  }
}

absl::StatusOr<bool> NchwFormat(const OpKernelContext& ctx) {
  const std::string& f = ctx.node().attr<std::string>("data_format");
  if (f != "NHWC" && f != "NCHW") {
    return errors::InvalidArgument("data_format must be NHWC or NCHW, got '", f, "'");
  }
  return f == "NCHW";
}

// SpaceToDepth's and DepthToSpace's copy, over the depth tensor's row-major order. `space`
// is the [N, H, W, C] (or [N, C, H, W]) side, `depth_is_dst` says which way it moves.
StridedCopy SpaceDepthCopy(absl::Span<const int64_t> space, int64_t b, bool nchw,
                           bool depth_is_dst) {
  const shape_util::Dims s = RowMajorStrides(space);
  int64_t n, c, h, w, sn, sc, sh, sw;
  if (nchw) {
    n = space[0], c = space[1], h = space[2], w = space[3];
    sn = s[0], sc = s[1], sh = s[2], sw = s[3];
  } else {
    n = space[0], h = space[1], w = space[2], c = space[3];
    sn = s[0], sh = s[1], sw = s[2], sc = s[3];
  }
  // Depth channel (bh * b + bw) * C + c; the depth tensor's dims in its own order.
  std::array<int64_t, 6> sizes, space_strides;
  if (nchw) {
    sizes = {n, b, b, c, h / b, w / b};
    space_strides = {sn, sh, sw, sc, b * sh, b * sw};
  } else {
    sizes = {n, h / b, w / b, b, b, c};
    space_strides = {sn, b * sh, b * sw, sh, sw, sc};
  }
  const shape_util::Dims depth_strides = RowMajorStrides(sizes);
  StridedCopy copy;
  for (int d = 0; d < 6; ++d) {
    if (depth_is_dst) {
      PushCopyDim(&copy, sizes[d], space_strides[d], depth_strides[d]);
    } else {
      PushCopyDim(&copy, sizes[d], depth_strides[d], space_strides[d]);
    }
  }
  return copy;
}

absl::StatusOr<PieceCopies> SpaceDepth(OpKernelContext& ctx, bool to_depth) {
  const auto in = ctx.input(0).shape().dim_sizes();
  const int64_t b = ctx.node().attr<int64_t>("block_size");
  RILL_ASSIGN_OR_RETURN(bool nchw, NchwFormat(ctx));
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, to_depth ? shape_util::SpaceToDepth(in, b, nchw)
                                                        : shape_util::DepthToSpace(in, b, nchw));
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, dims));
  PieceCopies v;
  if (out->NumElements() == 0) return v;
  AddIfNotEmpty(&v, 0, out,
                SpaceDepthCopy(to_depth ? in : absl::Span<const int64_t>(dims), b, nchw, to_depth));
  return v;
}

// The o in [0, block) with one clamped range of y per block offset o, where the space
// position x = y * block + o - pad must lie in [0, space) and y in [0, ys).
struct OffsetGroup {
  int64_t o_begin, o_end, y_begin, y_count;
};

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t FloorMod(int64_t a, int64_t b) {  // b > 0; no intermediate overflows
  const int64_t r = a % b;
  return r < 0 ? r + b : r;
}

// At most 3 groups: y's lowest and highest valid values each change once as o grows.
std::vector<OffsetGroup> OffsetGroups(int64_t block, int64_t pad, int64_t space, int64_t ys) {
  std::vector<int64_t> cuts = {0, block};
  const int64_t r_lo = FloorMod(pad, block), r_hi = FloorMod(space - 1 + pad, block) + 1;
  for (int64_t r : {r_lo, r_hi}) {
    if (r > 0 && r < block) cuts.push_back(r);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<OffsetGroup> groups;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    const int64_t o = cuts[i];
    const int64_t lo = std::max<int64_t>(0, -FloorDiv(o - pad, block));  // ceil((pad - o) / b)
    const int64_t hi = std::min(ys - 1, FloorDiv(space - 1 + pad - o, block));
    if (hi >= lo) groups.push_back({o, cuts[i + 1], lo, hi - lo + 1});
  }
  return groups;
}

// SpaceToBatchND's (to_batch) or BatchToSpaceND's copies between the space tensor and the
// batch tensor [block offsets..., batch, y..., rest...]: one per choice of offset group.
PieceCopies BatchSpaceCopies(absl::Span<const int64_t> space, absl::Span<const int64_t> batch,
                             absl::Span<const int64_t> block, absl::Span<const int64_t> pads,
                             bool to_batch, Tensor* out) {
  const size_t m = block.size();
  const shape_util::Dims ss = RowMajorStrides(space), bs = RowMajorStrides(batch);
  std::vector<std::vector<OffsetGroup>> groups(m);
  for (size_t i = 0; i < m; ++i) {
    groups[i] = OffsetGroups(block[i], pads[2 * i], space[1 + i], batch[1 + i]);
    if (groups[i].empty()) return {};
  }
  std::vector<int64_t> offset_stride(m);  // batch-tensor stride of block offset i
  int64_t inner = space[0] * bs[0];
  for (size_t i = m; i-- > 0;) {
    offset_stride[i] = inner;
    inner *= block[i];
  }
  PieceCopies v;
  std::vector<size_t> pick(m, 0);
  while (true) {
    StridedCopy c;
    int64_t space_base = 0, batch_base = 0;
    auto push = [&](int64_t size, int64_t space_stride, int64_t batch_stride) {
      if (to_batch)
        PushCopyDim(&c, size, space_stride, batch_stride);
      else
        PushCopyDim(&c, size, batch_stride, space_stride);
    };
    for (size_t i = 0; i < m; ++i) {
      const OffsetGroup& g = groups[i][pick[i]];
      push(g.o_end - g.o_begin, ss[1 + i], offset_stride[i]);
      batch_base += g.o_begin * offset_stride[i] + g.y_begin * bs[1 + i];
      space_base += (g.y_begin * block[i] + g.o_begin - pads[2 * i]) * ss[1 + i];
    }
    push(space[0], ss[0], bs[0]);
    for (size_t i = 0; i < m; ++i)
      push(groups[i][pick[i]].y_count, block[i] * ss[1 + i], bs[1 + i]);
    for (size_t d = 1 + m; d < space.size(); ++d) push(space[d], ss[d], bs[d]);
    c.src_base = to_batch ? space_base : batch_base;
    c.dst_base = to_batch ? batch_base : space_base;
    AddIfNotEmpty(&v, 0, out, c);
    size_t i = m;
    while (i > 0 && ++pick[i - 1] == groups[i - 1].size()) pick[--i] = 0;
    if (i == 0) return v;
  }
}

absl::StatusOr<PieceCopies> BatchSpace(OpKernelContext& ctx, bool to_batch) {
  const Tensor& x = ctx.input(0);
  const Tensor& block_t = ctx.input(1);
  if (block_t.dims() != 1) {
    return errors::InvalidArgument("block_shape must be a vector, got shape ",
                                   block_t.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto block, IntVectorInput(block_t, "block_shape"));
  const char* what = to_batch ? "paddings" : "crops";
  RILL_ASSIGN_OR_RETURN(auto pads, IntMatrixInput(ctx.input(2), block_t.dim_size(0), 2, what));
  const auto in = x.shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, to_batch
                                                   ? shape_util::SpaceToBatch(in, block, pads)
                                                   : shape_util::BatchToSpace(in, block, pads));
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, dims));
  PieceCopies v;
  if (out->NumElements() == 0) return v;
  bool padded = false;
  for (int64_t p : pads) padded |= p != 0;
  if (to_batch && padded) v.push_back({PieceCopy::kZeroFill, out, {}});
  if (x.NumElements() == 0) return v;
  PieceCopies copies = to_batch ? BatchSpaceCopies(in, dims, block, pads, true, out)
                                : BatchSpaceCopies(dims, in, block, pads, false, out);
  v.insert(v.end(), copies.begin(), copies.end());
  return v;
}

}  // namespace

absl::StatusOr<absl::InlinedVector<int64_t, 8>> IntMatrixInput(const Tensor& t, int64_t rows,
                                                               int64_t cols,
                                                               absl::string_view what) {
  if (t.dims() != 2 || t.dim_size(0) != rows || t.dim_size(1) != cols) {
    return errors::InvalidArgument(what, " must have shape [", rows, ", ", cols, "], got ",
                                   t.shape().DebugString());
  }
  return shape_fns::AllIntValues(t, what);
}

absl::StatusOr<shape_util::Dims> RollShifts(absl::Span<const int64_t> dims,
                                            absl::Span<const int64_t> shift,
                                            absl::Span<const int64_t> axis) {
  if (shift.size() != axis.size()) {
    return errors::InvalidArgument("shift has ", shift.size(), " entries but axis has ",
                                   axis.size());
  }
  shape_util::Dims s(dims.size(), 0);
  for (size_t i = 0; i < axis.size(); ++i) {
    RILL_ASSIGN_OR_RETURN(int d,
                          shape_fns::CanonicalAxis(axis[i], static_cast<int>(dims.size()), "axis"));
    if (dims[d] <= 0) continue;
    // Reduced before adding, so no sum of shifts overflows.
    s[d] = FloorMod(s[d] + FloorMod(shift[i], dims[d]), dims[d]);
  }
  return s;
}

absl::Status CheckSeqLengths(absl::Span<const int64_t> lens, int64_t seq_size) {
  for (size_t b = 0; b < lens.size(); ++b) {
    if (lens[b] < 0 || (seq_size >= 0 && lens[b] > seq_size)) {
      return errors::InvalidArgument("seq_lengths[", b, "] = ", lens[b], " must be in [0, ",
                                     seq_size, "], the size of dim seq_dim");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<PieceCopies> PrepareRoll(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor &shift_t = ctx.input(1), &axis_t = ctx.input(2);
  if (shift_t.dims() > 1 || shift_t.shape() != axis_t.shape()) {
    return errors::InvalidArgument("shift and axis must be scalars or vectors of one length, got ",
                                   shift_t.shape().DebugString(), " and ",
                                   axis_t.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto shift, shape_fns::IntValues(shift_t, "shift"));
  RILL_ASSIGN_OR_RETURN(auto axis, shape_fns::IntValues(axis_t, "axis"));
  const auto in = x.shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims s, RollShifts(in, shift, axis));
  bool moves = false;
  for (int64_t v : s) moves |= v != 0;
  if (!moves || x.NumElements() == 0) {
    RILL_RETURN_IF_ERROR(AliasInputAsOutput(ctx, x.shape()));
    return PieceCopies();
  }
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, in));
  // Along a rolled dim, [0, n - s) moves to [s, n) and [n - s, n) to [0, s).
  std::vector<std::vector<Run>> choices(in.size());
  for (size_t d = 0; d < in.size(); ++d) {
    if (s[d] == 0) {
      choices[d] = {{in[d], 0, 1, 0}};
    } else {
      choices[d] = {{in[d] - s[d], 0, 1, s[d]}, {s[d], in[d] - s[d], 1, 0}};
    }
  }
  const shape_util::Dims strides = RowMajorStrides(in);
  PieceCopies v;
  AddRegions(choices, strides, strides, out, &v);
  return v;
}

absl::StatusOr<ReverseSequenceMap> PrepareReverseSequence(OpKernelContext& ctx, Tensor** out,
                                                          Tensor* lens) {
  const Tensor& x = ctx.input(0);
  const int64_t seq_dim = ctx.node().attr<int64_t>("seq_dim");
  const int64_t batch_dim = ctx.node().attr<int64_t>("batch_dim");
  const auto in = x.shape().dim_sizes();
  RILL_RETURN_IF_ERROR(shape_util::ReverseSequenceDims(in, seq_dim, batch_dim));
  const Tensor& lens_t = ctx.input(1);
  if (lens_t.dims() != 1 || lens_t.dim_size(0) != in[batch_dim]) {
    return errors::InvalidArgument("seq_lengths must be a vector of ", in[batch_dim],
                                   " (dim batch_dim of ", x.shape().DebugString(), "), got ",
                                   lens_t.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::IntValues(lens_t, "seq_lengths"));
  RILL_RETURN_IF_ERROR(CheckSeqLengths(v, in[seq_dim]));
  RILL_ASSIGN_OR_RETURN(*out, AllocateOutput(ctx, 0, in));
  *lens = Tensor(DT_INT64, TensorShape({static_cast<int64_t>(v.size())}));
  std::copy(v.begin(), v.end(), lens->base<int64_t>());
  const shape_util::Dims strides = RowMajorStrides(in);
  ReverseSequenceMap map;
  map.batch_stride = strides[batch_dim];
  map.batch_size = in[batch_dim];
  map.seq_stride = strides[seq_dim];
  map.seq_size = in[seq_dim];
  return map;
}

absl::StatusOr<PieceCopies> PrepareMirrorPad(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::string& mode = ctx.node().attr<std::string>("mode");
  RILL_ASSIGN_OR_RETURN(auto pads, IntMatrixInput(ctx.input(1), x.dims(), 2, "paddings"));
  const auto in = x.shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, shape_util::MirrorPad(in, pads, mode));
  RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, dims));
  PieceCopies v;
  if (out->NumElements() == 0) return v;
  // REFLECT mirrors about the edge element, SYMMETRIC about the edge itself.
  const int64_t edge = mode == "REFLECT" ? 1 : 0;
  std::vector<std::vector<Run>> choices(in.size());
  for (size_t d = 0; d < in.size(); ++d) {
    const int64_t n = in[d], before = pads[2 * d], after = pads[2 * d + 1];
    choices[d] = {{n, 0, 1, before}};
    if (before > 0) choices[d].push_back({before, before - 1 + edge, -1, 0});
    if (after > 0) choices[d].push_back({after, n - 1 - edge, -1, before + n});
  }
  AddRegions(choices, RowMajorStrides(in), RowMajorStrides(dims), out, &v);
  return v;
}

absl::StatusOr<MirrorFold> PrepareMirrorPadGrad(OpKernelContext& ctx, Tensor** out) {
  const Tensor& g = ctx.input(0);
  const std::string& mode = ctx.node().attr<std::string>("mode");
  RILL_ASSIGN_OR_RETURN(auto pads, IntMatrixInput(ctx.input(1), g.dims(), 2, "paddings"));
  const auto in = g.shape().dim_sizes();
  RILL_ASSIGN_OR_RETURN(shape_util::Dims dims, shape_util::MirrorPadGrad(in, pads, mode));
  RILL_ASSIGN_OR_RETURN(*out, AllocateOutput(ctx, 0, dims));
  MirrorFold f;
  f.rank = g.dims();
  f.edge = mode == "REFLECT" ? 1 : 0;
  const shape_util::Dims strides = RowMajorStrides(in);
  for (int d = 0; d < f.rank; ++d) {
    f.dims[d] = dims[d];
    f.before[d] = pads[2 * d];
    f.after[d] = pads[2 * d + 1];
    f.grad_strides[d] = strides[d];
  }
  return f;
}

absl::StatusOr<PieceCopies> PrepareSpaceToDepth(OpKernelContext& ctx) {
  return SpaceDepth(ctx, true);
}
absl::StatusOr<PieceCopies> PrepareDepthToSpace(OpKernelContext& ctx) {
  return SpaceDepth(ctx, false);
}
absl::StatusOr<PieceCopies> PrepareSpaceToBatchND(OpKernelContext& ctx) {
  return BatchSpace(ctx, true);
}
absl::StatusOr<PieceCopies> PrepareBatchToSpaceND(OpKernelContext& ctx) {
  return BatchSpace(ctx, false);
}

}  // namespace rill
