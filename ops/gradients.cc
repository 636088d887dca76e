#include "rill/ops/gradients.h"

#include <algorithm>
#include <deque>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/math_ops.h"

namespace rill::ops {

GradOpRegistry* GradOpRegistry::Global() {
  static auto* r = new GradOpRegistry;
  return r;
}
void GradOpRegistry::Register(const std::string& op, GradFunc fn) { fns_[op] = std::move(fn); }
void GradOpRegistry::RegisterNoGradient(const std::string& op) { no_grad_[op] = true; }
const GradFunc* GradOpRegistry::Lookup(const std::string& op) const {
  auto it = fns_.find(op);
  return it == fns_.end() ? nullptr : &it->second;
}
bool GradOpRegistry::IsNotDifferentiable(const std::string& op) const {
  return no_grad_.contains(op);
}

namespace {

using OutKey = std::pair<const Node*, int>;

// The backward pass, in numbered steps:
//  1. nodes that reach an output (backward from `outputs`, data edges only);
//  2. values that depend on an input (forward from `inputs`; node ids are a topological
//     order, so one pass over ids does it);
//  3. walk the nodes on both sets in decreasing id: sum the gradients that reached each
//     output, call the op's gradient function, hand each input its share;
//  4. read off each input's summed gradient (NoGradient() when every path was stopped).
class Backprop {
 public:
  Backprop(const Scope& scope, const std::vector<Output>& ys, const std::vector<Output>& xs)
      : scope_(scope), ys_(ys), xs_(xs) {}

  absl::Status Run(const std::vector<Output>& grad_ys, std::vector<Output>* out) {
    MarkReachingOutputs();
    for (const Output& x : xs_) {
      if (!reaches_.contains(x.node())) {
        return errors::InvalidArgument("Cannot compute the partial derivative for node '",
                                       x.node()->name(),
                                       "' as it's unreachable from the output node(s).");
      }
    }
    MarkDependingOnInputs();
    for (size_t i = 0; i < ys_.size(); ++i)
      pending_[{ys_[i].node(), ys_[i].index()}].push_back(grad_ys[i]);
    // The backward ops go into the caller's scope under their own op names, as TensorFlow's
    // C++ API puts them (its Python nests them under "gradients/"): a ported program's
    // graph, and TensorFlow's tests that compare one, name them alike.
    for (const Node* n : BackpropOrder()) RILL_RETURN_IF_ERROR(Visit(scope_, n));
    for (const Output& x : xs_) {
      auto it = summed_.find({x.node(), x.index()});
      const bool reached = it != summed_.end() && it->second.node() != nullptr;
      out->push_back(reached ? it->second : NoGradient());
    }
    return scope_.status();
  }

 private:
  void MarkReachingOutputs() {
    std::vector<const Node*> stack;
    for (const Output& y : ys_) stack.push_back(y.node());
    while (!stack.empty()) {
      const Node* n = stack.back();
      stack.pop_back();
      if (!reaches_.insert(n).second) continue;
      for (int i = 0; i < n->num_inputs(); ++i) stack.push_back(n->input(i).node);
    }
  }

  void MarkDependingOnInputs() {
    int lo = scope_.graph()->num_nodes(), hi = -1;
    for (const Output& x : xs_) {
      depends_.insert({x.node(), x.index()});
      lo = std::min(lo, x.node()->id());
    }
    for (const Node* n : reaches_) hi = std::max(hi, n->id());
    for (int id = lo; id <= hi; ++id) {
      const Node* n = scope_.graph()->node(id);
      if (!reaches_.contains(n)) continue;
      bool dep = false;
      for (int i = 0; i < n->num_inputs() && !dep; ++i) {
        if (n->input_is_ref(i)) continue;  // updates, not values
        dep = depends_.contains({n->input(i).node, n->input(i).index});
      }
      if (dep) {
        for (int k = 0; k < n->num_outputs(); ++k) depends_.insert({n, k});
      }
      bool has_dep_output = dep;
      for (int k = 0; k < n->num_outputs() && !has_dep_output; ++k)
        has_dep_output = depends_.contains({n, k});
      if (has_dep_output) on_path_.insert(n);
    }
  }

  // TensorFlow's order (its SymbolicGradientBuilder): a node is visited once every
  // consumer on the path has passed its gradients back, first come first served from the
  // outputs in the order given, so that the backward ops are built (and named) as
  // TensorFlow builds them. A node no consumer releases has no gradient reaching it, so it
  // is not visited.
  std::vector<const Node*> BackpropOrder() const {
    absl::flat_hash_map<const Node*, int> waiting;
    for (const Node* n : on_path_) waiting[n] = 0;
    for (const Output& y : ys_)
      if (on_path_.contains(y.node())) ++waiting[y.node()];
    for (const Node* c : on_path_) {
      for (int i = 0; i < c->num_inputs(); ++i)
        if (on_path_.contains(c->input(i).node)) ++waiting[c->input(i).node];
    }
    std::deque<const Node*> ready;
    auto deliver = [&](const Node* n) {
      auto it = waiting.find(n);
      if (it != waiting.end() && --it->second == 0) ready.push_back(n);
    };
    for (const Output& y : ys_) deliver(y.node());
    std::vector<const Node*> order;
    while (!ready.empty()) {
      const Node* n = ready.front();
      ready.pop_front();
      order.push_back(n);
      for (int i = 0; i < n->num_inputs(); ++i) deliver(n->input(i).node);
    }
    return order;
  }

  // The sum of the gradients that reached output k of n, or an empty Output.
  Output Sum(const Scope& s, const Node* n, int k) {
    auto it = pending_.find({n, k});
    if (it == pending_.end() || it->second.empty()) return Output();
    const auto& g = it->second;
    Output total = g.size() == 1 ? g[0] : Output(AddN(s, InputList(g)));
    summed_[{n, k}] = total;
    return total;
  }

  absl::Status Visit(const Scope& s, const Node* n) {
    std::vector<Output> grads(n->num_outputs());
    bool any = false;
    for (int k = 0; k < n->num_outputs(); ++k) {
      grads[k] = Sum(s, n, k);
      any |= grads[k].node() != nullptr;
    }
    if (!any || !scope_.ok()) return scope_.status();
    bool has_dep_input = false;
    for (int i = 0; i < n->num_inputs(); ++i)
      has_dep_input |=
          !n->input_is_ref(i) && depends_.contains({n->input(i).node, n->input(i).index});
    if (!has_dep_input) return absl::OkStatus();  // an input itself: nothing upstream
    const std::string& op = n->type_string();
    auto* reg = GradOpRegistry::Global();
    if (reg->IsNotDifferentiable(op)) return absl::OkStatus();
    const GradFunc* fn = reg->Lookup(op);
    if (fn == nullptr) {
      return errors::InvalidArgument("No gradient defined for op: ", op, " (node '", n->name(),
                                     "'); it lies between the outputs and the inputs asked for");
    }
    if (n->num_outputs() > 1) {
      for (int k = 0; k < n->num_outputs(); ++k)
        if (grads[k].node() == nullptr) grads[k] = ZerosLike(s, Output(const_cast<Node*>(n), k));
    }
    std::vector<Output> in_grads;
    RILL_RETURN_IF_ERROR(
        errors::Annotate((*fn)(s, Operation(const_cast<Node*>(n)), grads, &in_grads),
                         absl::StrCat("gradient of ", n->DebugName(), ": ")));
    RILL_RETURN_IF_ERROR(scope_.status());
    if (static_cast<int>(in_grads.size()) != n->num_inputs()) {
      return errors::Internal("gradient function of ", op, " returned ", in_grads.size(),
                              " gradients for ", n->num_inputs(), " inputs");
    }
    for (int i = 0; i < n->num_inputs(); ++i) {
      NodeOut in = n->input(i);
      if (in_grads[i].node() == nullptr || n->input_is_ref(i)) continue;
      if (!depends_.contains({in.node, in.index})) continue;
      pending_[{in.node, in.index}].push_back(in_grads[i]);
    }
    return absl::OkStatus();
  }

  const Scope& scope_;
  const std::vector<Output>& ys_;
  const std::vector<Output>& xs_;
  absl::flat_hash_set<const Node*> reaches_, on_path_;
  absl::flat_hash_set<OutKey> depends_;
  absl::flat_hash_map<OutKey, std::vector<Output>> pending_;
  absl::flat_hash_map<OutKey, Output> summed_;
};

absl::Status CheckOutputs(const std::vector<Output>& v, const char* what) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i].node() == nullptr) {
      return errors::InvalidArgument(what, "[", i, "] is empty (its op failed to build?)");
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  const std::vector<Output>& grad_inputs,
                                  std::vector<Output>* grad_outputs) {
  RILL_RETURN_IF_ERROR(scope.status());
  if (outputs.empty()) return errors::InvalidArgument("AddSymbolicGradients: no outputs");
  RILL_RETURN_IF_ERROR(CheckOutputs(outputs, "outputs"));
  RILL_RETURN_IF_ERROR(CheckOutputs(inputs, "inputs"));
  RILL_RETURN_IF_ERROR(CheckOutputs(grad_inputs, "grad_inputs"));
  if (grad_inputs.size() != outputs.size()) {
    return errors::InvalidArgument("AddSymbolicGradients: ", outputs.size(), " outputs but ",
                                   grad_inputs.size(), " grad_inputs");
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].type() != grad_inputs[i].type()) {
      return errors::InvalidArgument("grad_inputs[", i, "] has dtype ",
                                     DataTypeString(grad_inputs[i].type()), " but output '",
                                     outputs[i].name(), "' is ", DataTypeString(outputs[i].type()));
    }
  }
  for (const Output& x : inputs) {
    if (scope.graph()->FindNode(x.node()->name()) != x.node()) {
      return errors::InvalidArgument("input '", x.name(), "' belongs to another graph");
    }
  }
  Backprop bp(scope, outputs, inputs);
  std::vector<Output> result;
  RILL_RETURN_IF_ERROR(bp.Run(grad_inputs, &result));
  grad_outputs->insert(grad_outputs->end(), result.begin(), result.end());
  return absl::OkStatus();
}

Output OnesSeed(const Scope& scope, const Output& y) {
  // A loss of one element, as usual: a constant (on a GPU, uploaded once) rather than an
  // OnesLike kernel every step.
  auto known = y.shape().AsTensorShape();
  const DataType dt = y.type();
  const bool plain = dt == DT_FLOAT || dt == DT_DOUBLE || dt == DT_INT32 || dt == DT_INT64;
  if (!known.ok() || known->num_elements() != 1 || !plain) return OnesLike(scope, y);
  Tensor one(dt, *known);
  VisitDataType(dt, [&](auto tag) {
    using V = typename decltype(tag)::type;
    one.base<V>()[0] = static_cast<V>(1);
  });
  return Const(scope, Input::Initializer(one));
}

absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  std::vector<Output>* grad_outputs) {
  RILL_RETURN_IF_ERROR(scope.status());
  RILL_RETURN_IF_ERROR(CheckOutputs(outputs, "outputs"));
  std::vector<Output> ones;
  for (const Output& y : outputs) ones.push_back(OnesSeed(scope, y));
  RILL_RETURN_IF_ERROR(scope.status());
  return AddSymbolicGradients(scope, outputs, inputs, ones, grad_outputs);
}

}  // namespace rill::ops
