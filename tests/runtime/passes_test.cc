// Each pass of runtime/passes/ alone on a small graph.
#include "rill/runtime/passes/passes.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "rill/rill.h"
#include "test_util.h"

namespace rill {
namespace {
namespace passes_test {
using namespace ops;  // NOLINT
using testing::ExpectTensorNear;
using testing::RandomTensor;

class PassesTest : public ::testing::Test {
 protected:
  // The plan graph of `fetches` (with `feeds` fed), everything on the CPU.
  PlanGraph Copy(const Scope& s, std::vector<Output> fetches, std::vector<Output> feeds = {},
                 std::vector<Operation> targets = {}) {
    EXPECT_TRUE(s.ok()) << s.status();
    std::vector<NodeOut> f, d;
    std::vector<const Node*> t;
    absl::flat_hash_set<const Node*> fed;
    for (const Output& o : fetches) f.push_back({o.node(), o.index()});
    for (const Output& o : feeds) {
      d.push_back({o.node(), o.index()});
      fed.insert(o.node());
    }
    for (const Operation& op : targets) t.push_back(op.node());
    auto pruned = Prune(f, t, fed);
    EXPECT_TRUE(pruned.ok()) << pruned.status();
    for (const Node* n : *pruned) placed_[n] = Placement{devices_.cpu(), "test"};
    auto pg = CopyForPlan(d, f, t, *pruned, placed_, devices_.cpu());
    EXPECT_TRUE(pg.ok()) << pg.status();
    return std::move(*pg);
  }
  // Ops of the nodes the fetches and targets reach, in graph order.
  static std::vector<std::string> Ops(const PlanGraph& g) {
    auto live = Reachable(g);
    std::vector<std::string> ops;
    for (int id = 0; id < g.graph->num_nodes(); ++id) {
      if (live.contains(g.graph->node(id))) ops.push_back(g.graph->node(id)->type_string());
    }
    return ops;
  }
  using V = std::vector<std::string>;

  DeviceSet devices_ = DeviceSet::Local();
  PlacementMap placed_;
};

TEST_F(PassesTest, PruneStopsAtFeedsAndNamesAnUnfedPlaceholder) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT);
  auto y = Neg(s, x);
  auto z = Exp(s, y);
  auto pruned = Prune({{z.node(), 0}}, {}, {y.node()});
  ASSERT_TRUE(pruned.ok());
  EXPECT_EQ(pruned->size(), 1u);  // Exp only: Neg is fed, x not needed
  auto unfed = Prune({{z.node(), 0}}, {}, {});
  EXPECT_EQ(unfed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(unfed.status().message().find("'x'"), std::string::npos) << unfed.status();
}

TEST_F(PassesTest, CopyMakesFedNodesPlaceholdersAndLeavesTheUserGraphAlone) {
  Scope s = Scope::NewRootScope();
  auto c = Const(s.WithOpName("c"), {1.f, 2.f});
  auto y = Mul(s.WithOpName("y"), c, c);
  const int before = s.graph()->num_nodes();
  PlanGraph g = Copy(s, {y}, {c});
  EXPECT_EQ(s.graph()->num_nodes(), before);
  EXPECT_EQ(g.feeds[0].node->type_string(), "Placeholder");
  EXPECT_EQ(g.feeds[0].node->name(), "c");
  // Folding cannot see through the feed: its value is the caller's.
  auto folded = FoldConstants(g, {});
  ASSERT_TRUE(folded.ok());
  EXPECT_EQ(Ops(*folded), (V{"Placeholder", "Mul"}));
}

TEST_F(PassesTest, ConstantFoldingComputesChainsOnceAndLeavesStatefulOps) {
  Scope s = Scope::NewRootScope();
  auto a = Const(s, {1.f, 2.f, 3.f});
  auto b = Add(s.WithOpName("b"), a, a);
  auto c = Mul(s.WithOpName("c"), b, b);               // a chain: folds to one constant
  auto r = RandomUniform(s, Const(s, {3}), DT_FLOAT);  // stateful: stays
  auto d = Add(s.WithOpName("d"), c, r);
  auto g = FoldConstants(Copy(s, {d, b}), {});
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(Ops(*g), (V{"Const", "Const", "Const", "RandomUniform", "Add"}));  // b, c, shape
  const Node* folded = g->graph->FindNode("c");
  ASSERT_NE(folded, nullptr);
  ASSERT_TRUE(folded->IsConstant());
  ExpectTensorNear(*folded->constant_value(), DT_FLOAT, {3}, {4, 16, 36}, 0);
  EXPECT_EQ(g->fetches[1].node->name(), "b");  // fetched: folded too, under its name
  EXPECT_TRUE(g->fetches[1].node->IsConstant());
}

TEST_F(PassesTest, ConstantFoldingRespectsItsCapAndKernelErrors) {
  Scope s = Scope::NewRootScope();
  auto big = Fill(s, Const(s, {1000, 1000}), Const(s, 1.f));  // 4 MB
  auto bad = Div(s, Const(s, {1, 2}), Const(s, {1, 0}));      // integer division by zero
  OptimizeOptions small;
  small.max_folded_bytes = 1 << 20;
  auto g = FoldConstants(Copy(s, {big, bad}), small);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->fetches[0].node->type_string(), "Fill");  // over the cap
  EXPECT_EQ(g->fetches[1].node->type_string(), "Div");   // fails: left to the run
  auto unlimited = FoldConstants(Copy(s, {big}), {});
  ASSERT_TRUE(unlimited.ok());
  EXPECT_TRUE(unlimited->fetches[0].node->IsConstant());
}

TEST_F(PassesTest, CommonSubexpressionsMergeButDrawsAndInputsDoNot) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT);
  auto x2 = Placeholder(s.WithOpName("x2"), DT_FLOAT);
  auto a = Exp(s, x);
  auto b = Exp(s, x);  // the same as a
  auto r1 = RandomUniform(s, Const(s, {2}), DT_FLOAT);
  auto r2 = RandomUniform(s, Const(s, {2}), DT_FLOAT);
  auto c1 = Const(s, {0.5f, -0.f});
  auto c2 = Const(s, {0.5f, 0.f});  // differs from c1 in a sign bit
  auto out = AddN(s, {Add(s, a, b), r1, r2, Mul(s, x, x2), c1, c2});
  auto g = EliminateCommonSubexpressions(Copy(s, {out}, {x, x2}));
  ASSERT_TRUE(g.ok()) << g.status();
  V ops = Ops(*g);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "Exp"), 1);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "RandomUniform"), 2);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "Placeholder"), 2);
  // Two shape constants {2} merge; the two float constants stay apart.
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "Const"), 3);
}

TEST_F(PassesTest, ArithmeticSimplificationKeepsShapesAndSnapshots) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT, Placeholder::Shape({2, 3}));
  auto one = Mul(s.WithOpName("one"), x, Const(s, 1.f));
  auto zero = Add(s.WithOpName("zero"), Const(s, {{0.f, 0.f, 0.f}}), x);  // [1,3]: not all 1s
  auto back = Transpose(s.WithOpName("back"), Transpose(s, x, {1, 0}), {1, 0});
  auto reshaped = Reshape(s.WithOpName("rr"), Reshape(s, x, {3, 2}), {6});
  auto ids = Identity(s.WithOpName("ids"), Identity(s, x));
  auto v = Variable(s.WithOpName("v"), PartialTensorShape({2}), DT_FLOAT);
  auto snap = Identity(s.WithOpName("snap"), v);
  auto s_widen = Mul(s.WithOpName("widen"), Const(s, 1.f), Placeholder(s, DT_FLOAT));
  auto g = SimplifyArithmetic(Copy(s, {one, zero, back, reshaped, ids, snap}, {x}));
  ASSERT_TRUE(g.ok()) << g.status();
  const Node* xp = g->feeds[0].node;
  EXPECT_EQ(g->fetches[0].node, xp);                    // x * 1
  EXPECT_EQ(g->fetches[1].node->type_string(), "Add");  // broadcasts a [1,3] zeros: kept
  EXPECT_EQ(g->fetches[2].node, xp);                    // transposes undone
  EXPECT_EQ(g->fetches[3].node->type_string(), "Reshape");
  EXPECT_EQ(g->fetches[3].node->input(0).node, xp);          // one reshape of x
  EXPECT_EQ(g->fetches[4].node, xp);                         // identity chain
  EXPECT_EQ(g->fetches[5].node->type_string(), "Identity");  // a variable's snapshot stays
  (void)s_widen;
}

TEST_F(PassesTest, ForwardFusionNeedsTheBiasAddToBeItsOwn) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT, Placeholder::Shape({2, 3}));
  auto b = Const(s, {1.f, 2.f, 3.f});
  auto fused = Relu(s.WithOpName("act"), BiasAdd(s, x, b));
  auto shared = BiasAdd(s.WithOpName("shared"), x, Const(s, {0.f, 1.f, 2.f}));
  auto tanh = Tanh(s.WithOpName("tanh"), shared);
  auto g = FuseForward(Copy(s, {fused, tanh, shared}, {x}));
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->fetches[0].node->type_string(), "_BiasActivation");
  EXPECT_EQ(g->fetches[0].node->name(), "act");
  EXPECT_EQ(g->replaces.at(g->fetches[0].node), (V{"BiasAdd", "act"}));
  EXPECT_EQ(g->fetches[1].node->type_string(), "Tanh");  // its BiasAdd is fetched
}

// A MatMul or Conv2D read only by the fused BiasAdd joins the fusion, whatever the order
// its bias was made in; one read elsewhere stays and the BiasAdd fuses alone.
TEST_F(PassesTest, ForwardFusionTakesTheProductReadOnlyByItsBiasAdd) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT, Placeholder::Shape({2, 3}));
  auto w = Const(s, {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  auto m = MatMul(s.WithOpName("mm"), x, w);
  auto b = Const(s.WithOpName("b"), {1.f, 2.f});  // made after the MatMul
  auto dense = Relu(s.WithOpName("act"), BiasAdd(s.WithOpName("bias"), m, b));
  auto shared = MatMul(s.WithOpName("shared"), x, w);
  auto other = Tanh(s, BiasAdd(s, shared, b));
  auto img = Placeholder(s.WithOpName("img"), DT_FLOAT, Placeholder::Shape({1, 4, 4, 2}));
  auto conv = Conv2D(s.WithOpName("conv"), img, RandomTensor(DT_FLOAT, {3, 3, 2, 2}, -1, 1, 3),
                     {1, 2, 2, 1}, "SAME");
  auto conv_act = Sigmoid(s.WithOpName("conv_act"), BiasAdd(s, conv, b));
  auto g = FuseForward(Copy(s, {dense, other, shared, conv_act}, {x, img}));
  ASSERT_TRUE(g.ok()) << g.status();
  const Node* f = g->fetches[0].node;
  EXPECT_EQ(f->type_string(), "_FusedMatMul");
  EXPECT_EQ(f->name(), "act");
  EXPECT_EQ(f->attr<std::vector<std::string>>("fused_ops"),
            (std::vector<std::string>{"BiasAdd", "Relu"}));
  EXPECT_EQ(f->attr<int64_t>("num_args"), 1);
  EXPECT_EQ(g->replaces.at(f), (V{"mm", "bias", "act"}));
  ASSERT_EQ(f->num_inputs(), 3);
  EXPECT_EQ(f->input(0).node->name(), "x");
  EXPECT_EQ(f->input(2).node->name(), "b");
  EXPECT_EQ(g->fetches[1].node->type_string(), "_BiasActivation");  // "shared" is fetched
  EXPECT_EQ(g->fetches[1].node->input(0).node, g->fetches[2].node);
  const Node* c = g->fetches[3].node;
  EXPECT_EQ(c->type_string(), "_FusedConv2D");
  EXPECT_EQ(c->attr<std::vector<int64_t>>("strides"), (std::vector<int64_t>{1, 2, 2, 1}));
  EXPECT_EQ(c->attr<std::string>("padding"), "SAME");
  EXPECT_EQ(c->attr<std::vector<std::string>>("fused_ops"),
            (std::vector<std::string>{"BiasAdd", "Sigmoid"}));
  for (int id = 0; id < g->graph->num_nodes(); ++id) {  // no orphaned product is left
    const std::string& op = g->graph->node(id)->type_string();
    EXPECT_TRUE(op != "Conv2D") << g->graph->node(id)->name();
  }
}

TEST_F(PassesTest, BackwardFusionTakesTheActivationAndBiasGradients) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT, Placeholder::Shape({2, 3}));
  auto g0 = Placeholder(s.WithOpName("g"), DT_FLOAT, Placeholder::Shape({2, 3}));
  auto pre = BiasAdd(s, x, Const(s, {1.f, -2.f, 3.f}));
  auto y = Relu(s, pre);
  auto dpre = ReluGrad(s, g0, pre);
  auto db = BiasAddGrad(s.WithOpName("db"), dpre);
  auto dx = Neg(s, dpre);  // another reader of the activation's gradient
  auto g = FuseBackward(Copy(s, {db, dx, y}, {x, g0}));
  ASSERT_TRUE(g.ok()) << g.status();
  const Node* f = g->fetches[0].node;
  EXPECT_EQ(f->type_string(), "_BiasActivationGrad");
  EXPECT_EQ(g->fetches[0].index, 1);
  EXPECT_EQ(f->name(), "db");
  EXPECT_EQ(g->fetches[1].node->input(0).node, f);     // Neg reads output 0
  EXPECT_EQ(f->input(1).node->type_string(), "Relu");  // masks by the activation's output
  // The BiasAdd now feeds only the Relu: the forward rule takes it.
  auto fwd = FuseForward(*g);
  ASSERT_TRUE(fwd.ok()) << fwd.status();
  EXPECT_EQ(fwd->fetches[2].node->type_string(), "_BiasActivation");
}

TEST_F(PassesTest, WeightUpdateTakesOverTheMatMulUnlessItReadsAVariable) {
  Scope s = Scope::NewRootScope();
  auto a = Placeholder(s.WithOpName("a"), DT_FLOAT, Placeholder::Shape({4, 2}));
  auto b = Placeholder(s.WithOpName("b"), DT_FLOAT, Placeholder::Shape({4, 3}));
  auto w = Variable(s.WithOpName("w"), PartialTensorShape({2, 3}), DT_FLOAT);
  auto u = Variable(s.WithOpName("u"), PartialTensorShape({2, 3}), DT_FLOAT);
  auto grad = MatMul(s, a, b, MatMul::TransposeA(true));
  NoOp barrier(s.WithControlDependencies({grad.operation}).WithOpName("barrier"));
  auto upd = ApplyGradientDescent(s.WithControlDependencies({barrier.operation}).WithOpName("upd"),
                                  w, Const(s, 0.1f), grad);
  auto v = Variable(s.WithOpName("v"), PartialTensorShape({2, 4}), DT_FLOAT);
  auto from_var =
      ApplyGradientDescent(s.WithOpName("from_var"), u, Const(s, 0.1f), MatMul(s, v, b));
  auto g = FuseBackward(Copy(s, {}, {a, b}, {upd.operation, from_var.operation}));
  ASSERT_TRUE(g.ok()) << g.status();
  const Node* fused = g->graph->FindNode("upd");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->type_string(), "_MatMulApplyGradientDescent");
  EXPECT_TRUE(fused->attr<bool>("transpose_a"));
  // The barrier waited on the MatMul; now it waits on what the MatMul read.
  const Node* bar = g->graph->FindNode("barrier");
  ASSERT_NE(bar, nullptr);
  EXPECT_EQ(bar->control_inputs().size(), 2u);
  EXPECT_EQ(g->graph->FindNode("from_var")->type_string(), "ApplyGradientDescent");
}

// A While whose gradient was taken: its outputs and its _WhileRecord twin's in one plan
// run one loop; a record of other inputs stays apart.
TEST_F(PassesTest, ALoopAndTheRecordOfItsGradientRunOnce) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT);
  auto x2 = Placeholder(s.WithOpName("x2"), DT_FLOAT);
  auto loop = [&](const Output& init, const std::string& name) {
    OutputList out;
    EXPECT_TRUE(BuildWhileLoop(
                    s, {Const(s, 0), init},
                    [](const Scope& t, const std::vector<Output>& v, Output* o) {
                      *o = Less(t, v[0], 3);
                      return t.status();
                    },
                    [](const Scope& t, const std::vector<Output>& v, std::vector<Output>* o) {
                      *o = {Add(t, v[0], 1), Sin(t, v[1])};
                      return t.status();
                    },
                    name, &out)
                    .ok());
    return out[1];
  };
  Output y = loop(x, "loop");
  std::vector<Output> grads;
  ASSERT_TRUE(AddSymbolicGradients(s, {y}, {x}, &grads).ok());
  PlanGraph g = Copy(s, {y, grads[0]}, {x});
  auto merged = MergeLoopTwins(g);
  ASSERT_TRUE(merged.ok()) << merged.status();
  std::vector<std::string> ops = Ops(*merged);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "_WhileRecord"), 1);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "While"), 1);  // the backward loop alone
  const Node* fetched = merged->fetches[0].node;
  EXPECT_EQ(fetched->type_string(), "_WhileRecord");
  EXPECT_EQ(merged->replaces.at(fetched), (V{fetched->name(), "loop"}));
  // The same values as the two loops give, forward and backward.
  Session session(s);
  std::vector<Tensor> got;
  ASSERT_TRUE(session.Run({{x, {0.5f, -1.f}}}, {y, grads[0]}, &got).ok());
  std::vector<double> want_y, want_dx;
  for (double v : {0.5, -1.0}) {
    double d = 1;
    for (int k = 0; k < 3; ++k) d *= std::cos(v), v = std::sin(v);
    want_y.push_back(v);
    want_dx.push_back(d);
  }
  ExpectTensorNear(got[0], DT_FLOAT, TensorShape({2}), want_y, 1e-6);
  ExpectTensorNear(got[1], DT_FLOAT, TensorShape({2}), want_dx, 1e-6);
  // A record of another loop's inputs is no twin.
  Output y2 = loop(x2, "other");
  PlanGraph apart = Copy(s, {y2, grads[0]}, {x, x2});
  auto kept = MergeLoopTwins(apart);
  ASSERT_TRUE(kept.ok()) << kept.status();
  ops = Ops(*kept);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "While"), 2);
}

// Loop variables nothing reads leave the While: here d, whose final value no one reads
// and on which neither the condition nor a read variable depends. b stays: the read a
// depends on it; i stays: the condition reads it.
TEST_F(PassesTest, LoopVariablesNothingNeedsLeaveTheLoop) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s.WithOpName("x"), DT_FLOAT);
  OutputList out;
  ASSERT_TRUE(BuildWhileLoop(
                  s, {Const(s, 0), x, x, x},
                  [](const Scope& t, const std::vector<Output>& v, Output* o) {
                    *o = Less(t, v[0], 3);
                    return t.status();
                  },
                  [](const Scope& t, const std::vector<Output>& v, std::vector<Output>* o) {
                    *o = {Add(t, v[0], 1), Add(t, v[1], v[2]), Mul(t, v[2], 2.f), Exp(t, v[3])};
                    return t.status();
                  },
                  "loop", &out)
                  .ok());
  PlanGraph g = Copy(s, {out[1]}, {x});
  auto pruned = PruneLoopVariables(g);
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  const Node* loop = pruned->fetches[0].node;
  ASSERT_EQ(loop->type_string(), "While");
  EXPECT_EQ(loop->attr<std::vector<DataType>>("T"),
            (std::vector<DataType>{DT_INT32, DT_FLOAT, DT_FLOAT}));
  EXPECT_EQ(pruned->fetches[0].index, 1);
  EXPECT_EQ(loop->attr<FunctionRef>("body")->num_rets(), 3);
  // Fetching d too keeps all four; the Session computes what the graph says either way.
  auto all = PruneLoopVariables(Copy(s, {out[1], out[3]}, {x}));
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->fetches[0].node->attr<std::vector<DataType>>("T").size(), 4u);
  Session session(s);
  std::vector<Tensor> got;
  ASSERT_TRUE(session.Run({{x, 1.f}}, {out[1]}, &got).ok());
  EXPECT_EQ(got[0].scalar<float>()(), 1 + 1 + 2 + 4);  // a += b with b = 1, 2, 4
  ASSERT_TRUE(session.Run({{x, 1.f}}, {out[1], out[3]}, &got).ok());
  EXPECT_NEAR(got[1].scalar<float>()() / std::exp(std::exp(std::exp(1.0))), 1, 1e-5);
}

}  // namespace passes_test
}  // namespace
}  // namespace rill
