// While's gradient (the approach: ops/control_flow_grad.cc's opening), built in four steps:
//  1. The loop variables: those differentiated (numeric), those the record logs before
//     each iteration (the ones the body changes) and those the backward loop takes as they
//     came in (the rest: weights a loop reads).
//  2. A first backward step: it reads iteration i's variables from their logs, runs the
//     body again on them and differentiates that copy. The body values its gradient nodes
//     read (a Tanh's output, a MatMul's operands) are what running the body again is for.
//  3. The record: the loop run again with its body also returning those values, which it
//     logs after each iteration, as TensorFlow's while_v2 accumulates intermediates.
//  4. The backward step made again from the first with those values read from their logs:
//     the backward loop runs the body's gradient, not the body.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/control_flow_ops.h"
#include "rill/ops/function_grad.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill::ops {
namespace {

// The body's ret k is its arg k, maybe through Identity nodes: a variable the loop never
// changes.
bool PassesThrough(const Function& body, int k) {
  const Node* n = body.rets()[k].node;
  while (n->type_string() == "Identity") n = n->input(0).node;
  return n == body.args()[k];
}

// How the backward loop sees a While's variables: `diff` are differentiated, `recorded`
// logged by the record, `fixed` passed through by the body.
struct LoopVars {
  std::vector<int> diff, recorded, fixed;
};

// One log of the record: of a loop variable or of a body value.
struct Log {
  DataType dtype;
  PartialTensorShape shape;  // of each value
};

// The backward loop's variables: i, the gradients of `diff`, each log's values, each
// log's layout, the `fixed` values.
struct StepSignature {
  std::vector<DataType> types{DT_INT64};
  std::vector<PartialTensorShape> shapes{PartialTensorShape({})};
  void Add(DataType dt, const PartialTensorShape& shape) {
    types.push_back(dt);
    shapes.push_back(shape);
  }
};

StepSignature Signature(const Function& body, const LoopVars& vars, const std::vector<Log>& logs) {
  StepSignature sig;
  for (int j : vars.diff) sig.Add(body.arg_type(j), body.arg_shape(j));
  for (const Log& l : logs) sig.Add(l.dtype, PartialTensorShape({-1}));
  for (const Log& l : logs) {
    sig.Add(DT_INT64, LogLayoutShape(l.shape));
  }
  for (int k : vars.fixed) sig.Add(body.arg_type(k), body.arg_shape(k));
  return sig;
}

// Value i of a log, of the static `shape`.
Output LoggedValue(const Scope& s, const Output& values, const Output& layout, const Output& i,
                   const PartialTensorShape& shape) {
  return Output(internal::NodeBuilder(s, "_LogRead")
                    .Input(values)
                    .Input(layout)
                    .Input(i)
                    .Attr("shape", shape)
                    .Finalize()
                    .node());
}

// Step 2: the backward step that runs the body again on iteration i's variables and
// differentiates it; *inlined receives the body's copy.
absl::StatusOr<FunctionRef> FirstStep(const std::string& name, const FunctionRef& body,
                                      const LoopVars& vars, InlinedFunction* inlined) {
  std::vector<Log> logs;
  for (int k : vars.recorded) logs.push_back({body->arg_type(k), body->arg_shape(k)});
  const StepSignature sig = Signature(*body, vars, logs);
  return MakeFunction(
      name, sig.types, sig.shapes,
      [&](const Scope& s, const std::vector<Output>& args,
          std::vector<Output>* rets) -> absl::Status {
        const Output& i = args[0];
        const size_t num_diff = vars.diff.size(), num_logs = logs.size();
        const auto values = args.begin() + 1 + static_cast<std::ptrdiff_t>(num_diff);
        const auto layouts = values + static_cast<std::ptrdiff_t>(num_logs);
        const auto fixed = layouts + static_cast<std::ptrdiff_t>(num_logs);
        std::vector<Output> v(body->num_args());
        for (size_t r = 0; r < num_logs; ++r) {
          v[vars.recorded[r]] = LoggedValue(s, values[r], layouts[r], i, logs[r].shape);
        }
        for (size_t f = 0; f < vars.fixed.size(); ++f) v[vars.fixed[f]] = fixed[f];
        rets->push_back(Sub(s, i, int64_t{1}));
        const std::vector<Output> dv(args.begin() + 1, values);
        RILL_RETURN_IF_ERROR(
            grad::BackpropThrough(s, *body, v, vars.diff, dv, vars.diff, rets, inlined));
        rets->insert(rets->end(), values, args.end());
        return s.status();
      });
}

// The body's nodes the first step's other nodes read, in the first step's graph (not
// constants: those are copied), each with the body node it copies.
std::vector<std::pair<const Node*, const Node*>> ValuesRead(const Function& step,
                                                            const Function& body,
                                                            const InlinedFunction& inlined) {
  std::map<const Node*, const Node*> copy_of;  // the step's node -> the body's
  std::set<const Node*> args(body.args().begin(), body.args().end());
  for (const auto& [original, outs] : inlined.values) {
    if (!args.contains(original) && !outs.empty()) copy_of[outs[0].node] = original;
  }
  std::set<const Node*> read;
  for (int id = 0; id < step.graph().num_nodes(); ++id) {
    const Node* n = step.graph().node(id);
    if (copy_of.contains(n)) continue;
    for (int k = 0; k < n->num_inputs(); ++k) read.insert(n->input(k).node);
    read.insert(n->control_inputs().begin(), n->control_inputs().end());
  }
  for (const NodeOut& r : step.rets()) read.insert(r.node);
  std::vector<std::pair<const Node*, const Node*>> out;
  for (int id = 0; id < step.graph().num_nodes(); ++id) {
    const Node* n = step.graph().node(id);
    if (read.contains(n) && copy_of.contains(n) && !n->IsConstant()) {
      out.emplace_back(n, copy_of.at(n));
    }
  }
  return out;
}

// Step 3's body: `body` also returning every output of the nodes `logged`.
absl::StatusOr<FunctionRef> LoggingBody(
    const FunctionRef& body, const std::vector<std::pair<const Node*, const Node*>>& logged) {
  std::vector<NodeOut> rets = body->rets();
  for (const auto& [copy, original] : logged) {
    for (int k = 0; k < original->num_outputs(); ++k) {
      rets.push_back({const_cast<Node*>(original), k});
    }
  }
  return Function::Create(absl::StrCat(body->name(), "_logging"),
                          std::shared_ptr<const Graph>(body, &body->graph()), body->args(),
                          std::move(rets));
}

// Step 4: the first step's graph again with the logs of the body values `logged` added to
// its variables (after the recorded variables' logs). Those values are read from their
// logs; the first step's other copies of the body's nodes are left out, but constants.
absl::StatusOr<FunctionRef> SecondStep(
    const std::string& name, const Function& first, const FunctionRef& body, const LoopVars& vars,
    const std::vector<Log>& logs, const std::vector<std::pair<const Node*, const Node*>>& logged,
    const InlinedFunction& inlined) {
  std::set<const Node*> copies;  // of the body's nodes; its args are bound, not copied
  const std::set<const Node*> body_args(body->args().begin(), body->args().end());
  for (const auto& [original, outs] : inlined.values) {
    if (body_args.contains(original)) continue;
    for (const NodeOut& o : outs) copies.insert(o.node);
  }
  const int d = static_cast<int>(vars.diff.size()), r = static_cast<int>(vars.recorded.size());
  const int extra = static_cast<int>(logs.size()) - r;
  const StepSignature sig = Signature(*body, vars, logs);
  return MakeFunction(
      name, sig.types, sig.shapes,
      [&](const Scope& s, const std::vector<Output>& args,
          std::vector<Output>* rets) -> absl::Status {
        std::map<const Node*, std::vector<NodeOut>> map;
        for (int k = 0; k < first.num_args(); ++k) {  // the logs' layouts and after shift
          const int to = k < 1 + d + r ? k : k < 1 + d + 2 * r ? k + extra : k + 2 * extra;
          map[first.args()[k]] = {{args[to].node(), args[to].index()}};
        }
        const int values = 1 + d, layouts = 1 + d + r + extra;
        int log = r;
        for (const auto& [copy, original] : logged) {
          std::vector<NodeOut>& outs = map[copy];
          for (int k = 0; k < copy->num_outputs(); ++k, ++log) {
            Output v =
                LoggedValue(s, args[values + log], args[layouts + log], args[0], logs[log].shape);
            outs.push_back({v.node(), v.index()});
          }
        }
        for (int id = 0; id < first.graph().num_nodes(); ++id) {
          const Node* n = first.graph().node(id);
          if (map.contains(n) || (copies.contains(n) && !n->IsConstant())) continue;
          RILL_RETURN_IF_ERROR(CopyNode(*n, *s.graph(), map));
        }
        for (int k = 0; k < 1 + d; ++k) {  // i - 1 and the gradients; the rest passes through
          const NodeOut ret = first.rets()[k];
          const NodeOut m = map.at(ret.node)[ret.index];
          rets->emplace_back(m.node, m.index);
        }
        rets->insert(rets->end(), args.begin() + 1 + d, args.end());
        return s.status();
      });
}

absl::StatusOr<FunctionRef> CountsDown(const std::string& name, const StepSignature& sig) {
  return MakeFunction(name, sig.types, sig.shapes,
                      [](const Scope& s, const std::vector<Output>& args,
                         std::vector<Output>* rets) -> absl::Status {
                        rets->push_back(GreaterEqual(s, args[0], int64_t{0}));
                        return s.status();
                      });
}

// Step 3: the loop again with `body` (the node's, or one returning values to log),
// logging the `recorded` variables and those values (`logs`).
Operation RecordLoop(const Scope& scope, const Operation& op, const std::vector<int>& recorded,
                     const std::vector<Log>& logs, const FunctionRef& body) {
  const Node& n = *op.node();
  std::vector<Output> inputs;
  for (int k = 0; k < n.num_inputs(); ++k) inputs.push_back(grad::In(op, k));
  std::vector<DataType> types;
  for (const Log& l : logs) types.push_back(l.dtype);
  return internal::NodeBuilder(scope, "_WhileRecord", "")
      .Inputs(InputList(inputs))
      .Attr("Thistory", types)
      .Attr("Tlayout", std::vector<DataType>(logs.size(), DT_INT64))
      .Attr("record", std::vector<int64_t>(recorded.begin(), recorded.end()))
      .Attr("cond", n.attr<FunctionRef>("cond"))
      .Attr("body", body)
      .Finalize();
}

// Steps 2 to 4: the backward step and the record's body and logs.
struct Backward {
  FunctionRef step, record_body;
  std::vector<Log> logs;
};

absl::StatusOr<Backward> BuildBackward(const std::string& name, const FunctionRef& body,
                                       const LoopVars& vars) {
  Backward b;
  InlinedFunction inlined;
  RILL_ASSIGN_OR_RETURN(FunctionRef first, FirstStep(name, body, vars, &inlined));
  for (int k : vars.recorded) b.logs.push_back({body->arg_type(k), body->arg_shape(k)});
  const auto logged = ValuesRead(*first, *body, inlined);
  if (logged.empty()) return Backward{first, body, b.logs};
  for (const auto& [copy, original] : logged) {
    for (int k = 0; k < original->num_outputs(); ++k) {
      b.logs.push_back({original->output_type(k), original->output_shape(k)});
    }
  }
  RILL_ASSIGN_OR_RETURN(b.record_body, LoggingBody(body, logged));
  RILL_ASSIGN_OR_RETURN(b.step, SecondStep(name, *first, body, vars, b.logs, logged, inlined));
  return b;
}

absl::Status WhileGrad(const Scope& scope, const Operation& op,
                       const std::vector<Output>& grad_inputs, std::vector<Output>* grad_outputs) {
  const Node& n = *op.node();
  const FunctionRef& body = n.attr<FunctionRef>("body");
  RILL_RETURN_IF_ERROR(grad::CheckRecomputable(*n.attr<FunctionRef>("cond"), n));
  RILL_RETURN_IF_ERROR(grad::CheckRecomputable(*body, n));
  grad_outputs->assign(n.num_inputs(), NoGradient());
  LoopVars vars;
  vars.diff = grad::DifferentiableIndices(body->arg_types());
  if (vars.diff.empty()) return absl::OkStatus();
  for (int k = 0; k < body->num_args(); ++k)
    (PassesThrough(*body, k) ? vars.fixed : vars.recorded).push_back(k);
  const std::string name = absl::StrCat(n.name(), "_grad");
  RILL_ASSIGN_OR_RETURN(Backward b, BuildBackward(absl::StrCat(name, "/body"), body, vars));
  const Operation rec = RecordLoop(scope, op, vars.recorded, b.logs, b.record_body);
  RILL_RETURN_IF_ERROR(scope.status());
  const int num = n.num_inputs();
  std::vector<Output> inputs{Sub(scope, Output(rec.node(), num), int64_t{1})};
  for (int j : vars.diff) inputs.push_back(grad_inputs[j]);
  for (size_t j = 0; j < 2 * b.logs.size(); ++j) {  // values, then layouts
    inputs.emplace_back(rec.node(), num + 1 + static_cast<int>(j));
  }
  for (int k : vars.fixed) inputs.push_back(grad::In(op, k));
  RILL_ASSIGN_OR_RETURN(FunctionRef cond_g,
                        CountsDown(absl::StrCat(name, "/cond"), Signature(*body, vars, b.logs)));
  While back(scope, inputs, cond_g, b.step);
  RILL_RETURN_IF_ERROR(scope.status());
  for (size_t k = 0; k < vars.diff.size(); ++k) (*grad_outputs)[vars.diff[k]] = back.output[1 + k];
  return absl::OkStatus();
}

// A gradient reaching a record or a log read differentiates a While's gradient: a second
// derivative, which this does not compute. Declaring them not differentiable instead would
// stop the flow there and give wrong second derivatives without a word.
absl::Status NoSecondOrder(const Scope&, const Operation& op, const std::vector<Output>&,
                           std::vector<Output>*) {
  return errors::InvalidArgument(op.node()->DebugName(),
                                 " belongs to a While's gradient: gradients of gradients through "
                                 "While are not computed");
}

}  // namespace

RILL_REGISTER_GRADIENT("While", WhileGrad);
RILL_REGISTER_GRADIENT("_WhileRecord", NoSecondOrder);
RILL_REGISTER_GRADIENT("_LogRead", NoSecondOrder);

}  // namespace rill::ops
