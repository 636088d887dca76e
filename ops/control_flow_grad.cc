// Gradients through If and While (what TensorFlow's cond_v2 and while_v2 compute), by
// running the functions again. A forward If or While node keeps none of its functions'
// intermediate values, and nodes never change once added, so the backward pass runs the
// function again from the node's inputs, as activation checkpointing does:
//  - If (here): the gradient is an If on the same predicate whose branches are the
//    gradient functions of then_branch and else_branch. Each takes the If's inputs and the
//    gradients of its numeric outputs, runs its branch again on the inputs, and returns
//    the gradients of the numeric inputs (zeros for one no output depends on).
//  - PartitionedCall and StatefulPartitionedCall (here): a call of the same kind of f's
//    gradient function, built as an If branch's is.
//  - While (control_flow_grad_while.cc): a _WhileRecord node runs the loop again on the
//    node's inputs and logs each loop variable's value before each iteration (not those
//    the body returns unchanged: weights a loop reads are kept once) and the body values
//    its gradient reads after each iteration. A While then runs backward over the
//    iterations: iteration i reads its values from the logs and runs the body's gradient.
//    A value that begins with the one logged before it (an accumulator appending along
//    axis 0) extends it in the log, so it costs its final size.
// Running again is right only when a function computes the same values again, so one with
// a stateful op (random numbers, dropout) is refused, naming the node. A logged value may
// change shape but not rank between iterations; one that does is an error when the loop
// runs.
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

bool CallsFunctions(const Node& n) {
  const std::string& op = n.type_string();
  return op == "If" || op == "While" || op == "_WhileRecord" || op == "PartitionedCall" ||
         op == "StatefulPartitionedCall";
}

}  // namespace

namespace grad {

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

absl::Status BackpropThrough(const Scope& s, const Function& f, const std::vector<Output>& args,
                             const std::vector<int>& of, const std::vector<Output>& dys,
                             const std::vector<int>& wrt, std::vector<Output>* dxs,
                             InlinedFunction* inlined) {
  std::vector<NodeOut> bound;
  for (const Output& a : args) bound.push_back({a.node(), a.index()});
  RILL_ASSIGN_OR_RETURN(InlinedFunction copy, InlineFunction(f, bound, *s.graph(), "forward"));
  const std::vector<NodeOut>& rets = copy.rets;
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
  if (inlined != nullptr) *inlined = std::move(copy);
  return s.status();
}

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

}  // namespace grad

namespace {

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
                        return grad::BackpropThrough(s, *branch, x, of, dy, wrt, rets);
                      });
}

// The gradient function's arguments: the node's inputs from `first` (the function's
// args, of `shapes`), then the gradients arriving at its outputs `of`.
struct GradArgs {
  std::vector<DataType> types;
  std::vector<PartialTensorShape> shapes;
  std::vector<Output> inputs;
};
GradArgs GradientArgs(const Operation& op, int first, const Function& f,
                      std::vector<PartialTensorShape> shapes, const std::vector<int>& of,
                      const std::vector<Output>& grad_inputs) {
  const Node& n = *op.node();
  GradArgs a{f.arg_types(), std::move(shapes), {}};
  for (int i = first; i < n.num_inputs(); ++i) a.inputs.push_back(grad::In(op, i));
  for (int j : of) {
    a.types.push_back(n.output_type(j));
    a.shapes.push_back(n.output_shape(j));
    a.inputs.push_back(grad_inputs[j]);
  }
  return a;
}

absl::Status IfGrad(const Scope& scope, const Operation& op, const std::vector<Output>& grad_inputs,
                    std::vector<Output>* grad_outputs) {
  const Node& n = *op.node();
  const FunctionRef& then_f = n.attr<FunctionRef>("then_branch");
  const FunctionRef& else_f = n.attr<FunctionRef>("else_branch");
  RILL_RETURN_IF_ERROR(grad::CheckRecomputable(*then_f, n));
  RILL_RETURN_IF_ERROR(grad::CheckRecomputable(*else_f, n));
  grad_outputs->assign(n.num_inputs(), NoGradient());
  const std::vector<int> wrt = grad::DifferentiableIndices(then_f->arg_types());
  const std::vector<int> of = grad::DifferentiableIndices(then_f->ret_types());
  if (wrt.empty() || of.empty()) return absl::OkStatus();
  std::vector<PartialTensorShape> shapes;
  for (int i = 0; i < then_f->num_args(); ++i)
    shapes.push_back(CommonShape(then_f->arg_shape(i), else_f->arg_shape(i)));
  const GradArgs a = GradientArgs(op, 1, *then_f, std::move(shapes), of, grad_inputs);
  RILL_ASSIGN_OR_RETURN(FunctionRef then_g, BranchGradient(absl::StrCat(n.name(), "_grad/then"),
                                                           then_f, a.types, a.shapes, of, wrt));
  RILL_ASSIGN_OR_RETURN(FunctionRef else_g, BranchGradient(absl::StrCat(n.name(), "_grad/else"),
                                                           else_f, a.types, a.shapes, of, wrt));
  If g(scope, grad::In(op, 0), a.inputs, then_g, else_g);
  RILL_RETURN_IF_ERROR(scope.status());
  for (size_t k = 0; k < wrt.size(); ++k) (*grad_outputs)[wrt[k] + 1] = g.output[k];
  return absl::OkStatus();
}

absl::Status CallGrad(const Scope& scope, const Operation& op,
                      const std::vector<Output>& grad_inputs, std::vector<Output>* grad_outputs) {
  const Node& n = *op.node();
  const FunctionRef& f = n.attr<FunctionRef>("f");
  RILL_RETURN_IF_ERROR(grad::CheckRecomputable(*f, n));
  grad_outputs->assign(n.num_inputs(), NoGradient());
  const std::vector<int> wrt = grad::DifferentiableIndices(f->arg_types());
  const std::vector<int> of = grad::DifferentiableIndices(f->ret_types());
  if (wrt.empty() || of.empty()) return absl::OkStatus();
  std::vector<PartialTensorShape> shapes;
  for (int i = 0; i < f->num_args(); ++i) shapes.push_back(f->arg_shape(i));
  const GradArgs a = GradientArgs(op, 0, *f, std::move(shapes), of, grad_inputs);
  RILL_ASSIGN_OR_RETURN(FunctionRef g, BranchGradient(absl::StrCat(n.name(), "_grad/f"), f, a.types,
                                                      a.shapes, of, wrt));
  const Operation call =
      n.type_string() == "PartitionedCall"
          ? PartitionedCall(scope, a.inputs, g->ret_types(), g).operation
          : StatefulPartitionedCall(scope, a.inputs, g->ret_types(), g).operation;
  RILL_RETURN_IF_ERROR(scope.status());
  for (size_t k = 0; k < wrt.size(); ++k) (*grad_outputs)[wrt[k]] = Output(call.node(), k);
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_GRADIENT("If", IfGrad);
RILL_REGISTER_GRADIENT("PartitionedCall", CallGrad);
RILL_REGISTER_GRADIENT("StatefulPartitionedCall", CallGrad);

}  // namespace rill::ops
