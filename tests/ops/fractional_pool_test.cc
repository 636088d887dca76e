// FractionalMaxPool, FractionalAvgPool and their gradients: the sequences' laws (regions of
// k or k + 1 rows, random or pseudo-random), values against a float64 loop over the
// returned sequences, determinism by seed, shapes at construction, gradients against
// central differences, and the gradient ops on sequences given by hand.
#include "rill/core/fractional_pool.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/fractional_pool_ops.h"

namespace rill::testing {
namespace {
namespace fractional_pool_test {

MarkTested tested({"FractionalMaxPool", "FractionalAvgPool", "FractionalMaxPoolGrad",
                   "FractionalAvgPoolGrad"});
const bool kMarked = [] {
  GradTestedOps().insert({"FractionalMaxPool", "FractionalAvgPool"});
  return true;
}();

using Ints = std::vector<int64_t>;

void ExpectRegionsOfKOrKPlusOne(const Ints& seq, int64_t in, int64_t out) {
  ASSERT_EQ(static_cast<int64_t>(seq.size()), out + 1);
  EXPECT_EQ(seq.front(), 0);
  EXPECT_EQ(seq.back(), in);
  const int64_t k = in / out;
  int64_t longer = 0;
  for (int64_t i = 0; i < out; ++i) {
    const int64_t len = seq[i + 1] - seq[i];
    EXPECT_TRUE(len == k || len == k + 1) << "region " << i << " has " << len << " rows";
    longer += len == k + 1;
  }
  EXPECT_EQ(longer, in % out);
}

TEST(FractionalPoolingSequence, RegionsOfKOrKPlusOneRows) {
  for (bool pseudo : {false, true}) {
    for (auto [in, out] : std::vector<std::pair<int64_t, int64_t>>{
             {7, 3}, {10, 3}, {10, 5}, {100, 71}, {5, 5}, {9, 1}, {1000, 999}, {64, 41}}) {
      SCOPED_TRACE(absl::StrCat(pseudo ? "pseudo-random " : "random ", in, " -> ", out));
      std::set<Ints> seen;
      for (uint64_t stream = 0; stream < 20; ++stream) {
        PhiloxDraws draws(1234, stream);
        const Ints seq = FractionalPoolingSequence(in, out, pseudo, draws);
        ExpectRegionsOfKOrKPlusOne(seq, in, out);
        seen.insert(seq);
      }
      // The draws move the regions unless every region has the same length.
      if (in % out != 0 && out > 1) {
        EXPECT_GT(seen.size(), 1u);
      }
      if (in % out == 0) {
        EXPECT_EQ(seen.size(), 1u);
      }
    }
  }
}

// The outputs of one run: pooled values and the two sequences.
struct Pooled {
  Tensor y;
  Ints rows, cols;
};

absl::StatusOr<Pooled> RunPool(bool max, const Tensor& x, const std::vector<float>& ratio,
                               const ops::FractionalPoolAttrs& attrs) {
  Scope s = Scope::NewRootScope();
  auto px = ops::Placeholder(s, x.dtype());
  Output y, r, c;
  if (max) {
    ops::FractionalMaxPool p(s, px, ratio, attrs);
    y = p.output, r = p.row_pooling_sequence, c = p.col_pooling_sequence;
  } else {
    ops::FractionalAvgPool p(s, px, ratio, attrs);
    y = p.output, r = p.row_pooling_sequence, c = p.col_pooling_sequence;
  }
  RILL_RETURN_IF_ERROR(s.status());
  Session session(s);
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session.Run({{px, x}}, {y, r, c}, &out));
  auto ints = [](const Tensor& t) {
    const int64_t* p = t.flat<int64_t>().data();
    return Ints(p, p + t.NumElements());
  };
  return Pooled{out[0], ints(out[1]), ints(out[2])};
}

// Pooling by the definition over the returned sequences, in float64.
std::vector<double> Reference(const Tensor& x, const Pooled& p, bool max, bool overlapping) {
  const std::vector<double> v = ToDoubles(x);
  const int64_t N = x.dim_size(0), H = x.dim_size(1), W = x.dim_size(2), C = x.dim_size(3);
  auto last = [&](const Ints& seq, size_t i, int64_t n) {
    return std::min(overlapping ? seq[i + 1] : seq[i + 1] - 1, n - 1);
  };
  std::vector<double> y;
  for (int64_t n = 0; n < N; ++n)
    for (size_t r = 0; r + 1 < p.rows.size(); ++r)
      for (size_t c = 0; c + 1 < p.cols.size(); ++c)
        for (int64_t d = 0; d < C; ++d) {
          double acc = max ? -std::numeric_limits<double>::infinity() : 0;
          int64_t count = 0;
          for (int64_t i = p.rows[r]; i <= last(p.rows, r, H); ++i)
            for (int64_t j = p.cols[c]; j <= last(p.cols, c, W); ++j, ++count) {
              const double e = v[((n * H + i) * W + j) * C + d];
              acc = max ? std::max(acc, e) : acc + e;
            }
          y.push_back(max ? acc : acc / static_cast<double>(count));
        }
  return y;
}

TEST(FractionalPool, MatchesTheDefinitionOverItsSequences) {
  const std::vector<float> ratio = {1, 1.44f, 1.73f, 1};
  for (bool max : {true, false})
    for (bool overlapping : {false, true})
      for (bool pseudo : {false, true})
        for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
          SCOPED_TRACE(absl::StrCat(max ? "max" : "avg", overlapping ? " overlapping" : "",
                                    pseudo ? " pseudo-random " : " random ", DataTypeString(dt)));
          const Tensor x = RandomTensor(dt, {2, 9, 11, 3}, -50, 50, 3);
          auto p = RunPool(max, x, ratio,
                           ops::FractionalMaxPool::Overlapping(overlapping).PseudoRandom(pseudo));
          ASSERT_TRUE(p.ok()) << p.status();
          ExpectRegionsOfKOrKPlusOne(p->rows, 9, 6);  // floor(9 / 1.44) = 6
          ExpectRegionsOfKOrKPlusOne(p->cols, 11, 6);
          std::vector<double> want = Reference(x, *p, max, overlapping);
          if (!max && DataTypeIsInteger(dt)) {
            for (double& w : want) w = std::trunc(w);  // an integer average divides in T
          }
          ExpectTensorNear(p->y, dt, {2, 6, 6, 3}, want, Tolerance(dt) * 10);
        }
}

TEST(FractionalPool, DeterministicCutsTheSameRegionsEveryRun) {
  const Tensor x = RandomTensor(DT_FLOAT, {1, 50, 40, 1}, -1, 1, 4);
  const std::vector<float> ratio = {1, 1.6f, 1.3f, 1};
  auto seeded = ops::FractionalMaxPool::Deterministic(true).Seed(7).Seed2(9);
  auto a = RunPool(true, x, ratio, seeded);
  auto b = RunPool(true, x, ratio, seeded);  // another Session
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->rows, b->rows);
  EXPECT_EQ(a->cols, b->cols);
  auto other = RunPool(true, x, ratio, seeded.Seed(8));
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(other->rows != a->rows || other->cols != a->cols);
  // Not deterministic: each run of one Session draws again.
  Scope s = Scope::NewRootScope();
  ops::FractionalAvgPool p(s, ops::Const(s, x), ratio);
  Session session(s);
  std::set<Ints> seen;
  for (int run = 0; run < 10; ++run) {
    std::vector<Tensor> out;
    TF_ASSERT_OK(session.Run({}, {p.row_pooling_sequence}, &out));
    const int64_t* r = out[0].flat<int64_t>().data();
    seen.insert(Ints(r, r + out[0].NumElements()));
  }
  EXPECT_GT(seen.size(), 5u);  // 31 regions over 50 rows: C(31, 19) ways to draw them
}

// Found by the session_feeds fuzzer: an empty dimension has no region and one boundary (the
// sequence's region length divided by the zero regions before).
TEST(FractionalPool, AnEmptyDimensionPoolsToAnEmptyOutput) {
  PhiloxDraws draws(1, 0);
  EXPECT_EQ(FractionalPoolingSequence(0, 0, true, draws), Ints{0});
  EXPECT_EQ(FractionalPoolingSequence(0, 0, false, draws), Ints{0});
  for (bool max : {true, false}) {
    auto p = RunPool(max, Tensor(DT_FLOAT, TensorShape({2, 0, 5, 3})), {1, 1.5f, 1.5f, 1}, {});
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->y.shape(), TensorShape({2, 0, 3, 3}));
    EXPECT_EQ(p->rows, Ints{0});
    EXPECT_EQ(p->cols.size(), 4u);
  }
}

TEST(FractionalPool, ShapesKnownAtConstruction) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_FLOAT, ops::Placeholder::Shape({-1, 7, 10, 3}));
  ops::FractionalMaxPool p(s, x, {1, 1.5f, 2.5f, 1});
  TF_ASSERT_OK(s.status());
  EXPECT_EQ(p.output.shape().DebugString(), "[?,4,4,3]");
  EXPECT_EQ(p.row_pooling_sequence.shape().DebugString(), "[5]");
  EXPECT_EQ(p.col_pooling_sequence.shape().DebugString(), "[5]");
  EXPECT_EQ(p.row_pooling_sequence.type(), DT_INT64);
  // TensorFlow's rules on the attributes, when the node is added.
  for (auto [ratio, attrs, says] :
       std::vector<std::tuple<std::vector<float>, ops::FractionalPoolAttrs, std::string>>{
           {{1, 2, 2}, {}, "4 values"},
           {{2, 2, 2, 1}, {}, "batch"},
           {{1, 0.5f, 2, 1}, {}, ">= 1"},
           {{1, 8, 2, 1}, {}, "larger than the input's rows"},
           {{1, 2, 2, 1}, ops::FractionalMaxPool::Seed(3), "deterministic"}}) {
    Scope t = Scope::NewRootScope();
    ops::FractionalAvgPool(t, ops::Const(t, 1.f, {1, 7, 10, 3}), ratio, attrs);
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << says;
    EXPECT_NE(t.status().message().find(says), std::string::npos) << t.status();
  }
}

TEST(FractionalPool, GradientsMatchNumeric) {
  for (bool overlapping : {false, true})
    for (bool pseudo : {false, true}) {
      SCOPED_TRACE(absl::StrCat(overlapping ? "overlapping" : "disjoint", pseudo ? " pseudo" : ""));
      const auto a = ops::FractionalMaxPool::Deterministic(true)
                         .Seed(1)
                         .Seed2(2)
                         .Overlapping(overlapping)
                         .PseudoRandom(pseudo);
      ExpectGradientMatchesNumeric(
          [&](const Scope& s, const std::vector<Output>& in) {
            return ops::FractionalMaxPool(s, in[0], {1, 1.4f, 1.7f, 1}, a).output;
          },
          {DistinctTensor({2, 5, 7, 2}, 5)});
      ExpectGradientMatchesNumeric(
          [&](const Scope& s, const std::vector<Output>& in) {
            return ops::FractionalAvgPool(s, in[0], {1, 1.4f, 1.7f, 1}, a).output;
          },
          {RandomTensor(DT_DOUBLE, {2, 5, 7, 2}, -1, 1, 6)});
    }
}

// The gradient ops on sequences given by hand: rows {0, 2, 3} and columns {0, 1, 3} of a
// 3x3 input, with and without the shared boundary rows.
TEST(FractionalPoolGrad, SequencesGivenByHand) {
  const Tensor rows = test::AsTensor<int64_t>({0, 2, 3}), cols = test::AsTensor<int64_t>({0, 1, 3});
  const Tensor dy = FromDoubles(DT_FLOAT, {1, 2, 2, 1}, {1, 2, 3, 4});
  // Disjoint regions [0,1]x[0], [0,1]x[1,2], [2]x[0], [2]x[1,2]; overlapping ones add the
  // next boundary: [0,2]x[0,1], [0,2]x[1,2], [2]x[0,1], [2]x[1,2].
  const std::vector<double> disjoint = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 3, 2, 2};
  const std::vector<double> overlap = {1 / 6., 1 / 6. + 2 / 6., 2 / 6.,        1 / 6.,    0.5,
                                       2 / 6., 1 / 6. + 1.5,    0.5 + 1.5 + 2, 2 / 6. + 2};
  for (bool overlapping : {false, true}) {
    auto got = RunOp(
        [&](const Scope& s, const auto& in) {
          return ops::internal::FractionalAvgPoolGrad(
              s, ops::Const(s, test::AsTensor<int64_t>({1, 3, 3, 1})), in[0], in[1], in[2],
              ops::internal::FractionalAvgPoolGrad::Overlapping(overlapping));
        },
        {dy, rows, cols});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, DT_FLOAT, {1, 3, 3, 1}, overlapping ? overlap : disjoint, 1e-6);
  }
  // Equal values: each region's gradient goes to its first element (overlapping regions
  // share theirs on the boundary).
  const Tensor x = FromDoubles(DT_FLOAT, {1, 3, 3, 1}, std::vector<double>(9, 1.0));
  auto got = RunOp(
      [&](const Scope& s, const auto& in) {
        return ops::internal::FractionalMaxPoolGrad(
            s, in[0], in[1], in[1], in[2], in[3],
            ops::internal::FractionalMaxPoolGrad::Overlapping(true));
      },
      {x, dy, rows, cols});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {1, 3, 3, 1}, {1, 2, 0, 0, 0, 0, 3, 4, 0}, 0);
}

}  // namespace fractional_pool_test
}  // namespace
}  // namespace rill::testing
