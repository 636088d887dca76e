// What the ports of TensorFlow's fused-op kernel tests share (matmul_op_test.cc,
// conv_ops_test.cc): the unfused graph run on one device, and the fused node run through
// OpsTestBase on the inputs given.
// rill: TensorFlow's tests add the fused node's NodeDef to the GraphDef and turn Grappler's
// passes off one by one; here the graph runs with SessionOptions::optimize_graph off and the
// node through OpsTestBase.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill::fused_op_test_util {

// Whether this process has a GPU for a Session's graph.
inline bool HasGpu() {
  std::unique_ptr<Session> session(NewSession(SessionOptions()));
  for (const std::string& d : session->ListDevices()) {
    if (d.find("GPU") != std::string::npos) return true;
  }
  return false;
}

class FusedOpTestBase : public OpsTestBase {
 protected:
  // Runs the graph of `root` and fetches `fetch` into *output, every node on one device
  // (some fusions run on the CPU only: like is compared with like).
  void RunAndFetch(const Scope& root, const std::string& fetch, Tensor* output,
                   bool allow_gpu_device) {
    GraphDef graph;
    TF_ASSERT_OK(root.ToGraphDef(&graph));
    SessionOptions session_options;
    session_options.optimize_graph = false;  // the graph exactly as built
    graph::SetDefaultDevice(allow_gpu_device && HasGpu() ? "/GPU:0" : "/CPU:0", &graph);
    std::unique_ptr<Session> session(NewSession(session_options));
    TF_ASSERT_OK(session->Create(graph));
    std::vector<Tensor> unfused_tensors;
    TF_ASSERT_OK(session->Run({}, {fetch}, {}, &unfused_tensors));
    ASSERT_FALSE(unfused_tensors.empty());
    *output = unfused_tensors[0];
  }

  // Runs the node of node_def() (built by the caller) on `inputs`, on the GPU when allowed
  // and present; *output = its output 0.
  template <typename T>
  void RunNode(const std::vector<const Tensor*>& inputs, Tensor* output, bool allow_gpu_device) {
    SetDevice(allow_gpu_device && HasGpu() ? DEVICE_GPU : DEVICE_CPU);
    TF_ASSERT_OK(InitOp());
    inputs_.clear();  // each call of a test runs a node of its own
    for (const Tensor* t : inputs) {
      AddInputFromArray<T>(t->shape(), absl::MakeConstSpan(t->flat<T>().data(), t->NumElements()));
    }
    TF_ASSERT_OK(RunOpKernel());
    *output = *GetOutput(0);
  }
};

}  // namespace rill::fused_op_test_util
