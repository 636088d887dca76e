// GatherElements and ScatterElements through flat positions: element i of `indices` names,
// along `axis`, a position of `data` whose other coordinates are i's own; its flat offset
// is sum(coord_d * stride_d). GatherElements is then a GatherV2 of the flattened data, and
// ScatterElements an UnsortedSegmentSum into it (both differentiable through their ops).
// An index outside [-dim, dim) becomes an offset the gather or segment sum refuses, so a bad
// index is an InvalidArgument at run time, never a read or write of another element.
#include <algorithm>

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
  if (r != "none" && r != "add" && r != "mul" && r != "max" && r != "min") {
    return absl::StrCat("reduction '", r, "'");
  }
  return "";
}

// data with the updates `vals` scattered to the flat rows `ids` of `count` (data's shape
// as rows of vals' trailing dims), by the node's reduction: add, mul, max or min fold the
// updates of a row into data's value there; none (where ONNX leaves repeated indices
// undefined) takes their sum.
Output Scatter(const NodeContext& c, const Output& data, const Output& vals, const Output& ids,
               const Output& count) {
  const Output shape = ShapeOf(c, data);
  const auto segments = [&](const char* op, const Output& v) {
    return c.Op("Reshape", {c.Op(op, {v, ids, count}), shape});
  };
  const std::string r = c.attrs().s("reduction", "none");
  if (r == "add") return c.Op("Add", {data, segments("UnsortedSegmentSum", vals)});
  const Output hits = segments("UnsortedSegmentSum", c.Op("OnesLike", {vals}));
  const Output hit = c.Op("Greater", {hits, ScalarLike(c, hits, 0)});
  Output folded;
  if (r == "mul") folded = c.Op("Mul", {data, segments("UnsortedSegmentProd", vals)});
  if (r == "max") folded = c.Op("Maximum", {data, segments("UnsortedSegmentMax", vals)});
  if (r == "min") folded = c.Op("Minimum", {data, segments("UnsortedSegmentMin", vals)});
  if (r == "none") folded = segments("UnsortedSegmentSum", vals);
  return c.Op("SelectV2", {hit, folded, data});
}

absl::Status ConvertScatterElements(NodeContext& c) {
  Output data = c.input(0), updates = c.input(2);
  RILL_ASSIGN_OR_RETURN(FlatPositions p, Positions(c, data, c.input(1), true));
  Output ids = c.Op("Reshape", {p.offsets, c.Int64s({-1})});
  Output vals = c.Op("Reshape", {updates, c.Int64s({-1})});
  c.set_output(0, Scatter(c, data, vals, ids, p.size));
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
                            bool invalid_is_count, int64_t batch_dims = 0) {
  const int64_t r = RankOf(data), q = RankOf(indices), b = batch_dims;
  const PartialTensorShape& is = indices.shape();
  if (r < 1 || q < 1 || is.dim_size(q - 1) < 0) {
    return c.Error("data's and indices' ranks and indices' last dim must be known");
  }
  const int64_t k = is.dim_size(q - 1);
  if (b < 0 || b >= std::min(r, q)) {
    return c.Error("batch_dims ", b, " must be in [0, ", std::min(r, q), ")");
  }
  if (k < 1 || b + k > r) {
    return c.Error("indices' last dim ", k, " must be in [1, ", r - b, "] (batch_dims ", b, ")");
  }
  Output idx = indices.type() == DT_INT64 ? indices : c.Op("Cast", {indices}, {{"DstT", DT_INT64}});
  Output zero = c.Const(Tensor(int64_t{0}));
  Output offsets, valid;
  Output stride = c.Const(Tensor(int64_t{1}));
  for (int64_t j = k - 1; j >= 0; --j) {
    Output dim = DimOf(c, data, b + j, DT_INT64);
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
  // With batch dims, each index row addresses its own batch's rows: the batch's flat
  // position (a Range shaped as indices' batch dims, broadcast over the rest) times the rows
  // per batch comes first. A batch past data's is an offset past `count`, refused.
  if (b > 0) {
    const Output one = c.Const(Tensor(int64_t{1}));
    const Output batch_shape = c.Op("Slice", {ShapeOf(c, indices), c.Int64s({0}), c.Int64s({b})});
    const Output batches = c.Op("Prod", {batch_shape, ScalarI32(c, 0)});
    const Output spread = c.Op(
        "ConcatV2", {batch_shape, c.Op("Fill", {c.Int64s({q - 1 - b}), one}), ScalarI32(c, 0)});
    const Output ids = c.Op("Reshape", {c.Op("Range", {zero, batches, one}), spread});
    offsets = c.Op("Add", {offsets, c.Op("Mul", {ids, stride})});
    for (int64_t j = b - 1; j >= 0; --j)
      stride = c.Op("Mul", {stride, DimOf(c, data, j, DT_INT64)});
  }
  Output rest = c.Op("Slice", {ShapeOf(c, data), c.Int64s({b + k}), c.Int64s({r - b - k})});
  Output flat = c.Op("Reshape", {data, c.Op("ConcatV2", {c.Int64s({-1}), rest, ScalarI32(c, 0)})});
  Output bad = invalid_is_count ? stride : c.Const(Tensor(int64_t{-1}));
  return Rows{c.Op("SelectV2", {valid, offsets, bad}), flat, stride};
}

absl::Status ConvertGatherND(NodeContext& c) {
  RILL_ASSIGN_OR_RETURN(Rows rows,
                        RowsOf(c, c.input(0), c.input(1), false, c.attrs().i("batch_dims", 0)));
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
  c.set_output(0, Scatter(c, data, vals, ids, rows.count));
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
  r->Register({"GatherND", 11, nullptr, ConvertGatherND});
  r->Register({"ScatterND", 11, ScatterSupport, ConvertScatterND});
  r->Register({"Compress", 9, nullptr, ConvertCompress});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
