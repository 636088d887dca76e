// Optimizer pass: composite rules, compositions of many plain ops that one of rill's
// kernels computes in one pass over memory.
//
// Each rule's composition is written once, as builder code (runtime/passes/pattern.h):
// Keras's losses and metrics are the functions Keras itself builds them with
// (runtime/keras/backend.h), and a gradient is what the gradient functions make of the
// forward composition. So the rules fire for whoever built the composition, Keras or a
// user writing the same ops:: by hand, and stay right when the gradient code changes.
// - categorical cross-entropy of probabilities (Keras's, for an output that is not a
//   softmax: scale rows to sum to 1, clip to [1e-7, 1 - 1e-7], -sum(y log q)) ->
//   _CategoricalCrossentropy, whose second output is the loss's gradient with respect to
//   the probabilities; where the plan holds that gradient (some 25 nodes of the backward
//   graph), it becomes that output times the upstream gradient.
// - Keras's categorical, sparse categorical and binary accuracy (argmax or threshold,
//   compare, cast, batch mean) -> _Accuracy.
// - the gradient of a Mean that reduces to one element (a loss's batch mean: reshape,
//   divide by the count, broadcast) -> _MeanAllGrad; with static shapes, where the count
//   is a constant, any BroadcastTo(Div(d, n), shape) of that meaning.
// A rule fires only when every node it takes over is free to fuse (PatternMatch says
// which), the fused op accepts the shapes (tried first in the pattern's own graph), and
// the device of the floating-point work has its kernel. The nodes a fused value makes
// dead are pruned; a value still read elsewhere stays computed, and so stays right.
// These rules run first, on the graph as the builders wrote it: folding and CSE rewrite
// the pieces they look for.
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/op_builder.h"
#include "rill/runtime/keras/backend.h"
#include "rill/runtime/passes/passes.h"
#include "rill/runtime/passes/pattern.h"

namespace rill {
namespace {

namespace kb = keras::backend;
using Mode = PatternMatch::Mode;

DataType TypeOf(NodeOut o) { return o.node->output_type(o.index); }
const PartialTensorShape& ShapeOf(NodeOut o) { return o.node->output_shape(o.index); }

bool OneElement(const PartialTensorShape& s) {
  absl::StatusOr<TensorShape> known = s.AsTensorShape();
  return known.ok() && known->num_elements() == 1;
}

double ScalarValue(const Tensor& t) {
  return t.dtype() == DT_FLOAT ? *static_cast<const float*>(t.data())
                               : *static_cast<const double*>(t.data());
}

bool ById(const Node* a, const Node* b) { return a->id() < b->id(); }

// What a root of the input graph becomes: the output standing for its output 0.
using Emit = std::function<absl::StatusOr<NodeOut>(GraphRewriter& rw)>;
using Rewrites = absl::flat_hash_map<const Node*, Emit>;

// A node of the new graph over `inputs` (of the new graph), standing for `covered`.
absl::StatusOr<Node*> AddFused(GraphRewriter& rw, std::string name, std::string op,
                               std::vector<NodeOut> inputs, AttrMap attrs, Device* device,
                               const std::vector<const Node*>& covered) {
  NodeSpec spec;
  spec.name = std::move(name);
  spec.op = std::move(op);
  spec.inputs = std::move(inputs);
  spec.attrs = std::move(attrs);
  std::vector<std::string> replaces;
  for (const Node* c : covered) {
    for (std::string& n : rw.NamesOf(*c)) replaces.push_back(std::move(n));
  }
  return rw.Add(std::move(spec), device, std::move(replaces));
}
// A helper node the fusion needs, under a fresh name made from `base`.
absl::StatusOr<Node*> AddNew(GraphRewriter& rw, const std::string& base, std::string op,
                             std::vector<NodeOut> inputs, AttrMap attrs, Device* device) {
  return AddFused(rw, rw.FreeName(base), std::move(op), std::move(inputs), std::move(attrs), device,
                  {});
}

// The plan nodes `bwd` covers beyond those of `fwd` (which it extends), but `keep`: the
// nodes a gradient's fused node stands for.
std::vector<const Node*> CoveredBeyond(const PatternMatch& bwd, const PatternMatch& fwd,
                                       const Node* keep = nullptr) {
  const std::vector<const Node*> forward = fwd.Covered();
  std::vector<const Node*> out;
  for (const Node* c : bwd.Covered()) {
    if (c != keep && !std::binary_search(forward.begin(), forward.end(), c, ById)) {
      out.push_back(c);
    }
  }
  return out;
}

// True when `op` over `inputs` (pattern outputs) builds in the pattern's graph: the
// fused op's shape function accepts what the plan's values are known to be.
bool Accepts(const Pattern& p, const std::string& op, const std::vector<Output>& inputs,
             const AttrMap& attrs) {
  Scope s = p.scope().NewSubScope("trial");
  ops::internal::NodeBuilder b(s, op);
  for (const Output& in : inputs) b.Input(in);
  for (const auto& [name, value] : attrs) b.Attr(name, value);
  b.Finalize();
  return s.ok();
}

// The first node of the graph from which `root` of `m`'s pattern matches, extending `m`.
std::optional<PatternMatch> MatchFrom(const PatternMatch& m, const PlanGraph& g,
                                      const Output& root) {
  for (int id = 0; id < g.graph->num_nodes(); ++id) {
    const Node* n = g.graph->node(id);
    if (n->type_string() != root.node()->type_string()) continue;
    PatternMatch next = m;
    if (next.Match(root, {const_cast<Node*>(n), root.index()}) && next.device() == m.device()) {
      return next;
    }
  }
  return std::nullopt;
}

// Builds `build` over inputs shaped as `skeleton`'s bound params: the exact pattern.
absl::StatusOr<std::unique_ptr<Pattern>> ExactPattern(const Pattern::Builder& build,
                                                      const PatternMatch& skeleton,
                                                      int gradient_of = -1) {
  std::vector<PatternInput> inputs;
  for (int i = 0; i < skeleton.num_params(); ++i) {
    inputs.push_back({TypeOf(skeleton.param(i)), ShapeOf(skeleton.param(i))});
  }
  return Pattern::Make(build, inputs, gradient_of);
}

void FindCrossentropy(const PlanGraph& g, Rewrites* out) {
  const Pattern::Builder build = [](const Scope& s, const std::vector<Output>& p) {
    return std::vector<Output>{kb::CategoricalCrossentropy(s, p[0], p[1])};  // (target, output)
  };
  auto skeleton = Pattern::Make(build, {{}, {}});
  if (!skeleton.ok()) return;
  const Output& root = (*skeleton)->roots()[0];
  for (int id = 0; id < g.graph->num_nodes(); ++id) {
    Node* loss = g.graph->node(id);
    if (loss->type_string() != root.node()->type_string()) continue;
    PatternMatch sk(**skeleton, g, Mode::kSkeleton);
    if (!sk.Match(root, {loss, 0})) continue;
    const DataType t = TypeOf(sk.param(1));
    if (!DataTypeIsFloating(t) || TypeOf(sk.param(0)) != t) continue;
    auto exact = ExactPattern(build, sk, /*gradient_of=*/1);
    if (!exact.ok()) continue;
    const Pattern& p = **exact;
    PatternMatch fwd(p, g, Mode::kExact);
    const AttrMap attrs = {{"T", t}, {"epsilon", kb::kEpsilon}};
    if (!fwd.Match(p.roots()[0], {loss, 0}) ||
        !Accepts(p, "_CategoricalCrossentropy", {p.params()[1], p.params()[0]}, attrs) ||
        !HasKernelFor("_CategoricalCrossentropy", attrs, fwd.device()->device_type())) {
      continue;
    }
    std::optional<PatternMatch> bwd = MatchFrom(fwd, g, p.roots()[1]);
    // One fused node for both roots, made by whichever the rewriter reaches first.
    auto fused = std::make_shared<Node*>(nullptr);
    Emit make = [=, covered = fwd.Covered()](GraphRewriter& rw) -> absl::StatusOr<NodeOut> {
      if (*fused == nullptr) {
        RILL_ASSIGN_OR_RETURN(*fused, AddFused(rw, loss->name(), "_CategoricalCrossentropy",
                                               {rw.Map(fwd.param(1)), rw.Map(fwd.param(0))}, attrs,
                                               fwd.device(), covered));
      }
      return NodeOut{*fused, 0};
    };
    (*out)[loss] = make;
    if (!bwd) continue;
    const Node* grad = bwd->Bound(p.roots()[1]).node;
    const std::vector<const Node*> covered = CoveredBeyond(*bwd, fwd);
    (*out)[grad] = [=](GraphRewriter& rw) -> absl::StatusOr<NodeOut> {
      RILL_ASSIGN_OR_RETURN(NodeOut x, make(rw));
      // d loss / d p = backprop * upstream[:, None], as _CategoricalCrossentropy's gradient.
      RILL_ASSIGN_OR_RETURN(
          Node * a, AddNew(rw, grad->name() + "/axis", "Const", {},
                           {{"dtype", DT_INT32}, {"value", Tensor(int32_t{1})}}, rw.input().host));
      RILL_ASSIGN_OR_RETURN(Node * e, AddNew(rw, grad->name() + "/expand", "ExpandDims",
                                             {rw.Map(bwd->param(2)), {a, 0}},
                                             {{"T", t}, {"Tdim", DT_INT32}}, bwd->device()));
      RILL_ASSIGN_OR_RETURN(Node * m, AddFused(rw, grad->name(), "Mul", {{e, 0}, {x.node, 1}},
                                               {{"T", t}}, bwd->device(), covered));
      return NodeOut{m, 0};
    };
  }
}

struct AccuracyRule {
  const char* kind;
  DataType skeleton_labels;
  bool rows;  // the output must be [batch, classes]
  Output (*build)(const Scope&, const Output& labels, const Output& output);
};

void FindAccuracy(const PlanGraph& g, Rewrites* out) {
  static constexpr AccuracyRule kRules[] = {
      {"categorical", DT_FLOAT, true, kb::CategoricalAccuracy},
      {"sparse_categorical", DT_INT64, true, kb::SparseCategoricalAccuracy},
      {"binary", DT_FLOAT, false, kb::BinaryAccuracy}};
  for (const AccuracyRule& rule : kRules) {
    const Pattern::Builder build = [&rule](const Scope& s, const std::vector<Output>& p) {
      return std::vector<Output>{rule.build(s, p[0], p[1])};
    };
    auto skeleton = Pattern::Make(build, {{rule.skeleton_labels, {}}, {}});
    if (!skeleton.ok()) continue;
    const Output& root = (*skeleton)->roots()[0];
    for (int id = 0; id < g.graph->num_nodes(); ++id) {
      Node* mean = g.graph->node(id);
      if (out->contains(mean) || mean->type_string() != root.node()->type_string()) continue;
      PatternMatch sk(**skeleton, g, Mode::kSkeleton);
      if (!sk.Match(root, {mean, 0})) continue;
      const PartialTensorShape& shape = ShapeOf(sk.param(1));
      const DataType t = TypeOf(sk.param(1));
      if (!DataTypeIsFloating(t) || shape.unknown_rank() || (rule.rows && shape.dims() != 2))
        continue;
      auto exact = ExactPattern(build, sk);
      if (!exact.ok()) continue;
      const Pattern& p = **exact;
      PatternMatch m(p, g, Mode::kExact);
      const AttrMap attrs = {
          {"T", t}, {"Tlabels", TypeOf(sk.param(0))}, {"kind", std::string(rule.kind)}};
      if (!m.Match(p.roots()[0], {mean, 0}) ||
          !Accepts(p, "_Accuracy", {p.params()[1], p.params()[0]}, attrs) ||
          !HasKernelFor("_Accuracy", attrs, m.device()->device_type())) {
        continue;
      }
      (*out)[mean] = [=, covered = m.Covered()](GraphRewriter& rw) -> absl::StatusOr<NodeOut> {
        RILL_ASSIGN_OR_RETURN(Node * n, AddFused(rw, mean->name(), "_Accuracy",
                                                 {rw.Map(m.param(1)), rw.Map(m.param(0))}, attrs,
                                                 m.device(), covered));
        return NodeOut{n, 0};
      };
    }
  }
}

void FindMeanGradient(const PlanGraph& g, Rewrites* out) {
  for (int id = 0; id < g.graph->num_nodes(); ++id) {
    Node* mean = g.graph->node(id);
    if (mean->type_string() != "Mean" || !DataTypeIsFloating(mean->output_type(0)) ||
        !OneElement(mean->output_shape(0))) {
      continue;
    }
    const Tensor* axis = mean->input(1).node->constant_value();
    if (axis == nullptr) continue;
    const Tensor axis_value = *axis;
    const bool keep = mean->attr<bool>("keep_dims");
    const Pattern::Builder build = [=](const Scope& s, const std::vector<Output>& p) {
      return std::vector<Output>{ops::Mean(s, p[0], axis_value, ops::Mean::KeepDims(keep))};
    };
    const NodeOut x = mean->input(0);
    auto exact = Pattern::Make(build, {{TypeOf(x), ShapeOf(x)}}, /*gradient_of=*/0);
    if (!exact.ok()) continue;
    const Pattern& p = **exact;
    const Output& grad_root = p.roots()[1];
    PatternMatch fwd(p, g, Mode::kExact);
    if (grad_root.node()->type_string() != "BroadcastTo" || !fwd.Match(p.roots()[0], {mean, 0})) {
      continue;
    }
    const Output shape(grad_root.node()->input(1).node, grad_root.node()->input(1).index);
    const AttrMap attrs = {{"T", mean->output_type(0)}, {"Tshape", shape.type()}};
    std::optional<PatternMatch> bwd = MatchFrom(fwd, g, grad_root);
    if (!bwd || !Accepts(p, "_MeanAllGrad", {p.params()[1], shape}, attrs) ||
        !HasKernelFor("_MeanAllGrad", attrs, bwd->device()->device_type())) {
      continue;
    }
    const Node* grad = bwd->Bound(grad_root).node;
    const NodeOut dy = bwd->param(1), real_shape = bwd->Bound(shape);
    // The gradient's nodes but the shape, which the fused node still reads.
    const std::vector<const Node*> covered = CoveredBeyond(*bwd, fwd, real_shape.node);
    (*out)[grad] = [=, device = bwd->device()](GraphRewriter& rw) -> absl::StatusOr<NodeOut> {
      RILL_ASSIGN_OR_RETURN(
          Node * n, AddFused(rw, grad->name(), "_MeanAllGrad", {rw.Map(dy), rw.Map(real_shape)},
                             attrs, device, covered));
      return NodeOut{n, 0};
    };
  }
}

// With static shapes the gradient no longer reads the Mean (which pruning then drops):
// what is left is BroadcastTo(Div(d, n), shape) with constants n and shape, which is
// _MeanAllGrad's definition whenever d has one element and n is the element count of
// shape, whoever wrote it.
void FindConstantCountGradient(const PlanGraph& g, Rewrites* out) {
  for (int id = 0; id < g.graph->num_nodes(); ++id) {
    Node* b = g.graph->node(id);
    if (b->type_string() != "BroadcastTo" || out->contains(b) || g.fed.contains(b) ||
        !b->control_inputs().empty()) {
      continue;
    }
    const Node* div = b->input(0).node;
    const Tensor* shape = b->input(1).node->constant_value();
    if (div->type_string() != "Div" || g.fed.contains(div) || !div->control_inputs().empty() ||
        shape == nullptr || !OneElement(ShapeOf(div->input(0))) ||
        g.DeviceOf(div) != g.DeviceOf(b)) {
      continue;
    }
    const Tensor* n = div->input(1).node->constant_value();
    const DataType t = b->output_type(0);
    absl::StatusOr<TensorShape> x = shape_fns::ShapeFromTensor(*shape, "shape");
    const AttrMap attrs = {{"T", t}, {"Tshape", shape->dtype()}};
    if (!DataTypeIsFloating(t) || n == nullptr || n->dtype() != t || n->NumElements() != 1 ||
        !x.ok() || ScalarValue(*n) != static_cast<double>(x->num_elements()) ||
        !HasKernelFor("_MeanAllGrad", attrs, g.DeviceOf(b)->device_type())) {
      continue;
    }
    const NodeOut dy = div->input(0), real_shape = b->input(1);
    (*out)[b] = [=, device = g.DeviceOf(b)](GraphRewriter& rw) -> absl::StatusOr<NodeOut> {
      RILL_ASSIGN_OR_RETURN(
          Node * m, AddFused(rw, b->name(), "_MeanAllGrad", {rw.Map(dy), rw.Map(real_shape)}, attrs,
                             device, {div, b}));
      return NodeOut{m, 0};
    };
  }
}

}  // namespace

absl::StatusOr<PlanGraph> FuseComposites(const PlanGraph& in) {
  Rewrites at;
  FindCrossentropy(in, &at);
  FindAccuracy(in, &at);
  FindMeanGradient(in, &at);
  FindConstantCountGradient(in, &at);
  GraphRewriter rw(in, "composite rules");
  return rw.Run([&](const Node& old, GraphRewriter& rw) -> absl::StatusOr<bool> {
    auto it = at.find(&old);
    if (it == at.end()) return false;
    RILL_ASSIGN_OR_RETURN(NodeOut n, it->second(rw));
    rw.Replace(old, {n}, {n.node});
    return true;
  });
}

}  // namespace rill
