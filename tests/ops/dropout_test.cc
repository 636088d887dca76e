// Dropout: the kept fraction and scale, seeds, the mask output, and its gradient (checked
// exactly against the mask of the same run: a numeric check cannot, as each run draws a
// new mask).
#include "gradient_checker.h"
#include "rill/ops/gradients.h"

namespace rill::testing {
namespace {
namespace dropout_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"Dropout"});
struct MarkDropoutGradTested {
  MarkDropoutGradTested() { GradTestedOps().insert("Dropout"); }  // by the exact test below
} mark_dropout_grad_tested;

TEST(Dropout, KeepsOneMinusRateAndScales) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    Scope s = Scope::NewRootScope();
    auto x = Placeholder(s, dt);
    Dropout d(s, x, 0.3f, Dropout::Seed(5));
    Session session(s);
    std::vector<Tensor> out;
    Tensor ones = FromDoubles(dt, {100, 100}, std::vector<double>(10000, 2.0));
    ASSERT_TRUE(session.Run({{x, ones}}, {d.output, d.mask}, &out).ok());
    auto y = ToDoubles(out[0]), m = ToDoubles(out[1]);
    int zeros = 0;
    for (size_t i = 0; i < y.size(); ++i) {
      EXPECT_NEAR(y[i], 2.0 * m[i], 1e-6);
      if (m[i] == 0) {
        ++zeros;
      } else {
        EXPECT_NEAR(m[i], 1 / 0.7, 1e-6);
      }
    }
    EXPECT_NEAR(zeros / 10000.0, 0.3, 0.02);
    // The next run draws a new mask.
    std::vector<Tensor> again;
    ASSERT_TRUE(session.Run({{x, ones}}, {d.mask}, &again).ok());
    EXPECT_NE(ToDoubles(again[0]), m);
    // A new Session with the same seed starts the same sequence.
    Session other(s);
    ASSERT_TRUE(other.Run({{x, ones}}, {d.mask}, &again).ok());
    EXPECT_EQ(ToDoubles(again[0]), m);
  }
}

TEST(Dropout, RateZeroIsTheIdentityAndBadRatesAreStatus) {
  Tensor x = RandomTensor(DT_FLOAT, {3, 4}, -1, 1, 1);
  auto got =
      RunOp([](const Scope& s, const auto& in) { return Output(Dropout(s, in[0], 0.f)); }, {x});
  ASSERT_TRUE(got.ok());
  ExpectTensorNear(*got, DT_FLOAT, TensorShape({3, 4}), ToDoubles(x), 0);
  for (float rate : {1.f, 1.5f, -0.1f}) {
    auto bad = RunOp(
        [rate](const Scope& s, const auto& in) { return Output(Dropout(s, in[0], rate)); }, {x});
    EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  }
  auto ints = RunOp([](const Scope& s, const auto& in) { return Output(Dropout(s, in[0], 0.5f)); },
                    {Tensor(DT_INT32, TensorShape({2}))});
  EXPECT_EQ(ints.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Dropout, GradientIsTheMaskOfTheSameRun) {
  Scope s = Scope::NewRootScope();
  auto x = Placeholder(s, DT_DOUBLE);
  auto dy = Placeholder(s, DT_DOUBLE);
  Dropout d(s, x, 0.5f, Dropout::Seed(9));
  std::vector<Output> g;
  ASSERT_TRUE(AddSymbolicGradients(s, {d.output}, {x}, {dy}, &g).ok());
  Session session(s);
  std::vector<Tensor> out;
  Tensor xv = RandomTensor(DT_DOUBLE, {50}, -1, 1, 2),
         dyv = RandomTensor(DT_DOUBLE, {50}, -1, 1, 3);
  ASSERT_TRUE(session.Run({{x, xv}, {dy, dyv}}, {g[0], d.mask}, &out).ok());
  auto grad = ToDoubles(out[0]), mask = ToDoubles(out[1]), up = ToDoubles(dyv);
  for (size_t i = 0; i < grad.size(); ++i) EXPECT_DOUBLE_EQ(grad[i], up[i] * mask[i]);
}

}  // namespace dropout_test
}  // namespace
}  // namespace rill::testing
