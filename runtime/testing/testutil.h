// Run-and-fetch helpers for users' GoogleTest tests, as TensorFlow's cc/framework/
// testutil.h names them: each runs a fresh Session over the scope's graph and fails the
// test (instead of aborting, as TensorFlow's do) when a run fails.
//   std::vector<Tensor> out;
//   test::GetTensors(scope, {assign_w}, {grad}, &out);  // the assigns run first
#pragma once

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/gradients.h"
#include "rill/runtime/io/graph_def.h"
#include "rill/runtime/session.h"

// TensorFlow's TF_EXPECT_GRAPH_EQ (core/util/equal_graph_def.h): the same nodes, whatever
// their order; on failure, the first node that differs and how.
#define TF_EXPECT_GRAPH_EQ(expected, actual)                                                     \
  do {                                                                                           \
    std::string rill_graph_diff_;                                                                \
    EXPECT_TRUE(::rill::EqualGraphDef(actual, expected, &rill_graph_diff_)) << rill_graph_diff_; \
  } while (false)

namespace rill::test {

// Runs `assign_vars` (for their effect: initializers, assigns), then fetches `tensors`.
inline void GetTensors(const Scope& scope, const std::vector<Output>& assign_vars,
                       const OutputList& tensors, std::vector<Tensor>* out) {
  Session session(scope);
  if (!assign_vars.empty()) {
    std::vector<Tensor> ignored;
    const absl::Status s = session.Run(assign_vars, &ignored);
    ASSERT_TRUE(s.ok()) << s;
  }
  const absl::Status s = session.Run(tensors, out);
  ASSERT_TRUE(s.ok()) << s;
}
inline void GetTensors(const Scope& scope, const OutputList& tensors, std::vector<Tensor>* out) {
  GetTensors(scope, {}, tensors, out);
}
inline void GetTensor(const Scope& scope, const std::vector<Output>& assign_vars,
                      const Output& tensor, Tensor* out) {
  std::vector<Tensor> outputs;
  GetTensors(scope, assign_vars, {tensor}, &outputs);
  if (outputs.size() == 1) *out = outputs[0];
}
inline void GetTensor(const Scope& scope, const Output& tensor, Tensor* out) {
  GetTensor(scope, {}, tensor, out);
}

// TensorFlow's test::CallGradFunction (cc/gradients/grad_testutil.h): op's registered
// gradient function called on grad_inputs alone. An op declared not differentiable gets
// zeros for every input (what TensorFlow's zero-gradient functions, Sign's for one, build);
// an op with neither is NotFound.
inline absl::Status CallGradFunction(const Scope& scope, const Operation& op,
                                     const std::vector<Output>& grad_inputs,
                                     std::vector<Output>* grad_outputs) {
  const std::string& type = op.node()->type_string();
  const ops::GradFunc* fn = ops::GradOpRegistry::Global()->Lookup(type);
  if (fn != nullptr) return (*fn)(scope, op, grad_inputs, grad_outputs);
  if (!ops::GradOpRegistry::Global()->IsNotDifferentiable(type)) {
    return absl::NotFoundError("no gradient function registered for op " + type);
  }
  for (int i = 0; i < op.node()->num_inputs(); ++i) {
    const NodeOut in = op.node()->input(i);
    grad_outputs->push_back(ops::ZerosLike(scope, Output(in.node, in.index)));
  }
  return scope.status();
}

}  // namespace rill::test
