// BatchNormWithGlobalNormalization and its gradient op: values by hand (TensorFlow's
// kernel test's), with and without scale_after_normalization, the gradient of every input
// against central differences, the second derivative refused.
#include "absl/strings/match.h"
#include "gradient_checker.h"
#include "rill/ops/batch_norm_global_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace batch_norm_global_test {

MarkTested tested({"BatchNormWithGlobalNormalization", "BatchNormWithGlobalNormalizationGrad"});

GradBuildFn Norm(bool scale) {
  return [scale](const Scope& s, const std::vector<Output>& in) {
    return Output(
        ops::BatchNormWithGlobalNormalization(s, in[0], in[1], in[2], in[3], in[4], 0.001f, scale));
  };
}

TEST(BatchNormWithGlobalNormalization, ValuesByHand) {
  const std::vector<double> t = {1, 4, 2, 5, 3, 6, -1, -4, -2, -5, -3, -6};
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    std::vector<Tensor> in = {FromDoubles(dt, {1, 1, 6, 2}, t), FromDoubles(dt, {2}, {10, 20}),
                              FromDoubles(dt, {2}, {0.25, 0.5}), FromDoubles(dt, {2}, {0.1, 0.6}),
                              FromDoubles(dt, {2}, {2, 3})};
    for (bool scale : {false, true}) {
      std::vector<double> want;
      for (size_t i = 0; i < t.size(); ++i) {
        const size_t c = i % 2;
        const double m = c ? 20 : 10, v = c ? 0.5 : 0.25, beta = c ? 0.6 : 0.1;
        const double gamma = scale ? (c ? 3 : 2) : 1;
        want.push_back((t[i] - m) / std::sqrt(v + 0.001f) * gamma + beta);
      }
      auto got = RunOp(Norm(scale), in);
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, {1, 1, 6, 2}, want, 1e-5);
    }
  }
}

TEST(BatchNormWithGlobalNormalization, GradientsMatchNumericAndStopAtSecondOrder) {
  for (bool scale : {false, true}) {
    ExpectGradientMatchesNumeric(
        Norm(scale),
        {RandomTensor(DT_DOUBLE, {2, 2, 1, 3}, -1, 1, 1), RandomTensor(DT_DOUBLE, {3}, -1, 1, 2),
         RandomTensor(DT_DOUBLE, {3}, 0.5, 1.5, 3), RandomTensor(DT_DOUBLE, {3}, -1, 1, 4),
         RandomTensor(DT_DOUBLE, {3}, 0.5, 2, 5)});
  }
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto c = ops::Const(s, {1.0f, 2.0f});
  auto y = ops::BatchNormWithGlobalNormalization(s, x, c, c, c, c, 0.001f, true);
  std::vector<Output> dx, ddx;
  ASSERT_TRUE(ops::AddSymbolicGradients(s, {y}, {x}, &dx).ok());
  const absl::Status st = ops::AddSymbolicGradients(s, {dx[0]}, {x}, &ddx);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "second derivatives")) << st;
}

const bool kMarked = [] {
  GradTestedOps().insert(
      {"BatchNormWithGlobalNormalization", "BatchNormWithGlobalNormalizationGrad"});
  return true;
}();

}  // namespace batch_norm_global_test
}  // namespace
}  // namespace rill::testing
