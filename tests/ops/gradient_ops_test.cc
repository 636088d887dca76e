// The gradient helper ops and the array ops gradients are built from, against references
// computed here, with bad inputs as Status at construction and at run time.
#include "rill/ops/gradient_ops.h"

#include "test_util.h"

namespace rill::testing {
namespace {
namespace gradient_ops_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"StopGradient", "BroadcastGradientArgs", "ReducedShape", "InvertPermutation",
                   "Size", "BroadcastTo", "Pad", "Sign", "ReluGrad", "SigmoidGrad", "TanhGrad"});

Tensor Ints(std::vector<int64_t> v, TensorShape shape = {}) {
  if (shape.dims() == 0) shape = TensorShape({static_cast<int64_t>(v.size())});
  std::vector<double> d(v.begin(), v.end());
  return FromDoubles(DT_INT32, shape, d);
}

void ExpectFails(const BuildFn& f, const std::vector<Tensor>& in, absl::string_view needle,
                 bool also_const = true) {
  for (auto* run : {&RunOp, &RunOpConst}) {
    if (run == &RunOpConst && !also_const) continue;
    auto r = (*run)(f, in);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    EXPECT_NE(std::string(r.status().message()).find(std::string(needle)), std::string::npos)
        << r.status();
  }
}

TEST(GradientOps, BroadcastGradientArgs) {
  auto r = [](int which) {
    return [which](const Scope& s, const auto& in) {
      BroadcastGradientArgs a(s, in[0], in[1]);
      return which == 0 ? a.r0 : a.r1;
    };
  };
  auto got0 = RunOp(r(0), {Ints({2, 1, 3}), Ints({4, 3})});
  auto got1 = RunOp(r(1), {Ints({2, 1, 3}), Ints({4, 3})});
  ASSERT_TRUE(got0.ok() && got1.ok()) << got0.status() << got1.status();
  EXPECT_EQ(ToDoubles(*got0), std::vector<double>({1}));
  EXPECT_EQ(ToDoubles(*got1), std::vector<double>({0}));
  auto same = RunOp(r(0), {Ints({2, 3}), Ints({2, 3})});
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->NumElements(), 0);
  ExpectFails(r(0), {Ints({2, 3}), Ints({4, 3})}, "incompatible", false);
  ExpectFails(r(0), {Ints({2, -3}), Ints({2, 3})}, "negative", false);
  ExpectFails(r(0), {Ints({2, 3}, {1, 2}), Ints({2, 3})}, "vector");
  ExpectFails(r(1), {Ints({2}), Ints({1, 2}, {2, 1})}, "vector");
  ExpectFails(r(0), {Tensor(DT_FLOAT, TensorShape({2})), Ints({2})}, "");
}

TEST(GradientOps, ReducedShapeAndInvertPermutation) {
  auto rs = [](const Scope& s, const auto& in) { return ReducedShape(s, in[0], in[1]); };
  auto got = RunOp(rs, {Ints({2, 3, 4}), Ints({0, -1})});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(ToDoubles(*got), std::vector<double>({1, 3, 1}));
  ExpectFails(rs, {Ints({2, 3}), Ints({2})}, "out of range", false);
  ExpectFails(rs, {Ints({2, 3}), Ints({0, 1, 0, 1}, {2, 2})}, "scalar or vector");
  ExpectFails(rs, {Ints({2, 3}, {1, 2}), Ints({0})}, "vector");
  auto inv = [](const Scope& s, const auto& in) { return InvertPermutation(s, in[0]); };
  got = RunOp(inv, {Ints({2, 0, 1})});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(ToDoubles(*got), std::vector<double>({1, 2, 0}));
  ExpectFails(inv, {Ints({0, 0, 1})}, "not a permutation", false);
  ExpectFails(inv, {Ints({0, 3})}, "not a permutation", false);
  ExpectFails(inv, {Ints({-1, 0})}, "not a permutation", false);
  ExpectFails(inv, {Ints({0, 1}, {1, 2})}, "vector");
  ExpectFails(inv, {Tensor(DT_FLOAT, TensorShape({2}))}, "");
}

TEST(GradientOps, SizeAndStopGradient) {
  for (DataType dt : {DT_FLOAT, DT_INT64, DT_BOOL}) {
    auto got = RunOp([](const Scope& s, const auto& in) { return Size(s, in[0]); },
                     {Tensor(dt, TensorShape({2, 0, 3}))});
    ASSERT_TRUE(got.ok());
    ExpectTensorNear(*got, DT_INT32, TensorShape({}), {0}, 0);
  }
  auto got =
      RunOp([](const Scope& s, const auto& in) { return Size(s, in[0], Size::OutType(DT_INT64)); },
            {Tensor(DT_DOUBLE, TensorShape({4, 5}))});
  ASSERT_TRUE(got.ok());
  ExpectTensorNear(*got, DT_INT64, TensorShape({}), {20}, 0);
  Tensor x = RandomTensor(DT_UINT8, {3}, 0, 9, 1);
  got = RunOp([](const Scope& s, const auto& in) { return StopGradient(s, in[0]); }, {x});
  ASSERT_TRUE(got.ok());
  ExpectTensorNear(*got, DT_UINT8, TensorShape({3}), ToDoubles(x), 0);
  Scope s = Scope::NewRootScope();
  Size(s, Const(s, 1.f), Size::OutType(DT_FLOAT));
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(GradientOps, BroadcastToEveryDtype) {
  auto f = [](const Scope& s, const auto& in) { return BroadcastTo(s, in[0], in[1]); };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL}) {
    Tensor x = RandomTensor(dt, {2, 1, 3}, 0, 9, 2);
    auto got = RunOp(f, {x, Ints({4, 2, 2, 3})});
    ASSERT_TRUE(got.ok()) << got.status();
    auto v = ToDoubles(x);
    std::vector<double> want;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 2; ++b)
        for (int c = 0; c < 2; ++c)
          for (int d = 0; d < 3; ++d) want.push_back(v[b * 3 + d]);
    ExpectTensorNear(*got, dt, TensorShape({4, 2, 2, 3}), want, 0);
  }
  Tensor x(DT_FLOAT, TensorShape({2, 3}));
  ExpectFails(f, {x, Ints({3, 3})}, "broadcast");
  ExpectFails(f, {x, Ints({3})}, "broadcast");
  ExpectFails(f, {x, Ints({2, -3})}, "");
  ExpectFails(f, {x, Ints({2, 3}, {1, 2})}, "vector");
  ExpectFails(f, {x, Tensor(DT_FLOAT, TensorShape({2}))}, "");
}

TEST(GradientOps, PadEveryDtype) {
  auto f = [](const Scope& s, const auto& in) { return Pad(s, in[0], in[1]); };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL}) {
    Tensor x = RandomTensor(dt, {2, 2}, 1, 9, 3);
    auto got = RunOp(f, {x, Ints({1, 0, 0, 2}, {2, 2})});
    ASSERT_TRUE(got.ok()) << got.status();
    auto v = ToDoubles(x);
    ExpectTensorNear(*got, dt, TensorShape({3, 4}),
                     {0, 0, 0, 0, v[0], v[1], 0, 0, v[2], v[3], 0, 0}, 0);
  }
  Tensor x(DT_FLOAT, TensorShape({2, 3}));
  ExpectFails(f, {x, Ints({1, 0, 0, -1}, {2, 2})}, ">= 0");
  ExpectFails(f, {x, Ints({1, 0}, {1, 2})}, "");
  ExpectFails(f, {x, Ints({1, 0, 1, 0, 1, 0}, {2, 3})}, "");
  ExpectFails(f, {x, Ints({1, 0, 0})}, "");
  ExpectFails(f, {x, Tensor(DT_FLOAT, TensorShape({2, 2}))}, "");
}

TEST(GradientOps, SignAndActivationGradients) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    auto got = RunOp([](const Scope& s, const auto& in) { return Sign(s, in[0]); },
                     {FromDoubles(dt, {4}, {-3, 0, 2, -0.0})});
    ASSERT_TRUE(got.ok());
    ExpectTensorNear(*got, dt, TensorShape({4}), {-1, 0, 1, 0}, 0);
  }
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    Tensor a = FromDoubles(dt, {4}, {0.5, -1, 2, 0.25});
    Tensor b = FromDoubles(dt, {4}, {-2, 3, 0, 0.5});
    auto relu =
        RunOp([](const Scope& s, const auto& in) { return ReluGrad(s, in[0], in[1]); }, {a, b});
    auto sig =
        RunOp([](const Scope& s, const auto& in) { return SigmoidGrad(s, in[0], in[1]); }, {a, b});
    auto tanh =
        RunOp([](const Scope& s, const auto& in) { return TanhGrad(s, in[0], in[1]); }, {a, b});
    ASSERT_TRUE(relu.ok() && sig.ok() && tanh.ok());
    ExpectTensorNear(*relu, dt, {4}, {0, -1, 0, 0.25}, Tolerance(dt));
    ExpectTensorNear(*sig, dt, {4}, {-2 * 0.5 * 0.5, 3 * -1 * 2, 0, 0.5 * 0.25 * 0.75},
                     Tolerance(dt));
    ExpectTensorNear(*tanh, dt, {4}, {-2 * 0.75, 0, 0, 0.5 * (1 - 0.0625)}, Tolerance(dt));
  }
  auto f = [](const Scope& s, const auto& in) { return ReluGrad(s, in[0], in[1]); };
  ExpectFails(f, {Tensor(DT_FLOAT, TensorShape({2})), Tensor(DT_FLOAT, TensorShape({3}))},
              "same shape");
  ExpectFails(f, {Tensor(DT_FLOAT, TensorShape({2})), Tensor(DT_DOUBLE, TensorShape({2}))}, "");
  ExpectFails([](const Scope& s, const auto& in) { return SigmoidGrad(s, in[0], in[1]); },
              {Tensor(DT_INT32, TensorShape({2})), Tensor(DT_INT32, TensorShape({2}))}, "");
}

}  // namespace gradient_ops_test
}  // namespace
}  // namespace rill::testing
