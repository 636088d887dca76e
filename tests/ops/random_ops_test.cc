// Random ops: the same seeds give the same numbers in every Session; successive runs give
// new numbers; the distributions have the right moments and bounds; RandomUniformInt and
// Multinomial by their rules. (The op cases check that a GPU draws the CPU's numbers.)
#include <cmath>
#include <limits>

#include "rill/core/philox.h"
#include "rill/core/random_state.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace random_ops_test {

MarkTested tested({"RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt",
                   "Multinomial"});

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

// The values of `out` over `runs` runs of one Session (or on `device`).
std::vector<std::vector<double>> Runs(const Scope& root, Output out, int runs) {
  Session session(root);
  std::vector<std::vector<double>> all;
  for (int i = 0; i < runs; ++i) {
    std::vector<Tensor> got;
    absl::Status st = session.Run({out}, &got);
    EXPECT_TRUE(st.ok()) << st;
    if (!st.ok()) break;
    all.push_back(ToDoubles(got[0]));
  }
  return all;
}

TEST(RandomUniformInt, ElementIIsBlockIModuloTheRange) {
  for (DataType dt : {DT_INT32, DT_INT64}) {
    SCOPED_TRACE(DataTypeString(dt));
    Scope root = Scope::NewRootScope();
    auto bound = [&](double v) { return ops::Const(root, FromDoubles(dt, {}, {v})); };
    auto r = ops::RandomUniformInt(root, ops::Const(root, {4000}), bound(-7), bound(13),
                                   ops::RandomAttrs().Seed(3).Seed2(4));
    ASSERT_TRUE(root.ok()) << root.status();
    const auto runs = Runs(root, r, 2);
    ASSERT_EQ(runs.size(), 2u);
    const uint64_t key = random::KeyFromSeeds(3, 4);
    int counts[20] = {};
    for (int run = 0; run < 2; ++run) {
      for (int64_t i = 0; i < 4000; ++i) {
        const random::Block b = random::Philox(key, 0, run * 4000 + i);  // runs continue
        const uint64_t bits = dt == DT_INT32 ? b[0] : (static_cast<uint64_t>(b[1]) << 32 | b[0]);
        ASSERT_EQ(runs[run][i], -7 + static_cast<double>(bits % 20)) << i;
        ++counts[static_cast<int>(runs[run][i]) + 7];
      }
    }
    for (int c : counts) EXPECT_NEAR(c, 400, 80);  // each of the 20 values about 1/20
  }
}

TEST(RandomUniformInt, TheWholeInt32RangeAndEmptyShapes) {
  Scope root = Scope::NewRootScope();
  const int32_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  auto wide = ops::RandomUniformInt(root, ops::Const(root, {1000}), ops::Const(root, lo),
                                    ops::Const(root, hi), ops::RandomUniformInt::Seed(1));
  // No element drawn: the bounds are not checked, as in TensorFlow.
  auto none = ops::RandomUniformInt(root, ops::Const(root, {0, 3}), ops::Const(root, 5),
                                    ops::Const(root, 5));
  Session session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({wide, none}, &out).ok());
  int negative = 0;
  for (double v : ToDoubles(out[0])) {
    EXPECT_GE(v, lo);
    EXPECT_LT(v, hi);
    negative += v < 0;
  }
  EXPECT_NEAR(negative, 500, 100);
  EXPECT_EQ(out[1].shape(), TensorShape({0, 3}));
}

// Class frequencies of 40,000 samples per row against softmax of the finite logits.
TEST(Multinomial, FrequenciesFollowTheSoftmaxAndNonFiniteLogitsAreNeverDrawn) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> logits = {0,    std::log(2.0), std::log(5.0),
                                      -inf,  // 1:2:5, never 3
                                      3,    std::nan(""),  3,
                                      3,  // NaN never drawn
                                      -inf, -inf,          -inf,
                                      -inf};  // nothing finite
  const std::vector<std::vector<double>> want = {
      {1 / 8., 2 / 8., 5 / 8., 0}, {1 / 3., 0, 1 / 3., 1 / 3.}, {0, 0, 0, 0}};
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (DataType out_dt : {DT_INT64, DT_INT32}) {
      SCOPED_TRACE(DataTypeString(dt) + " to " + DataTypeString(out_dt));
      Scope root = Scope::NewRootScope();
      auto m =
          ops::Multinomial(root, ops::Const(root, FromDoubles(dt, {3, 4}, logits)),
                           ops::Const(root, 40000), ops::Multinomial::Seed(9).OutputDtype(out_dt));
      ASSERT_TRUE(root.ok()) << root.status();
      EXPECT_EQ(m.output.type(), out_dt);
      const auto runs = Runs(root, m, 2);
      ASSERT_EQ(runs.size(), 2u);
      EXPECT_NE(runs[0], runs[1]);
      for (int row = 0; row < 3; ++row) {
        double counts[5] = {};
        for (int s = 0; s < 40000; ++s) ++counts[static_cast<int>(runs[0][row * 40000 + s])];
        for (int c = 0; c < 4; ++c) EXPECT_NEAR(counts[c] / 40000, want[row][c], 0.01) << row;
        EXPECT_EQ(counts[4], row == 2 ? 40000 : 0);  // no finite logit: the class count
      }
    }
  }
}

TEST(Multinomial, NoSamplesOrNoRowsAndBadInputs) {
  auto sample = [](int32_t n) {
    return [n](const Scope& s, const auto& in) {
      return Output(ops::Multinomial(s, in[0], ops::Const(s, n)));
    };
  };
  auto none = RunOp(sample(0), {RandomTensor(DT_FLOAT, {3, 4}, -1, 1, 1)});
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(none->shape(), TensorShape({3, 0}));
  auto rows = RunOp(sample(5), {RandomTensor(DT_FLOAT, {0, 4}, -1, 1, 1)});
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->shape(), TensorShape({0, 5}));
  for (const Tensor& bad :
       {RandomTensor(DT_FLOAT, {4}, -1, 1, 1), RandomTensor(DT_FLOAT, {2, 0}, -1, 1, 1)}) {
    EXPECT_EQ(RunOp(sample(2), {bad}).status().code(), absl::StatusCode::kInvalidArgument);
  }
  EXPECT_EQ(RunOp(sample(-3), {RandomTensor(DT_FLOAT, {2, 2}, -1, 1, 1)}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace random_ops_test
}  // namespace
}  // namespace rill::testing
