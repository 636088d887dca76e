// TensorFlow's GraphDef flow over rill's graph text: Scope::ToGraphDef, NewSession,
// Session::Create / Extend / Close, EqualGraphDef and TF_EXPECT_GRAPH_EQ.
#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/node_def_builder.h"
#include "rill/runtime/testing/testutil.h"

namespace rill {
namespace {
namespace graph_def_test {

// TensorFlow's example_trainer graph: y = a x and y / |y|.
GraphDef EigenGraph() {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root, {{3.f, 2.f}, {-1.f, 0.f}});
  auto x = ops::Const(root.WithOpName("x"), {{1.f}, {1.f}});
  auto y = ops::MatMul(root.WithOpName("y"), a, x);
  auto norm = ops::Sqrt(root, ops::Sum(root, ops::Square(root, y), 0));
  ops::Div(root.WithOpName("y_normalized"), y, norm);
  GraphDef def;
  EXPECT_TRUE(root.ToGraphDef(&def).ok());
  return def;
}

TEST(GraphDef, NewSessionCreateRunClose) {
  std::unique_ptr<Session> session = NewSession(SessionOptions());
  TF_ASSERT_OK(session->Create(EigenGraph()));
  std::vector<Tensor> out;
  TF_ASSERT_OK(session->Run({{"x", test::AsTensor<float>({1, 0}, {2, 1})}},
                            {"y:0", "y_normalized:0"}, {}, &out));
  ASSERT_EQ(out.size(), 2u);
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({3, -1}, {2, 1}));
  test::ExpectTensorNear<float>(out[1], test::AsTensor<float>({0.9486833f, -0.3162278f}, {2, 1}),
                                1e-6);
  // A second Create is refused; Extend adds nodes under new names.
  EXPECT_TRUE(errors::IsAlreadyExists(session->Create(EigenGraph())));
  Scope more = Scope::NewRootScope();
  ops::Const(more.WithOpName("seven"), 7);
  GraphDef extra;
  TF_ASSERT_OK(more.ToGraphDef(&extra));
  TF_ASSERT_OK(session->Extend(extra));
  TF_ASSERT_OK(session->Run({}, {"seven"}, {}, &out));
  EXPECT_EQ(out[0].scalar<int32_t>()(), 7);
  EXPECT_TRUE(errors::IsAlreadyExists(session->Extend(extra)));  // "seven" is taken
  TF_ASSERT_OK(session->Close());
  absl::Status st = session->Run({}, {"seven"}, {}, &out);
  EXPECT_TRUE(errors::IsCancelled(st)) << st;
  EXPECT_NE(st.message().find("closed"), std::string::npos) << st;
}

TEST(GraphDef, SetDefaultDeviceFillsOnlyNodesWithoutOne) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root.WithOpName("a"), 2.f);
  ops::Neg(root.WithOpName("pinned").WithDevice("/device:CPU:0"), a);
  ops::Square(root.WithOpName("y"), a);
  GraphDef def;
  TF_ASSERT_OK(root.ToGraphDef(&def));
  graph::SetDefaultDevice("/cpu:0", &def);
  EXPECT_NE(def.text().find("device: \"/cpu:0\""), std::string::npos) << def.text();
  EXPECT_NE(def.text().find("device: \"/device:CPU:0\""), std::string::npos) << def.text();
  std::unique_ptr<Session> session = NewSession(SessionOptions());
  TF_ASSERT_OK(session->Create(def));
  std::vector<Tensor> out;
  TF_ASSERT_OK(session->Run({}, {"y", "pinned"}, {}, &out));
  EXPECT_EQ(out[0].scalar<float>()(), 4.f);
  EXPECT_EQ(out[1].scalar<float>()(), -2.f);
  for (const char* name : {"a", "y"}) {
    absl::StatusOr<Operation> op = FindOperation(*session->scope().graph(), name);
    ASSERT_TRUE(op.ok());
    EXPECT_EQ(op->node()->requested_device(), "/cpu:0");
  }
  // A device string that does not parse is Create's InvalidArgument, naming it.
  graph::SetDefaultDevice("/cpu:zero", &def);  // a no-op: every node has a device now
  GraphDef fresh;
  TF_ASSERT_OK(root.ToGraphDef(&fresh));
  graph::SetDefaultDevice("/cpu:zero", &fresh);
  absl::Status st = NewSession(SessionOptions())->Create(fresh);
  EXPECT_TRUE(errors::IsInvalidArgument(st)) << st;
  EXPECT_NE(st.message().find("cpu:zero"), std::string::npos) << st;
  GraphDef garbage("not a graph");
  graph::SetDefaultDevice("/cpu:0", &garbage);
  EXPECT_EQ(garbage.text(), "not a graph");
}

TEST(GraphDef, BadInputsAreStatuses) {
  std::unique_ptr<Session> session;
  SessionOptions remote;
  remote.target = "grpc://localhost:2222";
  absl::Status st = NewSession(remote, &session);
  EXPECT_TRUE(errors::IsInvalidArgument(st)) << st;
  EXPECT_NE(st.message().find("grpc://localhost:2222"), std::string::npos) << st;
  TF_ASSERT_OK(NewSession(SessionOptions(), &session));
  st = session->Create(GraphDef("node { name: \"x\" op: \"NoSuchOp\" }"));
  EXPECT_TRUE(errors::IsInvalidArgument(st)) << st;
  Scope failed = Scope::NewRootScope();
  ops::MatMul(failed, ops::Const(failed, {1.f}), ops::Const(failed, {2.f}));  // rank 1
  GraphDef def;
  EXPECT_FALSE(failed.ToGraphDef(&def).ok());
}

TEST(GraphDef, EqualGraphDefIgnoresOrderAndNamesTheDifference) {
  Scope one = Scope::NewRootScope();
  ops::Add(one.WithOpName("sum"), ops::Const(one.WithOpName("a"), 1.f),
           ops::Const(one.WithOpName("b"), 2.f));
  Scope two = Scope::NewRootScope();  // the same nodes, added in another order
  auto b = ops::Const(two.WithOpName("b"), 2.f);
  auto a = ops::Const(two.WithOpName("a"), 1.f);
  ops::Add(two.WithOpName("sum"), a, b);
  GraphDef g1, g2;
  TF_ASSERT_OK(one.ToGraphDef(&g1));
  TF_ASSERT_OK(two.ToGraphDef(&g2));
  std::string diff;
  EXPECT_TRUE(EqualGraphDef(g1, g2, &diff)) << diff;
  TF_EXPECT_GRAPH_EQ(g1, g2);
  Scope three = Scope::NewRootScope();
  ops::Sub(three.WithOpName("sum"), ops::Const(three.WithOpName("a"), 1.f),
           ops::Const(three.WithOpName("b"), 2.f));
  GraphDef g3;
  TF_ASSERT_OK(three.ToGraphDef(&g3));
  EXPECT_FALSE(EqualGraphDef(g3, g1, &diff));
  EXPECT_NE(diff.find("node 'sum' differs"), std::string::npos) << diff;
  EXPECT_NONFATAL_FAILURE(TF_EXPECT_GRAPH_EQ(g1, g3), "node 'sum' differs");
  // Independent nodes in either order: the last node of one text is not last in the other.
  Scope p_first = Scope::NewRootScope(), q_first = Scope::NewRootScope();
  ops::Const(p_first.WithOpName("p"), 1);
  ops::Const(p_first.WithOpName("q"), 2);
  ops::Const(q_first.WithOpName("q"), 2);
  ops::Const(q_first.WithOpName("p"), 1);
  GraphDef pq, qp;
  TF_ASSERT_OK(p_first.ToGraphDef(&pq));
  TF_ASSERT_OK(q_first.ToGraphDef(&qp));
  EXPECT_TRUE(EqualGraphDef(pq, qp, &diff)) << diff;
  EXPECT_FALSE(EqualGraphDef(GraphDef("not a graph"), g1, &diff));
  EXPECT_NE(diff.find("does not load"), std::string::npos) << diff;
}

// A GraphDef's nodes are NodeDefs, to change or add to; NodeDefBuilder names real inputs.
TEST(GraphDef, NodesAreNodeDefsToChangeAndAddTo) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root.WithOpName("x"), {1.f, -2.f});
  ops::Unique(root.WithOpName("u"), ops::Const(root.WithOpName("v"), {3, 3, 4}));
  GraphDef def;
  TF_ASSERT_OK(root.ToGraphDef(&def));
  ASSERT_EQ(def.node_size(), 3);
  EXPECT_EQ(def.node(0).name(), "x");
  EXPECT_EQ(def.node(0).op(), "Const");
  EXPECT_EQ(def.node(2).input(0), "v:0");
  NodeDef neg, sum, idx;
  TF_ASSERT_OK(NodeDefBuilder("neg", "Neg").Input({x.name(), 0, DT_FLOAT}).Finalize(&neg));
  std::vector<NodeDefBuilder::NodeOut> both = {{"x", 0, DT_FLOAT}, {"neg", 0, DT_FLOAT}};
  TF_ASSERT_OK(NodeDefBuilder("sum", "AddN").Input(both).Finalize(&sum));
  TF_ASSERT_OK(NodeDefBuilder("idx", "Identity").Input("u", 1, DT_INT32).Finalize(&idx));
  EXPECT_EQ(sum.input(), (std::vector<std::string>{"x", "neg"}));
  EXPECT_EQ(idx.input(0), "u:1");
  int n = 0;
  EXPECT_TRUE(GetNodeAttr(sum, "N", &n).ok());
  EXPECT_EQ(n, 2);
  // Added consumers first: Create adds every node after its inputs.
  *def.add_node() = sum;
  *def.add_node() = idx;
  *def.add_node() = neg;
  for (NodeDef& node : *def.mutable_node()) node.set_device("/device:CPU:0");
  std::unique_ptr<Session> session = NewSession(SessionOptions());
  TF_ASSERT_OK(session->Create(def));
  std::vector<Tensor> out;
  TF_ASSERT_OK(session->Run({}, {"sum", "idx"}, {}, &out));
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({0.f, 0.f}));
  test::ExpectTensorEqual<int32_t>(out[1], test::AsTensor<int32_t>({0, 0, 1}));
  absl::StatusOr<Operation> op = FindOperation(*session->scope().graph(), "neg");
  ASSERT_TRUE(op.ok());
  EXPECT_EQ(op->node()->requested_device(), "/device:CPU:0");
  // The text of the changed def reads back as the same nodes.
  GraphDef again(def.text());
  ASSERT_EQ(again.node_size(), 6);
  EXPECT_EQ(again.node(3).name(), "sum");
  EXPECT_TRUE(EqualGraphDef(again, def, nullptr));
}

TEST(GraphDef, NodesOnACycleOrTakingAMissingInputAreRefused) {
  GraphDef def;
  NodeDef a, b;
  TF_ASSERT_OK(NodeDefBuilder("a", "Neg").Input("b", 0, DT_FLOAT).Finalize(&a));
  TF_ASSERT_OK(NodeDefBuilder("b", "Neg").Input("a", 0, DT_FLOAT).Finalize(&b));
  *def.add_node() = a;
  *def.add_node() = b;
  absl::Status st = NewSession(SessionOptions())->Create(def);
  EXPECT_TRUE(errors::IsInvalidArgument(st)) << st;
  EXPECT_NE(st.message().find("node 'a' is on a cycle of inputs"), std::string::npos) << st;
  def.mutable_node()->pop_back();
  st = NewSession(SessionOptions())->Create(def);
  EXPECT_TRUE(errors::IsInvalidArgument(st)) << st;
  EXPECT_NE(st.message().find("'b', which is not a node of the graph"), std::string::npos) << st;
  // A text that does not parse keeps its nodes out of sight, and Create says why.
  GraphDef garbage("node { name: ");
  EXPECT_EQ(garbage.node_size(), 0);
  *garbage.add_node() = b;
  st = NewSession(SessionOptions())->Create(garbage);
  EXPECT_TRUE(errors::IsInvalidArgument(st)) << st;
}

// Functions (a While's cond and body) and initializers survive a GraphDef's round trip.
TEST(GraphDef, FunctionsAndInitializersSurviveTheNodes) {
  Scope root = Scope::NewRootScope();
  auto v = ops::Variable(root.WithOpName("v"), test::AsTensor<float>({2.f}));
  auto cond = ops::MakeFunction(
      "cond", {DT_INT32, DT_FLOAT}, {},
      [](const Scope& s, const std::vector<Output>& in, std::vector<Output>* out) {
        *out = {ops::Less(s, in[0], ops::Const(s, 3))};
        return s.status();
      });
  auto body = ops::MakeFunction(
      "body", {DT_INT32, DT_FLOAT}, {},
      [](const Scope& s, const std::vector<Output>& in, std::vector<Output>* out) {
        *out = {ops::Add(s, in[0], ops::Const(s, 1)), ops::Mul(s, in[1], in[1])};
        return s.status();
      });
  ASSERT_TRUE(cond.ok() && body.ok());
  ops::While(root.WithOpName("loop"), {ops::Const(root, 0), ops::Identity(root, v)}, *cond, *body);
  ops::GlobalVariablesInitializer(root.WithOpName("init"));
  ASSERT_TRUE(root.ok()) << root.status();
  GraphDef def;
  TF_ASSERT_OK(root.ToGraphDef(&def));
  GraphDef copy(def.text());
  EXPECT_EQ(copy.node_size(), def.node_size());
  std::unique_ptr<Session> session = NewSession(SessionOptions());
  TF_ASSERT_OK(session->Create(copy));
  std::vector<Tensor> out;
  TF_ASSERT_OK(session->Run({}, {}, {"init"}, nullptr));
  TF_ASSERT_OK(session->Run({}, {"loop:1"}, {}, &out));
  test::ExpectTensorEqual<float>(out[0], test::AsTensor<float>({256.f}));
}

}  // namespace graph_def_test
}  // namespace
}  // namespace rill
