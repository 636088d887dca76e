// The fused losses against float64 references written here, and the optimizer update ops
// against their formulas, with bad inputs as Status.
#include <algorithm>
#include <cmath>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace loss_and_training_ops_test {

using namespace ::rill::ops;  // NOLINT

MarkTested tested({"SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
                   "SigmoidCrossEntropyWithLogits", "ApplyGradientDescent", "ApplyMomentum",
                   "ApplyAdam", "_MatMulApplyGradientDescent", "_CategoricalCrossentropy"});

// Per row: loss = logsumexp(x) - sum(l * x) for distributions l; backprop = softmax - l.
void Reference(const std::vector<double>& x, const std::vector<double>& l, int rows, int cols,
               std::vector<double>* loss, std::vector<double>* backprop) {
  for (int r = 0; r < rows; ++r) {
    double mx = -1e300, sum = 0, lsum = 0;
    for (int c = 0; c < cols; ++c) mx = std::max(mx, x[r * cols + c]);
    for (int c = 0; c < cols; ++c) sum += std::exp(x[r * cols + c] - mx);
    const double lse = std::log(sum) + mx;
    double v = 0;
    for (int c = 0; c < cols; ++c) {
      v += l[r * cols + c] * (lse - x[r * cols + c]);
      lsum += l[r * cols + c];
    }
    loss->push_back(v);
    for (int c = 0; c < cols; ++c)
      backprop->push_back(std::exp(x[r * cols + c] - lse) * lsum - l[r * cols + c]);
  }
}

TEST(Losses, SoftmaxCrossEntropyMatchesReference) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    // Large logits too: a naive exp would overflow.
    std::vector<double> x = {1, 2, 3, -1, 800, 790, 0, 0, 0.5}, l = {0, 0, 1, 0.5, 0.5, 0, 1, 0, 0};
    std::vector<double> loss, bp;
    Reference(x, l, 3, 3, &loss, &bp);
    for (int out : {0, 1}) {
      auto got = RunOp(
          [out](const Scope& s, const auto& in) {
            SoftmaxCrossEntropyWithLogits x(s, in[0], in[1]);
            return out == 0 ? x.loss : x.backprop;
          },
          {FromDoubles(dt, {3, 3}, x), FromDoubles(dt, {3, 3}, l)});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, out == 0 ? TensorShape({3}) : TensorShape({3, 3}),
                       out == 0 ? loss : bp, dt == DT_FLOAT ? 1e-5 : 1e-12);
    }
  }
}

TEST(Losses, SparseSoftmaxCrossEntropyMatchesDense) {
  std::vector<double> x = {1, 2, 3, -1, 800, 790, 0, 0, 0.5};
  std::vector<double> loss, bp;
  Reference(x, {0, 0, 1, 0, 1, 0, 1, 0, 0}, 3, 3, &loss, &bp);
  for (DataType label_dt : {DT_INT32, DT_INT64}) {
    for (int out : {0, 1}) {
      auto got = RunOp(
          [out](const Scope& s, const auto& in) {
            SparseSoftmaxCrossEntropyWithLogits x(s, in[0], in[1]);
            return out == 0 ? x.loss : x.backprop;
          },
          {FromDoubles(DT_DOUBLE, {3, 3}, x), FromDoubles(label_dt, {3}, {2, 1, 0})});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, DT_DOUBLE, out == 0 ? TensorShape({3}) : TensorShape({3, 3}),
                       out == 0 ? loss : bp, 1e-12);
    }
  }
}

// Keras's categorical cross-entropy of probabilities against its definition: rows scaled
// to sum 1, clipped to [1e-7, 1 - 1e-7]; the gradient is blocked where the clip bites.
TEST(Losses, CategoricalCrossentropyOfProbabilitiesMatchesKeras) {
  const std::vector<double> p = {0.2, 0.3, 0.5, 2, 1, 1, 1, 0, 0};
  const std::vector<double> y = {0, 1, 0, 0.5, 0.5, 0, 0, 1, 0};
  std::vector<double> loss(3), bp(9);
  const double eps = 1e-7f;  // the op's epsilon attribute is a float
  for (int r = 0; r < 3; ++r) {
    double sum = 0, gq = 0;
    for (int j = 0; j < 3; ++j) sum += p[r * 3 + j];
    std::vector<double> g(3);
    for (int j = 0; j < 3; ++j) {
      const double q = p[r * 3 + j] / sum;
      loss[r] -= y[r * 3 + j] * std::log(std::clamp(q, eps, 1 - eps));
      g[j] = (q >= eps && q <= 1 - eps) ? -y[r * 3 + j] / q : 0;
      gq += g[j] * q;
    }
    for (int j = 0; j < 3; ++j) bp[r * 3 + j] = (g[j] - gq) / sum;
  }
  EXPECT_NEAR(loss[2], -std::log(eps), 1e-9);  // the third row is all clipped
  for (int j = 6; j < 9; ++j) EXPECT_EQ(bp[j], 0.0);
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (int out : {0, 1}) {
      auto got = RunOp(
          [out](const Scope& s, const auto& in) {
            CategoricalCrossentropy x(s, in[0], in[1]);
            return out == 0 ? x.loss : x.backprop;
          },
          {FromDoubles(dt, {3, 3}, p), FromDoubles(dt, {3, 3}, y)});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, out == 0 ? TensorShape({3}) : TensorShape({3, 3}),
                       out == 0 ? loss : bp, Tolerance(dt));
    }
  }
  // Shapes are checked as for the other cross-entropies.
  EXPECT_FALSE(RunOp([](const Scope& s,
                        const auto& in) { return CategoricalCrossentropy(s, in[0], in[1]).loss; },
                     {FromDoubles(DT_FLOAT, {2, 2}, {1, 1, 1, 1}),
                      FromDoubles(DT_FLOAT, {2, 3}, {1, 1, 1, 1, 1, 1})})
                   .ok());
}

TEST(Losses, SigmoidCrossEntropyMatchesReference) {
  std::vector<double> x = {-800, -2, 0, 0.5, 3, 800}, z = {0, 1, 0.5, 0, 1, 0.25};
  std::vector<double> want;
  for (size_t i = 0; i < x.size(); ++i)
    want.push_back(std::max(x[i], 0.0) - x[i] * z[i] + std::log1p(std::exp(-std::abs(x[i]))));
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    auto got = RunOp([](const Scope& s,
                        const auto& in) { return SigmoidCrossEntropyWithLogits(s, in[0], in[1]); },
                     {FromDoubles(dt, {2, 3}, x), FromDoubles(dt, {2, 3}, z)});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, TensorShape({2, 3}), want, Tolerance(dt));
  }
}

TEST(Losses, BadInputsAreStatus) {
  auto dense = [](const Scope& s, const auto& in) {
    return SoftmaxCrossEntropyWithLogits(s, in[0], in[1]).loss;
  };
  auto sparse = [](const Scope& s, const auto& in) {
    return SparseSoftmaxCrossEntropyWithLogits(s, in[0], in[1]).loss;
  };
  Tensor f(DT_FLOAT, TensorShape({2, 3}));
  f.flat<float>().setZero();
  for (auto* run : {&RunOp, &RunOpConst}) {
    // Label out of range, negative, batch mismatch, wrong ranks, wrong dtype, shapes differ.
    auto st = (*run)(sparse, {f, FromDoubles(DT_INT32, {2}, {1, 3})}).status();
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(st.message()).find("label 3 of row 1"), std::string::npos) << st;
    EXPECT_FALSE((*run)(sparse, {f, FromDoubles(DT_INT64, {2}, {-1, 0})}).ok());
    EXPECT_FALSE((*run)(sparse, {f, FromDoubles(DT_INT64, {3}, {0, 0, 0})}).ok());
    EXPECT_FALSE(
        (*run)(sparse, {Tensor(DT_FLOAT, TensorShape({6})), Tensor(DT_INT64, TensorShape({6}))})
            .ok());
    EXPECT_FALSE((*run)(sparse, {f, Tensor(DT_FLOAT, TensorShape({2}))}).ok());
    EXPECT_FALSE((*run)(dense, {f, Tensor(DT_FLOAT, TensorShape({2, 4}))}).ok());
    EXPECT_FALSE((*run)(dense, {f, Tensor(DT_DOUBLE, TensorShape({2, 3}))}).ok());
    EXPECT_FALSE((*run)(dense, {Tensor(DT_INT32, TensorShape({2, 3})),
                                Tensor(DT_INT32, TensorShape({2, 3}))})
                     .ok());
    EXPECT_FALSE(
        (*run)([](const Scope& s,
                  const auto& in) { return SigmoidCrossEntropyWithLogits(s, in[0], in[1]); },
               {f, Tensor(DT_FLOAT, TensorShape({3, 2}))})
            .ok());
  }
}

// Runs `steps` updates built by `make` on var (and slots) starting from `init`, returning
// the variable's value after each step.
struct Slots {
  Output var, a, b;
};

TEST(TrainingOps, GradientDescentMomentumAndAdamFollowTheirFormulas) {
  const std::vector<double> w0 = {0.5, -1, 2}, g = {0.1, -0.2, 0.3};
  const double lr = 0.1, mom = 0.9, b1 = 0.9, b2 = 0.999, eps = 1e-8;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (int kind = 0; kind < 5; ++kind) {  // SGD, momentum, Nesterov, Adam, Adam Nesterov
      SCOPED_TRACE(kind);
      Scope s = Scope::NewRootScope();
      auto var = Variable(s, FromDoubles(dt, {3}, w0));
      auto slot1 = Variable(s, FromDoubles(dt, {3}, {0, 0, 0}));
      auto slot2 = Variable(s, FromDoubles(dt, {3}, {0, 0, 0}));
      auto b1p = Variable(s, FromDoubles(dt, {}, {b1}));
      auto b2p = Variable(s, FromDoubles(dt, {}, {b2}));
      auto c = [&](double v) { return Const(s, FromDoubles(dt, {}, {v})); };
      auto grad = Const(s, FromDoubles(dt, {3}, g));
      Output step;
      if (kind == 0) step = ApplyGradientDescent(s, var, c(lr), grad);
      if (kind == 1 || kind == 2) {
        step = ApplyMomentum(s, var, slot1, c(lr), grad, c(mom),
                             ApplyMomentum::UseNesterov(kind == 2));
      }
      if (kind >= 3) {
        step = ApplyAdam(s, var, slot1, slot2, b1p, b2p, c(lr), c(b1), c(b2), c(eps), grad,
                         ApplyAdam::UseNesterov(kind == 4));
      }
      auto advance = Assign(s.WithControlDependencies(step), b1p, Mul(s, b1p, c(b1)));
      auto advance2 = Assign(s.WithControlDependencies(step), b2p, Mul(s, b2p, c(b2)));
      ASSERT_TRUE(s.ok()) << s.status();
      Session session(s);
      ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
      std::vector<double> w = w0, m(3, 0), v(3, 0);
      double p1 = b1, p2 = b2;
      for (int t = 0; t < 3; ++t) {
        std::vector<Tensor> out;
        ASSERT_TRUE(session.Run({}, {step}, {advance.operation, advance2.operation}, &out).ok());
        for (int i = 0; i < 3; ++i) {
          if (kind == 0) w[i] -= lr * g[i];
          if (kind == 1 || kind == 2) {
            m[i] = m[i] * mom + g[i];
            w[i] -= kind == 1 ? lr * m[i] : lr * g[i] + lr * mom * m[i];
          }
          if (kind >= 3) {
            const double lr_t = lr * std::sqrt(1 - p2) / (1 - p1);
            m[i] = b1 * m[i] + (1 - b1) * g[i];
            v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
            const double mm = kind == 3 ? m[i] : b1 * m[i] + (1 - b1) * g[i];
            w[i] -= lr_t * mm / (std::sqrt(v[i]) + eps);
          }
        }
        p1 *= b1;
        p2 *= b2;
        ExpectTensorNear(out[0], dt, TensorShape({3}), w, dt == DT_FLOAT ? 1e-5 : 1e-12);
        ASSERT_TRUE(session.Run({var}, &out).ok());
        ExpectTensorNear(out[0], dt, TensorShape({3}), w, dt == DT_FLOAT ? 1e-5 : 1e-12);
      }
    }
  }
}

// The fused update equals ApplyGradientDescent of the MatMul, for every transpose.
// The learning rate as a constant (the optimizers' own; on a GPU, host scalars for the
// GEMM) and as a variable (read on the device).
TEST(TrainingOps, FusedMatMulUpdateMatchesTheUnfusedOne) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (int t = 0; t < 8; ++t) {
      const bool ta = t & 1, tb = t & 2, constant_lr = t & 4;
      SCOPED_TRACE(absl::StrCat(DataTypeString(dt), ta ? " ta" : "", tb ? " tb" : "",
                                constant_lr ? " constant lr" : " variable lr"));
      Scope s = Scope::NewRootScope();
      Tensor w0 = RandomTensor(dt, {3, 4}, -1, 1, 1);
      auto fused_var = Variable(s, w0);
      auto plain_var = Variable(s, w0);
      auto a = Const(s, RandomTensor(dt, ta ? TensorShape({5, 3}) : TensorShape({3, 5}), -1, 1, 2));
      auto b = Const(s, RandomTensor(dt, tb ? TensorShape({4, 5}) : TensorShape({5, 4}), -1, 1, 3));
      Output lr = constant_lr ? Output(Const(s, FromDoubles(dt, {}, {0.25})))
                              : Output(Variable(s, FromDoubles(dt, {}, {0.25})));
      Operation fused = internal::NodeBuilder(s, "_MatMulApplyGradientDescent")
                            .Input(fused_var)
                            .Input(lr)
                            .Input(a)
                            .Input(b)
                            .Attr("transpose_a", ta)
                            .Attr("transpose_b", tb)
                            .Finalize();
      auto plain = ApplyGradientDescent(s, plain_var, lr,
                                        MatMul(s, a, b, MatMul::TransposeA(ta).TransposeB(tb)));
      ASSERT_TRUE(s.ok()) << s.status();
      Session session(s);
      ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
      std::vector<Tensor> out;
      for (int step = 0; step < 2; ++step) {
        ASSERT_TRUE(session.Run({Output(fused.node(), 0), plain}, &out).ok());
        ExpectTensorNear(out[0], dt, TensorShape({3, 4}), ToDoubles(out[1]), Tolerance(dt) * 10);
      }
    }
  }
  // A product that does not fit the variable is refused at construction.
  Scope s = Scope::NewRootScope();
  auto v = Variable(s, Input::Initializer({{1.f, 2.f}}));
  internal::NodeBuilder(s, "_MatMulApplyGradientDescent")
      .Input(v)
      .Input(0.1f)
      .Input(Const(s, {{1.f}, {2.f}}))
      .Input(Const(s, {{1.f, 2.f}}))
      .Finalize();
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(TrainingOps, BadInputsAreStatusAndLeaveTheVariable) {
  Scope s = Scope::NewRootScope();
  auto var = Variable(s, Input::Initializer({1.f, 2.f}));
  auto fresh = Variable(s, PartialTensorShape({2}), DT_FLOAT);
  auto grad = Placeholder(s, DT_FLOAT);
  auto lr = Placeholder(s, DT_FLOAT);
  auto step = ApplyGradientDescent(s, var, lr, grad);
  auto uninit = ApplyGradientDescent(s, fresh, 0.1f, Const(s, {1.f, 1.f}));
  ASSERT_TRUE(s.ok());
  Session session(s);
  ASSERT_TRUE(session.Run({}, {}, {GlobalVariablesInitializer(s)}, nullptr).ok());
  std::vector<Tensor> out;
  auto st = session.Run({{grad, {1.f, 2.f, 3.f}}, {lr, 0.1f}}, {step}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(st.message()).find("[2]"), std::string::npos) << st;
  st = session.Run({{grad, {1.f, 2.f}}, {lr, {0.1f, 0.2f}}}, {step}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(st.message()).find("alpha"), std::string::npos) << st;
  st = session.Run({uninit}, &out);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(session.Run({var}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, TensorShape({2}), {1, 2}, 0);
  // At construction: a non-variable, a gradient of another shape, a non-scalar rate.
  Scope b = Scope::NewRootScope();
  ApplyGradientDescent(b, Const(b, {1.f}), 0.1f, Const(b, {1.f}));
  EXPECT_FALSE(b.ok());
  Scope c = Scope::NewRootScope();
  ApplyGradientDescent(c, Variable(c, Input::Initializer({1.f})), 0.1f, Const(c, {1.f, 2.f}));
  EXPECT_FALSE(c.ok());
  Scope d = Scope::NewRootScope();
  auto v = Variable(d, Input::Initializer({1.f}));
  ApplyMomentum(d, v, v, Const(d, {0.1f}), Const(d, {1.f}), 0.9f);
  EXPECT_FALSE(d.ok());
}

}  // namespace loss_and_training_ops_test
}  // namespace
}  // namespace rill::testing
