// Patterns written as builder code, for the optimizer's composite rules.
//
// A rule that fuses a composition of many plain ops (a loss, a metric, a gradient) does
// not spell the composition out node by node: it builds it, with the same ops:: code a
// user or Keras would write, over Placeholders that stand for its inputs, in a scratch
// graph of its own, and, for a gradient, differentiates it there with the same gradient
// functions that made the plan's backward graph. A PatternMatch then walks the pattern
// and the plan's graph side by side from a root. So a rule follows the gradient code when
// it changes, and a composition the rule does not know is left alone: a failed match
// never changes the graph.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "rill/ops/scope.h"
#include "rill/runtime/passes/plan_graph.h"

namespace rill {

struct PatternInput {
  DataType dtype = DT_FLOAT;
  PartialTensorShape shape;  // unknown rank unless given
};

class Pattern {
 public:
  // The roots of the composition over `params`, the Placeholders of the pattern's inputs.
  using Builder =
      std::function<std::vector<Output>(const Scope& s, const std::vector<Output>& params)>;

  // Builds `build` over Placeholders of `inputs`. With `gradient_of` >= 0, also builds the
  // gradient of roots()[0] with respect to params[gradient_of], given an upstream
  // gradient that is one more param (shaped as roots()[0]), and appends it to roots().
  static absl::StatusOr<std::unique_ptr<Pattern>> Make(const Builder& build,
                                                       const std::vector<PatternInput>& inputs,
                                                       int gradient_of = -1);

  const std::vector<Output>& roots() const { return roots_; }
  const std::vector<Output>& params() const { return params_; }
  // The param index of a pattern node, or -1.
  int ParamIndex(const Node* n) const;
  // A scratch scope in the pattern's graph, where a rule can try building its fused node
  // over params() to learn whether the op accepts these shapes before it rewrites.
  const Scope& scope() const { return scope_; }

 private:
  Pattern() : scope_(Scope::NewRootScope()) {}
  Scope scope_;
  std::vector<Output> params_;
  std::vector<Output> roots_;
};

class PatternMatch {
 public:
  // kSkeleton compares ops and edges only (to find the inputs, whose dtypes and shapes
  // the exact pattern is then built with); kExact compares attributes and constants too.
  enum class Mode { kSkeleton, kExact };
  PatternMatch(const Pattern& pattern, const PlanGraph& g, Mode mode)
      : pattern_(&pattern), g_(&g), mode_(mode) {
    params_.resize(pattern.params().size());
  }

  // True when the pattern's `root` computes the value `real` holds, every node it covers
  // being free to fuse: unfed, stateless, not reading a variable by reference, without
  // control inputs, and those of floating-point outputs on one device, device().
  // Binds what it covers; on false nothing changes.
  bool Match(const Output& root, NodeOut real);
  // The plan-graph output param i is bound to ({nullptr, 0} when unbound).
  NodeOut param(int i) const { return params_[i]; }
  int num_params() const { return static_cast<int>(params_.size()); }
  // The plan-graph output a covered pattern output is bound to.
  NodeOut Bound(const Output& pattern_output) const;
  // The plan-graph nodes covered (params excluded), in id order.
  std::vector<const Node*> Covered() const;
  // The device of the covered floating-point nodes (nullptr when none).
  Device* device() const { return device_; }

 private:
  bool MatchOutput(const Output& p, NodeOut r);
  bool MatchNode(const Node* p, const Node* r);
  bool MatchInputs(const Node* p, const Node* r, bool swapped);
  bool SameAttrs(const Node* p, const Node* r) const;
  bool Free(const Node* r);

  const Pattern* pattern_;
  const PlanGraph* g_;
  Mode mode_;
  absl::flat_hash_map<const Node*, const Node*> nodes_;  // pattern node -> plan node
  std::vector<NodeOut> params_;
  Device* device_ = nullptr;
};

}  // namespace rill
