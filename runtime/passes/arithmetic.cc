// Optimizer pass: arithmetic simplification.
//
// Rewrites that remove work without changing a value (TensorFlow's arithmetic and
// dependency optimizers make the same ones):
// - x * 1, 1 * x, x / 1, x + 0, 0 + x, x - 0  ->  x, when the constant is all ones (or
//   zeros) and only of size-1 dimensions no more than x's rank, so broadcasting it leaves
//   x's shape as it is (the result must be x itself, not a broadcast of it);
// - Transpose(Transpose(x, p), q)  ->  x, when the two constant permutations undo each
//   other;
// - Reshape(Reshape(x, s), t)  ->  Reshape(x, t): only the last shape matters;
// - Identity(x) -> x (so identity chains vanish), unless x is a variable (an Identity
//   of a variable snapshots its value at that point of the step, which readers of the
//   variable itself would not see) or the Identity orders itself after control inputs.
// None of these removes a node whose value is a Switch's output (see below).
// A fetched node rewritten this way is fetched from what replaced it: the same value.
#include "rill/runtime/passes/passes.h"

namespace rill {
namespace {

// Every element of constant `n` equals `value`, and its dimensions are all 1 and no more
// than `rank` of them (unknown rank: only a scalar qualifies).
bool IsUniform(const Node* n, double value, int rank) {
  const Tensor* t = n->constant_value();
  if (t == nullptr || DataTypeSize(t->dtype()) == 0 || t->dtype() == DT_BOOL) return false;
  if (t->dims() > (rank < 0 ? 0 : rank)) return false;
  for (int d = 0; d < t->dims(); ++d) {
    if (t->dim_size(d) != 1) return false;
  }
  bool all = true;
  VisitDataType(t->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = t->base<T>();
    for (int64_t i = 0; i < t->NumElements(); ++i) all = all && p[i] == static_cast<T>(value);
  });
  return all;
}

std::optional<std::vector<int64_t>> IntValues(const Node* n) {
  const Tensor* t = n->constant_value();
  if (t == nullptr || (t->dtype() != DT_INT32 && t->dtype() != DT_INT64)) return std::nullopt;
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t->NumElements(); ++i) {
    v.push_back(t->dtype() == DT_INT32 ? t->base<int32_t>()[i] : t->base<int64_t>()[i]);
  }
  return v;
}

// Which input `old` equals, or -1.
int NeutralOperand(const Node& old, const GraphRewriter& rw) {
  const std::string& op = old.type_string();
  if (old.num_inputs() != 2) return -1;
  NodeOut a = rw.Map(old.input(0)), b = rw.Map(old.input(1));
  const int ra = a.node->output_shape(a.index).dims(), rb = b.node->output_shape(b.index).dims();
  const bool mul = op == "Mul", add = op == "Add" || op == "AddV2";
  if ((mul || op == "Div" || op == "RealDiv") && IsUniform(b.node, 1, ra)) return 0;
  if (mul && IsUniform(a.node, 1, rb)) return 1;
  if ((add || op == "Sub") && IsUniform(b.node, 0, ra)) return 0;
  if (add && IsUniform(a.node, 0, rb)) return 1;
  return -1;
}

// For Transpose(Transpose(x, p), q) that undoes itself: x in the new graph.
NodeOut UndoneTranspose(const Node& old, const GraphRewriter& rw) {
  if (old.type_string() != "Transpose") return {};
  NodeOut inner = rw.Map(old.input(0));
  if (inner.node->type_string() != "Transpose" || !inner.node->control_inputs().empty()) {
    return {};
  }
  auto q = IntValues(rw.Map(old.input(1)).node);
  auto p = IntValues(inner.node->input(1).node);
  if (!p || !q || p->size() != q->size()) return {};
  const int64_t n = static_cast<int64_t>(p->size());
  for (int64_t j = 0; j < n; ++j) {
    if ((*q)[j] < 0 || (*q)[j] >= n || (*p)[(*q)[j]] != j) return {};
  }
  return inner.node->input(0);
}

}  // namespace

absl::StatusOr<PlanGraph> SimplifyArithmetic(const PlanGraph& in) {
  GraphRewriter rw(in, "arithmetic simplification");
  return rw.Run([&](const Node& old, GraphRewriter& rw) -> absl::StatusOr<bool> {
    if (!old.control_inputs().empty()) return false;
    NodeOut same;  // what `old`'s only output equals
    if (old.type_string() == "Identity" && !old.input(0).node->IsVariable()) {
      same = rw.Map(old.input(0));
    } else if (int k = NeutralOperand(old, rw); k >= 0) {
      same = rw.Map(old.input(k));
    } else {
      same = UndoneTranspose(old, rw);
    }
    // A Switch's outputs differ in deadness; a control edge moved onto the Switch itself
    // would lose the dead branch's (tf.cond's pivot is such an Identity).
    if (same.node != nullptr && same.node->type_string() == "Switch") return false;
    if (same.node != nullptr && same.node->output_type(same.index) == old.output_type(0)) {
      rw.Replace(old, {same}, {same.node});
      return true;
    }
    if (old.type_string() == "Reshape") {
      NodeOut inner = rw.Map(old.input(0));
      if (inner.node->type_string() != "Reshape" || !inner.node->control_inputs().empty()) {
        return false;
      }
      NodeSpec spec = rw.SpecOf(old);
      spec.inputs[0] = inner.node->input(0);
      RILL_ASSIGN_OR_RETURN(Node * n, rw.Add(std::move(spec), in.DeviceOf(&old), {}));
      rw.Replace(old, {{n, 0}}, {n});
      return true;
    }
    return false;
  });
}

}  // namespace rill
