// LRN and LRNGrad: values against the definition written here in float64, the gradient
// against central differences, op cases for GPU parity, and the second derivative refused.
#include <cmath>

#include "gradient_checker.h"
#include "rill/ops/nn_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace lrn_test {

MarkTested tested({"LRN", "LRNGrad"});

// y[r, d] = x[r, d] / (bias + alpha * sum_{|j-d|<=radius} x[r, j]^2)^beta
std::vector<double> Reference(const Tensor& x, int64_t radius, double bias, double alpha,
                              double beta) {
  const std::vector<double> v = ToDoubles(x);
  const int64_t depth = x.dim_size(3);
  std::vector<double> y(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t d = static_cast<int64_t>(i) % depth, row = static_cast<int64_t>(i) - d;
    double sum = 0;
    for (int64_t j = std::max<int64_t>(0, d - radius); j <= std::min(depth - 1, d + radius); ++j) {
      sum += v[row + j] * v[row + j];
    }
    y[i] = v[i] / std::pow(bias + alpha * sum, beta);
  }
  return y;
}

TEST(Lrn, MatchesTheDefinition) {
  struct Attrs {
    int64_t radius;
    float bias, alpha, beta;
  };
  for (const Attrs a : {Attrs{5, 1, 1, 0.5f}, Attrs{2, 2, 1e-4f, 0.75f}, Attrs{0, 1, 0.5f, 1},
                        Attrs{1, 0.5f, 2, 0}}) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(DataTypeString(dt) + " radius " + std::to_string(a.radius));
      const Tensor x = RandomTensor(dt, {2, 3, 2, 7}, -2, 2, 1);
      auto got = RunOp(
          [a](const Scope& s, const auto& in) {
            return ops::LRN(
                s, in[0], ops::LRN::DepthRadius(a.radius).Bias(a.bias).Alpha(a.alpha).Beta(a.beta));
          },
          {x});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, {2, 3, 2, 7}, Reference(x, a.radius, a.bias, a.alpha, a.beta),
                       dt == DT_FLOAT ? 1e-5 : 1e-12);
    }
  }
}

TEST(Lrn, GradientMatchesNumericAndStopsAtSecondOrder) {
  for (int64_t radius : {1, 5}) {
    ExpectGradientMatchesNumeric(
        [radius](const Scope& s, const std::vector<Output>& in) {
          return Output(ops::LRN(s, in[0], ops::LRN::DepthRadius(radius).Alpha(0.3f).Beta(0.75f)));
        },
        {RandomTensor(DT_DOUBLE, {1, 2, 2, 6}, -1, 1, 2)});
  }
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT);
  auto dy = ops::Placeholder(s, DT_FLOAT);
  auto dx = ops::internal::LRNGrad(s, dy, x, ops::LRN(s, x));
  std::vector<Output> grads;
  const absl::Status st = ops::AddSymbolicGradients(s, {dx}, {x}, &grads);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  EXPECT_NE(st.message().find("second derivatives of LRN"), std::string::npos) << st;
}

const bool kMarked = [] {
  GradTestedOps().insert({"LRN", "LRNGrad"});  // LRNGrad's: the refusal above
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  const Tensor x = RandomTensor(DT_FLOAT, {2, 4, 3, 9}, -2, 2, 3);
  c.push_back({"LRN",
               [](const Scope& s, const auto& in) {
                 return ops::LRN(s, in[0], ops::LRN::DepthRadius(2).Alpha(0.5f).Beta(0.75f));
               },
               {x}});
  c.push_back({"LRNGrad",
               [](const Scope& s, const auto& in) {
                 const auto attrs = ops::LRN::DepthRadius(3).Bias(2).Alpha(0.2f);
                 return ops::internal::LRNGrad(s, in[1], in[0], ops::LRN(s, in[0], attrs), attrs);
               },
               {x, RandomTensor(DT_FLOAT, {2, 4, 3, 9}, -1, 1, 4)}});
  return c;
}

}  // namespace lrn_test
}  // namespace

RILL_OP_CASES(lrn, lrn_test::Cases);

}  // namespace rill::testing
