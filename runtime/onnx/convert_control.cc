// ONNX's If, Loop and Scan as rill's If and While (ops/control_flow_ops.h). Each subgraph becomes
// a function; the outer values it reads become arguments (captures), passed by the node.
// If's branches take the same captures (the union of both's); an If whose condition the
// graph already knows becomes its branch's nodes. Loop becomes a While whose
// loop variables are (iteration, trip limit, condition, ONNX's loop-carried values,
// one accumulator per scan output, captures): the body adds one to the iteration and
// appends each scan output to its accumulator, stacked along a new first axis. Scan is a
// While over its scan inputs' length whose body reads each input's slice at the iteration.
#include <algorithm>
#include <limits>
#include <set>

#include "absl/strings/match.h"
#include "rill/core/function.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/control_flow_ops.h"
#include "rill/ops/gather_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/runtime/onnx/converter.h"
#include "rill/runtime/onnx/known_values.h"

namespace rill::onnx::internal {
namespace {

const ::onnx::GraphProto* GraphAttr(const NodeAttrs& attrs, const char* name) {
  const ::onnx::AttributeProto* a = attrs.get(name);
  return a != nullptr && a->has_g() ? &a->g() : nullptr;
}

std::string IfSupport(const SupportView& v) {
  for (const char* b : {"then_branch", "else_branch"}) {
    const ::onnx::GraphProto* g = GraphAttr(v.attrs, b);
    if (g == nullptr) return absl::StrCat("no '", b, "' graph");
    if (g->output_size() != v.node.output_size()) {
      return absl::StrCat("'", b, "' has ", g->output_size(), " outputs for the node's ",
                          v.node.output_size());
    }
  }
  return "";
}

// The names `g` reads from graphs around it, in the order it first reads them: read by a
// node (or a subgraph of one) or an output before anything in `g` defines them. Found from
// the protobuf alone, so a subgraph is converted once (converting it to find them would
// double the work at every level of nesting).
void FreeNames(const ::onnx::GraphProto& g, std::vector<std::string>* names) {
  std::set<std::string> defined;
  for (const auto& in : g.input()) defined.insert(in.name());
  for (const auto& t : g.initializer()) defined.insert(t.name());
  auto use = [&](const std::string& name) {
    if (!name.empty() && !defined.count(name) &&
        std::find(names->begin(), names->end(), name) == names->end()) {
      names->push_back(name);
    }
  };
  for (const auto& n : g.node()) {
    for (const auto& in : n.input()) use(in);
    for (const auto& a : n.attribute()) {
      if (!a.has_g()) continue;
      std::vector<std::string> inner;
      FreeNames(a.g(), &inner);
      for (const std::string& name : inner) use(name);
    }
    for (const auto& o : n.output()) defined.insert(o);
  }
  for (const auto& o : g.output()) use(o.name());
}

// A branch as a function of the captures `names` brings in (outer constants are copied
// instead, so both branches take the same list).
absl::StatusOr<FunctionRef> Branch(NodeContext& c, const char* which,
                                   const std::vector<std::string>& names,
                                   std::vector<Capture>* caps) {
  Scope root = Scope::NewRootScope();
  RILL_ASSIGN_OR_RETURN(
      std::vector<Output> outs,
      c.subgraphs()->Convert(*GraphAttr(c.attrs(), which), root, {}, names, caps));
  std::vector<Node*> args;
  for (const Capture& k : *caps) {
    args.push_back(k.inner.node());
  }
  std::vector<NodeOut> rets;
  for (const Output& o : outs) rets.push_back({o.node(), o.index()});
  return Function::Create(absl::StrCat(c.node().name(), "/", which), root.graph_as_shared_ptr(),
                          args, rets);
}

// An If whose condition the graph knows (a PyTorch export's shape check on dims the graph
// knows): the chosen branch's nodes go into this graph, with no If at run time.
absl::Status InlineBranch(NodeContext& c, bool which) {
  std::vector<Capture> none;
  RILL_ASSIGN_OR_RETURN(
      std::vector<Output> outs,
      c.subgraphs()->Convert(*GraphAttr(c.attrs(), which ? "then_branch" : "else_branch"),
                             c.scope(), {}, {}, &none));
  for (size_t i = 0; i < outs.size(); ++i) c.set_output(static_cast<int>(i), outs[i]);
  return absl::OkStatus();
}

absl::Status ConvertIf(NodeContext& c) {
  if (c.subgraphs() == nullptr) return c.Error("subgraphs cannot be converted here");
  if (std::optional<KnownValue> k = Evaluate(c.input(0));
      k && k->elements.size() == 1 && k->elements[0]) {
    return InlineBranch(c, *k->elements[0] != 0);
  }
  std::vector<std::string> names;
  for (const char* b : {"then_branch", "else_branch"}) FreeNames(*GraphAttr(c.attrs(), b), &names);
  std::vector<Capture> then_caps, else_caps;
  RILL_ASSIGN_OR_RETURN(FunctionRef then_f, Branch(c, "then_branch", names, &then_caps));
  RILL_ASSIGN_OR_RETURN(FunctionRef else_f, Branch(c, "else_branch", names, &else_caps));
  // ONNX's cond is a one-element tensor (TensorFlow's rule would call [false] true).
  std::vector<Output> inputs = {c.Op("Reshape", {c.input(0), c.Int32s({})})};
  for (size_t i = 0; i < then_caps.size(); ++i) {
    if (i >= else_caps.size() || else_caps[i].name != then_caps[i].name) {
      return c.Error("the branches capture different values");
    }
    inputs.push_back(then_caps[i].outer);
  }
  const Operation op =
      c.OpNode("If", inputs,
               {{"Tout", then_f->ret_types()}, {"then_branch", then_f}, {"else_branch", else_f}});
  RILL_RETURN_IF_ERROR(c.scope().status());
  for (int i = 0; i < op.num_outputs(); ++i) c.set_output(i, Output(op.node(), i));
  return absl::OkStatus();
}

std::string LoopSupport(const SupportView& v) {
  const ::onnx::GraphProto* g = GraphAttr(v.attrs, "body");
  if (g == nullptr) return "no 'body' graph";
  const int n = v.node.input_size() - 2;
  if (n < 0 || g->input_size() != n + 2 || g->output_size() < n + 1 ||
      v.node.output_size() > g->output_size() - 1) {
    return absl::StrCat("the body's ", g->input_size(), " inputs and ", g->output_size(),
                        " outputs do not fit the node's ", v.node.input_size(), " inputs and ",
                        v.node.output_size(), " outputs");
  }
  return "";
}

// What a Loop's While carries: the dtypes and shapes of its loop variables.
struct LoopVars {
  int n = 0;  // ONNX's loop-carried values
  std::vector<DataType> types;
  std::vector<PartialTensorShape> shapes;
};

// One accumulator loop variable per body output from `first` on: each iteration appends the
// output to it along a new first axis.
void AddAccumulators(const Scope& root, const std::vector<Output>& outs, size_t first,
                     std::vector<Output>* args, std::vector<Output>* rets, LoopVars* vars) {
  for (size_t j = first; j < outs.size(); ++j) {
    auto acc = ops::Placeholder(root.WithOpName(absl::StrCat("scan", j)), outs[j].type());
    args->push_back(acc);
    rets->push_back(AppendAlongNewAxis(root, acc, outs[j]));
    vars->types.push_back(outs[j].type());
    vars->shapes.emplace_back();
  }
}

// Ends a While body: the values in `carried` (passed on unchanged) and then the captures'
// become loop variables after `args` and `rets`, and the body is made. *outer gets the
// captured outer values.
absl::StatusOr<FunctionRef> FinishBody(const NodeContext& c, const Scope& root,
                                       std::vector<Output> args, std::vector<Output> rets,
                                       const std::vector<Output>& carried,
                                       const std::vector<Capture>& caps, LoopVars* vars,
                                       std::vector<Output>* outer) {
  std::vector<Output> passed = carried;
  outer->clear();
  for (const Capture& k : caps) {
    passed.push_back(k.inner);
    outer->push_back(k.outer);
  }
  for (const Output& v : passed) {
    args.push_back(v);
    rets.push_back(v);
    vars->types.push_back(v.type());
    vars->shapes.push_back(v.shape());
  }
  RILL_RETURN_IF_ERROR(root.status());
  std::vector<Node*> arg_nodes;
  for (const Output& a : args) arg_nodes.push_back(a.node());
  std::vector<NodeOut> ret_outs;
  for (const Output& r : rets) ret_outs.push_back({r.node(), r.index()});
  return Function::Create(absl::StrCat(c.node().name(), "/body"), root.graph_as_shared_ptr(),
                          arg_nodes, ret_outs);
}

// The While's body for `vars` (ONNX's loop-carried values first, with the shapes given):
// args (i, m, cond, v..., acc..., captures...); fills vars' accumulator and capture
// entries, *outer with the captured values.
absl::StatusOr<FunctionRef> LoopBody(NodeContext& c, const std::vector<std::string>& names,
                                     LoopVars* vars, std::vector<Output>* outer) {
  const ::onnx::GraphProto& g = *GraphAttr(c.attrs(), "body");
  Scope root = Scope::NewRootScope();
  std::vector<Output> args = {
      ops::Placeholder(root.WithOpName("iteration"), DT_INT64,
                       ops::Placeholder::Shape(TensorShape())),
      ops::Placeholder(root.WithOpName("trip_count"), DT_INT64,
                       ops::Placeholder::Shape(TensorShape())),
      ops::Placeholder(root.WithOpName("cond"), DT_BOOL, ops::Placeholder::Shape(TensorShape()))};
  std::map<std::string, Output> bound = {{g.input(0).name(), args[0]},
                                         {g.input(1).name(), args[2]}};
  for (int k = 0; k < vars->n; ++k) {
    args.push_back(ops::Placeholder(root.WithOpName(absl::StrCat("v", k)), vars->types[3 + k],
                                    ops::Placeholder::Shape(vars->shapes[3 + k])));
    bound[g.input(2 + k).name()] = args.back();
  }
  std::vector<Capture> caps;
  RILL_ASSIGN_OR_RETURN(std::vector<Output> outs,
                        c.subgraphs()->Convert(g, root, bound, names, &caps));
  std::vector<Output> rets = {ops::Add(root, args[0], int64_t{1}), args[1],
                              ops::Reshape(root, outs[0], Tensor(DT_INT32, TensorShape({0})))};
  for (int k = 0; k < vars->n; ++k) rets.push_back(outs[1 + k]);
  vars->types.resize(3 + vars->n);
  vars->shapes.resize(3 + vars->n);
  AddAccumulators(root, outs, 1 + vars->n, &args, &rets, vars);
  return FinishBody(c, root, std::move(args), std::move(rets), {}, caps, vars, outer);
}

// (iteration < trip count) and cond.
absl::StatusOr<FunctionRef> LoopCond(const NodeContext& c, const LoopVars& vars) {
  return ops::MakeFunction(
      absl::StrCat(c.node().name(), "/cond"), vars.types, vars.shapes,
      [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
        r->push_back(ops::LogicalAnd(s, ops::Less(s, a[0], a[1]), a[2]));
        return s.status();
      });
}

absl::Status ConvertLoop(NodeContext& c) {
  if (c.subgraphs() == nullptr) return c.Error("subgraphs cannot be converted here");
  LoopVars vars;
  vars.n = c.num_inputs() - 2;
  vars.types = {DT_INT64, DT_INT64, DT_BOOL};
  vars.shapes = {PartialTensorShape(TensorShape()), PartialTensorShape(TensorShape()),
                 PartialTensorShape(TensorShape())};
  for (int k = 0; k < vars.n; ++k) {
    vars.types.push_back(c.input(2 + k).type());
    vars.shapes.push_back(c.input(2 + k).shape());
  }
  std::vector<std::string> names;
  FreeNames(*GraphAttr(c.attrs(), "body"), &names);
  FunctionRef body;
  std::vector<Output> outer;
  // Shapes relaxed until the body's values fit its arguments: once to what the first build
  // and the initial values share, then (rarely) to unknown shapes, which always fit. At
  // most three builds, so nested loops cannot multiply the work without bound.
  for (int pass = 0;; ++pass) {
    LoopVars tried = vars;
    RILL_ASSIGN_OR_RETURN(body, LoopBody(c, names, &tried, &outer));
    bool settled = true;
    for (int k = 0; k < vars.n; ++k) {
      const PartialTensorShape common =
          ops::CommonShape(vars.shapes[3 + k], body->ret_shape(3 + k));
      const PartialTensorShape relaxed =
          pass == 0 || common == vars.shapes[3 + k] ? common : PartialTensorShape();
      settled = settled && relaxed == vars.shapes[3 + k];
      vars.shapes[3 + k] = relaxed;
    }
    if (settled) {
      vars = std::move(tried);
      break;
    }
  }
  RILL_ASSIGN_OR_RETURN(FunctionRef cond, LoopCond(c, vars));
  const Output no_limit = c.Const(Tensor(std::numeric_limits<int64_t>::max()));
  std::vector<Output> inputs = {
      c.Const(Tensor(int64_t{0})),
      c.has_input(0) ? c.Op("Reshape", {c.input(0), c.Int32s({})}) : no_limit,
      c.has_input(1) ? c.Op("Reshape", {c.input(1), c.Int32s({})}) : c.Const(Tensor(true))};
  for (int k = 0; k < vars.n; ++k) inputs.push_back(c.input(2 + k));
  for (size_t j = 3 + vars.n; j < vars.types.size() - outer.size(); ++j) {
    inputs.push_back(c.Const(Tensor(vars.types[j], TensorShape({0}))));
  }
  inputs.insert(inputs.end(), outer.begin(), outer.end());
  const Operation op = c.OpNode("While", inputs, {{"cond", cond}, {"body", body}});
  RILL_RETURN_IF_ERROR(c.scope().status());
  for (int i = 0; i < c.node().output_size(); ++i) c.set_output(i, Output(op.node(), 3 + i));
  return absl::OkStatus();
}

// Scan (opset 9 on; opset 8's batched form is not converted): N states and M scan inputs,
// a body of N + M inputs (the states, then one slice of each scan input) and N + K outputs
// (the new states, then one element of each scan output).
std::string ScanSupport(const SupportView& v) {
  const ::onnx::GraphProto* g = GraphAttr(v.attrs, "body");
  if (g == nullptr) return "no 'body' graph";
  const int64_t m = v.attrs.i("num_scan_inputs", -1), n = v.node.input_size() - m;
  if (m < 1 || n < 0) return absl::StrCat("num_scan_inputs ", m, " of ", v.node.input_size());
  if (g->input_size() != v.node.input_size() || g->output_size() < n ||
      v.node.output_size() > g->output_size()) {
    return absl::StrCat("the body's ", g->input_size(), " inputs and ", g->output_size(),
                        " outputs do not fit the node's ", v.node.input_size(), " inputs and ",
                        v.node.output_size(), " outputs");
  }
  const int64_t k = g->output_size() - n;
  for (auto [name, count] : {std::pair<const char*, int64_t>{"scan_input_axes", m},
                             {"scan_input_directions", m},
                             {"scan_output_axes", k},
                             {"scan_output_directions", k}}) {
    const std::vector<int64_t> vals = v.attrs.ints(name);
    if (v.attrs.has(name) && static_cast<int64_t>(vals.size()) != count) {
      return absl::StrCat(name, " has ", vals.size(), " values for ", count);
    }
    const bool directions = absl::StrContains(name, "directions");
    for (int64_t x : vals) {
      if (directions && x != 0 && x != 1) return absl::StrCat(name, " holds ", x);
    }
  }
  return "";
}

// One of Scan's per-input or per-output attributes, 0 where it is absent.
int64_t ScanAttr(const NodeContext& c, const char* name, int i) {
  const std::vector<int64_t> v = c.attrs().ints(name);
  return i < static_cast<int>(v.size()) ? v[i] : 0;
}

// Scan's While body: args (i, T, states..., accumulators..., scan inputs..., captures...).
// Each scan input is read at i (or T - 1 - i in reverse) along its axis.
absl::StatusOr<FunctionRef> ScanBody(NodeContext& c, const std::vector<std::string>& names, int n,
                                     int m, LoopVars* vars, std::vector<Output>* outer,
                                     std::vector<int64_t>* element_ranks) {
  const ::onnx::GraphProto& g = *GraphAttr(c.attrs(), "body");
  Scope root = Scope::NewRootScope();
  auto arg = [&](const std::string& name, size_t at) {
    return Output(ops::Placeholder(root.WithOpName(name), vars->types[at],
                                   ops::Placeholder::Shape(vars->shapes[at])));
  };
  std::vector<Output> args = {arg("iteration", 0), arg("trip_count", 1)};
  std::map<std::string, Output> bound;
  for (int s = 0; s < n; ++s) {
    args.push_back(arg(absl::StrCat("state", s), 2 + s));
    bound[g.input(s).name()] = args.back();
  }
  const int k = g.output_size() - n;
  std::vector<Output> inputs;
  for (int j = 0; j < m; ++j) {
    inputs.push_back(arg(absl::StrCat("scan_input", j), 2 + n + k + j));
    const int64_t axis = NormalizeAxis(ScanAttr(c, "scan_input_axes", j), RankOf(inputs[j]));
    if (axis < 0) {
      return c.Error("scan input ", j, " has no axis ", ScanAttr(c, "scan_input_axes", j));
    }
    const Output at = ScanAttr(c, "scan_input_directions", j) == 0
                          ? args[0]
                          : ops::Sub(root, ops::Sub(root, args[1], int64_t{1}), args[0]);
    bound[g.input(n + j).name()] = ops::GatherV2(root, inputs[j], at, axis);
  }
  std::vector<Capture> caps;
  RILL_ASSIGN_OR_RETURN(std::vector<Output> outs,
                        c.subgraphs()->Convert(g, root, bound, names, &caps));
  std::vector<Output> rets = {ops::Add(root, args[0], int64_t{1}), args[1]};
  for (int s = 0; s < n; ++s) rets.push_back(outs[s]);
  vars->types.resize(2 + n);
  vars->shapes.resize(2 + n);
  element_ranks->clear();
  for (int j = 0; j < k; ++j) element_ranks->push_back(RankOf(outs[n + j]));
  AddAccumulators(root, outs, n, &args, &rets, vars);
  return FinishBody(c, root, std::move(args), std::move(rets), inputs, caps, vars, outer);
}

// A scan output as ONNX places it: the elements stacked along a new first axis, reversed
// for a reverse direction, then that axis moved to scan_output_axes.
// `element_rank`: the rank of the body's output (-1 unknown).
absl::StatusOr<Output> PlaceScanOutput(NodeContext& c, Output stacked, int j,
                                       int64_t element_rank) {
  if (ScanAttr(c, "scan_output_directions", j) == 1) {
    stacked = c.Op("ReverseV2", {stacked, c.Int32s({0})});
  }
  const int64_t rank = element_rank < 0 ? -1 : element_rank + 1;
  const int64_t given = ScanAttr(c, "scan_output_axes", j);
  if (given == 0) return stacked;
  const int64_t axis = NormalizeAxis(given, rank);
  if (axis < 0) return c.Error("scan output ", j, " of rank ", rank, " has no axis ", given);
  std::vector<int64_t> perm;
  for (int64_t d = 1; d <= axis; ++d) perm.push_back(d);
  perm.push_back(0);
  for (int64_t d = axis + 1; d < rank; ++d) perm.push_back(d);
  return c.Op("Transpose", {stacked, c.Int32s(perm)});
}

// Scan's loop variables before its body is built: (i, T, the N states, K accumulators
// whose types the body decides, the M scan inputs).
LoopVars ScanVars(const NodeContext& c, int n, int m, int k) {
  LoopVars vars;
  vars.types = {DT_INT64, DT_INT64};
  vars.shapes = {PartialTensorShape(TensorShape()), PartialTensorShape(TensorShape())};
  for (int i = 0; i < n + k + m; ++i) {
    const bool acc = i >= n && i < n + k;
    vars.types.push_back(acc ? DT_FLOAT : c.input(i < n ? i : i - k).type());
    vars.shapes.push_back(acc ? PartialTensorShape() : c.input(i < n ? i : i - k).shape());
  }
  return vars;
}

absl::Status ConvertScan(NodeContext& c) {
  if (c.subgraphs() == nullptr) return c.Error("subgraphs cannot be converted here");
  const int m = static_cast<int>(c.attrs().i("num_scan_inputs", 1)), n = c.num_inputs() - m;
  const int k = GraphAttr(c.attrs(), "body")->output_size() - n;
  LoopVars vars = ScanVars(c, n, m, k);
  std::vector<std::string> names;
  FreeNames(*GraphAttr(c.attrs(), "body"), &names);
  std::vector<Output> outer;
  std::vector<int64_t> ranks;  // of each scan output's elements
  LoopVars built = vars;
  RILL_ASSIGN_OR_RETURN(FunctionRef body, ScanBody(c, names, n, m, &built, &outer, &ranks));
  // States whose shape the body changes are carried with unknown shapes.
  bool settled = true;
  for (int s = 0; s < n; ++s) {
    if (ops::CommonShape(vars.shapes[2 + s], body->ret_shape(2 + s)) != vars.shapes[2 + s]) {
      vars.shapes[2 + s] = PartialTensorShape();
      settled = false;
    }
  }
  if (!settled) {
    built = vars;
    RILL_ASSIGN_OR_RETURN(body, ScanBody(c, names, n, m, &built, &outer, &ranks));
  }
  RILL_ASSIGN_OR_RETURN(
      FunctionRef cond,
      ops::MakeFunction(absl::StrCat(c.node().name(), "/cond"), built.types, built.shapes,
                        [](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) {
                          r->push_back(ops::Less(s, a[0], a[1]));
                          return s.status();
                        }));
  const Output first = c.input(n);
  const int64_t axis0 = NormalizeAxis(ScanAttr(c, "scan_input_axes", 0), RankOf(first));
  if (axis0 < 0) return c.Error("scan input 0 has no axis ", ScanAttr(c, "scan_input_axes", 0));
  const Output length =
      c.Op("Reshape", {c.Op("Slice", {c.Op("Shape", {first}, {{"out_type", DT_INT64}}),
                                      c.Int64s({axis0}), c.Int64s({1})}),
                       c.Int32s({})});
  std::vector<Output> inputs = {c.Const(Tensor(int64_t{0})), length};
  for (int s = 0; s < n; ++s) inputs.push_back(c.input(s));
  for (int j = 0; j < k; ++j)
    inputs.push_back(c.Const(Tensor(built.types[2 + n + j], TensorShape({0}))));
  for (int j = 0; j < m; ++j) inputs.push_back(c.input(n + j));
  inputs.insert(inputs.end(), outer.begin(), outer.end());
  const Operation op = c.OpNode("While", inputs, {{"cond", cond}, {"body", body}});
  RILL_RETURN_IF_ERROR(c.scope().status());
  for (int i = 0; i < c.node().output_size(); ++i) {
    Output out(op.node(), 2 + i);
    if (i >= n) {
      RILL_ASSIGN_OR_RETURN(out, PlaceScanOutput(c, out, i - n, ranks[i - n]));
    }
    c.set_output(i, out);
  }
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertControlRegistered = [] {
  auto* r = ConverterRegistry::Global();
  r->Register({"If", 1, IfSupport, ConvertIf});
  r->Register({"Loop", 1, LoopSupport, ConvertLoop});
  r->Register({"Scan", 8,
               [](const SupportView&) -> std::string {
                 return "opset 8's Scan (a batch axis and sequence_lens) is not converted";
               },
               [](NodeContext& c) { return c.Error("opset 8's Scan is not converted"); }});
  r->Register({"Scan", 9, ScanSupport, ConvertScan});
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
