// Assert and Print: TensorFlow's messages, an assert guarding a value by a control edge and
// one inside a branch that is not taken, Print's line and its first_n count, neither op
// folded away by the optimizer.
#include <chrono>
#include <thread>

#include "absl/strings/match.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/ops/control_flow_ops.h"
#include "rill/ops/debug_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace assert_print_test {

MarkTested tested({"Assert", "Print", "Timestamp"});

TEST(Assert, PassesOrFailsWithTheDataSummarized) {
  Scope root = Scope::NewRootScope();
  auto cond = ops::Placeholder(root, DT_BOOL);
  auto x = ops::Placeholder(root, DT_INT32);
  auto y = ops::Placeholder(root, DT_FLOAT);
  ops::Assert three(root.WithOpName("three"), cond, {x, y});
  ops::Assert all(root.WithOpName("all"), cond, {x}, ops::Assert::Summarize(-1));
  ops::Assert one(root.WithOpName("one"), cond, {y}, ops::Assert::Summarize(1));
  Session session(root);
  const Session::FeedType ok = {{cond, true}, {x, {1, 2, 3, 4}}, {y, {0.5f, 2.f}}};
  RILL_EXPECT_OK(session.Run(ok, {}, {three, all, one}, nullptr));
  const Session::FeedType bad = {{cond, false}, {x, {1, 2, 3, 4}}, {y, {0.5f, 2.f}}};
  const std::pair<Operation, std::string> cases[] = {
      {three, "assertion failed: [1 2 3...] [0.5 2]"},
      {all, "assertion failed: [1 2 3 4]"},
      {one, "assertion failed: [0.5...]"}};
  for (const auto& [op, message] : cases) {
    absl::Status st = session.Run(bad, {}, {op}, nullptr);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
    EXPECT_TRUE(absl::StrContains(st.message(), message)) << st;
    EXPECT_TRUE(absl::StrContains(st.message(), op.node()->name())) << st;
  }
}

// tf.debugging's pattern: the checked value waits on the assert, by a control edge. A
// constant condition is not folded away: the assert runs every time.
TEST(Assert, GuardsWhatWaitsOnIt) {
  for (bool optimize : {true, false}) {
    Scope root = Scope::NewRootScope();
    auto x = ops::Placeholder(root, DT_FLOAT);
    auto positive = ops::Assert(root, ops::All(root, ops::Greater(root, x, 0.f), {0}), {x});
    auto root_x = ops::Sqrt(root.WithControlDependencies({positive.operation}), x);
    auto never = ops::Assert(root, ops::Const(root, false), {ops::Const(root, 7)});
    SessionOptions opts;
    opts.optimize_graph = optimize;
    Session session(root, opts);
    std::vector<Tensor> got;
    RILL_ASSERT_OK(session.Run({{x, {4.f, 9.f}}}, {root_x}, &got));
    EXPECT_EQ(ToDoubles(got[0]), std::vector<double>({2, 3}));
    absl::Status st = session.Run({{x, {4.f, -1.f}}}, {root_x}, &got);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
    EXPECT_TRUE(absl::StrContains(st.message(), "assertion failed: [4 -1]")) << st;
    for (int run = 0; run < 2; ++run) {
      EXPECT_EQ(session.Run({}, {}, {never.operation}, nullptr).code(),
                absl::StatusCode::kInvalidArgument);
    }
  }
}

// An assert in a tf.cond branch checks only when its branch is taken.
TEST(Assert, InAnUntakenBranchDoesNotRun) {
  Scope root = Scope::NewRootScope();
  auto pred = ops::Placeholder(root, DT_BOOL);
  auto x = ops::Placeholder(root, DT_FLOAT);
  ops::Switch sw(root, x, pred);
  // Only taken when pred is true; asserts x > 10 there.
  auto check = ops::Assert(root, ops::All(root, ops::Greater(root, sw.output_true, 10.f), {0}),
                           {sw.output_true});
  auto big = ops::Identity(root.WithControlDependencies({check.operation}), sw.output_true);
  ops::Merge m(root, {sw.output_false, big});
  Session session(root);
  std::vector<Tensor> got;
  RILL_ASSERT_OK(session.Run({{pred, false}, {x, {1.f}}}, {m.output}, &got));
  EXPECT_EQ(ToDoubles(got[0]), std::vector<double>({1}));
  EXPECT_EQ(session.Run({{pred, true}, {x, {1.f}}}, {m.output}, &got).code(),
            absl::StatusCode::kInvalidArgument);
  RILL_ASSERT_OK(session.Run({{pred, true}, {x, {11.f}}}, {m.output}, &got));
  EXPECT_EQ(ToDoubles(got[0]), std::vector<double>({11}));
}

TEST(Assert, AConditionThatIsNotOneBoolIsRefused) {
  Scope root = Scope::NewRootScope();
  ops::Assert(root, ops::Const(root, {true, true}), {});
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(root.status().message(), "In[0] should be a scalar: [2]"))
      << root.status();
  Scope r2 = Scope::NewRootScope();
  auto c = ops::Placeholder(r2, DT_BOOL);
  ops::Assert a(r2, c, {});
  Session session(r2);
  absl::Status st = session.Run({{c, {true}}}, {}, {a.operation}, nullptr);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "In[0] should be a scalar: [1]")) << st;
}

TEST(Print, PassesItsInputAndPrintsTheFirstNRuns) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto n = ops::Placeholder(root, DT_INT32);
  auto p = ops::Print(root, x, {n, x}, ops::Print::Message("x and n: ").FirstN(2));
  auto y = ops::Mul(root, p, 2.f);
  Session session(root);
  std::vector<Tensor> got;
  ::testing::internal::CaptureStderr();
  for (int run = 0; run < 3; ++run) {
    RILL_ASSERT_OK(session.Run({{x, {1.5f, 2.f}}, {n, {7, 8, 9, 10}}}, {y}, &got));
    EXPECT_EQ(ToDoubles(got[0]), std::vector<double>({3, 4}));
  }
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed, "x and n: [7 8 9...][1.5 2]\nx and n: [7 8 9...][1.5 2]\n");
}

TEST(Print, SummarizeAndDefaults) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, {1, 2, 3, 4, 5});
  auto every = ops::Print(root, x, {x}, ops::Print::Summarize(-1));
  auto plain = ops::Print(root, x, {});
  Session session(root);
  std::vector<Tensor> got;
  ::testing::internal::CaptureStderr();
  RILL_ASSERT_OK(session.Run({every, plain}, &got));
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(absl::StrContains(printed, "[1 2 3 4 5]\n")) << printed;
  EXPECT_EQ(got[1].NumElements(), 5);
}

// Each run reads the clock again (stateful: not folded into a constant).
TEST(Timestamp, ReadsTheClockInEachRun) {
  Scope root = Scope::NewRootScope();
  ops::Timestamp ts(root);
  EXPECT_EQ(ts.output.shape(), PartialTensorShape(TensorShape()));
  Session session(root);
  std::vector<Tensor> first, second;
  const double before =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  RILL_ASSERT_OK(session.Run({ts}, &first));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  RILL_ASSERT_OK(session.Run({ts}, &second));
  const double t1 = first[0].scalar<double>()(), t2 = second[0].scalar<double>()();
  EXPECT_GE(t1, before);
  EXPECT_GE(t2 - t1, 0.015);
  EXPECT_LT(t2 - before, 60);
}

}  // namespace assert_print_test
}  // namespace
}  // namespace rill::testing
