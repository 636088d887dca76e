// Run-and-fetch helpers for users' GoogleTest tests, as TensorFlow's cc/framework/
// testutil.h names them: each runs a fresh Session over the scope's graph and fails the
// test (instead of aborting, as TensorFlow's do) when a run fails.
//   std::vector<Tensor> out;
//   test::GetTensors(scope, {assign_w}, {grad}, &out);  // the assigns run first
#pragma once

#include <vector>

#include "gtest/gtest.h"
#include "rill/runtime/session.h"

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

}  // namespace rill::test
