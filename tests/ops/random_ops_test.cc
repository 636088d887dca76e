// Random ops: the same seeds give the same numbers in every Session; successive runs give
// new numbers; the distributions have the right moments and bounds.
#include <cmath>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace random_ops_test {

MarkTested tested({"RandomUniform", "RandomStandardNormal", "TruncatedNormal"});

std::vector<double> Draw(int which, DataType dt, int64_t seed, int runs) {
  Scope root = Scope::NewRootScope();
  auto shape = ops::Const(root, {20000});
  auto attrs = ops::RandomAttrs().Seed(seed).Seed2(7);
  Output r = which == 0   ? Output(ops::RandomUniform(root, shape, dt, attrs))
             : which == 1 ? Output(ops::RandomNormal(root, shape, dt, attrs))
                          : Output(ops::TruncatedNormal(root, shape, dt, attrs));
  Session session(root);
  std::vector<double> all;
  for (int i = 0; i < runs; ++i) {
    std::vector<Tensor> out;
    EXPECT_TRUE(session.Run({r}, &out).ok());
    auto v = ToDoubles(out[0]);
    all.insert(all.end(), v.begin(), v.end());
  }
  return all;
}

TEST(RandomOps, SameSeedSameNumbersAcrossSessions) {
  for (int which = 0; which < 3; ++which) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      auto a = Draw(which, dt, 42, 2), b = Draw(which, dt, 42, 2), c = Draw(which, dt, 43, 1);
      EXPECT_EQ(a, b);
      EXPECT_NE(std::vector<double>(a.begin(), a.begin() + 20000),
                std::vector<double>(a.begin() + 20000, a.end()))
          << "a second run must continue the sequence";
      EXPECT_NE(std::vector<double>(a.begin(), a.begin() + 20000), c);
    }
  }
}

TEST(RandomOps, Moments) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    auto moments = [](const std::vector<double>& v, double* mean, double* sd, double* lo,
                      double* hi) {
      double s = 0, s2 = 0;
      *lo = 1e9, *hi = -1e9;
      for (double x : v) s += x, s2 += x * x, *lo = std::min(*lo, x), *hi = std::max(*hi, x);
      *mean = s / v.size();
      *sd = std::sqrt(s2 / v.size() - *mean * *mean);
    };
    double mean, sd, lo, hi;
    moments(Draw(0, dt, 1, 5), &mean, &sd, &lo, &hi);  // 100k samples
    EXPECT_NEAR(mean, 0.5, 0.005);
    EXPECT_NEAR(sd, std::sqrt(1.0 / 12), 0.005);
    EXPECT_GE(lo, 0.0);
    EXPECT_LT(hi, 1.0);
    moments(Draw(1, dt, 2, 5), &mean, &sd, &lo, &hi);
    EXPECT_NEAR(mean, 0.0, 0.015);
    EXPECT_NEAR(sd, 1.0, 0.015);
    EXPECT_LT(lo, -3.5);
    moments(Draw(2, dt, 3, 5), &mean, &sd, &lo, &hi);
    EXPECT_NEAR(mean, 0.0, 0.015);
    EXPECT_NEAR(sd, 0.8796, 0.015);  // standard deviation of N(0,1) truncated at +-2
    EXPECT_GT(lo, -2.0);
    EXPECT_LT(hi, 2.0);
  }
}

TEST(RandomOps, BadInputs) {
  auto f = [](const Scope& s, const auto& in) { return ops::RandomUniform(s, in[0], DT_FLOAT); };
  for (Tensor shape :
       {FromDoubles(DT_INT32, {2}, {2, -1}), Tensor(int32_t{3}),
        FromDoubles(DT_INT64, {3}, {1 << 30, 1 << 30, 1 << 30}), FromDoubles(DT_FLOAT, {1}, {2})}) {
    EXPECT_EQ(RunOpConst(f, {shape}).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(RunOp(f, {shape}).status().code(), absl::StatusCode::kInvalidArgument);
  }
  Scope root = Scope::NewRootScope();
  ops::RandomNormal(root, {2}, DT_INT32);
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace random_ops_test
}  // namespace
}  // namespace rill::testing
