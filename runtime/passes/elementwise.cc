// Optimizer pass: elementwise fusion. A chain of elementwise ops (Add, Sub, Mul, Div,
// Maximum, Minimum, BiasAdd, Relu, Relu6, Neg, Abs, Square, Identity) costs one pass over
// memory per op, each reading and writing the whole tensor; ONNX exports spell activations
// this way (HardSwish is x * clip(x + 3, 0, 6) / 6: five ops) and put per-channel affine
// ops between convolutions. The pass groups such nodes into _FusedElementwise nodes
// (core/fused_elementwise.h), whose kernel runs the chain over cache-sized blocks.
//
// A node joins the group of its readers when every reader of its value is in one group
// (so a value read twice in a chain, as HardSwish's x, is computed once there), on the same
// device, of the same floating dtype, and nothing else needs it (no fetch, no control
// edge, no control input of its own). Groups are found from the last node back (readers
// before what they read); one of a single node stays as it was. The fused node takes the
// name of the group's last node and records the nodes it replaced. Inputs broadcast in
// the kernel as the ops they came from broadcast (NumPy's rule), so a chain with scalars,
// bias vectors or any broadcast operand fuses, whatever shapes are known while planning.
// It runs last: the remapper's fusions (a bias and activation into a MatMul or Conv2D)
// are worth more, and what they leave is fused here.
#include "absl/container/flat_hash_map.h"
#include "rill/core/fused_elementwise.h"
#include "rill/runtime/passes/passes.h"

namespace rill {
namespace {

// A BiasAdd is an Add where its checks cannot fail: NHWC, a bias vector as long as the
// value's last dim, both known while planning (the fused kernel broadcasts any shapes,
// where BiasAdd refuses all but these).
bool PlainBias(const Node& n) {
  auto it = n.attrs().find("data_format");
  if (it != n.attrs().end() && std::get<std::string>(it->second) != "NHWC") return false;
  const PartialTensorShape& v = n.input(0).node->output_shape(n.input(0).index);
  const PartialTensorShape& b = n.input(1).node->output_shape(n.input(1).index);
  return !v.unknown_rank() && v.dims() >= 1 && !b.unknown_rank() && b.dims() == 1 &&
         b.dim_size(0) >= 0 && v.dim_size(v.dims() - 1) == b.dim_size(0);
}

bool Fusable(const Node& n, const PlanGraph& g) {
  return IsFusableElementwise(n) && HasKernelFor("_FusedElementwise", {{"T", n.output_type(0)}},
                                                 g.DeviceOf(&n)->device_type());
}

// The group's root (its last node) of every fusable node reached, and each root's size.
struct Groups {
  absl::flat_hash_map<const Node*, const Node*> root;
  absl::flat_hash_map<const Node*, int> size;
};

Groups FindGroups(const PlanGraph& g, const UseCounts& uses) {
  Groups groups;
  for (int id = g.graph->num_nodes() - 1; id >= 0; --id) {
    const Node* n = g.graph->node(id);
    if (n == nullptr || g.fed.contains(n) || !Fusable(*n, g)) continue;
    const NodeOut out{const_cast<Node*>(n), 0};
    const std::vector<const Node*>& readers = uses.consumers(out);
    const Node* root = nullptr;
    bool joins = !readers.empty() && !uses.fetched(out) && uses.control(n) == 0 &&
                 n->control_inputs().empty();
    for (const Node* r : readers) {
      auto it = groups.root.find(r);
      if (!joins || it == groups.root.end() || (root != nullptr && it->second != root) ||
          g.DeviceOf(r) != g.DeviceOf(n) || r->output_type(0) != n->output_type(0)) {
        joins = false;
        break;
      }
      root = it->second;
    }
    if (joins && groups.size[root] >= kMaxElementwiseSteps) joins = false;
    const Node* mine = joins ? root : n;
    groups.root[n] = mine;
    ++groups.size[mine];
  }
  return groups;
}

// A group's program over its inputs (values from outside the group, in the input graph).
struct Program {
  std::vector<NodeOut> inputs;
  std::vector<std::vector<int64_t>> steps;  // {code, a, b}; operands < 0: step ~k
  std::vector<const Node*> members;
  absl::flat_hash_map<const Node*, int64_t> step_of;
};

// The operand for value `v` of the group rooted at `root`: a step (~k) or an input index.
int64_t Operand(const NodeOut& v, const Node* root, const Groups& groups, Program* p);

void EmitSteps(const Node* n, const Node* root, const Groups& groups, Program* p) {
  std::vector<int64_t> step = {static_cast<int64_t>(*ElementwiseOpOf(n->type_string())), 0, -1};
  for (int i = 0; i < n->num_inputs(); ++i) step[1 + i] = Operand(n->input(i), root, groups, p);
  p->step_of[n] = static_cast<int64_t>(p->steps.size());
  p->steps.push_back(step);
  p->members.push_back(n);
}

int64_t Operand(const NodeOut& v, const Node* root, const Groups& groups, Program* p) {
  auto it = groups.root.find(v.node);
  if (it != groups.root.end() && it->second == root && v.node != root) {
    if (!p->step_of.contains(v.node)) EmitSteps(v.node, root, groups, p);
    return ~p->step_of.at(v.node);
  }
  for (size_t i = 0; i < p->inputs.size(); ++i) {
    if (p->inputs[i].node == v.node && p->inputs[i].index == v.index) return i;
  }
  p->inputs.push_back(v);
  return static_cast<int64_t>(p->inputs.size() - 1);
}

// Whether operand `o` is an input that is a Const of one value equal to `value`, of rank
// at most `rank` (so that dropping it cannot change the broadcast output's shape).
bool IsScalarConst(const Program& p, int64_t o, double value, int rank) {
  if (o < 0) return false;
  const Tensor* t = p.inputs[o].node->constant_value();
  if (t == nullptr || t->NumElements() != 1 || t->dims() > rank) return false;
  if (t->dtype() == DT_FLOAT) return t->base<float>()[0] == static_cast<float>(value);
  return t->dtype() == DT_DOUBLE && t->base<double>()[0] == value;
}

// The step that operand `o` names when it is a step of op `op` read once; else -1.
int64_t OnlyUse(const Program& p, const std::vector<int>& reads, int64_t o, ElementwiseOp op) {
  if (o >= 0 || reads[~o] != 1 || p.steps[~o][0] != static_cast<int64_t>(op)) return -1;
  return ~o;
}

// For step k = Div(Mul(u, Minimum(Maximum(Add(u, 3), 0), 6)), 6) (operands of Add,
// Maximum, Minimum and the Mul in either order, each intermediate read only by the next),
// the steps it replaces; u in *u. Empty if step k is no such HardSwish.
std::vector<int64_t> MatchHardSwish(const Program& p, const std::vector<int>& reads, int64_t k,
                                    int rank, int64_t* u) {
  const std::vector<int64_t>& q = p.steps[k];
  if (q[0] != static_cast<int64_t>(ElementwiseOp::kDiv) || !IsScalarConst(p, q[2], 6, rank)) {
    return {};
  }
  // The other operand of binary step s when one of its operands satisfies `pred`.
  auto other = [&](int64_t s, auto pred) -> std::optional<int64_t> {
    const std::vector<int64_t>& st = p.steps[s];
    if (pred(st[1])) return st[2];
    if (pred(st[2])) return st[1];
    return std::nullopt;
  };
  const int64_t mul = OnlyUse(p, reads, q[1], ElementwiseOp::kMul);
  if (mul < 0) return {};
  for (int side : {1, 2}) {
    const int64_t min = OnlyUse(p, reads, p.steps[mul][side], ElementwiseOp::kMinimum);
    const int64_t x = p.steps[mul][3 - side];
    if (min < 0) continue;
    auto is6 = [&](int64_t o) { return IsScalarConst(p, o, 6, rank); };
    auto is0 = [&](int64_t o) { return IsScalarConst(p, o, 0, rank); };
    auto is3 = [&](int64_t o) { return IsScalarConst(p, o, 3, rank); };
    std::optional<int64_t> m = other(min, is6);
    const int64_t max = m ? OnlyUse(p, reads, *m, ElementwiseOp::kMaximum) : -1;
    std::optional<int64_t> a = max >= 0 ? other(max, is0) : std::nullopt;
    const int64_t add = a ? OnlyUse(p, reads, *a, ElementwiseOp::kAdd) : -1;
    if (add >= 0 && other(add, is3) == x) {
      *u = x;
      return {mul, min, max, add};
    }
  }
  return {};
}

// Each HardSwish pattern of `p` becomes one kHardSwish step; the steps and constant inputs
// it used are dropped. `rank`: the largest rank among the inputs (-1 if unknown).
void FoldHardSwish(Program* p, int rank) {
  if (rank < 0) rank = 0;  // only rank-0 constants can be dropped safely
  const int64_t m = static_cast<int64_t>(p->steps.size());
  std::vector<int> reads(m, 0);
  for (const auto& s : p->steps) {
    for (int j : {1, 2}) {
      if (s[j] < 0 && !(j == 2 && IsUnary(static_cast<ElementwiseOp>(s[0])))) ++reads[~s[j]];
    }
  }
  std::vector<bool> dead(m, false);
  bool changed = false;
  for (int64_t k = 0; k < m; ++k) {
    int64_t u = 0;
    std::vector<int64_t> gone = MatchHardSwish(*p, reads, k, rank, &u);
    if (gone.empty()) continue;
    for (int64_t g : gone) dead[g] = true;
    p->steps[k] = {static_cast<int64_t>(ElementwiseOp::kHardSwish), u, -1};
    changed = true;
  }
  if (!changed) return;
  // Renumber the live steps, then the inputs some live step still reads.
  std::vector<int64_t> step_at(m, -1);
  std::vector<std::vector<int64_t>> steps;
  for (int64_t k = 0; k < m; ++k) {
    if (dead[k]) continue;
    std::vector<int64_t> s = p->steps[k];
    const int operands = IsUnary(static_cast<ElementwiseOp>(s[0])) ? 1 : 2;
    for (int j = 1; j <= operands; ++j) {
      if (s[j] < 0) s[j] = ~step_at[~s[j]];
    }
    if (operands == 1) s[2] = -1;
    step_at[k] = static_cast<int64_t>(steps.size());
    steps.push_back(std::move(s));
  }
  std::vector<int64_t> input_at(p->inputs.size(), -1);
  std::vector<NodeOut> inputs;
  for (auto& s : steps) {
    const int operands = IsUnary(static_cast<ElementwiseOp>(s[0])) ? 1 : 2;
    for (int j = 1; j <= operands; ++j) {
      if (s[j] < 0) continue;
      if (input_at[s[j]] < 0) {
        input_at[s[j]] = static_cast<int64_t>(inputs.size());
        inputs.push_back(p->inputs[s[j]]);
      }
      s[j] = input_at[s[j]];
    }
  }
  p->steps = std::move(steps);
  p->inputs = std::move(inputs);
}

// The largest rank among the program's inputs that are not constants of one value (those
// FoldHardSwish may drop), -1 if one's rank is unknown.
int LargestRank(const Program& p) {
  int rank = 0;
  for (const NodeOut& v : p.inputs) {
    const Tensor* t = v.node->constant_value();
    if (t != nullptr && t->NumElements() == 1) continue;
    const PartialTensorShape& s = v.node->output_shape(v.index);
    if (s.unknown_rank()) return -1;
    rank = std::max(rank, s.dims());
  }
  return rank;
}

// The program as _FusedElementwise's attr: registers are the inputs, then the steps.
std::vector<int64_t> Encode(const Program& p) {
  const int64_t n = static_cast<int64_t>(p.inputs.size());
  std::vector<int64_t> out;
  for (const std::vector<int64_t>& s : p.steps) {
    out.push_back(s[0]);
    for (int k = 1; k < 3; ++k) {
      const bool unary_slot = k == 2 && IsUnary(static_cast<ElementwiseOp>(s[0]));
      out.push_back(unary_slot ? -1 : s[k] < 0 ? n + ~s[k] : s[k]);
    }
  }
  return out;
}

}  // namespace

bool IsFusableElementwise(const Node& n) {
  if (n.num_outputs() != 1 || !ElementwiseOpOf(n.type_string())) return false;
  const DataType t = n.output_type(0);
  if (t != DT_FLOAT && t != DT_DOUBLE) return false;
  if (n.type_string() == "BiasAdd" && !PlainBias(n)) return false;
  for (int i = 0; i < n.num_inputs(); ++i) {
    if (n.input_type(i) != t || n.input_is_ref(i)) return false;
  }
  return true;
}

absl::StatusOr<PlanGraph> FuseElementwise(const PlanGraph& in) {
  const UseCounts uses(in);
  const Groups groups = FindGroups(in, uses);
  GraphRewriter rw(in, "elementwise fusion");
  return rw.Run([&](const Node& old, GraphRewriter& rw) -> absl::StatusOr<bool> {
    auto it = groups.root.find(&old);
    if (it == groups.root.end() || groups.size.at(it->second) < 2) return false;
    if (it->second != &old) {  // read only by its group, which the root's node computes
      rw.Replace(old, {}, {});
      return true;
    }
    Program p;
    EmitSteps(&old, &old, groups, &p);
    FoldHardSwish(&p, LargestRank(p));
    NodeSpec spec = rw.SpecOf(old);  // name, device request, control inputs
    spec.op = "_FusedElementwise";
    spec.inputs.clear();
    for (const NodeOut& v : p.inputs) spec.inputs.push_back(rw.Map(v));
    spec.attrs = {{"T", old.output_type(0)},
                  {"N", static_cast<int64_t>(p.inputs.size())},
                  {"program", Encode(p)}};
    std::vector<std::string> replaces;
    for (const Node* m : p.members) {
      for (std::string& name : rw.NamesOf(*m)) replaces.push_back(std::move(name));
    }
    RILL_ASSIGN_OR_RETURN(Node * n, rw.Add(std::move(spec), in.DeviceOf(&old), replaces));
    rw.Replace(old, {{n, 0}}, {n});
    return true;
  });
}

}  // namespace rill
