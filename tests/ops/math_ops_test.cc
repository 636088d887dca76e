// MatMul, reductions, ArgMax, Softmax and LogSoftmax against float64 references.
#include <cmath>
#include <limits>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace math_ops_test {

MarkTested tested({"MatMul", "Sum", "Mean", "Max", "Min", "ArgMax", "ArgMin", "ClipByValue",
                   "L2Loss", "Softmax", "LogSoftmax"});

TEST(MathOps, MatMulWithTransposesForEveryDtype) {
  uint32_t seed = 10;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    for (auto [m, k, n] : {std::tuple{3, 4, 5},
                           {1, 1, 1},
                           {17, 33, 9},
                           {0, 3, 2},
                           {2, 0, 3},
                           {64, 64, 64},
                           {32, 96, 300}}) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) {
          SCOPED_TRACE(DataTypeString(dt) + " " + std::to_string(m) + "x" + std::to_string(k) +
                       "x" + std::to_string(n) + (ta ? " ta" : "") + (tb ? " tb" : ""));
          TensorShape sa = ta ? TensorShape({k, m}) : TensorShape({m, k});
          TensorShape sb = tb ? TensorShape({n, k}) : TensorShape({k, n});
          Tensor a = RandomTensor(dt, sa, -3, 3, seed++), b = RandomTensor(dt, sb, -3, 3, seed++);
          auto va = ToDoubles(a), vb = ToDoubles(b);
          std::vector<double> want(m * n, 0);
          for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j)
              for (int p = 0; p < k; ++p)
                want[i * n + j] += va[ta ? p * m + i : i * k + p] * vb[tb ? j * k + p : p * n + j];
          auto got = RunOp(
              [&](const Scope& s, const auto& in) {
                return ops::MatMul(s, in[0], in[1], ops::MatMul::TransposeA(ta).TransposeB(tb));
              },
              {a, b});
          ASSERT_TRUE(got.ok()) << got.status();
          ExpectTensorNear(*got, dt, {m, n}, want, Tolerance(dt) * 10);
        }
      }
    }
  }
}

TEST(MathOps, MatMulBadInputs) {
  auto f = [](const Scope& s, const auto& in) { return ops::MatMul(s, in[0], in[1]); };
  for (auto [sa, sb] : {std::pair{TensorShape({2, 3}), TensorShape({4, 2})},
                        {TensorShape({2}), TensorShape({2, 2})},
                        {TensorShape({2, 2, 2}), TensorShape({2, 2})}}) {
    Tensor a(DT_FLOAT, sa), b(DT_FLOAT, sb);
    auto r1 = RunOpConst(f, {a, b});
    EXPECT_EQ(r1.status().code(), absl::StatusCode::kInvalidArgument) << r1.status();
    auto r2 = RunOp(f, {a, b});
    EXPECT_EQ(r2.status().code(), absl::StatusCode::kInvalidArgument) << r2.status();
    EXPECT_NE(std::string(r2.status().message()).find("MatMul"), std::string::npos);
  }
  auto r =
      RunOpConst(f, {Tensor(DT_UINT8, TensorShape({2, 2})), Tensor(DT_UINT8, TensorShape({2, 2}))});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
}

double RefReduce(const std::string& op, const std::vector<double>& v) {
  if (v.empty()) {
    if (op == "Sum") return 0;
    if (op == "Mean") return std::numeric_limits<double>::quiet_NaN();
    return op == "Max" ? -std::numeric_limits<double>::infinity()
                       : std::numeric_limits<double>::infinity();
  }
  double r = op == "Max" ? -1e300 : op == "Min" ? 1e300 : 0;
  for (double x : v) r = op == "Max" ? std::max(r, x) : op == "Min" ? std::min(r, x) : r + x;
  return op == "Mean" ? r / v.size() : r;
}

Output Reduce(const std::string& op, const Scope& s, Output x, Output axes, bool keep) {
  ops::ReductionAttrs attrs = ops::ReductionAttrs().KeepDims(keep);
  if (op == "Sum") return ops::Sum(s, x, axes, attrs);
  if (op == "Mean") return ops::Mean(s, x, axes, attrs);
  if (op == "Max") return ops::Max(s, x, axes, attrs);
  return ops::Min(s, x, axes, attrs);
}

TEST(MathOps, ReductionsOverAxesWithKeepDims) {
  const std::vector<int64_t> dims = {2, 3, 4};
  uint32_t seed = 50;
  for (std::string op : {"Sum", "Mean", "Max", "Min"}) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
      for (std::vector<int64_t> axes : std::vector<std::vector<int64_t>>{
               {0}, {1}, {2}, {-1}, {0, 2}, {1, 2}, {0, 1, 2}, {}, {2, 0, 2}}) {
        for (bool keep : {false, true}) {
          SCOPED_TRACE(op + " " + DataTypeString(dt) + " axes " + std::to_string(axes.size()) +
                       (keep ? " keep" : ""));
          Tensor x = RandomTensor(dt, TensorShape(dims), 0, 9, seed++);
          auto v = ToDoubles(x);
          bool red[3] = {false, false, false};
          for (int64_t a : axes) red[a < 0 ? a + 3 : a] = true;
          std::vector<int64_t> out_dims;
          for (int i = 0; i < 3; ++i) {
            if (!red[i])
              out_dims.push_back(dims[i]);
            else if (keep)
              out_dims.push_back(1);
          }
          TensorShape out_shape(out_dims);
          std::vector<std::vector<double>> groups(out_shape.num_elements());
          for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
              for (int k = 0; k < 4; ++k) {
                int idx[3] = {i, j, k};
                int64_t o = 0;
                for (int d = 0; d < 3; ++d) {
                  if (!red[d]) o = o * dims[d] + idx[d];
                }
                groups[o].push_back(v[(i * 3 + j) * 4 + k]);
              }
          std::vector<double> want;
          for (auto& g : groups) {
            double r = RefReduce(op, g);
            if (op == "Mean" && !DataTypeIsFloating(dt)) {
              double sum = 0;
              for (double e : g) sum += e;
              r = std::trunc(sum / g.size());
            }
            want.push_back(r);
          }
          Tensor ax(DT_INT64, TensorShape({static_cast<int64_t>(axes.size())}));
          for (size_t i = 0; i < axes.size(); ++i) ax.base<int64_t>()[i] = axes[i];
          for (auto* run : {&RunOp, &RunOpConst}) {
            auto got = (*run)(
                [&](const Scope& s, const auto& in) { return Reduce(op, s, in[0], in[1], keep); },
                {x, ax});
            ASSERT_TRUE(got.ok()) << got.status();
            ExpectTensorNear(*got, dt, out_shape, want, Tolerance(dt) * 10);
          }
        }
      }
    }
  }
}

TEST(MathOps, ReductionsOfEmptyTensors) {
  for (std::string op : {"Sum", "Mean", "Max", "Min"}) {
    SCOPED_TRACE(op);
    Tensor x(DT_FLOAT, TensorShape({0, 3}));
    auto got = RunOp([&](const Scope& s,
                         const auto& in) { return Reduce(op, s, in[0], ops::Const(s, 0), false); },
                     {x});
    ASSERT_TRUE(got.ok()) << got.status();
    double want = op == "Sum"    ? 0
                  : op == "Mean" ? std::nan("")
                  : op == "Max"  ? -INFINITY
                                 : INFINITY;
    ExpectTensorNear(*got, DT_FLOAT, {3}, {want, want, want}, 1e-6);
  }
}

TEST(MathOps, ReductionBadInputs) {
  Tensor x(DT_FLOAT, TensorShape({2, 3}));
  for (std::string op : {"Sum", "Mean", "Max", "Min"}) {
    SCOPED_TRACE(op);
    auto f = [&](const Scope& s, const auto& in) { return Reduce(op, s, in[0], in[1], false); };
    for (Tensor axes : {Tensor(int32_t{2}), Tensor(int32_t{-3}),
                        Tensor(DT_INT32, TensorShape({1, 1})), Tensor(1.5f)}) {
      auto a = RunOpConst(f, {x, axes});
      EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument) << a.status();
      auto b = RunOp(f, {x, axes});
      EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument) << b.status();
    }
    auto c = RunOpConst(f, {Tensor(true), Tensor(int32_t{0})});
    EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(MathOps, ArgMaxPicksTheFirstLargest) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    Tensor x = FromDoubles(dt, {2, 3}, {1, 7, 7, 9, 2, 3});
    auto a0 = RunOp([](const Scope& s, const auto& in) { return ops::ArgMax(s, in[0], 0); }, {x});
    ASSERT_TRUE(a0.ok()) << a0.status();
    ExpectTensorNear(*a0, DT_INT64, {3}, {1, 0, 0}, 0);
    auto a1 = RunOp(
        [](const Scope& s, const auto& in) {
          return ops::ArgMax(s, in[0], -1, ops::ArgMax::OutputType(DT_INT32));
        },
        {x});
    ASSERT_TRUE(a1.ok());
    ExpectTensorNear(*a1, DT_INT32, {2}, {1, 0}, 0);
  }
  auto f = [](const Scope& s, const auto& in) { return ops::ArgMax(s, in[0], in[1]); };
  for (auto [shape, axis] :
       {std::pair{TensorShape({2, 3}), 2}, {TensorShape({}), 0}, {TensorShape({0, 2}), 0}}) {
    auto a = RunOpConst(f, {Tensor(DT_FLOAT, shape), Tensor(int32_t{axis})});
    EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument) << a.status();
    auto b = RunOp(f, {Tensor(DT_FLOAT, shape), Tensor(int32_t{axis})});
    EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument) << b.status();
  }
}

TEST(MathOps, ArgMinPicksTheFirstSmallest) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    Tensor x = FromDoubles(dt, {2, 3}, {4, 2, 2, 1, 5, 3});
    auto a0 = RunOp([](const Scope& s, const auto& in) { return ops::ArgMin(s, in[0], 0); }, {x});
    ASSERT_TRUE(a0.ok()) << a0.status();
    ExpectTensorNear(*a0, DT_INT64, {3}, {1, 0, 0}, 0);
    auto a1 = RunOp(
        [](const Scope& s, const auto& in) {
          return ops::ArgMin(s, in[0], -1, ops::ArgMin::OutputType(DT_INT32));
        },
        {x});
    ASSERT_TRUE(a1.ok()) << a1.status();
    ExpectTensorNear(*a1, DT_INT32, {2}, {1, 0}, 0);
  }
  // NaN compares false, so it is never picked over the first element.
  auto nan = RunOp([](const Scope& s, const auto& in) { return ops::ArgMin(s, in[0], 0); },
                   {FromDoubles(DT_FLOAT, {3}, {2, NAN, 1})});
  ASSERT_TRUE(nan.ok());
  ExpectTensorNear(*nan, DT_INT64, {}, {2}, 0);
}

TEST(MathOps, ClipByValueWithScalarAndElementwiseBounds) {
  auto clip = [](const Scope& s, const auto& in) {
    return ops::ClipByValue(s, in[0], in[1], in[2]);
  };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor t = FromDoubles(dt, {2, 3}, {0, 1, 2, 3, 4, 5});
    auto got = RunOp(clip, {t, FromDoubles(dt, {}, {1}), FromDoubles(dt, {}, {3})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 3}, {1, 1, 2, 3, 3, 3}, 0);
    got = RunOp(clip, {t, FromDoubles(dt, {2, 3}, {0, 2, 0, 4, 0, 0}), FromDoubles(dt, {}, {4})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 3}, {0, 2, 2, 4, 4, 4}, 0);
    // A lower bound above the upper one wins, as in TensorFlow.
    got = RunOp(clip, {t, FromDoubles(dt, {}, {4}), FromDoubles(dt, {}, {2})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 3}, {4, 4, 4, 4, 4, 4}, 0);
  }
  auto nan = RunOp(clip, {FromDoubles(DT_FLOAT, {2}, {NAN, -INFINITY}),
                          FromDoubles(DT_FLOAT, {}, {0}), FromDoubles(DT_FLOAT, {}, {1})});
  ASSERT_TRUE(nan.ok());
  ExpectTensorNear(*nan, DT_FLOAT, {2}, {NAN, 0}, 0);
}

TEST(MathOps, L2LossIsHalfTheSumOfSquares) {
  auto l2 = [](const Scope& s, const auto& in) { return ops::L2Loss(s, in[0]); };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    auto got = RunOp(l2, {FromDoubles(dt, {2, 2}, {1, -2, 3, 0.5})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {}, {7.125}, 1e-7);
    got = RunOp(l2, {Tensor(dt, TensorShape({0, 3}))});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {}, {0}, 0);
  }
}

TEST(MathOps, SoftmaxAndLogSoftmaxAreStable) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    Tensor x = RandomTensor(dt, {5, 7}, -20, 20, 77);
    auto v = ToDoubles(x);
    v[0] = 1000;  // must not overflow
    x = FromDoubles(dt, {5, 7}, v);
    std::vector<double> sm(35), lsm(35);
    for (int r = 0; r < 5; ++r) {
      double mx = -1e300, sum = 0;
      for (int c = 0; c < 7; ++c) mx = std::max(mx, v[r * 7 + c]);
      for (int c = 0; c < 7; ++c) sum += std::exp(v[r * 7 + c] - mx);
      for (int c = 0; c < 7; ++c) {
        sm[r * 7 + c] = std::exp(v[r * 7 + c] - mx) / sum;
        lsm[r * 7 + c] = v[r * 7 + c] - mx - std::log(sum);
      }
    }
    auto s1 = RunOp([](const Scope& s, const auto& in) { return ops::Softmax(s, in[0]); }, {x});
    ASSERT_TRUE(s1.ok());
    ExpectTensorNear(*s1, dt, {5, 7}, sm, Tolerance(dt) * 10);
    auto s2 = RunOp([](const Scope& s, const auto& in) { return ops::LogSoftmax(s, in[0]); }, {x});
    ASSERT_TRUE(s2.ok());
    ExpectTensorNear(*s2, dt, {5, 7}, lsm, Tolerance(dt) * 10);
    auto empty = RunOp([](const Scope& s, const auto& in) { return ops::Softmax(s, in[0]); },
                       {Tensor(dt, TensorShape({0, 4}))});
    ASSERT_TRUE(empty.ok());
    EXPECT_EQ(empty->shape(), TensorShape({0, 4}));
  }
  for (auto build : {+[](const Scope&s, Output x) -> Output { return ops::Softmax(s, x); },
                     +[](const Scope&s, Output x) -> Output { return ops::LogSoftmax(s, x); }}) {
    auto f = [&](const Scope& s, const auto& in) { return build(s, in[0]); };
    EXPECT_EQ(RunOpConst(f, {Tensor(1.0f)}).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(RunOp(f, {Tensor(1.0f)}).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(RunOpConst(f, {Tensor(int32_t{1})}).status().code(),
              absl::StatusCode::kInvalidArgument);
  }
}

}  // namespace math_ops_test
}  // namespace
}  // namespace rill::testing
