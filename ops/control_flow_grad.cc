// Gradients through If and While (what TensorFlow's cond_v2 and while_v2 compute), by
// running the functions again. A forward If or While node keeps none of its functions'
// intermediate values, and nodes never change once added, so the backward pass recomputes
// them from the node's inputs, as activation checkpointing does:
//  - If: the gradient is an If on the same predicate whose branches are the gradient
//    functions of then_branch and else_branch. Each takes the If's inputs and the
//    gradients of its numeric outputs, runs its branch again on the inputs, and returns
//    the gradients of the numeric inputs (zeros for one no output depends on).
//  - While: a _WhileRecord node runs the loop again on the node's inputs and logs each
//    loop variable's value before each iteration, except for variables the body returns
//    unchanged (weights a loop reads: kept once, not once per iteration). The log stores a
//    value that begins with the one before it (an accumulator appending along axis 0) as
//    an extension of it, so it costs the accumulator's final size. A While then runs
//    backward over the iterations: iteration i takes the logged values of i, runs the body
//    on them and turns the gradients of its results into those of its arguments; an
//    unchanged variable's gradient sums over the iterations.
// Recomputing is right only when a function computes the same values again, so one with a
// stateful op (random numbers, dropout) is refused, naming the node. A loop variable may
// change shape but not rank between iterations; one that does is an error when the loop
// runs.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rill/core/function_chain.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/control_flow_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"

namespace rill::ops {
namespace {

bool CallsFunctions(const Node& n) {
  const std::string& op = n.type_string();
  return op == "If" || op == "While" || op == "_WhileRecord";
}

// InvalidArgument when running `f` again could give other values: it holds a stateful op
// other than the function-calling ones, whose functions are checked in turn.
absl::Status CheckRecomputable(const Function& f, const Node& caller) {
  for (int id = 0; id < f.graph().num_nodes(); ++id) {
    const Node& n = *f.graph().node(id);
    if (CallsFunctions(n)) {
      for (const auto& [key, value] : n.attrs()) {
        const FunctionRef* g = std::get_if<FunctionRef>(&value);
        if (g != nullptr && *g != nullptr) RILL_RETURN_IF_ERROR(CheckRecomputable(**g, caller));
      }
    } else if (n.op_def().is_stateful) {
      return errors::InvalidArgument(
          "gradients through ", caller.DebugName(), " run ", FunctionDebugName(f),
          " again, which holds the stateful ", n.DebugName(),
          ": a second run would see other values; stop the gradient before the ",
          caller.type_string(), " (StopGradient) or move that op out of the function");
    }
  }
  return absl::OkStatus();
}

// In `s` (a function's graph): runs `f` on `args`, and appends to *dxs the gradients of
// its args `wrt` given `dys` for its rets `of`: zeros where no gradient flows.
absl::Status BackpropThrough(const Scope& s, const Function& f, const std::vector<Output>& args,
                             const std::vector<int>& of, const std::vector<Output>& dys,
                             const std::vector<int>& wrt, std::vector<Output>* dxs) {
  std::vector<NodeOut> bound;
  for (const Output& a : args) bound.push_back({a.node(), a.index()});
  RILL_ASSIGN_OR_RETURN(std::vector<NodeOut> rets, InlineFunction(f, bound, *s.graph(), "forward"));
  const std::vector<bool> reaching = ArgsReaching(f, of, /*through_control=*/false);
  std::vector<Output> ys, xs, grads;
  for (int k : of) ys.emplace_back(rets[k].node, rets[k].index);
  for (int i : wrt)
    if (reaching[i]) xs.push_back(args[i]);
  if (!xs.empty()) RILL_RETURN_IF_ERROR(AddSymbolicGradients(s, ys, xs, dys, &grads));
  size_t next = 0;
  for (int i : wrt) {
    Output g = reaching[i] ? grads[next++] : NoGradient();
    dxs->push_back(g.node() != nullptr ? g : Output(ZerosLike(s, args[i])));
  }
  return s.status();
}

// The values gradients flow through: floats, and int32 and int64 as in TensorFlow (whose
// while-loop gradient tests differentiate integer loop variables). Not bools, uint8 or
// complex.
std::vector<int> DifferentiableIndices(const std::vector<DataType>& types) {
  std::vector<int> out;
  for (size_t i = 0; i < types.size(); ++i) {
    const DataType dt = types[i];
    if (DataTypeIsFloating(dt) || dt == DT_INT32 || dt == DT_INT64) {
      out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

// The gradient function of one If branch: args the If's inputs, then the gradients of
// its outputs `of`; returns the gradients of its inputs `wrt`.
absl::StatusOr<FunctionRef> BranchGradient(const std::string& name, const FunctionRef& branch,
                                           const std::vector<DataType>& types,
                                           const std::vector<PartialTensorShape>& shapes,
                                           const std::vector<int>& of,
                                           const std::vector<int>& wrt) {
  const size_t num_inputs = static_cast<size_t>(branch->num_args());
  return MakeFunction(name, types, shapes,
                      [&](const Scope& s, const std::vector<Output>& args,
                          std::vector<Output>* rets) -> absl::Status {
                        const std::vector<Output> x(args.begin(), args.begin() + num_inputs);
                        const std::vector<Output> dy(args.begin() + num_inputs, args.end());
                        return BackpropThrough(s, *branch, x, of, dy, wrt, rets);
                      });
}

absl::Status IfGrad(const Scope& scope, const Operation& op, const std::vector<Output>& grad_inputs,
                    std::vector<Output>* grad_outputs) {
  const Node& n = *op.node();
  const FunctionRef& then_f = n.attr<FunctionRef>("then_branch");
  const FunctionRef& else_f = n.attr<FunctionRef>("else_branch");
  RILL_RETURN_IF_ERROR(CheckRecomputable(*then_f, n));
  RILL_RETURN_IF_ERROR(CheckRecomputable(*else_f, n));
  grad_outputs->assign(n.num_inputs(), NoGradient());
  const std::vector<int> wrt = DifferentiableIndices(then_f->arg_types());
  const std::vector<int> of = DifferentiableIndices(then_f->ret_types());
  if (wrt.empty() || of.empty()) return absl::OkStatus();
  std::vector<DataType> types = then_f->arg_types();
  std::vector<PartialTensorShape> shapes;
  for (int i = 0; i < then_f->num_args(); ++i)
    shapes.push_back(CommonShape(then_f->arg_shape(i), else_f->arg_shape(i)));
  std::vector<Output> inputs;
  for (int i = 1; i < n.num_inputs(); ++i) inputs.push_back(grad::In(op, i));
  for (int j : of) {
    types.push_back(n.output_type(j));
    shapes.push_back(n.output_shape(j));
    inputs.push_back(grad_inputs[j]);
  }
  RILL_ASSIGN_OR_RETURN(FunctionRef then_g, BranchGradient(absl::StrCat(n.name(), "_grad/then"),
                                                           then_f, types, shapes, of, wrt));
  RILL_ASSIGN_OR_RETURN(FunctionRef else_g, BranchGradient(absl::StrCat(n.name(), "_grad/else"),
                                                           else_f, types, shapes, of, wrt));
  If g(scope, grad::In(op, 0), inputs, then_g, else_g);
  RILL_RETURN_IF_ERROR(scope.status());
  for (size_t k = 0; k < wrt.size(); ++k) (*grad_outputs)[wrt[k] + 1] = g.output[k];
  return absl::OkStatus();
}

// The body's ret k is its arg k, maybe through Identity nodes: a variable the loop never
// changes.
bool PassesThrough(const Function& body, int k) {
  const Node* n = body.rets()[k].node;
  while (n->type_string() == "Identity") n = n->input(0).node;
  return n == body.args()[k];
}

// How the backward loop sees a While's variables: `diff` are differentiated (numeric),
// `recorded` logged by the recording loop, `fixed` passed through by the body.
struct LoopVars {
  std::vector<int> diff, recorded, fixed;
};

// Value i of a _WhileRecord's log (`values` and `layout`), of the static `shape`.
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

// The backward loop's step: args i, the gradients of `diff`, the logs of `recorded`
// (values, then layouts), the values of `fixed`; runs the body on the values of
// iteration i and returns i - 1, the gradients of its args, and the rest unchanged.
absl::StatusOr<FunctionRef> BackwardStep(const std::string& name, const FunctionRef& body,
                                         const LoopVars& vars, const std::vector<DataType>& types,
                                         const std::vector<PartialTensorShape>& shapes) {
  return MakeFunction(
      name, types, shapes,
      [&](const Scope& s, const std::vector<Output>& args,
          std::vector<Output>* rets) -> absl::Status {
        const Output& i = args[0];
        const size_t num_diff = vars.diff.size(), num_logged = vars.recorded.size();
        const auto logs = args.begin() + 1 + static_cast<std::ptrdiff_t>(num_diff);
        const std::vector<Output> dv(args.begin() + 1, logs);
        std::vector<Output> v(body->num_args());
        for (size_t r = 0; r < num_logged; ++r) {
          const int k = vars.recorded[r];
          v[k] = LoggedValue(s, logs[r], logs[num_logged + r], i, body->arg_shape(k));
        }
        const auto fixed = logs + 2 * static_cast<std::ptrdiff_t>(num_logged);
        for (size_t f = 0; f < vars.fixed.size(); ++f) v[vars.fixed[f]] = fixed[f];
        rets->push_back(Sub(s, i, int64_t{1}));
        RILL_RETURN_IF_ERROR(BackpropThrough(s, *body, v, vars.diff, dv, vars.diff, rets));
        rets->insert(rets->end(), logs, args.end());
        return s.status();
      });
}

absl::StatusOr<FunctionRef> CountsDown(const std::string& name, const std::vector<DataType>& types,
                                       const std::vector<PartialTensorShape>& shapes) {
  return MakeFunction(name, types, shapes,
                      [](const Scope& s, const std::vector<Output>& args,
                         std::vector<Output>* rets) -> absl::Status {
                        rets->push_back(GreaterEqual(s, args[0], int64_t{0}));
                        return s.status();
                      });
}

// The loop again, keeping the values of `recorded` before each iteration.
Operation RecordLoop(const Scope& scope, const Operation& op, const std::vector<int>& recorded) {
  const Node& n = *op.node();
  std::vector<Output> inputs;
  for (int k = 0; k < n.num_inputs(); ++k) inputs.push_back(grad::In(op, k));
  std::vector<DataType> history_types;
  for (int k : recorded) history_types.push_back(n.input_type(k));
  return internal::NodeBuilder(scope, "_WhileRecord", "")
      .Inputs(InputList(inputs))
      .Attr("Thistory", history_types)
      .Attr("Tlayout", std::vector<DataType>(recorded.size(), DT_INT64))
      .Attr("record", std::vector<int64_t>(recorded.begin(), recorded.end()))
      .Attr("cond", n.attr<FunctionRef>("cond"))
      .Attr("body", n.attr<FunctionRef>("body"))
      .Finalize();
}

absl::Status WhileGrad(const Scope& scope, const Operation& op,
                       const std::vector<Output>& grad_inputs, std::vector<Output>* grad_outputs) {
  const Node& n = *op.node();
  const FunctionRef& body = n.attr<FunctionRef>("body");
  RILL_RETURN_IF_ERROR(CheckRecomputable(*n.attr<FunctionRef>("cond"), n));
  RILL_RETURN_IF_ERROR(CheckRecomputable(*body, n));
  grad_outputs->assign(n.num_inputs(), NoGradient());
  LoopVars vars;
  vars.diff = DifferentiableIndices(body->arg_types());
  if (vars.diff.empty()) return absl::OkStatus();
  for (int k = 0; k < body->num_args(); ++k)
    (PassesThrough(*body, k) ? vars.fixed : vars.recorded).push_back(k);
  const Operation rec = RecordLoop(scope, op, vars.recorded);
  RILL_RETURN_IF_ERROR(scope.status());
  const int num = n.num_inputs();
  std::vector<DataType> types{DT_INT64};
  std::vector<PartialTensorShape> shapes{PartialTensorShape({})};
  std::vector<Output> inputs{Sub(scope, Output(rec.node(), num), int64_t{1})};
  auto add = [&](const Output& value, DataType dt, const PartialTensorShape& shape) {
    inputs.push_back(value);
    types.push_back(dt);
    shapes.push_back(shape);
  };
  for (int j : vars.diff) add(grad_inputs[j], body->arg_type(j), body->arg_shape(j));
  for (size_t r = 0; r < 2 * vars.recorded.size(); ++r) {  // values, then layouts
    const Output log(rec.node(), num + 1 + static_cast<int>(r));
    add(log, log.type(), log.shape());
  }
  for (int k : vars.fixed) add(grad::In(op, k), body->arg_type(k), body->arg_shape(k));
  const std::string name = absl::StrCat(n.name(), "_grad");
  RILL_ASSIGN_OR_RETURN(FunctionRef cond_g, CountsDown(absl::StrCat(name, "/cond"), types, shapes));
  RILL_ASSIGN_OR_RETURN(FunctionRef body_g,
                        BackwardStep(absl::StrCat(name, "/body"), body, vars, types, shapes));
  While back(scope, inputs, cond_g, body_g);
  RILL_RETURN_IF_ERROR(scope.status());
  for (size_t k = 0; k < vars.diff.size(); ++k) (*grad_outputs)[vars.diff[k]] = back.output[1 + k];
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_GRADIENT("If", IfGrad);
RILL_REGISTER_GRADIENT("While", WhileGrad);
RILL_REGISTER_NO_GRADIENT("_WhileRecord");
RILL_REGISTER_NO_GRADIENT("_LogRead");

}  // namespace rill::ops
