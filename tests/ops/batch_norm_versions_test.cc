// FusedBatchNorm (V1) and V2 and their gradient ops, against V3's: the same outputs, the
// same first and second gradients, on every layout and mode; V2's gradient against the
// numeric one in float64 (V1 is float only, as TensorFlow's); op cases on every device.
#include <string>

#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/batch_norm_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace batch_norm_versions_test {

MarkTested tested({"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormGrad",
                   "FusedBatchNormGradV2"});

using Xs = std::vector<Output>;
using Attrs = ops::FusedBatchNormV3::Attrs;
using GradAttrs = ops::FusedBatchNormGradV3::Attrs;

// Output k (0-4) of forward version `v` (1, 2 or 3) on in[0..4].
Output Forward(int v, const Scope& s, const Xs& in, const Attrs& a, int k) {
  if (v == 1)
    return Output(ops::FusedBatchNorm(s, in[0], in[1], in[2], in[3], in[4], a).operation, k);
  if (v == 2)
    return Output(ops::FusedBatchNormV2(s, in[0], in[1], in[2], in[3], in[4], a).operation, k);
  return Output(ops::FusedBatchNormV3(s, in[0], in[1], in[2], in[3], in[4], a).operation, k);
}

// Output k (0-2) of gradient version `v` on (dy, x, scale, reserve_space_1, _2).
Output Backward(int v, const Scope& s, const Xs& in, const GradAttrs& a, int k) {
  if (v == 1)
    return Output(ops::FusedBatchNormGrad(s, in[0], in[1], in[2], in[3], in[4], a).operation, k);
  if (v == 2) {
    return Output(ops::FusedBatchNormGradV2(s, in[0], in[1], in[2], in[3], in[4], a).operation, k);
  }
  Output zero = ops::Const(s, FromDoubles(in[0].type(), {}, {0}));
  return Output(ops::FusedBatchNormGradV3(s, in[0], in[1], in[2], in[3], in[4], zero, a).operation,
                k);
}

std::vector<Tensor> ForwardInputs(DataType dt, const TensorShape& x) {
  const int64_t c = x.dim_size(x.dims() - 1) == 3 ? 3 : x.dim_size(1);
  return {RandomTensor(dt, x, -2, 3, 41), RandomTensor(dt, {c}, 0.5, 2, 42),
          RandomTensor(dt, {c}, -1, 1, 43), RandomTensor(dt, {c}, -1, 1, 44),
          RandomTensor(dt, {c}, 0.5, 2, 45)};
}

Tensor RunBuilt(const BuildFn& build, const std::vector<Tensor>& in) {
  auto got = RunOp(build, in);
  EXPECT_TRUE(got.ok()) << got.status();
  return got.ok() ? *got : Tensor();
}

TEST(FusedBatchNormVersions, ForwardAndGradientOpsGiveV3sValues) {
  for (const char* format : {"NHWC", "NCHW"}) {
    for (bool training : {true, false}) {
      SCOPED_TRACE(::testing::Message() << format << (training ? " training" : " inference"));
      const TensorShape shape =
          std::string(format) == "NHWC" ? TensorShape({2, 4, 5, 3}) : TensorShape({2, 3, 4, 5});
      const auto a = Attrs().DataFormat(format).IsTraining(training).ExponentialAvgFactor(0.7f);
      const auto ga = GradAttrs().DataFormat(format).IsTraining(training);
      const std::vector<Tensor> in = ForwardInputs(DT_FLOAT, shape);
      std::vector<Tensor> grad_in = {RandomTensor(DT_FLOAT, shape, -1, 1, 46), in[0], in[1], in[3],
                                     in[4]};
      for (int v : {1, 2}) {
        for (int k = 0; k < 5; ++k) {
          auto at = [&](int version) {
            return [=](const Scope& s, const Xs& x) { return Forward(version, s, x, a, k); };
          };
          test::ExpectTensorEqual<float>(RunBuilt(at(v), in), RunBuilt(at(3), in));
        }
        for (int k = 0; k < 3; ++k) {
          auto at = [&](int version) {
            return [=](const Scope& s, const Xs& x) { return Backward(version, s, x, ga, k); };
          };
          test::ExpectTensorEqual<float>(RunBuilt(at(v), grad_in), RunBuilt(at(3), grad_in));
        }
      }
    }
  }
}

// The symbolic gradients (through each version's gradient op) and the second gradients
// (through the gradient op's own) of a loss on y: V3's, value for value.
TEST(FusedBatchNormVersions, GradientsAndSecondGradientsAreV3s) {
  const std::vector<Tensor> in = ForwardInputs(DT_FLOAT, TensorShape({2, 4, 5, 3}));
  auto grads_of = [&](int v) {
    Scope s = Scope::NewRootScope();
    Xs x;
    for (const Tensor& t : in) x.push_back(ops::Const(s, t));
    Output y = Forward(v, s, x, Attrs().Epsilon(0.01f), 0);
    Output loss = ops::Sum(s, ops::Square(s, y), ops::Const(s, {0, 1, 2, 3}));
    std::vector<Output> first, second;
    EXPECT_TRUE(AddSymbolicGradients(s, {loss}, {x[0], x[1], x[2]}, &first).ok());
    Output sq = ops::Sum(s, ops::Square(s, first[0]), ops::Const(s, {0, 1, 2, 3}));
    Output total = ops::Add(s, sq, ops::Sum(s, first[1], ops::Const(s, 0)));
    EXPECT_TRUE(AddSymbolicGradients(s, {total}, {x[0], x[1]}, &second).ok());
    std::vector<Output> all = first;
    all.insert(all.end(), second.begin(), second.end());
    std::vector<Tensor> out;
    ClientSession session(s);
    EXPECT_TRUE(session.Run(all, &out).ok());
    return out;
  };
  const std::vector<Tensor> v3 = grads_of(3);
  for (int v : {1, 2}) {
    SCOPED_TRACE(v);
    const std::vector<Tensor> got = grads_of(v);
    ASSERT_EQ(got.size(), v3.size());
    for (size_t i = 0; i < got.size(); ++i) test::ExpectTensorEqual<float>(got[i], v3[i]);
  }
}

TEST(FusedBatchNormVersions, V2GradientMatchesNumeric) {
  const std::vector<Tensor> in = ForwardInputs(DT_DOUBLE, TensorShape({2, 2, 3, 3}));
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const Xs& x) {
        Output stats = ops::Const(s, FromDoubles(x[0].type(), {0}, {}));
        return ops::FusedBatchNormV2(s, x[0], x[1], x[2], stats, stats, Attrs().Epsilon(0.001f)).y;
      },
      {in[0], in[1], in[2]});
}

std::vector<OpCase> Versions() {
  std::vector<OpCase> c;
  for (int v : {1, 2}) {
    for (bool training : {true, false}) {
      const std::string name = (v == 1 ? "FusedBatchNorm" : "FusedBatchNormV2") +
                               std::string(training ? " training" : " inference");
      const TensorShape shape({4, 6, 5, 3});
      for (int k = 0; k < 5; ++k) {
        OpCase f{name + " output " + std::to_string(k),
                 [=](const Scope& s, const Xs& in) {
                   return Forward(v, s, in, Attrs().IsTraining(training), k);
                 },
                 ForwardInputs(DT_FLOAT, shape)};
        f.float64_reference = v == 2;  // V1 has no float64: held to the CPU in float
        f.rtol = v == 2 ? 1e-4 : 1e-5;
        c.push_back(f);
      }
      for (int k = 0; k < 3; ++k) {
        const std::vector<Tensor> fwd = ForwardInputs(DT_FLOAT, shape);
        OpCase g{name + " gradient op output " + std::to_string(k),
                 [=](const Scope& s, const Xs& in) {
                   return Backward(v, s, in, GradAttrs().IsTraining(training), k);
                 },
                 {RandomTensor(DT_FLOAT, shape, -1, 1, 51), fwd[0], fwd[1], fwd[3], fwd[4]}};
        g.float64_reference = v == 2;
        g.rtol = v == 2 ? 1e-4 : 1e-5;
        c.push_back(g);
      }
    }
  }
  return c;
}

const bool kMarked = [] {
  for (const char* op :
       {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormGrad", "FusedBatchNormGradV2"}) {
    GradTestedOps().insert(op);
  }
  return true;
}();

}  // namespace batch_norm_versions_test
}  // namespace

RILL_OP_CASES(batch_norm_versions, batch_norm_versions_test::Versions);

}  // namespace rill::testing
