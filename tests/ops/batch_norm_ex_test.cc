// _FusedBatchNormEx (V3 with a side input added to y and Relu after it, as TensorFlow's
// remapper fuses them): against FusedBatchNormV3 + Add + Relu as separate nodes, its
// gradient against numeric differences, and its bad attributes.
#include "gradient_checker.h"
#include "rill/core/testing/tensor_testutil.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace batch_norm_ex_test {

MarkTested tested({"_FusedBatchNormEx"});

using Xs = std::vector<Output>;

struct ExCase {
  const char* format;
  bool training;
  bool side;
  const char* activation;
};

// in: x, scale, offset, mean, variance[, side].
Operation FusedEx(const Scope& s, const std::vector<Output>& in, const ExCase& c) {
  ops::internal::NodeBuilder b(s, "_FusedBatchNormEx");
  for (size_t i = 0; i < (c.side ? 6u : 5u); ++i) b.Input(in[i]);
  return b.Attr("data_format", std::string(c.format))
      .Attr("is_training", c.training)
      .Attr("epsilon", 0.01f)
      .Attr("num_side_inputs", int64_t{c.side ? 1 : 0})
      .Attr("activation_mode", std::string(c.activation))
      .Finalize();
}

// The same as separate nodes: y, then the five statistics outputs of V3.
std::vector<Output> Unfused(const Scope& s, const std::vector<Output>& in, const ExCase& c) {
  ops::FusedBatchNormV3 bn(
      s, in[0], in[1], in[2], in[3], in[4],
      ops::FusedBatchNormV3::Attrs().DataFormat(c.format).IsTraining(c.training).Epsilon(0.01f));
  Output y = c.side ? Output(ops::Add(s, bn.y, in[5])) : bn.y;
  if (std::string(c.activation) == "Relu") y = ops::Relu(s, y);
  return {y, bn.batch_mean, bn.batch_variance, bn.reserve_space_1, bn.reserve_space_2};
}

std::vector<ExCase> Cases() {
  std::vector<ExCase> out;
  for (const char* format : {"NHWC", "NCHW"}) {
    for (bool training : {true, false}) {
      for (bool side : {false, true}) {
        for (const char* act : {"Identity", "Relu"}) out.push_back({format, training, side, act});
      }
    }
  }
  return out;
}

TEST(FusedBatchNormEx, MatchesTheSeparateNodes) {
  for (const ExCase& c : Cases()) {
    for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
      SCOPED_TRACE(::testing::Message()
                   << c.format << (c.training ? " training " : " inference ")
                   << (c.side ? "side " : "") << c.activation << " " << DataTypeString(dt));
      const TensorShape shape =
          std::string(c.format) == "NHWC" ? TensorShape({2, 3, 4, 5}) : TensorShape({2, 5, 3, 4});
      Scope s = Scope::NewRootScope();
      std::vector<Output> in = {ops::Const(s, RandomTensor(dt, shape, -2, 3, 1)),
                                ops::Const(s, RandomTensor(dt, {5}, 0.5, 2, 2)),
                                ops::Const(s, RandomTensor(dt, {5}, -1, 1, 3)),
                                ops::Const(s, RandomTensor(dt, {5}, -1, 1, 4)),
                                ops::Const(s, RandomTensor(dt, {5}, 0.5, 2, 5)),
                                ops::Const(s, RandomTensor(dt, shape, -2, 2, 6))};
      const Operation ex = FusedEx(s, in, c);
      const std::vector<Output> want = Unfused(s, in, c);
      ASSERT_TRUE(s.ok()) << s.status();
      std::vector<Output> fetch = want;
      for (int k = 0; k < 6; ++k) fetch.push_back(Output(ex, k));
      Session session(s);
      std::vector<Tensor> out;
      ASSERT_TRUE(session.Run(fetch, &out).ok());
      for (int k = 0; k < 5; ++k) {
        SCOPED_TRACE(k);
        test::ExpectClose(out[static_cast<size_t>(5 + k)], out[static_cast<size_t>(k)],
                          dt == DT_FLOAT ? 1e-5 : 1e-12, dt == DT_FLOAT ? 1e-5 : 1e-12);
      }
      EXPECT_EQ(out[10].NumElements(), 1);  // reserve_space_3, as V3's
    }
  }
}

TEST(FusedBatchNormEx, GradientMatchesNumeric) {
  for (const ExCase& c :
       {ExCase{"NHWC", true, true, "Relu"}, ExCase{"NCHW", false, true, "Identity"},
        ExCase{"NHWC", false, false, "Relu"}}) {
    SCOPED_TRACE(::testing::Message() << c.format << " " << c.activation);
    const TensorShape shape =
        std::string(c.format) == "NHWC" ? TensorShape({2, 2, 3, 2}) : TensorShape({2, 2, 2, 3});
    auto build = [c](const Scope& s, const Xs& in) -> Output {
      const DataType dt = in[0].type();  // the checker runs float and double
      std::vector<Output> all = {in[0], in[1], in[2],
                                 ops::Const(s, FromDoubles(dt, {2}, {0.2, -0.3})),
                                 ops::Const(s, FromDoubles(dt, {2}, {1.3, 0.7}))};
      if (c.side) all.push_back(in[3]);
      return Output(FusedEx(s, all, c), 0);
    };
    std::vector<Tensor> xs = {RandomTensor(DT_DOUBLE, shape, -2, 2, 11),
                              FromDoubles(DT_DOUBLE, {2}, {1.5, -0.7}),
                              FromDoubles(DT_DOUBLE, {2}, {0.3, 0.1})};
    if (c.side) xs.push_back(RandomTensor(DT_DOUBLE, shape, -1, 1, 12));
    ExpectGradientMatchesNumeric(build, xs);
  }
}

TEST(FusedBatchNormEx, BadAttributesAreRefusedWhenTheNodeIsBuilt) {
  auto build = [](int64_t sides, const std::string& mode, const TensorShape& side_shape) {
    Scope s = Scope::NewRootScope();
    ops::internal::NodeBuilder b(s, "_FusedBatchNormEx");
    b.Input(ops::Const(s, RandomTensor(DT_FLOAT, {1, 2, 2, 3}, -1, 1, 1)));
    for (int i = 0; i < 4; ++i) b.Input(ops::Const(s, RandomTensor(DT_FLOAT, {3}, 1, 2, 2)));
    for (int64_t i = 0; i < sides; ++i)
      b.Input(ops::Const(s, RandomTensor(DT_FLOAT, side_shape, 0, 1, 3)));
    b.Attr("num_side_inputs", sides).Attr("activation_mode", mode).Finalize();
    return s.status();
  };
  absl::Status st = build(2, "Relu", {1, 2, 2, 3});
  EXPECT_NE(st.message().find("at most 1 side input, got 2"), std::string::npos) << st;
  st = build(1, "Elu", {1, 2, 2, 3});
  EXPECT_NE(st.message().find("activation_mode must be Identity or Relu, got 'Elu'"),
            std::string::npos)
      << st;
  st = build(1, "Relu", {1, 2, 1, 3});
  EXPECT_NE(st.message().find("side_input [1,2,1,3] must have x's shape [1,2,2,3]"),
            std::string::npos)
      << st;
  EXPECT_TRUE(build(1, "Relu", {1, 2, 2, 3}).ok());
}

const bool kMarked = [] {
  GradTestedOps().insert("_FusedBatchNormEx");
  return true;
}();

}  // namespace batch_norm_ex_test
}  // namespace
}  // namespace rill::testing
