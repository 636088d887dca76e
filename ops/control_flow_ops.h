// Functional control flow, as TensorFlow's functional ops: If runs one of two functions
// chosen at run time by a predicate, While repeats a body function while a cond function
// says so. The functions are graphs of their own (core/function.h), planned once per
// Session like any plan. The builders TensorFlow's C++ users know make the functions from
// lambdas: ops::Cond and ops::BuildWhileLoop (tensorflow/cc/ops/while_loop.h's signature).
// AddSymbolicGradients goes through both (ops/control_flow_grad.cc): the backward pass runs
// the functions again on the node's inputs, so a function holding a stateful op (random
// numbers, dropout) is an InvalidArgument naming the node, and a loop variable that
// changes shape between iterations is an error when the gradient runs.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rill/core/function.h"
#include "rill/ops/op_builder.h"

namespace rill::ops {

// Builds a function's graph: `scope` is the root of that graph, `args` its arguments
// (Placeholders); *rets are the values it returns. An Output of another graph (the
// caller's) cannot be used inside: pass it in as an argument.
using FunctionBodyFn = std::function<absl::Status(
    const Scope& scope, const std::vector<Output>& args, std::vector<Output>* rets)>;

// A function of arguments of `types` and `shapes` (shapes may be empty: unknown) made by
// `body`. Errors (the body's, or a return value that does not belong to the function's
// graph) name the function.
absl::StatusOr<FunctionRef> MakeFunction(const std::string& name,
                                         const std::vector<DataType>& types,
                                         const std::vector<PartialTensorShape>& shapes,
                                         const FunctionBodyFn& body);

// TensorFlow's If: then_branch(input...) when `cond` is true, else else_branch(input...).
// `cond` is a scalar (bool; a number is true when not zero) or, as TensorFlow, a tensor
// that is true when it has elements. Both branches take the inputs' dtypes and return the
// same dtypes.
class If {
 public:
  If(const Scope& scope, Input cond, InputList input, const FunctionRef& then_branch,
     const FunctionRef& else_branch);
  Operation operation;
  OutputList output;
};

// TensorFlow's PartitionedCall and StatefulPartitionedCall: f(args...), `Tout` being f's
// return dtypes (checked when the node is added). A function with random ops or other
// effects belongs in the stateful one (the other may be merged with an identical call).
// Gradients run f again, as If's do.
namespace internal {
class FunctionCallOp {
 public:
  Output operator[](size_t index) const { return output[index]; }
  Operation operation;
  OutputList output;

 protected:
  FunctionCallOp(const Scope& scope, const char* op, InputList args,
                 const std::vector<DataType>& Tout, const FunctionRef& f);
};
}  // namespace internal

class PartitionedCall : public internal::FunctionCallOp {
 public:
  PartitionedCall(const Scope& scope, InputList args, const std::vector<DataType>& Tout,
                  const FunctionRef& f)
      : FunctionCallOp(scope, "PartitionedCall", args, Tout, f) {}
};

class StatefulPartitionedCall : public internal::FunctionCallOp {
 public:
  StatefulPartitionedCall(const Scope& scope, InputList args, const std::vector<DataType>& Tout,
                          const FunctionRef& f)
      : FunctionCallOp(scope, "StatefulPartitionedCall", args, Tout, f) {}
};

// TensorFlow's While: while cond(vars) is true, vars = body(vars); the outputs are the
// final vars. `cond` returns one scalar (as If's cond); `body` returns the vars' dtypes.
class While {
 public:
  While(const Scope& scope, InputList input, const FunctionRef& cond, const FunctionRef& body);
  Operation operation;
  OutputList output;
};

// TensorFlow 1's dataflow control flow (tf.raw_ops.Switch and Merge; TensorFlow's C++ API
// has both in control_flow_ops.h). Switch forwards `data` to `output_true` when the scalar
// bool `pred` is true, else to `output_false`; the other output is dead in that run. A dead
// value kills every node that reads it (by a data or a control edge): that node does not
// run and its outputs are dead too, until a Merge, which forwards its lowest-numbered live
// input (`value_index` says which) and is dead only when all its inputs are. Fetching a dead
// value is InvalidArgument; a node of a branch with no data input from its Switch (a
// constant) is made dead by a control edge from that Switch's output (an Identity of it, as
// tf.cond's pivot). Switch runs on any device (`pred` is read on the host); Merge on the CPU.
// ops/switch_merge_grad.cc differentiates both, as TensorFlow 1's cond gradients do.
class Switch {
 public:
  Switch(const Scope& scope, Input data, Input pred);
  Operation operation;
  Output output_false;
  Output output_true;
};

class Merge {
 public:
  Merge(const Scope& scope, InputList inputs);
  Operation operation;
  Output output;
  Output value_index;
};

// then_fn(inputs) or else_fn(inputs) as `pred` says, each built into a function; their
// return values (as many, of the same dtypes) become *outputs.
absl::Status Cond(const Scope& scope, const Output& pred, const std::vector<Output>& inputs,
                  const FunctionBodyFn& then_fn, const FunctionBodyFn& else_fn,
                  std::vector<Output>* outputs);

// TensorFlow's BuildWhileLoop: loop variables start as `inputs`; `cond` builds the
// predicate from them and `body` their next values. A variable whose shape the body
// changes gets the shape common to all its values (a dim that differs is unknown), as
// if a shape invariant had been given. `frame_name` names the While node.
using CondGraphBuilderFn =
    std::function<absl::Status(const Scope&, const std::vector<Output>& inputs, Output* output)>;
using BodyGraphBuilderFn = std::function<absl::Status(
    const Scope&, const std::vector<Output>& inputs, std::vector<Output>* outputs)>;
absl::Status BuildWhileLoop(const Scope& scope, const std::vector<Output>& inputs,
                            const CondGraphBuilderFn& cond, const BodyGraphBuilderFn& body,
                            const std::string& frame_name, OutputList* outputs,
                            bool create_while_ctx = true);

// The shape both `a` and `b` have: a dim they disagree on is unknown, and the rank is
// unknown when theirs differ.
PartialTensorShape CommonShape(const PartialTensorShape& a, const PartialTensorShape& b);

// The static shape of a _WhileRecord log's layout for values of shape `value`:
// [?, 1 + rank] (each value's element offset, then its dims).
PartialTensorShape LogLayoutShape(const PartialTensorShape& value);

}  // namespace rill::ops
