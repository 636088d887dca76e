// Graphviz pictures: clusters for name scopes, devices as colours with a legend, copies
// between devices, edge labels; and a DOT file that Graphviz itself accepts.
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "absl/strings/match.h"
#include "fake_device.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace graph_dot_test {

using namespace ops;  // NOLINT

int Count(const std::string& s, const std::string& part) {
  int n = 0;
  for (size_t p = s.find(part); p != std::string::npos; p = s.find(part, p + 1)) ++n;
  return n;
}

TEST(GraphDot, ScopesBecomeClustersAndEdgesCarryShapes) {
  Scope root = Scope::NewRootScope();
  auto x = Placeholder(root.WithOpName("x"), DT_FLOAT, Placeholder::Shape({-1, 4}));
  Scope layer = root.NewSubScope("model").NewSubScope("dense");
  auto w = Variable(layer.WithOpName("kernel"), RandomTensor(DT_FLOAT, {4, 2}, -1, 1, 1));
  auto y = Relu(layer, MatMul(layer, x, w));
  (void)y;
  GraphView view = ViewOfGraph(*root.graph());
  EXPECT_EQ(static_cast<int>(view.nodes.size()), root.graph()->num_nodes());
  std::string dot = ToDot(view, {.title = "dense layer"});
  EXPECT_TRUE(absl::StartsWith(dot, "digraph rill {"));
  EXPECT_NE(dot.find("label=\"model\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"model/dense\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"model/dense/kernel\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("[label=\"float [?,4]\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("[label=\"float [?,2]\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"dense layer\""), std::string::npos);
  EXPECT_NE(dot.find("[label=\"MatMul\", tooltip=\"model/dense/MatMul\""), std::string::npos)
      << dot;
  EXPECT_NE(dot.find("[label=\"Variable\\nkernel\""), std::string::npos) << dot;
  // The initializer's control-free edges: Assign takes the variable and its value.
  EXPECT_EQ(Count(dot, " -> "), 5) << dot;  // x, kernel -> MatMul; -> Relu; Assign's two
  EXPECT_NE(dot.find("(no device)"), std::string::npos);  // nothing requested or placed
}

TEST(GraphDot, PlansShowAssignedDevicesAndCopies) {
  RegisterFakeGpuKernels();
  Scope root = Scope::NewRootScope();
  auto a = Const(root.WithOpName("a"), {{1.f, 2.f}, {3.f, 4.f}});
  auto m = MatMul(root.WithOpName("m"), a, a);  // the fake GPU has MatMul
  auto d = Sub(root.WithOpName("d"), m, a);     // but not Sub: back on the CPU
  auto gate = NoOp(root.WithOpName("gate"));
  auto e = Identity(root.WithOpName("e").WithControlDependencies({gate}), d);
  auto gpu = std::make_shared<FakeGpuDevice>(0, 1 << 20);
  Session session(root, SessionOptions(), FakeGpuDevices(gpu));
  CallableOptions sig;
  sig.fetch = {e};
  auto view = session.ViewPlan(sig);
  ASSERT_TRUE(view.ok()) << view.status();
  int copies = 0;
  for (const GraphViewNode& n : view->nodes) {
    copies += n.is_copy;
    if (n.name == "m") {
      EXPECT_EQ(n.device, "/job:localhost/replica:0/task:0/device:FAKE_GPU:0");
    }
    if (n.name == "d") {
      EXPECT_EQ(n.device, "/job:localhost/replica:0/task:0/device:CPU:0");
    }
  }
  EXPECT_GE(copies, 1);  // m's value goes back to the CPU for Sub
  std::string dot = ToDot(*view);
  EXPECT_NE(dot.find("style=\"dashed,filled\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("copy between devices"), std::string::npos);
  EXPECT_NE(dot.find("FAKE_GPU:0"), std::string::npos);
  EXPECT_NE(dot.find("style=dotted"), std::string::npos);  // gate -> e
  // Two devices in the legend, each with its own colour.
  EXPECT_NE(dot.find("legend_0"), std::string::npos);
  EXPECT_NE(dot.find("legend_1"), std::string::npos);
  // The plan's nodes were placed as a Run would place them.
  auto placed = session.AssignedDevice(m.operation);
  ASSERT_TRUE(placed.ok());
  // Fetching what the plan needs works and gives m - a.
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({e}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2, 2}, {6, 8, 12, 18}, 0);
}

TEST(GraphDot, PlanWithFeedsShowsTheFedNode) {
  Scope root = Scope::NewRootScope();
  auto x = Placeholder(root.WithOpName("x"), DT_FLOAT);
  auto y = Square(root.WithOpName("y"), x);
  Session session(root, SessionOptions(), CpuOnly());
  CallableOptions sig;
  sig.feed = {x};
  sig.fetch = {y};
  auto view = session.ViewPlan(sig);
  ASSERT_TRUE(view.ok());
  ASSERT_EQ(view->nodes.size(), 2u);
  EXPECT_TRUE(view->nodes[0].is_fed);
  ASSERT_EQ(view->nodes[1].inputs.size(), 1u);
  EXPECT_EQ(view->nodes[1].inputs[0].src, 0);
  // A missing feed is the same error a Run gives.
  sig.feed.clear();
  auto unfed = session.ViewPlan(sig);
  EXPECT_EQ(unfed.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(GraphDot, GraphvizAcceptsTheFile) {
  if (std::system("command -v dot >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "Graphviz (dot) is not installed; scripts/install-deps.sh installs it";
  }
  Scope root = Scope::NewRootScope();
  auto x = Placeholder(root.WithOpName("input"), DT_FLOAT, Placeholder::Shape({-1, 3}));
  auto s = root.NewSubScope("outer").NewSubScope("inner");
  (void)Softmax(s, Add(s, x, {1.f, 2.f, 3.f}));
  const std::string dir = ::testing::TempDir();
  ASSERT_TRUE(
      WriteDot(ViewOfGraph(*root.graph()), dir + "/g.dot", {.title = "a \"quoted\" \\ title"})
          .ok());
  const std::string cmd = "dot -Tsvg '" + dir + "/g.dot' -o '" + dir + "/g.svg' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream svg(dir + "/g.svg");
  std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("<svg"), std::string::npos);
  EXPECT_NE(text.find("Softmax"), std::string::npos);
}

}  // namespace graph_dot_test
}  // namespace
}  // namespace rill::testing
