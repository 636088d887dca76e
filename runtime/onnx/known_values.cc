#include "rill/runtime/onnx/known_values.h"

#include <algorithm>
#include <functional>
#include <string>

namespace rill::onnx::internal {
namespace {

using Elem = std::optional<int64_t>;
constexpr size_t kMaxElements = 64;
// Bounds on one evaluation: a hostile graph could otherwise make the walk (a DAG walked
// as a tree) exponential.
constexpr int kMaxDepth = 48;
constexpr int kMaxVisits = 512;

struct Walk {
  int visits = 0;
};

std::optional<KnownValue> Eval(const Output& o, int depth, Walk& walk);

std::optional<KnownValue> FromConst(const Tensor& t) {
  if (t.shape().dims() > 1 || t.NumElements() > static_cast<int64_t>(kMaxElements)) return {};
  KnownValue v;
  v.scalar = t.shape().dims() == 0;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    switch (t.dtype()) {
      case DT_INT64:
        v.elements.push_back(t.flat<int64_t>()(i));
        break;
      case DT_INT32:
        v.elements.push_back(t.flat<int32_t>()(i));
        break;
      case DT_BOOL:
        v.elements.push_back(t.flat<bool>()(i) ? 1 : 0);
        break;
      default:
        return {};
    }
  }
  return v;
}

std::optional<KnownValue> FromShape(const PartialTensorShape& s) {
  if (s.unknown_rank() || s.dims() > static_cast<int>(kMaxElements)) return {};
  KnownValue v;
  v.scalar = false;
  for (int64_t d : s.dim_sizes()) v.elements.push_back(d >= 0 ? Elem(d) : Elem());
  return v;
}

// Elementwise over a and b, a scalar broadcasting against a vector.
std::optional<KnownValue> Binary(const KnownValue& a, const KnownValue& b,
                                 const std::function<Elem(int64_t, int64_t)>& f) {
  const size_t n = std::max(a.elements.size(), b.elements.size());
  if (!(a.elements.size() == n || a.scalar) || !(b.elements.size() == n || b.scalar)) return {};
  KnownValue out;
  out.scalar = a.scalar && b.scalar;
  for (size_t i = 0; i < n; ++i) {
    const Elem x = a.elements[a.scalar ? 0 : i], y = b.elements[b.scalar ? 0 : i];
    out.elements.push_back(x && y ? f(*x, *y) : Elem());
  }
  return out;
}

std::optional<std::function<Elem(int64_t, int64_t)>> BinaryFn(const std::string& op) {
  using F = std::function<Elem(int64_t, int64_t)>;
  if (op == "Add") return F([](int64_t x, int64_t y) { return Elem(x + y); });
  if (op == "Sub") return F([](int64_t x, int64_t y) { return Elem(x - y); });
  if (op == "Mul") return F([](int64_t x, int64_t y) { return Elem(x * y); });
  if (op == "Maximum") return F([](int64_t x, int64_t y) { return Elem(std::max(x, y)); });
  if (op == "Minimum") return F([](int64_t x, int64_t y) { return Elem(std::min(x, y)); });
  if (op == "Equal") return F([](int64_t x, int64_t y) { return Elem(x == y); });
  if (op == "NotEqual") return F([](int64_t x, int64_t y) { return Elem(x != y); });
  if (op == "Less") return F([](int64_t x, int64_t y) { return Elem(x < y); });
  if (op == "LessEqual") return F([](int64_t x, int64_t y) { return Elem(x <= y); });
  if (op == "Greater") return F([](int64_t x, int64_t y) { return Elem(x > y); });
  if (op == "GreaterEqual") return F([](int64_t x, int64_t y) { return Elem(x >= y); });
  if (op == "LogicalAnd") return F([](int64_t x, int64_t y) { return Elem(x && y); });
  if (op == "LogicalOr") return F([](int64_t x, int64_t y) { return Elem(x || y); });
  return {};
}

// Gather along axis 0 of a vector.
std::optional<KnownValue> Gather(const KnownValue& params, const KnownValue& indices) {
  KnownValue out;
  out.scalar = indices.scalar;
  const int64_t n = static_cast<int64_t>(params.elements.size());
  for (const Elem& i : indices.elements) {
    if (!i || *i < 0 || *i >= n || params.scalar) return {};
    out.elements.push_back(params.elements[*i]);
  }
  return out;
}

std::optional<KnownValue> Select(const KnownValue& c, const KnownValue& a, const KnownValue& b) {
  const size_t n = std::max({c.elements.size(), a.elements.size(), b.elements.size()});
  for (const KnownValue* v : {&c, &a, &b}) {
    if (v->elements.size() != n && !v->scalar) return {};
  }
  KnownValue out;
  out.scalar = c.scalar && a.scalar && b.scalar;
  for (size_t i = 0; i < n; ++i) {
    const Elem k = c.elements[c.scalar ? 0 : i];
    out.elements.push_back(!k   ? Elem()
                           : *k ? a.elements[a.scalar ? 0 : i]
                                : b.elements[b.scalar ? 0 : i]);
  }
  return out;
}

// Ops that keep the elements and change only the rank (to a scalar or a vector).
bool Reshaping(const std::string& op) {
  return op == "Identity" || op == "Reshape" || op == "ExpandDims" || op == "Squeeze" ||
         op == "Cast";
}

std::optional<KnownValue> EvalNode(const Node& n, int index, int depth, Walk& walk) {
  const std::string& op = n.type_string();
  auto in = [&](int i) -> std::optional<KnownValue> {
    if (i >= n.num_inputs()) return {};
    return Eval(Output(n.input(i).node, n.input(i).index), depth + 1, walk);
  };
  if (op == "Const") return FromConst(*n.constant_value());
  if (op == "Shape") return FromShape(n.input(0).node->output_shape(n.input(0).index));
  if (Reshaping(op)) {
    const PartialTensorShape& s = n.output_shape(index);
    std::optional<KnownValue> v = in(0);
    if (!v || s.unknown_rank() || s.dims() > 1) return {};
    v->scalar = s.dims() == 0;
    if (op == "Cast" && n.output_type(0) == DT_BOOL) {
      for (Elem& e : v->elements) e = e ? Elem(*e != 0) : e;
    }
    if (op == "Cast" && n.output_type(0) != DT_BOOL && n.output_type(0) != DT_INT32 &&
        n.output_type(0) != DT_INT64) {
      return {};
    }
    return v;
  }
  if (op == "GatherV2") {
    std::optional<KnownValue> params = in(0), indices = in(1), axis = in(2);
    if (!params || !indices || !axis || axis->elements.size() != 1 || axis->elements[0] != 0) {
      return {};
    }
    return Gather(*params, *indices);
  }
  if (op == "Slice") {  // of a vector: begin and size (-1: to the end) as 1-element vectors
    std::optional<KnownValue> x = in(0), begin = in(1), size = in(2);
    if (!x || !begin || !size || x->scalar || begin->elements.size() != 1 ||
        size->elements.size() != 1 || !begin->elements[0] || !size->elements[0]) {
      return {};
    }
    const int64_t n = static_cast<int64_t>(x->elements.size()), b = *begin->elements[0];
    const int64_t len = *size->elements[0] == -1 ? n - b : *size->elements[0];
    if (b < 0 || len < 0 || b > n || len > n - b) return {};
    KnownValue out;
    out.scalar = false;
    out.elements.assign(x->elements.begin() + b, x->elements.begin() + b + len);
    return out;
  }
  if (op == "SelectV2") {
    std::optional<KnownValue> c = in(0), a = in(1), b = in(2);
    if (!c || !a || !b) return {};
    return Select(*c, *a, *b);
  }
  if (op == "LogicalNot" || op == "Neg") {
    std::optional<KnownValue> v = in(0);
    if (!v) return {};
    for (Elem& e : v->elements) e = !e ? e : op == "Neg" ? Elem(-*e) : Elem(*e == 0);
    return v;
  }
  if (auto f = BinaryFn(op)) {
    std::optional<KnownValue> a = in(0), b = in(1);
    if (!a || !b) return {};
    return Binary(*a, *b, *f);
  }
  return {};
}

std::optional<KnownValue> Eval(const Output& o, int depth, Walk& walk) {
  if (!o.valid() || depth > kMaxDepth || ++walk.visits > kMaxVisits) return {};
  const DataType dt = o.type();
  if (dt != DT_INT32 && dt != DT_INT64 && dt != DT_BOOL) return {};
  std::optional<KnownValue> v = EvalNode(*o.node(), o.index(), depth, walk);
  if (v && v->elements.size() > kMaxElements) return {};
  return v;
}

}  // namespace

std::optional<KnownValue> Evaluate(const Output& o) {
  Walk walk;
  return Eval(o, 0, walk);
}

}  // namespace rill::onnx::internal
