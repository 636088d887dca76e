// ONNX ops that move elements without computing: Pad (constant, edge and reflect modes;
// negative pads crop) and DepthToSpace / SpaceToDepth (a reshape-transpose-reshape).
// Edge and reflect padding gather each padded axis with indices computed while importing
// (or, for a dim known only when the model runs, by a few ops).
#include <algorithm>

#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

std::string PadSupport(const SupportView& v) {
  const std::string mode = v.attrs.s("mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return absl::StrCat("mode '", mode, "'");
  if (v.opset >= 11 && !v.constant(1)) return "pads must be known when the model is imported";
  return "";
}

// The same indices as PadByGather for a dim known only when the model runs: positions
// -before .. n + after - 1 mapped by (n-1) - |(n-1) - |i|| (reflect) or clamped (edge). A
// pad the dim is too small for gives an index out of range, which Gather refuses.
Output RuntimePadIndices(const NodeContext& c, const Output& x, int64_t axis, int64_t before,
                         int64_t after, bool reflect) {
  Output n = DimOf(c, x, axis, DT_INT64);
  Output last = c.Op("Sub", {n, c.Const(Tensor(int64_t{1}))});
  Output i = c.Op("Range", {c.Const(Tensor(-before)), c.Op("Add", {n, c.Const(Tensor(after))}),
                            c.Const(Tensor(int64_t{1}))});
  if (reflect) return c.Op("Sub", {last, c.Op("Abs", {c.Op("Sub", {last, c.Op("Abs", {i})})})});
  return c.Op("Maximum", {c.Op("Minimum", {i, last}), c.Const(Tensor(int64_t{0}))});
}

// Gathers positions -before .. n + after - 1 of `axis`, mapped into [0, n) by the mode.
absl::StatusOr<Output> PadByGather(const NodeContext& c, const Output& x, int64_t axis,
                                   int64_t before, int64_t after, bool reflect) {
  const PartialTensorShape& s = x.shape();
  if (s.unknown_rank()) return c.Error("edge and reflect pads need the input's rank");
  if (s.dim_size(axis) < 0) {
    if (before > kMaxImportTable || after > kMaxImportTable) {
      return c.Error("edge and reflect pads of more than ", kMaxImportTable, " elements");
    }
    return c.Op("GatherV2",
                {x, RuntimePadIndices(c, x, axis, before, after, reflect), c.Const(Tensor(axis))});
  }
  const int64_t n = s.dim_size(axis);
  if (n == 0) return c.Error("cannot pad an empty dim by its edge");
  if (reflect && (before >= n || after >= n))
    return c.Error("reflect pads must be smaller than the dim");
  if (before > kMaxImportTable - n || after > kMaxImportTable - n - before) {
    return c.Error("edge and reflect pads make at most ", kMaxImportTable, " elements a dim");
  }
  std::vector<int64_t> idx;
  for (int64_t i = -before; i < n + after; ++i) {
    int64_t j = i;
    if (reflect) {
      j = i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i);
    } else {
      j = std::clamp<int64_t>(i, 0, n - 1);
    }
    idx.push_back(j);
  }
  return c.Op("GatherV2", {x, c.Int64s(idx), c.Const(Tensor(axis))});
}

absl::Status ConvertPad(NodeContext& c) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  if (rank < 0) return c.Error("the input's rank is not known");
  std::vector<int64_t> pads = c.attrs().ints("pads");  // opset 1 named it "paddings"
  if (pads.empty()) pads = c.attrs().ints("paddings");
  if (c.opset() >= 11) {
    RILL_ASSIGN_OR_RETURN(pads, c.ConstInts(1, "pads"));
  }
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    return c.Error(pads.size(), " pads for rank ", rank);
  const std::string mode = c.attrs().s("mode", "constant");
  // Negative pads crop: pad by the positive parts, then slice the negative ones off.
  Tensor grow(DT_INT64, TensorShape({rank, 2}));
  std::vector<int64_t> begin(rank), end(rank);
  int64_t end_mask = 0;
  bool crop = false;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t b = pads[d], e = pads[rank + d];
    grow.matrix<int64_t>()(d, 0) = std::max<int64_t>(b, 0);
    grow.matrix<int64_t>()(d, 1) = std::max<int64_t>(e, 0);
    begin[d] = std::max<int64_t>(-b, 0);
    end[d] = -std::max<int64_t>(-e, 0);
    if (end[d] == 0) end_mask |= int64_t{1} << d;
    crop = crop || b < 0 || e < 0;
  }
  Output y = x;
  if (mode == "constant") {
    Output value;
    if (c.opset() < 11 && c.attrs().f("value", 0.f) != 0.f)
      value = ScalarLike(c, x, c.attrs().f("value", 0.f));
    if (c.opset() >= 11 && c.has_input(2)) value = c.Op("Reshape", {c.input(2), c.Int64s({})});
    // The padded region gets `value` (PadV2), or zeros (Pad).
    y = value.node() != nullptr ? c.Op("PadV2", {x, c.Const(grow), value})
                                : c.Op("Pad", {x, c.Const(grow)});
  } else {
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t b = grow.matrix<int64_t>()(d, 0), e = grow.matrix<int64_t>()(d, 1);
      if (b == 0 && e == 0) continue;
      RILL_ASSIGN_OR_RETURN(y, PadByGather(c, y, d, b, e, mode == "reflect"));
    }
  }
  if (crop) {
    y = c.Op("StridedSlice",
             {y, c.Int64s(begin), c.Int64s(end), c.Int64s(std::vector<int64_t>(rank, 1))},
             {{"end_mask", end_mask}});
  }
  c.set_output(0, c.Op("Identity", {y}));
  return absl::OkStatus();
}

// [N, C, H, W] with C, H, W known, or an error.
absl::StatusOr<std::vector<int64_t>> Nchw(const NodeContext& c, const Output& x) {
  const PartialTensorShape& s = x.shape();
  if (s.unknown_rank() || s.dims() != 4) return c.Error("the input must be 4-D [N, C, H, W]");
  for (int d = 1; d < 4; ++d) {
    if (s.dim_size(d) < 0) return c.Error("the input's C, H and W must be known");
  }
  return std::vector<int64_t>(s.dim_sizes().begin(), s.dim_sizes().end());
}

absl::Status ConvertDepthToSpace(NodeContext& c) {
  Output x = c.input(0);
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> s, Nchw(c, x));
  const int64_t b = c.attrs().i("blocksize", 0);
  if (b <= 0 || s[1] % (b * b) != 0)
    return c.Error("C ", s[1], " is not a multiple of blocksize^2");
  const int64_t cc = s[1] / (b * b);
  const bool crd = c.attrs().s("mode", "DCR") == "CRD";
  Output t = c.Op("Reshape", {x, c.Int64s(crd ? std::vector<int64_t>{-1, cc, b, b, s[2], s[3]}
                                              : std::vector<int64_t>{-1, b, b, cc, s[2], s[3]})});
  t = c.Op("Transpose", {t, c.Int64s(crd ? std::vector<int64_t>{0, 1, 4, 2, 5, 3}
                                         : std::vector<int64_t>{0, 3, 4, 1, 5, 2})});
  c.set_output(0, c.Op("Reshape", {t, c.Int64s({-1, cc, s[2] * b, s[3] * b})}));
  return absl::OkStatus();
}

absl::Status ConvertSpaceToDepth(NodeContext& c) {
  Output x = c.input(0);
  RILL_ASSIGN_OR_RETURN(std::vector<int64_t> s, Nchw(c, x));
  const int64_t b = c.attrs().i("blocksize", 0);
  if (b <= 0 || s[2] % b != 0 || s[3] % b != 0)
    return c.Error("H and W must be multiples of blocksize");
  Output t = c.Op("Reshape", {x, c.Int64s({-1, s[1], s[2] / b, b, s[3] / b, b})});
  t = c.Op("Transpose", {t, c.Int64s({0, 3, 5, 1, 2, 4})});
  c.set_output(0, c.Op("Reshape", {t, c.Int64s({-1, s[1] * b * b, s[2] / b, s[3] / b})}));
  return absl::OkStatus();
}

// ReverseSequence: y[t, b] = x[len[b] - 1 - t, b] for t < len[b], else x[t, b]: one
// batched gather along the time axis, with x moved to [batch, time, ...] and back.
absl::Status ConvertReverseSequence(NodeContext& c) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  const int64_t time = c.attrs().i("time_axis", 0), batch = c.attrs().i("batch_axis", 1);
  if (rank < 2 || time < 0 || batch < 0 || time > 1 || batch > 1 || time == batch) {
    return c.Error("time_axis and batch_axis must be 0 and 1 (in either order) of a known rank");
  }
  std::vector<int64_t> perm = {batch, time};
  for (int64_t d = 2; d < rank; ++d) perm.push_back(d);  // its own inverse: 0 and 1 swap
  Output bt = time == 1 ? x : c.Op("Transpose", {x, c.Int64s(perm)});
  Output lens = c.Op("Cast", {c.input(1)}, {{"DstT", DT_INT64}});
  Output t = c.Op("Range", {c.Const(Tensor(int64_t{0})), DimOf(c, bt, 1, DT_INT64),
                            c.Const(Tensor(int64_t{1}))});
  Output len = c.Op("ExpandDims", {lens, c.Const(Tensor(int64_t{1}))});  // [B, 1]
  Output flipped = c.Op("Sub", {c.Op("Sub", {len, c.Const(Tensor(int64_t{1}))}), t});
  Output idx = c.Op("SelectV2",
                    {c.Op("Less", {t, len}), flipped, c.Op("Add", {t, c.Op("ZerosLike", {len})})});
  Output y = c.Op("GatherV2", {bt, idx, c.Const(Tensor(int64_t{1}))}, {{"batch_dims", int64_t{1}}});
  c.set_output(0, time == 1 ? y : c.Op("Transpose", {y, c.Int64s(perm)}));
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertLayoutRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"Pad", 2, PadSupport, ConvertPad, {1}});
  r->Register({"ReverseSequence", 10, nullptr, ConvertReverseSequence});
  r->Register({"DepthToSpace", 1, nullptr, ConvertDepthToSpace});
  r->Register({"SpaceToDepth", 1, nullptr, ConvertSpaceToDepth});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
