// _Accuracy (Keras's accuracy metrics in one node) and _MeanAllGrad (a full Mean's
// gradient in one node): against references written here and against the composed ops
// they replace, on the default device (the GPU where there is one); and in Keras's graphs.
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "rill/ops/nn_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace accuracy_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"_Accuracy", "_MeanAllGrad"});

// Small integers, so rows have ties (ArgMax takes the first of equal maxima).
std::vector<double> SmallInts(int64_t n, int hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(0, hi);
  std::vector<double> v(n);
  for (double& x : v) x = d(gen);
  return v;
}

int64_t FirstMax(const std::vector<double>& v, int64_t row, int64_t classes) {
  int64_t best = 0;
  for (int64_t k = 1; k < classes; ++k)
    if (v[row * classes + k] > v[row * classes + best]) best = k;
  return best;
}

void ExpectAccuracy(const absl::StatusOr<Tensor>& got, int64_t hits, int64_t n) {
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->dtype(), DT_FLOAT);
  ASSERT_EQ(got->shape(), TensorShape({}));
  const float v = got->base<float>()[0];
  if (n == 0) {
    EXPECT_TRUE(std::isnan(v));
  } else {
    EXPECT_EQ(v, static_cast<float>(hits) / static_cast<float>(n)) << hits << " of " << n;
  }
}

Output Acc(const Scope& s, const std::vector<Output>& in, const std::string& kind) {
  return Accuracy(s, in[0], in[1], kind);
}

// Rows 0, 1, 33 and 1500 (more examples than the GPU kernel's threads).
const int64_t kRows[] = {0, 1, 33, 1500};

TEST(Accuracy, CategoricalMatchesReference) {
  uint32_t seed = 1;
  for (int64_t rows : kRows) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      for (DataType lt : {dt, DT_INT32}) {
        SCOPED_TRACE(
            absl::StrCat(rows, " rows, ", DataTypeString(dt), " labels ", DataTypeString(lt)));
        const int64_t c = 10;
        std::vector<double> p = SmallInts(rows * c, 3, seed++), y(rows * c, 0.0);
        std::mt19937 gen(seed++);
        for (int64_t r = 0; r < rows; ++r) y[r * c + gen() % c] = 1;
        int64_t hits = 0;
        for (int64_t r = 0; r < rows; ++r) hits += FirstMax(p, r, c) == FirstMax(y, r, c);
        if (rows == 1500) {
          EXPECT_GT(hits, 50);  // ties and misses both occur
        }
        ExpectAccuracy(
            RunOp([](const Scope& s, const auto& in) { return Acc(s, in, "categorical"); },
                  {FromDoubles(dt, {rows, c}, p), FromDoubles(lt, {rows, c}, y)}),
            hits, rows);
      }
    }
  }
}

TEST(Accuracy, SparseMatchesReference) {
  uint32_t seed = 20;
  for (int64_t rows : kRows) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      for (DataType lt : {DT_INT32, DT_INT64}) {
        SCOPED_TRACE(
            absl::StrCat(rows, " rows, ", DataTypeString(dt), " ids ", DataTypeString(lt)));
        const int64_t c = 7;
        std::vector<double> p = SmallInts(rows * c, 4, seed++);
        std::vector<double> ids = SmallInts(rows, 8, seed++);  // 7 and 8: out of range
        int64_t hits = 0;
        for (int64_t r = 0; r < rows; ++r) hits += FirstMax(p, r, c) == ids[r];
        // Ids of any shape with one per row, as Keras's labels [batch, 1].
        ExpectAccuracy(
            RunOp([](const Scope& s, const auto& in) { return Acc(s, in, "sparse_categorical"); },
                  {FromDoubles(dt, {rows, c}, p), FromDoubles(lt, {rows, 1}, ids)}),
            hits, rows);
      }
    }
  }
}

TEST(Accuracy, BinaryMatchesReference) {
  uint32_t seed = 40;
  for (int64_t rows : kRows) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      for (DataType lt : {DT_FLOAT, DT_INT64}) {
        SCOPED_TRACE(
            absl::StrCat(rows, " rows, ", DataTypeString(dt), " labels ", DataTypeString(lt)));
        // Outputs in {0, .25, .5, .75, 1} (0.5 predicts 0); labels 0, 1 and, as float, 0.5
        // (never a hit).
        std::vector<double> p = SmallInts(rows * 2, 4, seed++), y = SmallInts(rows * 2, 2, seed++);
        for (double& v : p) v /= 4;
        for (double& v : y) v = lt == DT_FLOAT && v == 2 ? 0.5 : (v == 2 ? 1 : v);
        int64_t hits = 0;
        for (size_t i = 0; i < p.size(); ++i) hits += (p[i] > 0.5 ? 1.0 : 0.0) == y[i];
        ExpectAccuracy(RunOp([](const Scope& s, const auto& in) { return Acc(s, in, "binary"); },
                             {FromDoubles(dt, {rows, 2}, p), FromDoubles(lt, {rows * 2}, y)}),
                       hits, rows * 2);
      }
    }
  }
}

// What Keras built before: ArgMax, Equal, Cast and Mean, in the same Session.
TEST(Accuracy, AgreesWithTheComposedOps) {
  Scope s = Scope::NewRootScope();
  const int64_t rows = 300, c = 10;
  auto p = Const(s, FromDoubles(DT_FLOAT, {rows, c}, SmallInts(rows * c, 5, 60)));
  auto y = Const(s, RandomTensor(DT_FLOAT, {rows, c}, 0, 1, 61));
  auto ids = Const(s, FromDoubles(DT_INT64, {rows}, SmallInts(rows, 9, 62)));
  auto b = Const(s, FromDoubles(DT_FLOAT, {rows, c}, SmallInts(rows * c, 1, 63)));
  auto mean_of = [&](Output hit) { return Mean(s, Cast(s, hit, DT_FLOAT), 0); };
  std::vector<Output> fetch = {
      Accuracy(s, p, y, "categorical"),
      Accuracy(s, p, ids, "sparse_categorical"),
      Accuracy(s, p, b, "binary"),
      mean_of(Equal(s, ArgMax(s, p, 1), ArgMax(s, y, 1))),
      mean_of(Equal(s, ArgMax(s, p, 1), ids)),
      Mean(s, Cast(s, Equal(s, Cast(s, Greater(s, p, 0.5f), DT_FLOAT), b), DT_FLOAT), {0, 1})};
  ASSERT_TRUE(s.ok()) << s.status();
  Session session(s);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run(fetch, &out).ok());
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(out[k].base<float>()[0], out[k + 3].base<float>()[0]);
  }
}

TEST(MeanAllGrad, FillsTheGradientOverTheCount) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    SCOPED_TRACE(DataTypeString(dt));
    Tensor dy = FromDoubles(dt, {1, 1}, {3});
    auto got = RunOp([](const Scope& s, const auto& in) { return MeanAllGrad(s, in[0], in[1]); },
                     {dy, FromDoubles(DT_INT64, {2}, {2, 3})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 3}, std::vector<double>(6, 0.5), Tolerance(dt));
    auto empty = RunOp([](const Scope& s, const auto& in) { return MeanAllGrad(s, in[0], in[1]); },
                       {FromDoubles(dt, {}, {3}), FromDoubles(DT_INT32, {2}, {0, 4})});
    ASSERT_TRUE(empty.ok()) << empty.status();
    EXPECT_EQ(empty->shape(), TensorShape({0, 4}));
  }
}

std::multiset<std::string> OpsOfAStep(const std::string& activation, const std::string& loss,
                                      const Tensor& y) {
  std::multiset<std::string> ops;
  keras::Sequential model;
  model.Add(std::make_shared<keras::Dense>(6, "relu"))
      .Add(std::make_shared<keras::Dense>(
          y.dim_size(1) == 1 && loss != "binary_crossentropy" ? 4 : y.dim_size(1), activation));
  if (!model.Compile("sgd", loss, {"accuracy"}).ok()) return ops;
  RunMetadata meta;
  if (!model.TraceTrainStep(RandomTensor(DT_FLOAT, {8, 5}, -1, 1, 70), y, &meta).ok()) return ops;
  for (const NodeExecStats& n : meta.step_stats.nodes) ops.insert(n.op);
  return ops;
}

// A Keras training step: the accuracy is one _Accuracy node, the loss's batch mean has a
// one-node gradient, and the gradient's seed is a constant.
TEST(Accuracy, KerasStepsUseTheFusedNodes) {
  Tensor onehot = FromDoubles(DT_FLOAT, {8, 4}, std::vector<double>(32, 0.25));
  Tensor ids = FromDoubles(DT_INT32, {8, 1}, {0, 1, 2, 3, 0, 1, 2, 3});
  Tensor binary = FromDoubles(DT_FLOAT, {8, 1}, {0, 1, 1, 0, 1, 0, 0, 1});
  for (const auto& [act, loss, y] : {std::tuple{"sigmoid", "categorical_crossentropy", onehot},
                                     std::tuple{"softmax", "categorical_crossentropy", onehot},
                                     std::tuple{"softmax", "sparse_categorical_crossentropy", ids},
                                     std::tuple{"sigmoid", "binary_crossentropy", binary}}) {
    SCOPED_TRACE(absl::StrCat(act, " ", loss));
    std::multiset<std::string> ops = OpsOfAStep(act, loss, y);
    ASSERT_FALSE(ops.empty());
    EXPECT_EQ(ops.count("_Accuracy"), 1u);
    EXPECT_EQ(ops.count("ArgMax") + ops.count("Equal") + ops.count("Greater"), 0u);
    EXPECT_EQ(ops.count("_MeanAllGrad"), 1u);
    EXPECT_EQ(ops.count("BroadcastTo") + ops.count("OnesLike") + ops.count("Size"), 0u);
  }
}

}  // namespace accuracy_test
}  // namespace
}  // namespace rill::testing
