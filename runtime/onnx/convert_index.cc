// ONNX ops that select parts of tensors: Slice, Split, Gather, OneHot, TopK, ArgMax and
// ArgMin, NonZero, Unique, plus CumSum and Einsum. ONNX counts negative indices from the end where
// TensorFlow's kernels refuse them; the converters shift them first.
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

// Slice as one StridedSlice over every dim: the dims ONNX's axes do not name take the
// whole range (begin and end masks).
// Slice's starts or ends over every dim: values[i] at dim axes[i], 0 elsewhere (masked).
// Folded when the values are constants, else gathered from the input at run time.
Output PerDim(const NodeContext& c, int input, const std::vector<int64_t>& values,
              const std::vector<int64_t>& dims, int64_t rank) {
  if (input < 0 || c.constant_input(input) != nullptr) {
    std::vector<int64_t> full(rank, 0);
    for (size_t i = 0; i < dims.size(); ++i) full[dims[i]] = values[i];
    return c.Int64s(full);
  }
  Output v = c.input(input);
  if (v.type() != DT_INT64) v = c.Op("Cast", {v}, {{"DstT", DT_INT64}});
  std::vector<Output> pieces(rank);
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t k = static_cast<int64_t>(i);
    pieces[dims[i]] = c.Op("Slice", {v, c.Int64s({k}), c.Int64s({1})});
  }
  for (Output& p : pieces) {
    if (p.node() == nullptr) p = c.Int64s({0});
  }
  pieces.push_back(ScalarI32(c, 0));
  return c.Op("ConcatV2", pieces);
}

absl::Status ConvertSlice(NodeContext& c) {
  Output x = c.input(0);
  const int64_t rank = RankOf(x);
  if (rank < 0) return c.Error("the input's rank is not known");
  std::vector<int64_t> starts, ends, axes, steps;
  int64_t count = 0;  // sliced axes
  if (c.opset() < 10) {
    starts = c.attrs().ints("starts");
    ends = c.attrs().ints("ends");
    axes = c.attrs().ints("axes");
    count = static_cast<int64_t>(starts.size());
  } else {
    if (c.constant_input(1) != nullptr) {
      RILL_ASSIGN_OR_RETURN(starts, c.ConstInts(1, "starts"));
    }
    if (c.constant_input(2) != nullptr) {
      RILL_ASSIGN_OR_RETURN(ends, c.ConstInts(2, "ends"));
    }
    if (c.has_input(3)) {
      RILL_ASSIGN_OR_RETURN(axes, c.ConstInts(3, "axes"));
    }
    if (c.has_input(4)) {
      RILL_ASSIGN_OR_RETURN(steps, c.ConstInts(4, "steps"));
    }
    const PartialTensorShape& s = c.input(1).shape();
    count = !axes.empty() ? static_cast<int64_t>(axes.size())
            : !starts.empty() || c.constant_input(1) != nullptr
                ? static_cast<int64_t>(starts.size())
                : (s.dims() == 1 ? s.dim_size(0) : -1);
    if (count < 0) return c.Error("the number of sliced axes is not known");
  }
  if (axes.empty()) {
    for (int64_t i = 0; i < count; ++i) axes.push_back(i);
  }
  if (steps.empty()) steps.assign(count, 1);
  if (static_cast<int64_t>(axes.size()) != count || static_cast<int64_t>(steps.size()) != count ||
      (!starts.empty() && static_cast<int64_t>(starts.size()) != count) ||
      (!ends.empty() && static_cast<int64_t>(ends.size()) != count)) {
    return c.Error("starts, ends, axes and steps must have one element per sliced axis");
  }
  std::vector<int64_t> dims, stride(rank, 1);
  int64_t untouched = (int64_t{1} << rank) - 1;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t a = NormalizeAxis(axes[i], rank);
    if (a < 0 || !(untouched & (int64_t{1} << a)))
      return c.Error("axis ", axes[i], " is out of range or repeated");
    if (steps[i] == 0) return c.Error("a step is 0");
    untouched &= ~(int64_t{1} << a);
    dims.push_back(a);
    stride[a] = steps[i];
  }
  const bool inputs = c.opset() >= 10;
  Output begin = PerDim(c, inputs ? 1 : -1, starts, dims, rank);
  Output end = PerDim(c, inputs ? 2 : -1, ends, dims, rank);
  c.set_output(0, c.Op("StridedSlice", {x, begin, end, c.Int64s(stride)},
                       {{"begin_mask", untouched}, {"end_mask", untouched}}));
  return absl::OkStatus();
}

absl::Status ConvertSplit(NodeContext& c) {
  Output x = c.input(0);
  const int64_t axis = c.attrs().i("axis", 0);
  std::vector<int64_t> split;
  Output sizes;  // the sizes as a tensor: an attribute, or input 1 (opset 13), maybe computed
  if (c.opset() < 13) {
    split = c.attrs().ints("split");
    if (!split.empty()) sizes = c.Int64s(split);
  } else if (c.has_input(1)) {
    sizes = c.input(1);
  }
  const int n = c.node().output_size();
  Operation op;
  if (sizes.node() == nullptr) {
    op = c.OpNode("Split", {ScalarI32(c, axis), x}, {{"num_split", int64_t{n}}});
  } else {
    op = c.OpNode("SplitV", {x, sizes, ScalarI32(c, axis)}, {{"num_split", int64_t{n}}});
  }
  if (op.node() == nullptr) return absl::OkStatus();  // the scope holds the error
  for (int i = 0; i < n; ++i) c.set_output(i, Output(op.node(), i));
  return absl::OkStatus();
}

// Indices below 0 count from the end of a dim of size `dim` (a scalar of the indices' dtype).
Output WrapNegative(const NodeContext& c, const Output& indices, const Output& dim) {
  Output neg = c.Op("Less", {indices, ScalarLike(c, indices, 0)});
  return c.Op("SelectV2", {neg, c.Op("Add", {indices, dim}), indices});
}

absl::Status ConvertGather(NodeContext& c) {
  Output x = c.input(0), indices = c.input(1);
  RILL_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(c, x, 0));
  indices = WrapNegative(c, indices, DimOf(c, x, axis, indices.type()));
  c.set_output(0, c.Op("GatherV2", {x, indices, c.Const(Tensor(axis))}));
  return absl::OkStatus();
}

// OneHot(indices, depth, [off, on]) with negative indices counted from depth.
absl::Status ConvertOneHot(NodeContext& c) {
  Output depth = ScalarInput(c, 1, DT_INT32);
  Output indices = c.input(0);
  if (indices.type() != DT_INT64 && indices.type() != DT_INT32) {
    indices = c.Op("Cast", {indices}, {{"DstT", DT_INT64}});
  }
  Output d = indices.type() == DT_INT32 ? depth : c.Op("Cast", {depth}, {{"DstT", indices.type()}});
  indices = WrapNegative(c, indices, d);
  Output values = c.input(2);
  Output off =
      c.Op("Reshape", {c.Op("Slice", {values, c.Int64s({0}), c.Int64s({1})}), c.Int64s({})});
  Output on =
      c.Op("Reshape", {c.Op("Slice", {values, c.Int64s({1}), c.Int64s({1})}), c.Int64s({})});
  int64_t axis = c.attrs().i("axis", -1);
  if (axis < -1) {  // ONNX counts from the end of the output's rank, TensorFlow takes -1 only
    const int64_t rank = RankOf(c.input(0));
    if (rank < 0) return c.Error("a negative axis needs the indices' rank");
    axis += rank + 1;
  }
  c.set_output(0, c.Op("OneHot", {indices, depth, on, off}, {{"axis", axis}}));
  return absl::OkStatus();
}

// Moves `axis` of x to the end (or back): the ops that work on the last dim only.
std::vector<int64_t> SwapToLast(int64_t axis, int64_t rank) {
  std::vector<int64_t> perm(rank);
  for (int64_t i = 0; i < rank; ++i) perm[i] = i;
  std::swap(perm[axis], perm[rank - 1]);
  return perm;
}

absl::Status ConvertTopK(NodeContext& c) {
  Output x = c.input(0);
  RILL_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(c, x, -1));
  const int64_t rank = RankOf(x);
  Output k = c.opset() < 10 ? ScalarI32(c, c.attrs().i("k", 1)) : ScalarInput(c, 1, DT_INT32);
  const bool largest = c.attrs().i("largest", 1) != 0;
  const bool last = axis == rank - 1;
  std::vector<int64_t> perm = SwapToLast(axis, rank);
  if (!last) x = c.Op("Transpose", {x, c.Int64s(perm)});
  if (!largest) x = c.Op("Neg", {x});
  Operation top = c.OpNode("TopKV2", {x, k}, {{"sorted", true}});
  if (top.node() == nullptr) return absl::OkStatus();
  Output values(top.node(), 0);
  Output indices = c.Op("Cast", {Output(top.node(), 1)}, {{"DstT", DT_INT64}});
  if (!largest) values = c.Op("Neg", {values});
  if (!last) {
    values = c.Op("Transpose", {values, c.Int64s(perm)});
    indices = c.Op("Transpose", {indices, c.Int64s(perm)});
  }
  c.set_output(0, c.Op("Identity", {values}));
  c.set_output(1, c.Op("Identity", {indices}));
  return absl::OkStatus();
}

// ArgMax/ArgMin; select_last_index picks the last of equal extremes (on the reversed axis).
ConvertFn Arg(std::string op) {
  return [op](NodeContext& c) {
    Output x = c.input(0);
    RILL_ASSIGN_OR_RETURN(const int64_t axis, AxisAttr(c, x, 0));
    const bool last = c.attrs().i("select_last_index", 0) != 0;
    if (last) x = c.Op("ReverseV2", {x, c.Int64s({axis})});
    Output idx = c.Op(op, {x, c.Const(Tensor(axis))}, {{"output_type", DT_INT64}});
    if (last)
      idx = c.Op("Sub",
                 {c.Op("Sub", {DimOf(c, x, axis, DT_INT64), c.Const(Tensor(int64_t{1}))}), idx});
    if (c.attrs().i("keepdims", 1) != 0) idx = c.Op("ExpandDims", {idx, c.Const(Tensor(axis))});
    c.set_output(0, idx);
    return absl::OkStatus();
  };
}

absl::Status ConvertCumSum(NodeContext& c) {
  c.set_output(0, c.Op("Cumsum", {c.input(0), ScalarInput(c, 1, c.input(1).type())},
                       {{"exclusive", c.attrs().i("exclusive", 0) != 0},
                        {"reverse", c.attrs().i("reverse", 0) != 0}}));
  return absl::OkStatus();
}

std::string EinsumEquation(const NodeAttrs& a) {
  std::string eq = a.s("equation", "");
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  if (eq.find("->") != std::string::npos) return eq;
  // Implicit output (NumPy's rule): the ellipsis if an operand has one, then the letters
  // that appear once, in alphabetical order.
  std::map<char, int> count;
  for (char ch : eq) {
    if (std::isalpha(static_cast<unsigned char>(ch))) ++count[ch];
  }
  std::string out = eq.find("...") != std::string::npos ? "..." : "";
  for (const auto& [ch, n] : count) {
    if (n == 1) out += ch;
  }
  return eq + "->" + out;
}

// Whether `term` names label `ch` (a letter) or, for '.', has an ellipsis.
bool Names(const std::string& term, char ch) { return term.find(ch) != std::string::npos; }

// ONNX's Einsum takes any number of operands, rill's (TensorFlow's) one or two: more are
// contracted left to right, each step keeping the labels that a later operand or the output
// names (once each, and the ellipsis when a side has one).
absl::Status ConvertEinsum(NodeContext& c) {
  const std::string eq = EinsumEquation(c.attrs());
  const size_t arrow = eq.find("->");
  const std::vector<std::string> terms = absl::StrSplit(eq.substr(0, arrow), ',');
  const std::string out = eq.substr(arrow + 2);
  if (static_cast<int>(terms.size()) != c.num_inputs()) {
    return c.Error("the equation has ", terms.size(), " operand terms for ", c.num_inputs(),
                   " inputs");
  }
  Output acc = c.input(0);
  std::string acc_term = terms[0];
  for (size_t i = 1; i + 1 < terms.size(); ++i) {
    std::string later = out;
    for (size_t j = i + 1; j < terms.size(); ++j) later += terms[j];
    std::string next = Names(acc_term, '.') || Names(terms[i], '.') ? "..." : "";
    for (char ch : acc_term + terms[i]) {
      if (std::isalpha(static_cast<unsigned char>(ch)) && Names(later, ch) && !Names(next, ch)) {
        next += ch;
      }
    }
    acc = c.Op("Einsum", {acc, c.input(static_cast<int>(i))},
               {{"equation", absl::StrCat(acc_term, ",", terms[i], "->", next)}});
    acc_term = next;
  }
  std::vector<Output> in = {acc};
  std::string last = acc_term;
  if (terms.size() > 1) {
    in.push_back(c.input(c.num_inputs() - 1));
    absl::StrAppend(&last, ",", terms.back());
  }
  c.set_output(0, c.Op("Einsum", in, {{"equation", absl::StrCat(last, "->", out)}}));
  return absl::OkStatus();
}

// NonZero: the indices of the non-zero elements as columns in row-major order ([rank, n]);
// TensorFlow's Where gives the same indices as rows ([n, rank]).
absl::Status ConvertNonZero(NodeContext& c) {
  c.set_output(0, c.Op("Transpose", {c.Op("Where", {c.input(0)}), c.Int64s({1, 0})}));
  return absl::OkStatus();
}

// Unique: TensorFlow's UniqueWithCounts (over the flattened input) or UniqueWithCountsV2
// (the distinct slices along `axis`) gives the distinct values or slices in order of first
// appearance, each element's or slice's position among them (inverse_indices) and the
// counts; each one's first occurrence (indices) is the UnsortedSegmentMin of the positions.
// `sorted` (the default) orders them ascending, slices lexicographically (SortedOrder), and
// the order is applied to the values, indices and counts, its inverse to inverse_indices.
constexpr int64_t kMaxSortedSliceElements = 64;  // sorting slices takes one pass per element

// Positions 0..n-1 in the order that sorts the rows of `rows` ([n, k], k known)
// lexicographically ascending, ties in their first order: a stable sort by each column,
// last column first. TopK sorts descending and puts a tie's lower position first, so each
// pass sorts the reversed keys and reverses the result.
Output SortedOrder(const NodeContext& c, const Output& rows, int64_t k, const Output& n) {
  const Output n32 = c.Op("Cast", {n}, {{"DstT", DT_INT32}});
  const Output last = c.Op("Sub", {n, c.Const(Tensor(int64_t{1}))});
  Output order = c.Op("Range", {c.Const(Tensor(int64_t{0})), n, c.Const(Tensor(int64_t{1}))});
  for (int64_t col = k - 1; col >= 0; --col) {
    const Output column = c.Op("GatherV2", {rows, c.Const(Tensor(col)), ScalarI32(c, 1)});
    const Output key = c.Op("GatherV2", {column, order, ScalarI32(c, 0)});
    const Operation top = c.OpNode("TopKV2", {c.Op("ReverseV2", {key, c.Int64s({0})}), n32});
    const Output from_end = c.Op("Cast", {Output(top, 1)}, {{"DstT", DT_INT64}});
    const Output ascending = c.Op("ReverseV2", {c.Op("Sub", {last, from_end}), c.Int64s({0})});
    order = c.Op("GatherV2", {order, ascending, ScalarI32(c, 0)});
  }
  return order;
}

absl::Status ConvertUnique(NodeContext& c) {
  const bool sliced = c.attrs().has("axis");
  Output x = c.input(0);
  int64_t axis = 0;
  if (sliced) {
    RILL_ASSIGN_OR_RETURN(axis, AxisAttr(c, x, 0));
  } else {
    x = c.Op("Reshape", {x, c.Int64s({-1})});
  }
  Operation u = sliced
                    ? c.OpNode("UniqueWithCountsV2", {x, c.Int64s({axis})}, {{"out_idx", DT_INT64}})
                    : c.OpNode("UniqueWithCounts", {x}, {{"out_idx", DT_INT64}});
  Output y(u, 0), inverse(u, 1), counts(u, 2);
  Output distinct = c.Op("Size", {counts}, {{"out_type", DT_INT64}});
  Output positions = c.Op("Range", {ScalarLike(c, distinct, 0), DimOf(c, x, axis, DT_INT64),
                                    ScalarLike(c, distinct, 1)});
  Output first = c.Op("UnsortedSegmentMin", {positions, inverse, distinct});
  if (c.attrs().i("sorted", 1) != 0) {
    // The distinct values (or slices, axis first, flattened) as rows of keys.
    const int64_t rank = sliced ? RankOf(x) : 1;
    std::vector<int64_t> perm = {axis};
    int64_t k = 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) continue;
      perm.push_back(d);
      const int64_t size = x.shape().dim_size(static_cast<int>(d));
      const int64_t cap = kMaxSortedSliceElements + 1;  // past the limit; no overflow
      k = size < 0 || k < 0 ? -1 : std::min(k * std::min(size, cap), cap);
    }
    if (k < 0 || k > kMaxSortedSliceElements) {
      return c.Error("sorted unique slices need the slices' size known and at most ",
                     kMaxSortedSliceElements, " elements (one sorting pass each)");
    }
    const Output rows =
        c.Op("Reshape", {c.Op("Transpose", {y, c.Int64s(perm)}), c.Int64s({-1, k})});
    const Output order = SortedOrder(c, rows, k, distinct);
    auto by_order = [&](const Output& v, int64_t at) {
      return c.Op("GatherV2", {v, order, ScalarI32(c, at)});
    };
    y = by_order(y, axis);
    first = by_order(first, 0);
    counts = by_order(counts, 0);
    inverse = c.Op("GatherV2", {c.Op("InvertPermutation", {order}), inverse, ScalarI32(c, 0)});
  }
  c.set_output(0, y);
  c.set_output(1, first);
  c.set_output(2, inverse);
  c.set_output(3, counts);
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertIndexRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"Slice", 1, nullptr, ConvertSlice, {3, 4}});
  r->Register({"Split", 2, nullptr, ConvertSplit});
  r->Register({"Gather", 1, nullptr, ConvertGather});
  r->Register({"OneHot", 9, nullptr, ConvertOneHot});
  r->Register({"TopK", 1, nullptr, ConvertTopK});
  r->Register({"ArgMax", 1, nullptr, Arg("ArgMax")});
  r->Register({"ArgMin", 1, nullptr, Arg("ArgMin")});
  r->Register({"CumSum", 11, nullptr, ConvertCumSum});
  r->Register({"Einsum", 12, nullptr, ConvertEinsum});
  r->Register({"NonZero", 9, nullptr, ConvertNonZero});
  r->Register({"Unique", 11, nullptr, ConvertUnique});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
