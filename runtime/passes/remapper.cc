// Optimizer passes: the remapper's fusions, as pattern rules over the plan's graph.
//
// A pattern of plain TensorFlow ops that one of rill's fused kernels computes in one pass
// over memory becomes that kernel's node, whoever built the pattern: a Keras layer, an
// optimizer, the gradient code, or a user writing ops:: by hand. Each rule fires only
// when every node of the pattern is on one device that has the fused kernel for the
// dtype, when the values the fusion hides are read by nothing else (not another node,
// not a fetch, not a control edge), and when no node of the pattern but its first waits
// on control inputs (the fused node stands where its first node stood). A fused node is
// named after the node whose value it takes over and records the nodes it replaced.
//
// Backward rules (FuseBackward) run first: they change which value a ReluGrad reads, and
// so free a BiasAdd for the forward rule.
// - BiasAddGrad(ActGrad(...)) -> _BiasActivationGrad: the activation's gradient and the
//   bias gradient in one kernel; ActGrad is ReluGrad(g, f) (reading relu(f) instead of f:
//   relu(f) > 0 exactly where f > 0, and the Relu is there), SigmoidGrad(y, g) or
//   TanhGrad(y, g). ActGrad's value stays available (output 0): the other gradients need it.
// - ApplyGradientDescent(var, lr, MatMul(a, b)) -> _MatMulApplyGradientDescent: the weight
//   gradient is never stored; one GEMM subtracts lr * a b from the variable in place. Not
//   when a or b is a variable (its value would be read when the update runs, after other
//   updates, instead of before). Control edges on the MatMul move to what it reads.
// - ApplyGradientDescent(var, lr, CollectiveAllReduce(MatMul(a, b))), the sum marked by
//   DistributedOptimizer as updating replicas -> _MatMulAllReduceApplyGradientDescent: the
//   same GEMM on every rank, then one allreduce of the updated weights in place (neither
//   the gradient nor its sum is stored, no pass over the weights follows). Host kernels
//   only; the MatMul's conditions as above, and the sum has no other reader.
// Forward rules (FuseForward):
// - Relu/Sigmoid/Tanh(BiasAdd(MatMul(a, w), b)) -> _FusedMatMul(a, w, b) (fused_ops
//   ["BiasAdd", "Relu"], ...), and the same of a Conv2D -> _FusedConv2D(x, f, b): the product is
//   finished while it is in cache and neither the product nor the sum is stored. A training graph
//   fuses too: the backward rule has made the activation's gradient read the activation's output,
//   so nothing else reads the product or the sum.
// - Relu/Sigmoid/Tanh(BiasAdd(x, b)) -> _BiasActivation(x, b), for any other x (or where the
//   device has no fused product kernel for the dtype).
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "rill/core/fused_epilogue.h"
#include "rill/runtime/passes/passes.h"

namespace rill {
namespace {

bool SameDevice(const PlanGraph& g, const Node* a, const Node* b) {
  return g.DeviceOf(a) == g.DeviceOf(b);
}

bool FloatNode(const Node* n) {
  return n->num_outputs() > 0 && DataTypeIsFloating(n->output_type(0));
}

bool NhwcBias(const Node* n) {
  auto it = n->attrs().find("data_format");
  return it == n->attrs().end() || std::get<std::string>(it->second) == "NHWC";
}

const char* FusedActivationName(const std::string& op) {
  if (op == "Relu" || op == "ReluGrad") return "relu";
  if (op == "Sigmoid" || op == "SigmoidGrad") return "sigmoid";
  if (op == "Tanh" || op == "TanhGrad") return "tanh";
  return nullptr;
}

std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// For an activation gradient whose value a BiasAddGrad reduces: that BiasAddGrad and the
// (gradients, outputs) the fused kernel takes, in the input graph.
struct ActGradMatch {
  const Node* bias_grad = nullptr;
  NodeOut gradients, outputs;
};

std::optional<ActGradMatch> MatchActGrad(const Node& ag, const PlanGraph& g, const UseCounts& uses,
                                         const GraphRewriter& rw) {
  const char* act = FusedActivationName(ag.type_string());
  if (act == nullptr || !ag.type_string().ends_with("Grad") || !FloatNode(&ag)) return {};
  ActGradMatch m;
  for (const Node* n : uses.consumers({const_cast<Node*>(&ag), 0})) {
    if (n->type_string() == "BiasAddGrad" && NhwcBias(n) && n->control_inputs().empty() &&
        SameDevice(g, n, &ag)) {
      m.bias_grad = n;
      break;
    }
  }
  if (m.bias_grad == nullptr) return {};
  if (ag.type_string() == "ReluGrad") {
    // The fused kernel masks by the activation's output: find the Relu of these features.
    m.gradients = ag.input(0);
    for (const Node* r : uses.consumers(ag.input(1))) {
      if (r->type_string() == "Relu" && rw.Mapped({const_cast<Node*>(r), 0})) {
        m.outputs = {const_cast<Node*>(r), 0};
        break;
      }
    }
    if (m.outputs.node == nullptr) return {};
  } else {  // SigmoidGrad(y, dy), TanhGrad(y, dy)
    m.outputs = ag.input(0);
    m.gradients = ag.input(1);
  }
  return m;
}

// A sum over the ranks that DistributedOptimizer marked: the variables it updates are
// replicas (ops::internal::ReplicaGradientSum).
bool ReplicaSum(const Node& n) {
  if (n.type_string() != "CollectiveAllReduce" || n.attr<std::string>("reduction") != "sum") {
    return false;
  }
  auto it = n.attrs().find("_replicated_update");
  return it != n.attrs().end() && std::get<bool>(it->second);
}

// A gradient-descent update that takes over the MatMul making its gradient, directly or
// through a replica-marked sum over the ranks (`sum`).
struct UpdateMatch {
  const Node* mm = nullptr;
  const Node* sum = nullptr;
  const char* op = nullptr;
};

UpdateMatch MatchUpdate(const Node& u, const PlanGraph& g, const UseCounts& uses) {
  if (u.type_string() != "ApplyGradientDescent" || !FloatNode(&u)) return {};
  UpdateMatch m{u.input(2).node, nullptr, "_MatMulApplyGradientDescent"};
  NodeOut product = u.input(2);
  if (ReplicaSum(*m.mm)) {
    m.sum = m.mm;
    m.op = "_MatMulAllReduceApplyGradientDescent";
    // Control edges on the sum (the optimizer's barrier) move to what the MatMul reads.
    if (uses.data(product) != 1 || uses.fetched(product) || !m.sum->control_inputs().empty() ||
        !SameDevice(g, m.sum, &u)) {
      return {};
    }
    product = m.sum->input(0);
    m.mm = product.node;
  }
  // Control edges on the MatMul are allowed: they move to what it reads.
  if (m.mm->type_string() != "MatMul" || uses.data(product) != 1 || uses.fetched(product) ||
      !m.mm->control_inputs().empty() || !SameDevice(g, m.mm, &u) ||
      m.mm->input(0).node->IsVariable() || m.mm->input(1).node->IsVariable() ||
      !HasKernelFor(m.op, u.attrs(), g.DeviceOf(&u)->device_type())) {
    return {};
  }
  return m;
}

absl::Status FuseUpdate(const Node& old, const UpdateMatch& m, GraphRewriter& rw) {
  NodeSpec spec = rw.SpecOf(old);
  spec.op = m.op;
  spec.inputs = {spec.inputs[0], spec.inputs[1], rw.Map(m.mm->input(0)), rw.Map(m.mm->input(1))};
  spec.attrs = {{"T", old.output_type(0)},
                {"transpose_a", m.mm->attr<bool>("transpose_a")},
                {"transpose_b", m.mm->attr<bool>("transpose_b")}};
  std::vector<std::string> names = rw.NamesOf(*m.mm);
  if (m.sum != nullptr) names = Concat(std::move(names), rw.NamesOf(*m.sum));
  RILL_ASSIGN_OR_RETURN(Node * n, rw.Add(std::move(spec), rw.input().DeviceOf(&old),
                                         Concat(std::move(names), rw.NamesOf(old))));
  rw.Replace(old, {{n, 0}}, {n});
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PlanGraph> FuseBackward(const PlanGraph& in) {
  const UseCounts uses(in);
  // The nodes an update takes over (its MatMul, and its sum over the ranks), each with the
  // MatMul whose inputs their control consumers wait for instead.
  absl::flat_hash_map<const Node*, const Node*> absorbed;
  for (int id = 0; id < in.graph->num_nodes(); ++id) {
    const UpdateMatch m = MatchUpdate(*in.graph->node(id), in, uses);
    if (m.mm != nullptr) absorbed[m.mm] = m.mm;
    if (m.sum != nullptr) absorbed[m.sum] = m.mm;
  }
  absl::flat_hash_map<const Node*, Node*> bias_grad_of;  // a BiasAddGrad fused earlier
  GraphRewriter rw(in, "remapper (backward)");
  return rw.Run([&](const Node& old, GraphRewriter& rw) -> absl::StatusOr<bool> {
    if (auto it = absorbed.find(&old); it != absorbed.end()) {
      std::vector<Node*> control;
      for (int i = 0; i < it->second->num_inputs(); ++i) {
        control.push_back(rw.Map(it->second->input(i)).node);
      }
      rw.Replace(old, {}, std::move(control));
      return true;
    }
    if (auto it = bias_grad_of.find(&old); it != bias_grad_of.end()) {
      rw.Replace(old, {{it->second, 1}}, {it->second});
      return true;
    }
    if (const UpdateMatch m = MatchUpdate(old, in, uses); m.mm != nullptr) {
      RILL_RETURN_IF_ERROR(FuseUpdate(old, m, rw));
      return true;
    }
    std::optional<ActGradMatch> m = MatchActGrad(old, in, uses, rw);
    if (!m || !HasKernelFor("_BiasActivationGrad", old.attrs(), in.DeviceOf(&old)->device_type())) {
      return false;
    }
    NodeSpec spec = rw.SpecOf(old);
    spec.name = m->bias_grad->name();
    spec.op = "_BiasActivationGrad";
    spec.inputs = {rw.Map(m->gradients), rw.Map(m->outputs)};
    spec.attrs = {{"T", old.output_type(0)},
                  {"activation", std::string(FusedActivationName(old.type_string()))}};
    RILL_ASSIGN_OR_RETURN(Node * n, rw.Add(std::move(spec), in.DeviceOf(&old),
                                           Concat(rw.NamesOf(old), rw.NamesOf(*m->bias_grad))));
    rw.Replace(old, {{n, 0}}, {n});
    bias_grad_of[m->bias_grad] = n;
    return true;
  });
}

namespace {

// The activation a forward rule fuses into a BiasAdd: its only reader, on its device, with
// no control inputs; null if none qualifies.
const Node* FusableActivation(const Node& bias_add, const PlanGraph& g, const UseCounts& uses) {
  if (bias_add.type_string() != "BiasAdd" || !NhwcBias(&bias_add) || !FloatNode(&bias_add) ||
      !uses.SoleUse({const_cast<Node*>(&bias_add), 0}) ||
      !HasKernelFor("_BiasActivation", bias_add.attrs(), g.DeviceOf(&bias_add)->device_type())) {
    return nullptr;
  }
  const Node* act = uses.consumers({const_cast<Node*>(&bias_add), 0}).front();
  const char* a = FusedActivationName(act->type_string());
  if (a == nullptr || act->type_string().ends_with("Grad") || !act->control_inputs().empty() ||
      !SameDevice(g, act, &bias_add)) {
    return nullptr;
  }
  return act;
}

// The fused op that takes over a MatMul or Conv2D whose only reader is this BiasAdd (itself
// fusable with its activation, and waiting on no control input); null if none.
const char* FusedProductOp(const Node& bias_add, const PlanGraph& g, const UseCounts& uses) {
  const Node* p = bias_add.input(0).node;
  const char* op = p->type_string() == "MatMul"   ? "_FusedMatMul"
                   : p->type_string() == "Conv2D" ? "_FusedConv2D"
                                                  : nullptr;
  if (op == nullptr || !bias_add.control_inputs().empty() || !uses.SoleUse(bias_add.input(0)) ||
      !SameDevice(g, p, &bias_add) || !HasKernelFor(op, p->attrs(), g.DeviceOf(p)->device_type())) {
    return nullptr;
  }
  return op;
}

}  // namespace

absl::StatusOr<PlanGraph> FuseForward(const PlanGraph& in) {
  const UseCounts uses(in);
  // Products a fused node takes over (emitted at their BiasAdd, whose bias may come later).
  absl::flat_hash_set<const Node*> absorbed;
  for (int id = 0; id < in.graph->num_nodes(); ++id) {
    const Node& n = *in.graph->node(id);
    if (FusableActivation(n, in, uses) && FusedProductOp(n, in, uses)) {
      absorbed.insert(n.input(0).node);
    }
  }
  // The activation that takes over each fused BiasAdd.
  absl::flat_hash_map<const Node*, Node*> fused_act;
  GraphRewriter rw(in, "remapper (forward)");
  return rw.Run([&](const Node& old, GraphRewriter& rw) -> absl::StatusOr<bool> {
    if (absorbed.contains(&old)) {
      rw.Replace(old, {}, {});  // its only reader is fused with it
      return true;
    }
    if (auto it = fused_act.find(&old); it != fused_act.end()) {
      rw.Replace(old, {{it->second, 0}}, {it->second});
      return true;
    }
    const Node* act = FusableActivation(old, in, uses);
    if (act == nullptr) return false;
    const std::string a = FusedActivationName(act->type_string());
    const Node* product = old.input(0).node;
    NodeSpec spec;
    std::vector<std::string> replaces;
    if (absorbed.contains(product)) {
      spec = rw.SpecOf(*product);  // its inputs, attrs and control inputs
      spec.op = FusedProductOp(old, in, uses);
      spec.inputs.push_back(rw.Map(old.input(1)));
      replaces = rw.NamesOf(*product);
    } else {
      spec = rw.SpecOf(old);
      spec.op = "_BiasActivation";
      spec.attrs = {{"T", old.output_type(0)}};
    }
    spec.name = act->name();
    if (absorbed.contains(product)) {  // TensorFlow's attrs: the bias, the activation's op
      spec.attrs["fused_ops"] = FusedBiasOps(act->type_string());
    } else {
      spec.attrs["activation"] = a;
    }
    RILL_ASSIGN_OR_RETURN(Node * n,
                          rw.Add(std::move(spec), in.DeviceOf(&old),
                                 Concat(Concat(replaces, rw.NamesOf(old)), rw.NamesOf(*act))));
    rw.Replace(old, {}, {n});
    fused_act[act] = n;
    return true;
  });
}

}  // namespace rill
