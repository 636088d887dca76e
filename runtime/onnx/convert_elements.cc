// GatherElements and ScatterElements through flat positions: element i of `indices` names,
// along `axis`, a position of `data` whose other coordinates are i's own; its flat offset
// is sum(coord_d * stride_d). GatherElements is then a GatherV2 of the flattened data, and
// ScatterElements an UnsortedSegmentSum into it (both differentiable through their ops).
// An index outside [-dim, dim) becomes an offset the gather or segment sum refuses, so a bad
// index is an InvalidArgument at run time, never a read or write of another element.
#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

struct FlatPositions {
  Output offsets;  // int64, indices' shape; `invalid` where an index is out of range
  Output size;     // int64 scalar: data's element count
};

// The strides of data's dims (row-major) as int64 scalars.
std::vector<Output> Strides(const NodeContext& c, const Output& data, int64_t rank) {
  std::vector<Output> strides(rank);
  const PartialTensorShape& s = data.shape();
  if (s.IsFullyDefined()) {
    int64_t st = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      strides[d] = c.Const(Tensor(st));
      st *= s.dim_size(static_cast<int>(d));
    }
    return strides;
  }
  Output all = c.Op("Cumprod", {ShapeOf(c, data), c.Const(Tensor(int64_t{0}))},
                    {{"exclusive", true}, {"reverse", true}});
  for (int64_t d = 0; d < rank; ++d) {
    strides[d] = c.Op("StridedSlice", {all, c.Int64s({d}), c.Int64s({d + 1}), c.Int64s({1})},
                      {{"shrink_axis_mask", int64_t{1}}});
  }
  return strides;
}

absl::StatusOr<FlatPositions> Positions(const NodeContext& c, const Output& data,
                                        const Output& indices, bool invalid_is_size) {
  const int64_t rank = RankOf(data);
  if (rank < 1 || RankOf(indices) != rank) {
    return c.Error("data and indices must have the same known rank");
  }
  const int64_t axis = NormalizeAxis(c.attrs().i("axis", 0), rank);
  if (axis < 0) return c.Error("axis ", c.attrs().i("axis", 0), " is out of range for rank ", rank);
  Output idx = indices.type() == DT_INT64 ? indices : c.Op("Cast", {indices}, {{"DstT", DT_INT64}});
  Output dim = DimOf(c, data, axis, DT_INT64);
  Output zero = c.Const(Tensor(int64_t{0})), one = c.Const(Tensor(int64_t{1}));
  Output valid = c.Op("LogicalAnd",
                      {c.Op("GreaterEqual", {idx, c.Op("Neg", {dim})}), c.Op("Less", {idx, dim})});
  idx = c.Op("SelectV2", {c.Op("Less", {idx, zero}), c.Op("Add", {idx, dim}), idx});
  std::vector<Output> strides = Strides(c, data, rank);
  Output offsets = c.Op("Mul", {idx, strides[axis]});
  for (int64_t d = 0; d < rank; ++d) {
    if (d == axis) continue;
    std::vector<int64_t> shape(rank, 1);
    shape[d] = -1;
    Output coord = c.Op("Range", {zero, DimOf(c, indices, d, DT_INT64), one});
    coord = c.Op("Reshape", {c.Op("Mul", {coord, strides[d]}), c.Int64s(shape)});
    offsets = c.Op("Add", {offsets, coord});
  }
  Output size = c.Op("Size", {data}, {{"out_type", DT_INT64}});
  Output bad = invalid_is_size ? size : c.Const(Tensor(int64_t{-1}));
  return FlatPositions{c.Op("SelectV2", {valid, offsets, bad}), size};
}

absl::Status ConvertGatherElements(NodeContext& c) {
  Output data = c.input(0);
  RILL_ASSIGN_OR_RETURN(FlatPositions p, Positions(c, data, c.input(1), false));
  Output flat = c.Op("Reshape", {data, c.Int64s({-1})});
  c.set_output(0, c.Op("GatherV2", {flat, p.offsets, c.Const(Tensor(int64_t{0}))}));
  return absl::OkStatus();
}

std::string ScatterSupport(const SupportView& v) {
  const std::string r = v.attrs.s("reduction", "none");
  if (r != "none" && r != "add") return absl::StrCat("reduction '", r, "'");
  return "";
}

// ONNX leaves repeated indices undefined without a reduction; here they add up.
absl::Status ConvertScatterElements(NodeContext& c) {
  Output data = c.input(0), updates = c.input(2);
  RILL_ASSIGN_OR_RETURN(FlatPositions p, Positions(c, data, c.input(1), true));
  Output ids = c.Op("Reshape", {p.offsets, c.Int64s({-1})});
  Output vals = c.Op("Reshape", {updates, c.Int64s({-1})});
  Output shape = ShapeOf(c, data);
  Output sum = c.Op("Reshape", {c.Op("UnsortedSegmentSum", {vals, ids, p.size}), shape});
  if (c.attrs().s("reduction", "none") == "add") {
    c.set_output(0, c.Op("Add", {data, sum}));
    return absl::OkStatus();
  }
  Output ones = c.Op("OnesLike", {vals});
  Output hits = c.Op("Reshape", {c.Op("UnsortedSegmentSum", {ones, ids, p.size}), shape});
  Output hit = c.Op("Greater", {hits, ScalarLike(c, hits, 0)});
  c.set_output(0, c.Op("SelectV2", {hit, sum, data}));
  return absl::OkStatus();
}

// GatherND and ScatterND address rows of data's first k dims by the last dim of indices
// (k long): the row offset is sum(idx_j * stride_j) over those k dims. Out-of-range
// indices become offsets GatherV2 / UnsortedSegmentSum refuse.
struct Rows {
  Output offsets;  // int64, indices' shape without its last dim
  Output flat;     // data as [rows, data dims from k on...]
  Output count;    // int64 scalar: rows
};

absl::StatusOr<Rows> RowsOf(const NodeContext& c, const Output& data, const Output& indices,
                            bool invalid_is_count) {
  const int64_t r = RankOf(data), q = RankOf(indices);
  const PartialTensorShape& is = indices.shape();
  if (r < 1 || q < 1 || is.dim_size(q - 1) < 0) {
    return c.Error("data's and indices' ranks and indices' last dim must be known");
  }
  const int64_t k = is.dim_size(q - 1);
  if (k < 1 || k > r) return c.Error("indices' last dim ", k, " must be in [1, ", r, "]");
  Output idx = indices.type() == DT_INT64 ? indices : c.Op("Cast", {indices}, {{"DstT", DT_INT64}});
  Output zero = c.Const(Tensor(int64_t{0}));
  Output offsets, valid;
  Output stride = c.Const(Tensor(int64_t{1}));
  for (int64_t j = k - 1; j >= 0; --j) {
    Output dim = DimOf(c, data, j, DT_INT64);
    Output ij =
        c.Op("StridedSlice", {idx, c.Int64s({0, j}), c.Int64s({0, j + 1}), c.Int64s({1, 1})},
             {{"begin_mask", int64_t{1}},
              {"end_mask", int64_t{1}},
              {"ellipsis_mask", int64_t{1}},
              {"shrink_axis_mask", int64_t{2}}});
    Output ok = c.Op("LogicalAnd",
                     {c.Op("GreaterEqual", {ij, c.Op("Neg", {dim})}), c.Op("Less", {ij, dim})});
    ij = c.Op("SelectV2", {c.Op("Less", {ij, zero}), c.Op("Add", {ij, dim}), ij});
    Output term = c.Op("Mul", {ij, stride});
    offsets = offsets.node() == nullptr ? term : c.Op("Add", {offsets, term});
    valid = valid.node() == nullptr ? ok : c.Op("LogicalAnd", {valid, ok});
    stride = c.Op("Mul", {stride, dim});
  }
  Output rest = c.Op("Slice", {ShapeOf(c, data), c.Int64s({k}), c.Int64s({r - k})});
  Output flat = c.Op("Reshape", {data, c.Op("ConcatV2", {c.Int64s({-1}), rest, ScalarI32(c, 0)})});
  Output bad = invalid_is_count ? stride : c.Const(Tensor(int64_t{-1}));
  return Rows{c.Op("SelectV2", {valid, offsets, bad}), flat, stride};
}

std::string GatherNDSupport(const SupportView& v) {
  return v.attrs.i("batch_dims", 0) != 0 ? "batch_dims other than 0" : "";
}

absl::Status ConvertGatherND(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(Rows rows, RowsOf(c, c.input(0), c.input(1), false));
  c.set_output(0, c.Op("GatherV2", {rows.flat, rows.offsets, c.Const(Tensor(int64_t{0}))}));
  return absl::OkStatus();
}

absl::Status ConvertScatterND(NodeContext& c) {
  Output data = c.input(0);
  RILL_ASSIGN_OR_RETURN(Rows rows, RowsOf(c, data, c.input(1), true));
  Output ids = c.Op("Reshape", {rows.offsets, c.Int64s({-1})});
  Output row_shape = c.Op("Slice", {ShapeOf(c, rows.flat), c.Int64s({1}), c.Int64s({-1})});
  Output vals =
      c.Op("Reshape", {c.input(2), c.Op("ConcatV2", {c.Int64s({-1}), row_shape, ScalarI32(c, 0)})});
  Output shape = ShapeOf(c, data);
  Output sum = c.Op("Reshape", {c.Op("UnsortedSegmentSum", {vals, ids, rows.count}), shape});
  if (c.attrs().s("reduction", "none") == "add") {
    c.set_output(0, c.Op("Add", {data, sum}));
    return absl::OkStatus();
  }
  Output hits = c.Op(
      "Reshape", {c.Op("UnsortedSegmentSum", {c.Op("OnesLike", {vals}), ids, rows.count}), shape});
  c.set_output(0, c.Op("SelectV2", {c.Op("Greater", {hits, ScalarLike(c, hits, 0)}), sum, data}));
  return absl::OkStatus();
}

// Compress: the slices along `axis` (of the flattened input without one) where the
// condition holds.
absl::Status ConvertCompress(NodeContext& c) {
  Output x = c.input(0);
  int64_t axis = 0;
  if (c.attrs().has("axis")) {
    RILL_ASSIGN_OR_RETURN(axis, AxisAttr(c, x, 0));
  } else {
    x = c.Op("Reshape", {x, c.Int64s({-1})});
  }
  Output picked = c.Op("Reshape", {c.Op("Where", {c.input(1)}), c.Int64s({-1})});
  c.set_output(0, c.Op("GatherV2", {x, picked, c.Const(Tensor(axis))}));
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertElementsRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"GatherElements", 11, nullptr, ConvertGatherElements});
  r->Register({"ScatterElements", 11, ScatterSupport, ConvertScatterElements});
  // Scatter (opsets 9 and 10) is ScatterElements under its first name.
  r->Register({"Scatter", 9, ScatterSupport, ConvertScatterElements});
  r->Register({"GatherND", 11, GatherNDSupport, ConvertGatherND});
  r->Register({"ScatterND", 11, ScatterSupport, ConvertScatterND});
  r->Register({"Compress", 9, nullptr, ConvertCompress});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
