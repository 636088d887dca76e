// ONNX reductions (every flavour, as compositions of Sum, Mean, Max, Min, Prod) and the
// softmax family. Before opset 13 Softmax, LogSoftmax and Hardmax flatten the input to 2-D
// at `axis` and normalize the second dim; from 13 on they normalize the one dim `axis`.
#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

// Axes known only at run time: empty means every dim, or none with noop_with_empty_axes;
// the axes followed by range(rank)[:rank * (size == 0)] say both without a branch.
Output DynamicAxes(const NodeContext& c, const Output& x) {
  Output axes = c.input(1);
  if (axes.type() != DT_INT64) axes = c.Op("Cast", {axes}, {{"DstT", DT_INT64}});
  Output rank = c.Op("Size", {ShapeOf(c, x)}, {{"out_type", DT_INT64}});
  Output all = c.Op("Range", {c.Const(Tensor(int64_t{0})), rank, c.Const(Tensor(int64_t{1}))});
  Output empty =
      c.Op("Equal", {c.Op("Size", {axes}, {{"out_type", DT_INT64}}), c.Const(Tensor(int64_t{0}))});
  Output take = c.Op("Mul", {rank, c.Op("Cast", {empty}, {{"DstT", DT_INT64}})});
  if (c.attrs().i("noop_with_empty_axes", 0) != 0) take = c.Const(Tensor(int64_t{0}));
  Output extra = c.Op("Slice", {all, c.Int64s({0}), c.Op("Reshape", {take, c.Int64s({1})})});
  return c.Op("ConcatV2", {axes, extra, ScalarI32(c, 0)});
}

// The reduction's axes as a constant, or every dim (Range over the rank when the rank is
// not known). `static_axes` receives them when known.
absl::StatusOr<Output> ReduceAxes(const NodeContext& c, const Output& x, bool axes_input,
                                  bool* noop, std::vector<int64_t>* static_axes) {
  std::vector<int64_t> axes;
  bool given = false;
  *noop = false;
  if (axes_input && c.has_input(1) && c.constant_input(1) == nullptr) {
    return DynamicAxes(c, x);
  }
  if (axes_input) {
    if (c.has_input(1)) {
      RILL_ASSIGN_OR_RETURN(axes, c.ConstInts(1, "axes"));
      given = true;
    }
  } else if (c.attrs().has("axes")) {
    axes = c.attrs().ints("axes");
    given = true;
  }
  if (given && axes.empty() && c.attrs().i("noop_with_empty_axes", 0) != 0) *noop = true;
  if (!given || axes.empty()) {
    const int64_t rank = RankOf(x);
    if (rank < 0) {
      Output r = c.Op("Size", {ShapeOf(c, x)}, {{"out_type", DT_INT64}});
      return c.Op("Range", {c.Const(Tensor(int64_t{0})), r, c.Const(Tensor(int64_t{1}))});
    }
    axes.clear();
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  }
  *static_axes = axes;
  return c.Int64s(axes);
}

enum class Pre { kNone, kAbs, kSquare, kExp };
enum class Post { kNone, kSqrt, kLog };

struct Reduction {
  const char* op;  // the rill reduction
  Pre pre;
  Post post;
};

absl::Status Reduce(NodeContext& c, const Reduction& r, bool axes_input) {
  Output x = c.input(0);
  bool noop = false;
  std::vector<int64_t> static_axes;
  RILL_ASSIGN_OR_RETURN(Output axes, ReduceAxes(c, x, axes_input, &noop, &static_axes));
  if (noop) {
    c.set_output(0, c.Op("Identity", {x}));
    return absl::OkStatus();
  }
  const bool keep = c.attrs().i("keepdims", 1) != 0;
  Output shift;  // LogSumExp subtracts the max first, so exp cannot overflow
  if (r.pre == Pre::kExp) {
    shift = c.Op("StopGradient", {c.Op("Max", {x, axes}, {{"keep_dims", true}})});
    // An infinite max (every element -inf, or one +inf) would make NaN: shift by 0 there.
    Output finite = c.Op("Equal", {c.Op("Sub", {shift, shift}), ScalarLike(c, x, 0)});
    shift = c.Op("SelectV2", {finite, shift, c.Op("ZerosLike", {shift})});
    x = c.Op("Exp", {c.Op("Sub", {x, shift})});
  } else if (r.pre == Pre::kAbs) {
    x = c.Op("Abs", {x});
  } else if (r.pre == Pre::kSquare) {
    x = c.Op("Square", {x});
  }
  Output y = c.Op(r.op, {x, axes}, {{"keep_dims", keep || r.pre == Pre::kExp}});
  if (r.post == Post::kSqrt) y = c.Op("Sqrt", {y});
  if (r.post == Post::kLog) y = c.Op("Log", {y});
  if (r.pre == Pre::kExp) {
    y = c.Op("Add", {y, shift});
    if (!keep) y = c.Op("Squeeze", {y}, {{"squeeze_dims", static_axes}});
  }
  c.set_output(0, y);
  return absl::OkStatus();
}

// Softmax-like ops over one axis of x: `last` computes over the last dim of a tensor.
using LastAxisFn = Output (*)(const NodeContext& c, const Output& x);

Output SoftmaxLast(const NodeContext& c, const Output& x) { return c.Op("Softmax", {x}); }
Output LogSoftmaxLast(const NodeContext& c, const Output& x) { return c.Op("LogSoftmax", {x}); }
Output HardmaxLast(const NodeContext& c, const Output& x) {
  Output depth = DimOf(c, x, RankOf(x) - 1, DT_INT32);
  Output idx = c.Op("ArgMax", {x, ScalarI32(c, -1)}, {{"output_type", DT_INT64}});
  return c.Op("OneHot", {idx, depth, ScalarLike(c, x, 1), ScalarLike(c, x, 0)});
}

absl::Status Normalize(NodeContext& c, LastAxisFn last) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  if (rank < 0) return c.Error("the input's rank is not known");
  if (rank == 0) return c.Error("the input is a scalar");
  const int64_t dflt = c.opset() < 13 ? 1 : -1;
  const int64_t axis = NormalizeAxis(c.attrs().i("axis", dflt), rank);
  if (axis < 0)
    return c.Error("axis ", c.attrs().i("axis", dflt), " is out of range for rank ", rank);
  if (axis == rank - 1) {
    c.set_output(0, last(c, x));
  } else if (c.opset() < 13) {
    // As a 2-D [prod(dims before axis), prod(dims from axis)] matrix.
    Output shape = ShapeOf(c, x);
    Output outer =
        c.Op("Prod", {c.Op("Slice", {shape, c.Int64s({0}), c.Int64s({axis})}), c.Int64s({0})},
             {{"keep_dims", true}});
    Output flat = c.Op("Reshape", {x, c.Op("ConcatV2", {outer, c.Int64s({-1}), ScalarI32(c, 0)})});
    c.set_output(0, c.Op("Reshape", {last(c, flat), shape}));
  } else {
    std::vector<int64_t> perm(rank);
    for (int64_t i = 0; i < rank; ++i) perm[i] = i;
    std::swap(perm[axis], perm[rank - 1]);
    Output t = c.Op("Transpose", {x, c.Int64s(perm)});
    c.set_output(0, c.Op("Transpose", {last(c, t), c.Int64s(perm)}));
  }
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertReduceRegistered = [] {
  auto* r = ConverterRegistry::Global();
  const std::pair<const char*, Reduction> reductions[] = {
      {"ReduceSum", {"Sum", Pre::kNone, Post::kNone}},
      {"ReduceMean", {"Mean", Pre::kNone, Post::kNone}},
      {"ReduceMax", {"Max", Pre::kNone, Post::kNone}},
      {"ReduceMin", {"Min", Pre::kNone, Post::kNone}},
      {"ReduceProd", {"Prod", Pre::kNone, Post::kNone}},
      {"ReduceL1", {"Sum", Pre::kAbs, Post::kNone}},
      {"ReduceL2", {"Sum", Pre::kSquare, Post::kSqrt}},
      {"ReduceSumSquare", {"Sum", Pre::kSquare, Post::kNone}},
      {"ReduceLogSum", {"Sum", Pre::kNone, Post::kLog}},
      {"ReduceLogSumExp", {"Sum", Pre::kExp, Post::kLog}}};
  for (const auto& [op, red] : reductions) {
    const Reduction rd = red;
    r->Register({op, 1, nullptr, [rd](NodeContext& c) { return Reduce(c, rd, false); }});
    // ReduceSum takes its axes as an input from opset 13 (the others from 18).
    if (std::string(op) == "ReduceSum") {
      r->Register({op, 13, nullptr, [rd](NodeContext& c) { return Reduce(c, rd, true); }});
    }
  }
  r->Register({"Softmax", 1, nullptr, [](NodeContext& c) { return Normalize(c, SoftmaxLast); }});
  r->Register(
      {"LogSoftmax", 1, nullptr, [](NodeContext& c) { return Normalize(c, LogSoftmaxLast); }});
  r->Register({"Hardmax", 1, nullptr, [](NodeContext& c) { return Normalize(c, HardmaxLast); }});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
