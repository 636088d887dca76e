// GPU tests: skipped where no GPU is present (CI), run on the lent GPU machine. Graphs
// split across devices, variables living on the GPU, pinned staging, out-of-memory as a
// Status, traces with device times, and cuDNN's NCHW route. Each op's parity with the CPU
// is its op case (tests/ops/op_cases_*.cc, run on every device).
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>

#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace gpu_test {

#define RILL_REQUIRE_GPU() \
  if (!HaveGpu()) GTEST_SKIP() << "no GPU on this machine"

// cuDNN's other route: every convolution case (op_cases_nn.cc) again with the GPU kernel
// on NCHW copies, the fallback for passes with no usable NHWC algorithm, forced here.
// (Every op's parity with the CPU is its op case: tests/ops/op_cases_*.cc.)
TEST(Gpu, ConvolutionsOnTheNchwRoute) {
  RILL_REQUIRE_GPU();
  setenv("RILL_CUDNN_LAYOUT", "NCHW", 1);
  int ran = 0;
  for (const OpCase& c : AllOpCases()) {
    const std::set<std::string> ops = OpsOf(c);
    if (!ops.contains("Conv2D") && !ops.contains("Conv2DBackpropInput") &&
        !ops.contains("Conv2DBackpropFilter") && !ops.contains("_FusedConv2D")) {
      continue;
    }
    ExpectOpCase(c);
    ++ran;
  }
  unsetenv("RILL_CUDNN_LAYOUT");
  EXPECT_GE(ran, 24);
}

// Feeds are staged through pinned host memory (reused from run to run) and fetched
// tensors come back in it; the values survive the round trip and the device reports
// its memory.
TEST(Gpu, FeedsAndFetchesGoThroughPinnedHostMemory) {
  RILL_REQUIRE_GPU();
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto y = ops::Add(root.WithDevice("/GPU:0"), x, 1.f);
  Session session(root);
  absl::StatusOr<DeviceMemoryStats> before = GetDeviceMemoryStats("/GPU:0");
  ASSERT_TRUE(before.ok()) << before.status();
  for (int run = 0; run < 3; ++run) {
    Tensor in = RandomTensor(DT_FLOAT, {1000, 1000}, -1, 1, 30 + run);
    std::vector<Tensor> out;
    ASSERT_TRUE(session.Run({{x, in}}, {y}, &out).ok());
    ASSERT_TRUE(out[0].OnHost());
    for (int64_t i = 0; i < in.NumElements(); i += 997) {
      ASSERT_EQ(out[0].flat<float>()(i), in.flat<float>()(i) + 1.f) << i;
    }
  }
  absl::StatusOr<DeviceMemoryStats> after = GetDeviceMemoryStats("/device:GPU:0");
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_GE(after->pinned_host.num_allocs - before->pinned_host.num_allocs, 6);  // 3 in, 3 out
  EXPECT_GE(after->pinned_host.num_cache_hits - before->pinned_host.num_cache_hits, 4);
  EXPECT_GT(after->device.peak_bytes_in_use, 4'000'000 - 1);
}

TEST(Gpu, GraphSplitAcrossDevicesAndVariablesStayOnTheGpu) {
  RILL_REQUIRE_GPU();
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto w = ops::Variable(root.WithOpName("w"), {{1.f, 2.f}, {3.f, 4.f}});
  auto y = ops::MatMul(root, x, w);                               // GPU
  auto t = ops::Transpose(root.WithDevice("/cpu:0"), y, {1, 0});  // CPU
  auto z = ops::Add(root.WithDevice("/GPU:0"), t, 1.f);           // back to the GPU
  auto step = ops::AssignAdd(root, w, {{1.f, 1.f}, {1.f, 1.f}});
  Session session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(session.Run({step}, &out).ok());
  ASSERT_TRUE(session.Run({{x, {{1.f, 0.f}}}}, {z, w}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2, 1}, {5, 6}, 1e-6);  // w = [[4,5],[6,7]]
  ExpectTensorNear(out[1], DT_FLOAT, {2, 2}, {4, 5, 6, 7}, 1e-6);
  EXPECT_EQ(*session.AssignedDevice(w.operation), "/job:localhost/replica:0/task:0/device:GPU:0");
  EXPECT_EQ(*session.AssignedDevice(t.operation), "/job:localhost/replica:0/task:0/device:CPU:0");
}

TEST(Gpu, OutOfMemoryIsAStatusAndTheSessionRecovers) {
  RILL_REQUIRE_GPU();
  Scope root = Scope::NewRootScope();
  auto dims = ops::Placeholder(root, DT_INT64);
  auto fill = ops::Fill(root.WithOpName("huge_fill").WithDevice("/GPU:0"), dims, 1.f);
  auto total = ops::Sum(root, fill, {0});
  Session session(root);
  std::vector<Tensor> out;
  Tensor huge(DT_INT64, TensorShape({1}));
  huge.flat<int64_t>()(0) = int64_t{1} << 40;  // 4 TiB of floats
  absl::Status s = session.Run({{dims, huge}}, {total}, &out);
  ASSERT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_NE(std::string(s.message()).find("huge_fill"), std::string::npos) << s;
  EXPECT_NE(std::string(s.message()).find("4398046511104 bytes"), std::string::npos) << s;
  Tensor small(DT_INT64, TensorShape({1}));
  small.flat<int64_t>()(0) = 1000;
  ASSERT_TRUE(session.Run({{dims, small}}, {total}, &out).ok());
  EXPECT_EQ(out[0].scalar<float>()(), 1000.f);
}

// A traced step on the GPU: the MatMul and the copies carry device times from CUDA events,
// and the Chrome trace has the GPU's stream track.
TEST(Gpu, TracedStepHasCudaEventTimes) {
  RILL_REQUIRE_GPU();
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT);
  auto y = ops::MatMul(root.WithOpName("y").WithDevice("/GPU:0"), x, x);
  Session session(root);
  RunOptions traced;
  traced.trace_level = RunOptions::FULL_TRACE;
  RunMetadata meta;
  std::vector<Tensor> out;
  ASSERT_TRUE(
      session.Run(traced, {{x, RandomTensor(DT_FLOAT, {512, 512}, -1, 1, 4)}}, {y}, {}, &out, &meta)
          .ok());
  int gpu_nodes = 0, copies = 0;
  for (const NodeExecStats& n : meta.step_stats.nodes) {
    if (n.device.find("GPU:0") == std::string::npos) continue;
    ++gpu_nodes;
    copies += n.is_copy;
    EXPECT_GT(n.device_ns, 0) << n.node_name;
    // The device work of a node is queued and finished inside its step.
    EXPECT_LE(n.device_ns, meta.step_stats.wall_ns) << n.node_name;
  }
  EXPECT_GE(gpu_nodes, 2);  // x copied in, and y
  EXPECT_GE(copies, 1);
  EXPECT_NE(ToChromeTrace(meta.step_stats).find("device: stream"), std::string::npos);
}

// cuBLAS is loaded by the first GPU device, not linked (kernels/cuda/cublas_api.h): once the
// devices are listed, a fresh process has mapped it exactly when it has a GPU. Exits 0 when
// so.
void RunOnTheDevicesAndCheckCublasIsMapped() {
  Scope root = Scope::NewRootScope();
  auto y = ops::Add(root, ops::Const(root, 1.f), 2.f);
  Session session(root);
  std::vector<Tensor> out;
  if (!session.Run({}, {y}, &out).ok() || out[0].scalar<float>()() != 3.f) std::exit(2);
  std::ifstream maps("/proc/self/maps");
  const std::string text{std::istreambuf_iterator<char>(maps), std::istreambuf_iterator<char>()};
  if (text.empty()) std::exit(3);
  std::exit((text.find("libcublas") != std::string::npos) == HaveGpu() ? 0 : 1);
}

// In a process of its own (a threadsafe death test re-runs the program for this test
// alone): another test of the same process may have loaded cuBLAS. Runs everywhere.
TEST(GpuDeathTest, CublasIsLoadedOnlyWithAGpu) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(RunOnTheDevicesAndCheckCublasIsMapped(), ::testing::ExitedWithCode(0), "");
}

}  // namespace gpu_test
}  // namespace
}  // namespace rill::testing

#undef RILL_REQUIRE_GPU  // this file shares a unity file with others
