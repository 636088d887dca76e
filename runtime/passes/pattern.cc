#include "rill/runtime/passes/pattern.h"

#include <algorithm>

#include "rill/ops/array_ops.h"
#include "rill/ops/gradients.h"

namespace rill {
namespace {

// Ops whose two inputs may come in either order.
bool Commutative(const Node* n) {
  static const auto* kOps = new absl::flat_hash_set<std::string>{
      "Add", "AddV2", "AddN", "Mul", "Maximum", "Minimum", "Equal", "NotEqual"};
  return n->num_inputs() == 2 && kOps->contains(n->type_string());
}

}  // namespace

absl::StatusOr<std::unique_ptr<Pattern>> Pattern::Make(const Builder& build,
                                                       const std::vector<PatternInput>& inputs,
                                                       int gradient_of) {
  std::unique_ptr<Pattern> p(new Pattern());
  const Scope& s = p->scope_;
  for (const PatternInput& in : inputs) {
    p->params_.push_back(ops::Placeholder(s, in.dtype, ops::Placeholder::Shape(in.shape)));
  }
  p->roots_ = build(s, p->params_);
  if (gradient_of >= 0 && s.ok() && !p->roots_.empty()) {
    const Output& y = p->roots_[0];
    p->params_.push_back(ops::Placeholder(s, y.type(), ops::Placeholder::Shape(y.shape())));
    std::vector<Output> grads;
    RILL_RETURN_IF_ERROR(
        ops::AddSymbolicGradients(s, {y}, {p->params_[gradient_of]}, {p->params_.back()}, &grads));
    p->roots_.push_back(grads[0]);
  }
  RILL_RETURN_IF_ERROR(s.status());
  return p;
}

int Pattern::ParamIndex(const Node* n) const {
  for (size_t i = 0; i < params_.size(); ++i) {
    if (params_[i].node() == n) return static_cast<int>(i);
  }
  return -1;
}

bool PatternMatch::Match(const Output& root, NodeOut real) {
  const auto nodes = nodes_;
  const auto params = params_;
  Device* device = device_;
  if (MatchOutput(root, real)) return true;
  nodes_ = nodes;
  params_ = params;
  device_ = device;
  return false;
}

NodeOut PatternMatch::Bound(const Output& p) const {
  const int param = pattern_->ParamIndex(p.node());
  if (param >= 0) return params_[param];
  auto it = nodes_.find(p.node());
  if (it == nodes_.end()) return {nullptr, 0};
  return {const_cast<Node*>(it->second), p.index()};
}

std::vector<const Node*> PatternMatch::Covered() const {
  std::vector<const Node*> out;
  for (const auto& [p, r] : nodes_) out.push_back(r);
  std::sort(out.begin(), out.end(), [](const Node* a, const Node* b) { return a->id() < b->id(); });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool PatternMatch::MatchOutput(const Output& p, NodeOut r) {
  const int param = pattern_->ParamIndex(p.node());
  if (param >= 0) {
    if (params_[param].node != nullptr)
      return params_[param].node == r.node && params_[param].index == r.index;
    if (mode_ == Mode::kExact && r.node->output_type(r.index) != p.type()) return false;
    params_[param] = r;
    return true;
  }
  if (p.index() != r.index) return false;
  if (auto it = nodes_.find(p.node()); it != nodes_.end()) return it->second == r.node;
  return MatchNode(p.node(), r.node);
}

bool PatternMatch::MatchNode(const Node* p, const Node* r) {
  if (p->type_string() != r->type_string() || p->num_inputs() != r->num_inputs() || !Free(r) ||
      (mode_ == Mode::kExact && !SameAttrs(p, r))) {
    return false;
  }
  nodes_[p] = r;
  if (!Commutative(p)) return MatchInputs(p, r, false);
  const auto nodes = nodes_;
  const auto params = params_;
  Device* device = device_;
  if (MatchInputs(p, r, false)) return true;
  nodes_ = nodes;
  params_ = params;
  device_ = device;
  return MatchInputs(p, r, true);
}

bool PatternMatch::MatchInputs(const Node* p, const Node* r, bool swapped) {
  for (int i = 0; i < p->num_inputs(); ++i) {
    const NodeOut pin = p->input(swapped ? 1 - i : i);
    if (!MatchOutput(Output(pin.node, pin.index), r->input(i))) return false;
  }
  return true;
}

bool PatternMatch::SameAttrs(const Node* p, const Node* r) const {
  if (p->attrs().size() != r->attrs().size()) return false;
  for (auto a = p->attrs().begin(), b = r->attrs().begin(); a != p->attrs().end(); ++a, ++b) {
    std::string ka, kb;
    if (a->first != b->first || !AppendAttrKey(a->second, &ka) || !AppendAttrKey(b->second, &kb) ||
        ka != kb) {
      return false;
    }
  }
  return true;
}

bool PatternMatch::Free(const Node* r) {
  if (g_->fed.contains(r) || !r->control_inputs().empty() || r->op_def().is_stateful) return false;
  for (int i = 0; i < r->num_inputs(); ++i) {
    if (r->input_is_ref(i)) return false;
  }
  // The floating-point work shares one device, where the fused node runs; shape arithmetic
  // (Shape, Size, int casts, axis constants) may sit on the host as the placer put it.
  if (r->num_outputs() == 0 || !DataTypeIsFloating(r->output_type(0))) return true;
  Device* d = g_->DeviceOf(r);
  if (device_ == nullptr) device_ = d;
  return device_ == d;
}

}  // namespace rill
