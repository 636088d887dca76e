// FusedBatchNormV3 and FusedBatchNormGradV3: values by hand and against a direct float64
// evaluation in every layout, empty batches, op cases on every device, and numeric checks
// of the first and second gradients in training and inference.
#include <cmath>

#include "gradient_checker.h"
#include "rill/ops/batch_norm_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace batch_norm_test {

MarkTested tested({"FusedBatchNormV3", "FusedBatchNormGradV3"});

using Xs = std::vector<Output>;
using Attrs = ops::FusedBatchNormV3::Attrs;

// Runs FusedBatchNormV3 on (x, scale, offset, mean, variance) and returns output `k`.
Tensor Forward(const std::vector<Tensor>& in, const Attrs& a, int k) {
  auto got = RunOp(
      [&](const Scope& s, const Xs& v) {
        ops::FusedBatchNormV3 bn(s, v[0], v[1], v[2], v[3], v[4], a);
        return Output(bn.operation, k);
      },
      in);
  EXPECT_TRUE(got.ok()) << got.status();
  return got.ok() ? *got : Tensor();
}

Tensor Vec(std::vector<double> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return FromDoubles(DT_FLOAT, {n}, v);
}

TEST(FusedBatchNorm, TrainingByHand) {
  // One channel of 1, 2, 3, 4: mean 2.5, biased variance 1.25, unbiased 5/3.
  const Tensor x = FromDoubles(DT_FLOAT, {1, 2, 2, 1}, {1, 2, 3, 4});
  const std::vector<Tensor> in = {x, Vec({2}), Vec({1}), Vec({}), Vec({})};
  Attrs a = Attrs().Epsilon(0);
  const double s = 2 / std::sqrt(1.25);
  ExpectTensorNear(Forward(in, a, 0), DT_FLOAT, {1, 2, 2, 1},
                   {1 - 1.5 * s, 1 - 0.5 * s, 1 + 0.5 * s, 1 + 1.5 * s}, 1e-6);
  ExpectTensorNear(Forward(in, a, 1), DT_FLOAT, {1}, {2.5}, 1e-6);
  ExpectTensorNear(Forward(in, a, 2), DT_FLOAT, {1}, {5.0 / 3}, 1e-6);
  ExpectTensorNear(Forward(in, a, 3), DT_FLOAT, {1}, {2.5}, 1e-6);
  ExpectTensorNear(Forward(in, a, 4), DT_FLOAT, {1}, {1.25}, 1e-6);
  ExpectTensorNear(Forward(in, a, 5), DT_FLOAT, {}, {0}, 0);
  // A factor of 0.5 blends with the mean and variance inputs.
  const std::vector<Tensor> blend = {x, Vec({2}), Vec({1}), Vec({1}), Vec({1})};
  const Attrs half = a.ExponentialAvgFactor(0.5f);
  ExpectTensorNear(Forward(blend, half, 1), DT_FLOAT, {1}, {1.75}, 1e-6);
  ExpectTensorNear(Forward(blend, half, 2), DT_FLOAT, {1}, {0.5 + 0.5 * 5 / 3}, 1e-6);
}

TEST(FusedBatchNorm, InferenceByHand) {
  const std::vector<Tensor> in = {FromDoubles(DT_FLOAT, {1, 2, 2, 1}, {1, 2, 3, 4}), Vec({2}),
                                  Vec({1}), Vec({2}), Vec({4})};
  const Attrs a = Attrs().Epsilon(0).IsTraining(false);
  ExpectTensorNear(Forward(in, a, 0), DT_FLOAT, {1, 2, 2, 1}, {0, 1, 2, 3}, 1e-6);
  ExpectTensorNear(Forward(in, a, 1), DT_FLOAT, {1}, {2}, 0);
  ExpectTensorNear(Forward(in, a, 2), DT_FLOAT, {1}, {4}, 0);
}

TEST(FusedBatchNorm, EmptyBatchGivesNaNStatistics) {
  const std::vector<Tensor> in = {FromDoubles(DT_FLOAT, {0, 2, 2, 3}, {}), Vec({1, 1, 1}),
                                  Vec({0, 0, 0}), Vec({}), Vec({})};
  ExpectTensorNear(Forward(in, Attrs(), 0), DT_FLOAT, {0, 2, 2, 3}, {}, 0);
  ExpectTensorNear(Forward(in, Attrs(), 1), DT_FLOAT, {3}, {NAN, NAN, NAN}, 0);
}

// float64 reference of y in training for any layout: channel axis `axis` of `dims`.
std::vector<double> ReferenceY(const Tensor& x, int axis, const std::vector<double>& scale,
                               const std::vector<double>& offset, double eps) {
  const std::vector<double> v = ToDoubles(x);
  const int64_t c_n = x.dim_size(axis);
  int64_t inner = 1;
  for (int d = axis + 1; d < x.dims(); ++d) inner *= x.dim_size(d);
  auto channel = [&](size_t i) { return static_cast<int64_t>(i / inner) % c_n; };
  std::vector<double> sum(c_n), sq(c_n);
  const double n = static_cast<double>(v.size()) / c_n;
  for (size_t i = 0; i < v.size(); ++i) sum[channel(i)] += v[i] / n;
  for (size_t i = 0; i < v.size(); ++i) sq[channel(i)] += std::pow(v[i] - sum[channel(i)], 2) / n;
  std::vector<double> y(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t c = channel(i);
    y[i] = (v[i] - sum[c]) / std::sqrt(sq[c] + eps) * scale[c] + offset[c];
  }
  return y;
}

TEST(FusedBatchNorm, EveryLayoutMatchesReference) {
  struct Layout {
    const char* format;
    TensorShape shape;
    int axis;
  };
  for (const Layout& l :
       {Layout{"NHWC", {3, 4, 5, 2}, 3}, Layout{"NCHW", {3, 2, 4, 5}, 1},
        Layout{"NDHWC", {2, 3, 2, 2, 3}, 4}, Layout{"NCDHW", {2, 3, 2, 2, 3}, 1}}) {
    SCOPED_TRACE(l.format);
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      const Tensor x = RandomTensor(dt, l.shape, -3, 5, 7);
      const int64_t c = l.shape.dim_size(l.axis);
      std::vector<double> scale(c), offset(c);
      for (int64_t i = 0; i < c; ++i) scale[i] = 0.5 + i, offset[i] = -1.0 + 0.25 * i;
      const Tensor empty = FromDoubles(dt, {0}, {});
      const std::vector<Tensor> in = {x, FromDoubles(dt, {c}, scale), FromDoubles(dt, {c}, offset),
                                      empty, empty};
      ExpectTensorNear(Forward(in, Attrs().Epsilon(0.01f).DataFormat(l.format), 0), dt, l.shape,
                       ReferenceY(x, l.axis, scale, offset, 0.01f), dt == DT_FLOAT ? 1e-5 : 1e-12);
    }
  }
}

// The forward op's y as a function of (x, scale, offset) or, with all five, of the
// statistics too (inference).
GradBuildFn ForwardY(const Attrs& a) {
  return [a](const Scope& s, const Xs& in) -> Output {
    const DataType dt = in[0].type();
    Output mean = in.size() > 3 ? in[3] : Output(ops::Const(s, FromDoubles(dt, {0}, {})));
    Output var = in.size() > 3 ? in[4] : mean;
    return ops::FusedBatchNormV3(s, in[0], in[1], in[2], mean, var, a).y;
  };
}

TEST(FusedBatchNorm, GradientMatchesNumeric) {
  for (const char* format : {"NHWC", "NCHW"}) {
    SCOPED_TRACE(format);
    const TensorShape shape =
        std::string(format) == "NHWC" ? TensorShape({2, 2, 3, 2}) : TensorShape({2, 2, 2, 3});
    const Tensor x = RandomTensor(DT_DOUBLE, shape, -2, 2, 11);
    const Tensor scale = FromDoubles(DT_DOUBLE, {2}, {1.5, -0.7});
    const Tensor offset = FromDoubles(DT_DOUBLE, {2}, {0.3, 0.1});
    ExpectGradientMatchesNumeric(ForwardY(Attrs().DataFormat(format).Epsilon(0.001f)),
                                 {x, scale, offset});
  }
}

TEST(FusedBatchNorm, InferenceGradientMatchesNumeric) {
  // In inference TensorFlow gives the mean and variance inputs no gradient, so the check
  // covers (x, scale, offset) with the statistics as constants.
  const Attrs a = Attrs().IsTraining(false).Epsilon(0.01f).DataFormat("NCHW");
  auto build = [a](const Scope& s, const Xs& in) -> Output {
    Output mean = ops::Const(s, FromDoubles(in[0].type(), {2}, {0.2, -0.4}));
    Output var = ops::Const(s, FromDoubles(in[0].type(), {2}, {1.3, 0.6}));
    return ops::FusedBatchNormV3(s, in[0], in[1], in[2], mean, var, a).y;
  };
  ExpectGradientMatchesNumeric(
      build, {RandomTensor(DT_DOUBLE, {2, 2, 2, 2}, -2, 2, 5),
              FromDoubles(DT_DOUBLE, {2}, {0.8, 1.7}), FromDoubles(DT_DOUBLE, {2}, {0.0, 0.5})});
}

// FusedBatchNormGradV3 output `k` fed by a forward op on x, as a function of (dy, x, scale):
// the second gradient (its statistics depend on x in training).
GradBuildFn Backward(bool training, const char* format, int k) {
  return [=](const Scope& s, const Xs& in) -> Output {
    const DataType dt = in[0].type();
    Output stats = ops::Const(s, FromDoubles(dt, {2}, {0.3, 1.1}));
    ops::FusedBatchNormV3 fwd(s, in[1], in[2], ops::Const(s, FromDoubles(dt, {2}, {0, 0})), stats,
                              stats,
                              Attrs().IsTraining(training).DataFormat(format).Epsilon(0.01f));
    ops::FusedBatchNormGradV3 bwd(
        s, in[0], in[1], in[2], fwd.reserve_space_1, fwd.reserve_space_2, fwd.reserve_space_3,
        ops::FusedBatchNormGradV3::Attrs().IsTraining(training).DataFormat(format).Epsilon(0.01f));
    return Output(bwd.operation, k);
  };
}

TEST(FusedBatchNormGrad, SecondGradientMatchesNumeric) {
  const Tensor scale = FromDoubles(DT_DOUBLE, {2}, {1.2, -0.6});
  for (bool training : {true, false}) {
    for (const char* format : {"NHWC", "NCHW"}) {
      for (int k = 0; k < 3; ++k) {
        SCOPED_TRACE(::testing::Message() << format << " training " << training << " output " << k);
        const TensorShape shape =
            std::string(format) == "NHWC" ? TensorShape({2, 3, 1, 2}) : TensorShape({2, 2, 3, 1});
        ExpectGradientMatchesNumeric(Backward(training, format, k),
                                     {RandomTensor(DT_DOUBLE, shape, -1, 1, 3),
                                      RandomTensor(DT_DOUBLE, shape, -2, 2, 4), scale});
      }
    }
  }
}

std::vector<OpCase> BatchNorms() {
  std::vector<OpCase> c;
  for (const char* format : {"NHWC", "NCHW"}) {
    for (bool training : {true, false}) {
      const std::string name = std::string(format) + (training ? " training" : " inference");
      for (int k : {0, 1, 2, 3, 4}) {
        c.push_back(
            {"FusedBatchNormV3 " + name + " output " + std::to_string(k),
             [=](const Scope& s, const Xs& in) {
               ops::FusedBatchNormV3 bn(s, in[0], in[1], in[2], in[3], in[4],
                                        Attrs().DataFormat(format).IsTraining(training));
               return Output(bn.operation, k);
             },
             {RandomTensor(DT_FLOAT, {8, 6, 5, 6}, -2, 3, 21),
              RandomTensor(DT_FLOAT, {6}, 0.5, 2, 22), RandomTensor(DT_FLOAT, {6}, -1, 1, 23),
              RandomTensor(DT_FLOAT, {6}, -1, 1, 24), RandomTensor(DT_FLOAT, {6}, 0.5, 2, 25)}});
      }
      for (int k : {0, 1, 2}) {
        c.push_back(
            {"FusedBatchNormGradV3 " + name + " output " + std::to_string(k),
             [=](const Scope& s, const Xs& in) {
               ops::FusedBatchNormGradV3 g(
                   s, in[0], in[1], in[2], in[3], in[4], in[5],
                   ops::FusedBatchNormGradV3::Attrs().DataFormat(format).IsTraining(training));
               return Output(g.operation, k);
             },
             {RandomTensor(DT_FLOAT, {8, 6, 5, 6}, -1, 1, 31),
              RandomTensor(DT_FLOAT, {8, 6, 5, 6}, -2, 3, 32),
              RandomTensor(DT_FLOAT, {6}, 0.5, 2, 33), RandomTensor(DT_FLOAT, {6}, -1, 1, 34),
              RandomTensor(DT_FLOAT, {6}, 0.5, 2, 35), FromDoubles(DT_FLOAT, {}, {0})}});
      }
    }
  }
  return c;
}

const bool kMarked = [] {
  GradTestedOps().insert("FusedBatchNormV3");
  GradTestedOps().insert("FusedBatchNormGradV3");
  return true;
}();

}  // namespace batch_norm_test
}  // namespace

RILL_OP_CASES(batch_norm, batch_norm_test::BatchNorms);

}  // namespace rill::testing
