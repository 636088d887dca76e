// ONNX export: a Keras CNN written as ONNX, read back by rill's importer (and ONNX's checker,
// which ExportModel runs) computes what the model predicts; what cannot be exported says so.
#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "onnx/onnx_pb.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace export_test {

Tensor Images(int n) {
  Tensor x(DT_FLOAT, TensorShape({n, 8, 8, 1}));
  for (int64_t i = 0; i < x.NumElements(); ++i)
    x.flat<float>()(i) = static_cast<float>((i * 37) % 17) / 17.f;
  return x;
}

TEST(OnnxExport, AKerasCnnRoundTripsThroughOnnx) {
  keras::Sequential model;
  model.Add(std::make_shared<keras::Conv2D>(4, 3, "relu", "same"))
      .Add(std::make_shared<keras::MaxPool2D>(2))
      .Add(std::make_shared<keras::Flatten>())
      .Add(std::make_shared<keras::Dense>(8, "relu"))
      .Add(std::make_shared<keras::Dropout>(0.5))
      .Add(std::make_shared<keras::Dense>(3, "softmax"));
  ASSERT_TRUE(model.Compile("adam", "sparse_categorical_crossentropy").ok());
  Tensor x = Images(6);
  Tensor y(DT_INT32, TensorShape({6}));
  for (int i = 0; i < 6; ++i) y.flat<int32_t>()(i) = i % 3;
  keras::FitOptions fit;
  fit.epochs = 2;
  fit.verbose = 0;
  ASSERT_TRUE(model.Fit(x, y, fit).ok());
  auto want = model.Predict(x);
  ASSERT_TRUE(want.ok()) << want.status();

  auto bytes = onnx::ExportModel({model.input()}, {model.output()}, {.session = model.session()});
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  ::onnx::ModelProto m;
  ASSERT_TRUE(m.ParseFromString(*bytes));
  std::multiset<std::string> ops;
  for (const auto& n : m.graph().node()) ops.insert(n.op_type());
  EXPECT_EQ(ops.count("Conv"), 1u);
  EXPECT_EQ(ops.count("MaxPool"), 1u);
  EXPECT_EQ(ops.count("Softmax"), 1u);
  EXPECT_EQ(m.graph().input_size(), 1);

  Scope root = Scope::NewRootScope();
  auto imported = onnx::ImportModel(root, *bytes);
  ASSERT_TRUE(imported.ok()) << imported.status();
  ClientSession session(root);
  std::vector<Tensor> got;
  ASSERT_TRUE(session.Run({{imported->inputs[0], x}}, imported->outputs, &got).ok());
  ASSERT_EQ(got[0].shape(), want->shape());
  for (int64_t i = 0; i < got[0].NumElements(); ++i) {
    EXPECT_NEAR(got[0].flat<float>()(i), want->flat<float>()(i), 1e-6) << i;
  }
}

// A depthwise convolution (3 channels, 2 filters each) is written as a Conv of 3 groups,
// an explicitly padded Conv2D as a Conv with pads, and both compute the same values when
// read back.
TEST(OnnxExport, DepthwiseAndExplicitlyPaddedConvolutions) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({2, 5, 6, 3}));
  Tensor f(DT_FLOAT, TensorShape({3, 3, 3, 2}));
  for (int64_t i = 0; i < f.NumElements(); ++i)
    f.flat<float>()(i) = static_cast<float>((i * 13) % 7) / 7.f - 0.4f;
  auto dw = ops::DepthwiseConv2dNative(root, x, ops::Const(root, f), {1, 2, 1, 1}, "SAME");
  // Then a Conv2D padded explicitly (TensorFlow's EXPLICIT: ONNX's pads, begins then ends).
  Tensor f2(DT_FLOAT, TensorShape({2, 3, 6, 2}));
  for (int64_t i = 0; i < f2.NumElements(); ++i)
    f2.flat<float>()(i) = static_cast<float>((i * 5) % 9) / 9.f - 0.5f;
  auto y = ops::Conv2D(root, dw, ops::Const(root, f2), {1, 1, 2, 1}, "EXPLICIT",
                       {0, 0, 1, 0, 2, 1, 0, 0});
  ClientSession session(root);
  Tensor xv(DT_FLOAT, TensorShape({2, 5, 6, 3}));
  for (int64_t i = 0; i < xv.NumElements(); ++i)
    xv.flat<float>()(i) = static_cast<float>((i * 37) % 17) / 17.f;
  std::vector<Tensor> want;
  ASSERT_TRUE(session.Run({{x, xv}}, {y}, &want).ok());

  auto bytes = onnx::ExportModel({x}, {y});
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  ::onnx::ModelProto m;
  ASSERT_TRUE(m.ParseFromString(*bytes));
  int64_t groups = 0;
  std::vector<int64_t> pads;
  for (const auto& n : m.graph().node()) {
    if (n.op_type() != "Conv") continue;
    for (const auto& a : n.attribute()) {
      if (a.name() == "group") groups = a.i();
      if (a.name() == "pads") pads.assign(a.ints().begin(), a.ints().end());
    }
  }
  EXPECT_EQ(groups, 3);
  EXPECT_EQ(pads, (std::vector<int64_t>{1, 2, 0, 1}));
  Scope back = Scope::NewRootScope();
  auto imported = onnx::ImportModel(back, *bytes);
  ASSERT_TRUE(imported.ok()) << imported.status();
  ClientSession session2(back);
  std::vector<Tensor> got;
  ASSERT_TRUE(session2.Run({{imported->inputs[0], xv}}, imported->outputs, &got).ok());
  ASSERT_EQ(got[0].shape(), want[0].shape());
  for (int64_t i = 0; i < got[0].NumElements(); ++i) {
    EXPECT_NEAR(got[0].flat<float>()(i), want[0].flat<float>()(i), 1e-6) << i;
  }
}

// Einsums of one and two operands (a batched product, a batch of diagonals, a broadcast
// contraction) are ONNX Einsums that compute the same when read back; a diagonal written
// into the output has no ONNX form and says so.
TEST(OnnxExport, EinsumsRoundTrip) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({2, 3, 3}));
  auto y = ops::Placeholder(root.WithOpName("y"), DT_FLOAT, ops::Placeholder::Shape({3, 4}));
  auto product = ops::Einsum(root, {x, y}, "bij,jk->bik");
  auto diagonals = ops::Einsum(root, {x}, "...ii->...i");
  auto broadcast = ops::Einsum(root, {diagonals, y}, "...j,jk->...k");
  Tensor xv(DT_FLOAT, TensorShape({2, 3, 3})), yv(DT_FLOAT, TensorShape({3, 4}));
  for (int64_t i = 0; i < xv.NumElements(); ++i) xv.flat<float>()(i) = 0.1f * (i % 7) - 0.3f;
  for (int64_t i = 0; i < yv.NumElements(); ++i) yv.flat<float>()(i) = 0.2f * (i % 5) - 0.4f;
  ClientSession session(root);
  std::vector<Tensor> want;
  ASSERT_TRUE(session.Run({{x, xv}, {y, yv}}, {product, diagonals, broadcast}, &want).ok());

  auto bytes = onnx::ExportModel({x, y}, {product, diagonals, broadcast});
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  Scope back = Scope::NewRootScope();
  auto imported = onnx::ImportModel(back, *bytes);
  ASSERT_TRUE(imported.ok()) << imported.status();
  ClientSession session2(back);
  std::vector<Tensor> got;
  ASSERT_TRUE(
      session2.Run({{imported->inputs[0], xv}, {imported->inputs[1], yv}}, imported->outputs, &got)
          .ok());
  ASSERT_EQ(got.size(), 3u);
  for (size_t k = 0; k < got.size(); ++k) {
    ASSERT_EQ(got[k].shape(), want[k].shape()) << k;
    for (int64_t i = 0; i < got[k].NumElements(); ++i) {
      EXPECT_NEAR(got[k].flat<float>()(i), want[k].flat<float>()(i), 1e-6) << k << " " << i;
    }
  }
  auto inflate = onnx::ExportModel({y}, {ops::Einsum(root, {y}, "ij->iij")});
  EXPECT_NE(inflate.status().message().find("'ij->iij'"), std::string::npos) << inflate.status();
}

// TruncateMod (and Mod) are ONNX's Mod with fmod 1, integer FloorMod its Mod with fmod 0:
// read back, each computes the same; a FloorMod of floats has no ONNX form and says so.
TEST(OnnxExport, RemaindersRoundTrip) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({4}));
  auto y = ops::Placeholder(root.WithOpName("y"), DT_FLOAT, ops::Placeholder::Shape({4}));
  auto i = ops::Placeholder(root.WithOpName("i"), DT_INT32, ops::Placeholder::Shape({4}));
  auto j = ops::Placeholder(root.WithOpName("j"), DT_INT32, ops::Placeholder::Shape({4}));
  std::vector<Output> outs = {ops::TruncateMod(root, x, y), ops::Mod(root, x, y),
                              ops::FloorMod(root, i, j), ops::TruncateMod(root, i, j)};
  const Tensor xv = test::AsTensor<float>({7.5f, -7.5f, 1e10f, -3.f});
  const Tensor yv = test::AsTensor<float>({2.f, 2.f, 3.f, -2.f});
  const Tensor iv = test::AsTensor<int32_t>({7, -7, 7, -7}),
               jv = test::AsTensor<int32_t>({2, 2, -2, -2});
  ClientSession session(root);
  std::vector<Tensor> want;
  ASSERT_TRUE(session.Run({{x, xv}, {y, yv}, {i, iv}, {j, jv}}, outs, &want).ok());
  auto bytes = onnx::ExportModel({x, y, i, j}, outs);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  Scope back = Scope::NewRootScope();
  auto imported = onnx::ImportModel(back, *bytes);
  ASSERT_TRUE(imported.ok()) << imported.status();
  ClientSession session2(back);
  std::vector<Tensor> got;
  const auto& in = imported->inputs;
  ASSERT_TRUE(
      session2.Run({{in[0], xv}, {in[1], yv}, {in[2], iv}, {in[3], jv}}, imported->outputs, &got)
          .ok());
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) test::ExpectEqual(got[k], want[k]);
  EXPECT_EQ(want[0].flat<float>()(2), std::fmod(1e10f, 3.f));  // exact: no x - y trunc(x / y)
  auto floats = onnx::ExportModel({x, y}, {ops::FloorMod(root, x, y)});
  EXPECT_NE(floats.status().message().find("integers only"), std::string::npos) << floats.status();
}

// IsNan, IsInf and Rint are ONNX's IsNaN, IsInf and Round (ties to even in both);
// Snapshot and PreventGradient its Identity.
TEST(OnnxExport, FloatClassesRintAndIdentitiesRoundTrip) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({5}));
  std::vector<Output> outs = {ops::IsNan(root, x), ops::IsInf(root, x), ops::Rint(root, x),
                              ops::Snapshot(root, x), ops::PreventGradient(root, x)};
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor xv = test::AsTensor<float>({2.5f, -inf, NAN, inf, -1.5f});
  ClientSession session(root);
  std::vector<Tensor> want;
  ASSERT_TRUE(session.Run({{x, xv}}, outs, &want).ok());
  auto bytes = onnx::ExportModel({x}, outs);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  Scope back = Scope::NewRootScope();
  auto imported = onnx::ImportModel(back, *bytes);
  ASSERT_TRUE(imported.ok()) << imported.status();
  ClientSession session2(back);
  std::vector<Tensor> got;
  ASSERT_TRUE(session2.Run({{imported->inputs[0], xv}}, imported->outputs, &got).ok());
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < 3; ++k) test::ExpectEqual(got[k], want[k]);
  test::ExpectTensorEqual<bool>(want[1], test::AsTensor<bool>({false, true, false, true, false}));
  test::ExpectTensorEqual<float>(want[2], test::AsTensor<float>({2, -inf, NAN, inf, -2}));
}

TEST(OnnxExport, ListsEveryOpItCannotWriteAndNeedsItsInputs) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({4}));
  auto top = ops::TopK(root, x, 2);
  auto sum = ops::Cumsum(root, top.values, 0);
  auto r = onnx::ExportModel({x}, {sum});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("Cumsum, TopKV2"), std::string::npos) << r.status();
  auto y = ops::Relu(root, x);
  auto no_input = onnx::ExportModel({}, {y});
  EXPECT_NE(no_input.status().message().find("placeholder 'x'"), std::string::npos)
      << no_input.status();
  auto v = ops::Variable(root.WithOpName("v"), {1.f, 2.f, 3.f, 4.f});
  auto no_session = onnx::ExportModel({x}, {ops::Add(root, x, v)});
  EXPECT_NE(no_session.status().message().find("ExportOptions::session"), std::string::npos)
      << no_session.status();
}

}  // namespace export_test
}  // namespace
}  // namespace rill
