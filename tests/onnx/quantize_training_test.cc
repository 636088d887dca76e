// ONNX's linear quantization, BatchNormalization in training mode and the optimizer ops of
// ai.onnx.preview.training, imported and run, against values worked out from ONNX's specs.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "onnx/onnx_pb.h"
#include "onnx_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace quantize_training_test {

using ::onnx::ModelProto;
using ::onnx::TensorProto;
using namespace onnx_test;

void AddUint8Init(ModelProto* m, const std::string& name, std::vector<int64_t> dims,
                  std::vector<int> v) {
  TensorProto* t = m->mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(TensorProto::UINT8);
  for (int64_t d : dims) t->add_dims(d);
  for (int x : v) t->add_int32_data(x);  // ONNX keeps uint8 values in int32_data
}

// Imports `m` and runs it with `feeds` (ONNX input name to value), fetching `outputs`.
std::vector<Tensor> RunModel(const ModelProto& m,
                             const std::vector<std::pair<std::string, Tensor>>& feeds,
                             const std::vector<std::string>& outputs) {
  Scope root = Scope::NewRootScope();
  auto imported = onnx::ImportModel(root, Bytes(m));
  EXPECT_TRUE(imported.ok()) << imported.status();
  if (!imported.ok()) return {};
  ClientSession session(root);
  ClientSession::FeedType f;
  for (const auto& [name, value] : feeds) f.emplace(imported->input(name), value);
  std::vector<Output> fetch;
  for (const auto& name : outputs) fetch.push_back(imported->output(name));
  std::vector<Tensor> out;
  absl::Status s = session.Run(f, fetch, &out);
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

Tensor Floats(TensorShape shape, std::vector<float> v) {
  Tensor t(DT_FLOAT, shape);
  for (size_t i = 0; i < v.size(); ++i) t.flat<float>()(i) = v[i];
  return t;
}

// Per channel of axis 1: round half to even, shift by the zero point, saturate to uint8.
TEST(OnnxQuantize, QuantizeLinearPerAxisRoundsHalvesToEvenAndSaturates) {
  ModelProto m = NewModel(13);
  AddInput(&m, "x", {2, 3});
  AddFloatInit(&m, "scale", {3}, {0.5f, 1.f, 2.f});
  AddUint8Init(&m, "zp", {3}, {10, 0, 250});
  AddNode(&m, "QuantizeLinear", {"x", "scale", "zp"}, {"y"});
  AddOutput(&m, "y", TensorProto::UINT8);
  auto out = RunModel(m, {{"x", Floats({2, 3}, {1.25f, -3.f, 20.f, 0.75f, 300.f, -1.f})}}, {"y"});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].dtype(), DT_UINT8);
  const std::vector<int> want = {12, 0, 255, 12, 255, 250};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[0].flat<uint8_t>()(i), want[i]) << i;
}

TEST(OnnxQuantize, DequantizeLinearPerAxisAndPerTensor) {
  ModelProto m = NewModel(13);
  AddInput(&m, "q", {2, 3}, TensorProto::UINT8);
  AddFloatInit(&m, "scale", {3}, {0.5f, 1.f, 2.f});
  AddUint8Init(&m, "zp", {3}, {10, 0, 250});
  AddFloatInit(&m, "s", {}, {0.25f});
  AddNode(&m, "DequantizeLinear", {"q", "scale", "zp"}, {"y"});
  AddNode(&m, "DequantizeLinear", {"q", "s"}, {"z"});
  AddOutput(&m, "y");
  AddOutput(&m, "z");
  Tensor q(DT_UINT8, TensorShape({2, 3}));
  const std::vector<int> qs = {12, 0, 255, 12, 255, 250};
  for (int i = 0; i < 6; ++i) q.flat<uint8_t>()(i) = static_cast<uint8_t>(qs[i]);
  auto out = RunModel(m, {{"q", q}}, {"y", "z"});
  ASSERT_EQ(out.size(), 2u);
  const std::vector<float> want = {1.f, 0.f, 10.f, 1.f, 255.f, 0.f};
  for (int i = 0; i < 6; ++i) {
    EXPECT_FLOAT_EQ(out[0].flat<float>()(i), want[i]) << i;
    EXPECT_FLOAT_EQ(out[1].flat<float>()(i), 0.25f * static_cast<float>(qs[i])) << i;
  }
}

// The range is widened to hold 0: [-1, 2] gives scale 3/255 and zero point 85; [0.5, 2]
// becomes [0, 2] with zero point 0.
TEST(OnnxQuantize, DynamicQuantizeLinearTakesItsRangeFromTheData) {
  ModelProto m = NewModel(11);
  AddInput(&m, "x", {4});
  AddNode(&m, "DynamicQuantizeLinear", {"x"}, {"y", "scale", "zp"});
  AddOutput(&m, "y", TensorProto::UINT8);
  AddOutput(&m, "scale");
  AddOutput(&m, "zp", TensorProto::UINT8);
  auto out = RunModel(m, {{"x", Floats({4}, {-1.f, 0.f, 2.f, 0.25f})}}, {"y", "scale", "zp"});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FLOAT_EQ(out[1].scalar<float>()(), 3.f / 255.f);
  EXPECT_EQ(out[2].scalar<uint8_t>()(), 85);
  const std::vector<int> want = {0, 85, 255, 106};  // 0.25 / (3/255) = 21.25
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[0].flat<uint8_t>()(i), want[i]) << i;

  out = RunModel(m, {{"x", Floats({4}, {2.f, 0.5f, 1.3f, 1.f})}}, {"y", "scale", "zp"});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FLOAT_EQ(out[1].scalar<float>()(), 2.f / 255.f);
  EXPECT_EQ(out[2].scalar<uint8_t>()(), 0);
  const std::vector<int> positive = {255, 64, 166};  // 63.75 and 165.75 rounded
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out[0].flat<uint8_t>()(i), positive[i]) << i;
}

// Batch statistics over N and the spatial dims, the running ones moved by `momentum`.
TEST(OnnxBatchNorm, TrainingModeNormalizesWithTheBatchAndUpdatesTheRunningStatistics) {
  ModelProto m = NewModel(15);
  AddInput(&m, "x", {2, 2, 1});
  AddFloatInit(&m, "scale", {2}, {1.f, 2.f});
  AddFloatInit(&m, "bias", {2}, {0.f, 1.f});
  AddFloatInit(&m, "mean", {2}, {0.f, 1.f});
  AddFloatInit(&m, "var", {2}, {1.f, 1.f});
  auto* n = AddNode(&m, "BatchNormalization", {"x", "scale", "bias", "mean", "var"},
                    {"y", "running_mean", "running_var"});
  auto* a = n->add_attribute();
  a->set_name("training_mode");
  a->set_type(::onnx::AttributeProto::INT);
  a->set_i(1);
  for (const char* o : {"y", "running_mean", "running_var"}) AddOutput(&m, o);
  // Channel 0 holds 1 and 3 (mean 2, variance 1); channel 1 holds 2 and 6 (mean 4, var 4).
  auto out = RunModel(m, {{"x", Floats({2, 2, 1}, {1.f, 2.f, 3.f, 6.f})}},
                      {"y", "running_mean", "running_var"});
  ASSERT_EQ(out.size(), 3u);
  const double eps = 1e-5;
  const std::vector<double> want = {-1 / std::sqrt(1 + eps), 2 * (-2 / std::sqrt(4 + eps)) + 1,
                                    1 / std::sqrt(1 + eps), 2 * (2 / std::sqrt(4 + eps)) + 1};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(out[0].flat<float>()(i), want[i], 1e-6) << i;
  EXPECT_NEAR(out[1].flat<float>()(0), 0.1 * 2, 1e-6);
  EXPECT_NEAR(out[1].flat<float>()(1), 0.9 * 1 + 0.1 * 4, 1e-6);
  EXPECT_NEAR(out[2].flat<float>()(0), 0.9 * 1 + 0.1 * 1, 1e-6);
  EXPECT_NEAR(out[2].flat<float>()(1), 0.9 * 1 + 0.1 * 4, 1e-6);
}

// A model of one optimizer node of ai.onnx.preview.training over two tensors: R, T, then
// `lists` lists of two inputs (X1 X2, G1 G2, ...) and as many outputs per list but the G's.
ModelProto OptimizerModel(const std::string& op, int lists,
                          const std::vector<std::pair<std::string, float>>& float_attrs,
                          const std::string& mode = "") {
  ModelProto m = NewModel(13);
  auto* training = m.add_opset_import();
  training->set_domain("ai.onnx.preview.training");
  training->set_version(1);
  AddInput(&m, "R", {});
  AddInput(&m, "T", {}, TensorProto::INT64);
  std::vector<std::string> in = {"R", "T"}, out;
  for (int l = 0; l < lists; ++l) {
    for (int k = 1; k <= 2; ++k) {
      const std::string name = absl::StrCat("in", l, "_", k);
      AddInput(&m, name, {k == 1 ? 2 : 1});
      in.push_back(name);
      if (l != 1) out.push_back(absl::StrCat("out", l, "_", k));
    }
  }
  auto* n = AddNode(&m, op, in, out);
  n->set_domain("ai.onnx.preview.training");
  for (const auto& [name, v] : float_attrs) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::FLOAT);
    a->set_f(v);
  }
  if (!mode.empty()) AddStringAttr(n, "mode", mode);
  for (const auto& o : out) AddOutput(&m, o);
  return m;
}

// The inputs of OptimizerModel: list l's tensors hold `base[l]` + 0.5 k, k = 0, 1, 2.
struct OptimizerRun {
  std::vector<std::vector<double>> in;  // per list, X1's two values then X2's
  std::vector<std::pair<std::string, Tensor>> feeds;
};
OptimizerRun Feeds(int lists, int64_t t, const std::vector<double>& base) {
  OptimizerRun r;
  r.feeds = {{"R", Floats({}, {0.1f})}};
  Tensor tt(DT_INT64, TensorShape({}));
  tt.scalar<int64_t>()() = t;
  r.feeds.emplace_back("T", tt);
  for (int l = 0; l < lists; ++l) {
    std::vector<double> v = {base[l], base[l] + 0.5, base[l] + 1.0};
    r.in.push_back(v);
    r.feeds.emplace_back(absl::StrCat("in", l, "_1"),
                         Floats({2}, {static_cast<float>(v[0]), static_cast<float>(v[1])}));
    r.feeds.emplace_back(absl::StrCat("in", l, "_2"), Floats({1}, {static_cast<float>(v[2])}));
  }
  return r;
}

// Compares fetched outputs (per output list, X1 then X2) with want[list][element].
void ExpectOutputs(const std::vector<Tensor>& out, const std::vector<std::vector<double>>& want) {
  ASSERT_EQ(out.size(), 2 * want.size());
  for (size_t l = 0; l < want.size(); ++l) {
    EXPECT_NEAR(out[2 * l].flat<float>()(0), want[l][0], 1e-5) << "list " << l;
    EXPECT_NEAR(out[2 * l].flat<float>()(1), want[l][1], 1e-5) << "list " << l;
    EXPECT_NEAR(out[2 * l + 1].flat<float>()(0), want[l][2], 1e-5) << "list " << l;
  }
}

TEST(OnnxTrainingOps, AdagradDecaysTheRateAndAccumulatesSquares) {
  ModelProto m = OptimizerModel(
      "Adagrad", 3, {{"decay_factor", 0.5f}, {"epsilon", 0.01f}, {"norm_coefficient", 0.1f}});
  OptimizerRun run = Feeds(3, 2, {1.0, -0.5, 0.25});  // X, G, H
  const double r = 0.1 / (1 + 2 * 0.5);
  std::vector<std::vector<double>> want(2, std::vector<double>(3));
  for (int i = 0; i < 3; ++i) {
    const double x = run.in[0][i], g = 0.1 * x + run.in[1][i];
    const double h = run.in[2][i] + g * g;
    want[0][i] = x - r * g / (std::sqrt(h) + 0.01);
    want[1][i] = h;
  }
  ExpectOutputs(RunModel(m, run.feeds, {"out0_1", "out0_2", "out2_1", "out2_2"}), want);
}

TEST(OnnxTrainingOps, MomentumStandardAndNesterovWithTheFirstStepsBeta) {
  for (const std::string mode : {"standard", "nesterov"}) {
    for (int64_t t : {0, 3}) {
      ModelProto m = OptimizerModel(
          "Momentum", 3, {{"alpha", 0.9f}, {"beta", 0.5f}, {"norm_coefficient", 0.f}}, mode);
      OptimizerRun run = Feeds(3, t, {1.0, -0.5, 0.25});  // X, G, V
      const double beta = t > 0 ? 0.5 : 1.0, alpha = static_cast<double>(0.9f);
      std::vector<std::vector<double>> want(2, std::vector<double>(3));
      for (int i = 0; i < 3; ++i) {
        const double x = run.in[0][i], g = run.in[1][i];
        const double v = alpha * run.in[2][i] + beta * g;
        want[0][i] = x - 0.1 * (mode == "nesterov" ? g + alpha * v : v);
        want[1][i] = v;
      }
      SCOPED_TRACE(mode + " T=" + std::to_string(t));
      ExpectOutputs(RunModel(m, run.feeds, {"out0_1", "out0_2", "out2_1", "out2_2"}), want);
    }
  }
}

TEST(OnnxTrainingOps, AdamCorrectsTheRateOnceCounted) {
  for (int64_t t : {0, 2}) {
    ModelProto m = OptimizerModel("Adam", 4,
                                  {{"alpha", 0.8f},
                                   {"beta", 0.9f},
                                   {"epsilon", 0.01f},
                                   {"norm_coefficient", 0.1f},
                                   {"norm_coefficient_post", 0.2f}});
    OptimizerRun run = Feeds(4, t, {1.0, -0.5, 0.25, 0.5});  // X, G, V, H
    const double a = static_cast<double>(0.8f), b = static_cast<double>(0.9f);
    const double rate = t > 0 ? 0.1 * std::sqrt(1 - std::pow(b, t)) / (1 - std::pow(a, t)) : 0.1;
    std::vector<std::vector<double>> want(3, std::vector<double>(3));
    for (int i = 0; i < 3; ++i) {
      const double x = run.in[0][i], g = 0.1 * x + run.in[1][i];
      const double v = a * run.in[2][i] + (1 - a) * g;
      const double h = b * run.in[3][i] + (1 - b) * g * g;
      want[0][i] = (1 - static_cast<double>(0.2f)) * (x - rate * v / (std::sqrt(h) + 0.01));
      want[1][i] = v;
      want[2][i] = h;
    }
    SCOPED_TRACE("T=" + std::to_string(t));
    ExpectOutputs(
        RunModel(m, run.feeds, {"out0_1", "out0_2", "out2_1", "out2_2", "out3_1", "out3_2"}), want);
  }
}

// An op of the domain rill has no converter for is listed with the domain's opset.
TEST(OnnxTrainingOps, AnotherOpOfTheDomainIsListedWithItsOpset) {
  ModelProto m = NewModel(13);
  auto* training = m.add_opset_import();
  training->set_domain("ai.onnx.preview.training");
  training->set_version(1);
  AddInput(&m, "x", {2});
  AddNode(&m, "Identity", {"x"}, {"y"});
  auto* n = AddNode(&m, "Gradient", {"x"}, {"dy"});
  n->set_domain("ai.onnx.preview.training");
  auto* xs = n->add_attribute();  // the attributes ONNX's checker requires of Gradient
  xs->set_name("xs");
  xs->set_type(::onnx::AttributeProto::STRINGS);
  xs->add_strings("x");
  AddStringAttr(n, "y", "y");
  AddOutput(&m, "y");
  auto unsupported = onnx::FindUnsupportedNodes(Bytes(m));
  ASSERT_TRUE(unsupported.ok()) << unsupported.status();
  ASSERT_EQ(unsupported->size(), 1u);
  EXPECT_EQ((*unsupported)[0].op_type, "Gradient");
  EXPECT_EQ((*unsupported)[0].domain, "ai.onnx.preview.training");
  EXPECT_EQ((*unsupported)[0].opset, 1);
}

}  // namespace quantize_training_test
}  // namespace
}  // namespace rill
