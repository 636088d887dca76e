// Switch and Merge (TensorFlow 1's dataflow control flow): the branch a predicate takes
// runs and the other does not, dead values spread by data and control edges and stop at a
// Merge, a dead fetch is an error, updates under a branch happen only when it is taken,
// gradients take the forward pass's branch, and all of it with the optimizer on and off,
// with planned memory across alternating branches and from several threads at once.
#include <thread>

#include "absl/strings/match.h"
#include "rill/core/testing/status_test_util.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace switch_merge_test {

MarkTested tested({"Switch", "Merge"});

SessionOptions Optimized(bool on) {
  SessionOptions o;
  o.optimize_graph = on;
  return o;
}

// y = pred ? x + 10 : x * 2, as tf.cond builds it: one Switch, a branch on each output,
// a Merge of the two.
struct CondGraph {
  Scope root = Scope::NewRootScope();
  Output pred = ops::Placeholder(root, DT_BOOL);
  Output x = ops::Placeholder(root, DT_FLOAT);
  ops::Switch sw{root, x, pred};
  Output doubled = ops::Mul(root, sw.output_false, 2.f);
  Output shifted = ops::Add(root, sw.output_true, 10.f);
  ops::Merge merge{root, {doubled, shifted}};
};

TEST(SwitchMerge, TheTakenBranchRunsAndMergeForwardsIt) {
  for (bool optimize : {true, false}) {
    CondGraph g;
    EXPECT_EQ(g.merge.output.shape(), PartialTensorShape());  // unknown, as the inputs
    Session session(g.root, Optimized(optimize), CpuOnly());
    std::vector<Tensor> got;
    // Alternating branches: each run's memory differs from the one recorded before it.
    for (bool p : {true, false, false, true, true, false}) {
      RILL_ASSERT_OK(session.Run({{g.pred, p}, {g.x, {1.f, -2.f}}},
                                 {g.merge.output, g.merge.value_index}, &got));
      ExpectTensorNear(got[0], DT_FLOAT, TensorShape({2}),
                       p ? std::vector<double>{11, 8} : std::vector<double>{2, -4}, 0);
      EXPECT_EQ(got[1].scalar<int32_t>()(), p ? 1 : 0);
    }
  }
}

TEST(SwitchMerge, FetchingTheUntakenBranchIsAnError) {
  CondGraph g;
  Session session(g.root, SessionOptions(), CpuOnly());
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({{g.pred, true}, {g.x, 3.f}}, {g.sw.output_true, g.shifted}, &got));
  EXPECT_EQ(got[1].scalar<float>()(), 13.f);
  absl::Status st = session.Run({{g.pred, true}, {g.x, 3.f}}, {g.doubled}, &got);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "is dead in this run")) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), g.doubled.node()->name())) << st;
  // A dead target is no error: it just does not run.
  RILL_EXPECT_OK(session.Run({{g.pred, true}, {g.x, 3.f}}, {}, {g.doubled.op()}, nullptr));
  // The session is not harmed: the next run takes the other branch.
  RILL_ASSERT_OK(session.Run({{g.pred, false}, {g.x, 3.f}}, {g.doubled}, &got));
  EXPECT_EQ(got[0].scalar<float>()(), 6.f);
}

// A constant has no data input to be killed by, so each branch's constant waits on an
// Identity of its Switch output (tf.cond's pivot) by a control edge. The optimizer must
// neither fold nor remove what carries the deadness.
TEST(SwitchMerge, ControlEdgesFromADeadPivotKillConstants) {
  for (bool optimize : {true, false}) {
    Scope root = Scope::NewRootScope();
    auto pred = ops::Placeholder(root, DT_BOOL);
    ops::Switch sw(root, pred, pred);
    auto pivot_f = ops::Identity(root, sw.output_false);
    auto pivot_t = ops::Identity(root, sw.output_true);
    auto c_f = ops::Const(root.WithControlDependencies(pivot_f), {7, 8});
    auto c_t = ops::Const(root.WithControlDependencies(pivot_t), {1, 2});
    ops::Merge merge(root, {c_f, ops::Add(root, c_t, 100)});
    Session session(root, Optimized(optimize), CpuOnly());
    std::vector<Tensor> got;
    for (bool p : {false, true, false}) {
      RILL_ASSERT_OK(session.Run({{pred, p}}, {merge.output}, &got));
      EXPECT_EQ(ToDoubles(got[0]),
                p ? std::vector<double>({101, 102}) : std::vector<double>({7, 8}))
          << "optimize " << optimize << ", pred " << p;
    }
  }
}

// tf.cond(pred, lambda: v.assign_add(1), ...) in TensorFlow 1: the update runs only when
// its branch is taken.
TEST(SwitchMerge, AnUpdateUnderABranchRunsOnlyWhenItIsTaken) {
  Scope root = Scope::NewRootScope();
  auto pred = ops::Placeholder(root, DT_BOOL);
  auto counter = ops::Variable(root, 0);
  ops::Switch sw(root, pred, pred);
  auto tick =
      ops::AssignAdd(root.WithControlDependencies(ops::Identity(root, sw.output_true)), counter, 1);
  auto init = ops::GlobalVariablesInitializer(root);
  Session session(root);
  RILL_ASSERT_OK(session.Run({}, {}, {init}, nullptr));
  for (bool p : {true, false, true, true, false}) {
    RILL_ASSERT_OK(session.Run({{pred, p}}, {}, {tick.operation}, nullptr));
  }
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({}, {counter}, &got));
  EXPECT_EQ(got[0].scalar<int32_t>()(), 3);
}

// A Merge of live values (no Switch before it) forwards its first input.
TEST(SwitchMerge, MergeOfLiveInputsForwardsTheFirst) {
  Scope root = Scope::NewRootScope();
  ops::Merge merge(root, {ops::Const(root, {4.f, 5.f}), ops::Const(root, {6.f, 7.f, 8.f})});
  EXPECT_EQ(merge.output.shape(), PartialTensorShape({-1}));
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({}, {merge.output, merge.value_index}, &got));
  EXPECT_EQ(ToDoubles(got[0]), std::vector<double>({4, 5}));
  EXPECT_EQ(got[1].scalar<int32_t>()(), 0);
}

// An uninitialized variable read by a Merge is the usual error, not a dead input.
TEST(SwitchMerge, AMergeOfAnUninitializedVariableSaysSo) {
  Scope root = Scope::NewRootScope();
  auto v = ops::Variable(root.WithOpName("never_set"), {1}, DT_FLOAT);
  ops::Merge merge(root, {v, ops::Const(root, {2.f})});
  Session session(root);
  std::vector<Tensor> got;
  absl::Status st = session.Run({merge.output}, &got);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "uninitialized value never_set")) << st;
}

// A cond inside a branch: the inner Switch's input is dead when the outer branch is not
// taken, and so are both its outputs.
TEST(SwitchMerge, NestedCondsTakeTheirOwnBranches) {
  Scope root = Scope::NewRootScope();
  auto outer = ops::Placeholder(root, DT_BOOL);
  auto inner = ops::Placeholder(root, DT_BOOL);
  auto x = ops::Placeholder(root, DT_FLOAT);
  ops::Switch so(root, x, outer);
  ops::Switch si_x(root, so.output_true, inner);
  ops::Merge mi(root, {ops::Neg(root, si_x.output_false), ops::Square(root, si_x.output_true)});
  ops::Merge mo(root, {ops::Mul(root, so.output_false, 10.f), mi.output});
  Session session(root);
  std::vector<Tensor> got;
  const std::pair<bool, bool> runs[] = {{false, false}, {false, true}, {true, false}, {true, true}};
  for (auto [o, i] : runs) {
    RILL_ASSERT_OK(session.Run({{outer, o}, {inner, i}, {x, 3.f}}, {mo.output}, &got));
    EXPECT_EQ(got[0].scalar<float>()(), !o ? 30.f : (i ? 9.f : -3.f)) << o << i;
  }
}

// d/dx of pred ? 3x : x^2, plus x outside the cond: 3 + 1 or 2x + 1.
TEST(SwitchMerge, GradientsTakeTheForwardBranch) {
  for (bool optimize : {true, false}) {
    Scope root = Scope::NewRootScope();
    auto pred = ops::Placeholder(root, DT_BOOL);
    auto x = ops::Placeholder(root, DT_FLOAT);
    ops::Switch sw(root, x, pred);
    ops::Merge m(root, {ops::Square(root, sw.output_false), ops::Mul(root, sw.output_true, 3.f)});
    auto y = ops::Add(root, m.output, x);
    std::vector<Output> dx;
    RILL_ASSERT_OK(ops::AddSymbolicGradients(root, {y}, {x}, &dx));
    Session session(root, Optimized(optimize), CpuOnly());
    std::vector<Tensor> got;
    for (bool p : {true, false}) {
      RILL_ASSERT_OK(session.Run({{pred, p}, {x, 5.f}}, {y, dx[0]}, &got));
      EXPECT_EQ(got[0].scalar<float>()(), p ? 20.f : 30.f);
      EXPECT_EQ(got[1].scalar<float>()(), p ? 4.f : 11.f) << "pred " << p;
    }
  }
}

// One output's gradient alone (the other branch unused): the missing one is ZerosLike of
// the untaken output, dead with it, so x's gradient is zeros when y is not computed, as
// TensorFlow 1's cond gradient.
TEST(SwitchMerge, GradientThroughOneOutputOfASwitch) {
  Scope root = Scope::NewRootScope();
  auto pred = ops::Placeholder(root, DT_BOOL);
  auto x = ops::Placeholder(root, DT_FLOAT);
  ops::Switch sw(root, x, pred);
  auto y = ops::Mul(root, sw.output_true, 4.f);
  std::vector<Output> dx;
  RILL_ASSERT_OK(ops::AddSymbolicGradients(root, {y}, {x}, &dx));
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({{pred, true}, {x, {1.f, 2.f}}}, {dx[0]}, &got));
  EXPECT_EQ(ToDoubles(got[0]), std::vector<double>({4, 4}));
  RILL_ASSERT_OK(session.Run({{pred, false}, {x, {1.f, 2.f}}}, {dx[0]}, &got));
  EXPECT_EQ(ToDoubles(got[0]), std::vector<double>({0, 0}));
  EXPECT_EQ(session.Run({{pred, false}, {x, {1.f, 2.f}}}, {y}, &got).code(),
            absl::StatusCode::kInvalidArgument);  // y itself is dead then
}

TEST(SwitchMerge, ConcurrentRunsTakeTheirOwnBranches) {
  CondGraph g;
  SessionOptions opts;
  opts.inter_op_threads = 2;
  Session session(g.root, opts, CpuOnly());
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<Tensor> got;
      for (int i = 0; i < 50; ++i) {
        const bool p = (i + t) % 2 == 0;
        const float x = static_cast<float>(i);
        if (!session.Run({{g.pred, p}, {g.x, x}}, {g.merge.output}, &got).ok() ||
            got[0].scalar<float>()() != (p ? x + 10 : x * 2)) {
          ++wrong;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(SwitchMerge, BadPredicatesAreInvalidArgument) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  ops::Switch bad(root, x, ops::Const(root, {true, false}));
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(root.status().message(), "pred must be a scalar")) << root.status();
  Scope r2 = Scope::NewRootScope();
  auto p = ops::Placeholder(r2, DT_BOOL);
  auto x2 = ops::Placeholder(r2, DT_FLOAT);
  ops::Switch sw(r2, x2, p);
  Session session(r2, SessionOptions(), CpuOnly());
  std::vector<Tensor> got;
  absl::Status st = session.Run({{p, {true}}, {x2, 1.f}}, {sw.output_true}, &got);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "pred must be a scalar, got shape [1]")) << st;
}

// Switch has a GPU kernel (the predicate read on the host): its cases run there too.
std::vector<OpCase> SwitchCases() {
  auto take = [](bool p, bool which) {
    return [p, which](const Scope& s, const std::vector<Output>& in) {
      ops::Switch sw(s, in[0], ops::Const(s, p));
      return which ? sw.output_true : sw.output_false;
    };
  };
  const Tensor x = RandomTensor(DT_FLOAT, TensorShape({3, 5}), -2, 2, 7);
  const Tensor n = RandomTensor(DT_INT64, TensorShape({4}), -9, 9, 8);
  return {{"switch_true", take(true, true), {x}, 0, false},
          {"switch_false", take(false, false), {x}, 0, false},
          {"switch_int64", take(true, true), {n}, 0, false}};
}
RILL_OP_CASES(switch_merge, SwitchCases);

}  // namespace switch_merge_test
}  // namespace
}  // namespace rill::testing
