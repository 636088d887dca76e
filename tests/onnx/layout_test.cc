// Imported convolutions and what lies between them: values kept channels-last between
// layout-aware nodes (runtime/onnx/layout.h) must equal ONNX's NCHW semantics, including
// constants that broadcast along a spatial dim, values read both ways, and fallbacks to
// NCHW; depthwise Conv (DepthwiseConv2dNative) with a channel multiplier, dilation, strides
// and pads. Expected values come from loops written here.
#include <vector>

#include "gtest/gtest.h"
#include "onnx/onnx_pb.h"
#include "onnx_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace layout_test {

using ::onnx::ModelProto;
using namespace onnx_test;

std::vector<float> Iota(int64_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = offset + scale * static_cast<float>((i * 7) % 11);
  return v;
}

void AddInts(::onnx::NodeProto* n, const std::string& name, std::vector<int64_t> v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}
void AddInt(::onnx::NodeProto* n, const std::string& name, int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INT);
  a->set_i(v);
}

// Runs the model on x and returns its outputs by name order.
std::vector<Tensor> RunModel(const ModelProto& m, const Tensor& x) {
  Scope root = Scope::NewRootScope();
  auto imported = onnx::ImportModel(root, Bytes(m));
  EXPECT_TRUE(imported.ok()) << imported.status();
  if (!imported.ok()) return {};
  ClientSession session(root);
  std::vector<Tensor> out;
  absl::Status s = session.Run({{imported->input("x"), x}}, imported->outputs, &out);
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

void ExpectValues(const Tensor& t, const std::vector<int64_t>& dims,
                  const std::vector<float>& want) {
  ASSERT_EQ(t.shape(), TensorShape(dims));
  ASSERT_EQ(t.NumElements(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(t.base<float>()[i], want[i], 1e-5) << i;
}

constexpr int64_t C = 2, H = 3, W = 4, M = 3;

// conv = Conv1x1(x) [1, M, H, W]; r = Relu(conv * s[M,1,1] + b[W]); y = mean over H, W of
// Concat(r, conv) [1, 2M, 1, 1]; z = Conv1x1'(r) [1, C, H, W] + x (x has no twin).
// `spatial` dims: 2 ({H, W}) or 1 ({W}); the second Conv is 1x1, or of width 3 with pads
// for 1-D.
ModelProto ChainModel(int spatial = 2) {
  const bool one = spatial == 1;
  auto dims = [&](std::vector<int64_t> d, std::vector<int64_t> sp) {
    d.insert(d.end(), sp.begin(), sp.end());
    return d;
  };
  ModelProto m = NewModel(13);
  AddInput(&m, "x", dims({1, C}, one ? std::vector<int64_t>{W} : std::vector<int64_t>{H, W}));
  AddFloatInit(&m, "w", dims({M, C}, std::vector<int64_t>(spatial, 1)), Iota(M * C, 0.25f, -1.f));
  AddFloatInit(&m, "s", dims({M}, std::vector<int64_t>(spatial, 1)), {2.f, -1.f, 0.5f});
  AddFloatInit(&m, "b", {W}, {0.5f, -0.25f, 1.f, 0.f});
  AddFloatInit(&m, "w2", one ? std::vector<int64_t>{C, M, 3} : std::vector<int64_t>{C, M, 1, 1},
               Iota(C * M * (one ? 3 : 1), -0.5f, 1.f));
  AddNode(&m, "Conv", {"x", "w"}, {"conv"});
  AddNode(&m, "Mul", {"conv", "s"}, {"scaled"});
  AddNode(&m, "Add", {"scaled", "b"}, {"shifted"});
  AddNode(&m, "Relu", {"shifted"}, {"r"});
  AddInt(AddNode(&m, "Concat", {"r", "conv"}, {"cat"}), "axis", 1);
  AddNode(&m, "GlobalAveragePool", {"cat"}, {"y"});
  ::onnx::NodeProto* conv2 = AddNode(&m, "Conv", {"r", "w2"}, {"conv2"});
  if (one) AddInts(conv2, "pads", {1, 1});
  AddNode(&m, "Add", {"conv2", "x"}, {"z"});
  AddOutput(&m, "r");
  AddOutput(&m, "y");
  AddOutput(&m, "z");
  return m;
}

TEST(OnnxLayout, ChannelsLastChainsComputeOnnxValues) {
  const std::vector<float> x = Iota(C * H * W, 0.3f, -1.2f), w = Iota(M * C, 0.25f, -1.f),
                           w2 = Iota(C * M, -0.5f, 1.f);
  const float s[M] = {2.f, -1.f, 0.5f}, b[W] = {0.5f, -0.25f, 1.f, 0.f};
  auto at = [](int64_t c, int64_t h, int64_t w_) { return (c * H + h) * W + w_; };
  std::vector<float> conv(M * H * W), r(M * H * W), y(2 * M, 0.f), z(C * H * W);
  for (int64_t o = 0; o < M; ++o)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < W; ++i) {
        float acc = 0;
        for (int64_t c = 0; c < C; ++c) acc += w[o * C + c] * x[at(c, h, i)];
        conv[at(o, h, i)] = acc;
        r[at(o, h, i)] = std::max(acc * s[o] + b[i], 0.f);
        y[o] += r[at(o, h, i)] / (H * W);
        y[M + o] += acc / (H * W);
      }
  for (int64_t o = 0; o < C; ++o)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < W; ++i) {
        float acc = 0;
        for (int64_t c = 0; c < M; ++c) acc += w2[o * M + c] * r[at(c, h, i)];
        z[at(o, h, i)] = acc + x[at(o, h, i)];
      }
  Tensor xt(DT_FLOAT, TensorShape({1, C, H, W}));
  std::copy(x.begin(), x.end(), xt.base<float>());
  std::vector<Tensor> out = RunModel(ChainModel(), xt);
  ASSERT_EQ(out.size(), 3u);
  ExpectValues(out[0], {1, M, H, W}, r);
  ExpectValues(out[1], {1, 2 * M, 1, 1}, y);
  ExpectValues(out[2], {1, C, H, W}, z);
}

// The same chain over 1-D windows: [N, C, L] values whose twins are [N, 1, L, C]. Constants
// per channel ([M, 1]) and along L ([L]), a Concat and a global pool of twins, and a
// second Conv of width 3 with pads reading the Relu's twin.
TEST(OnnxLayout, OneDimensionalChainsComputeOnnxValues) {
  const std::vector<float> x = Iota(C * W, 0.3f, -1.2f), w = Iota(M * C, 0.25f, -1.f),
                           w2 = Iota(C * M * 3, -0.5f, 1.f);
  const float s[M] = {2.f, -1.f, 0.5f}, b[W] = {0.5f, -0.25f, 1.f, 0.f};
  std::vector<float> r(M * W), y(2 * M, 0.f), z(C * W);
  for (int64_t o = 0; o < M; ++o)
    for (int64_t i = 0; i < W; ++i) {
      float acc = 0;
      for (int64_t c = 0; c < C; ++c) acc += w[o * C + c] * x[c * W + i];
      r[o * W + i] = std::max(acc * s[o] + b[i], 0.f);
      y[o] += r[o * W + i] / W;
      y[M + o] += acc / W;
    }
  for (int64_t o = 0; o < C; ++o)
    for (int64_t i = 0; i < W; ++i) {
      float acc = 0;
      for (int64_t c = 0; c < M; ++c)
        for (int64_t k = 0; k < 3; ++k) {
          const int64_t at = i + k - 1;
          if (at >= 0 && at < W) acc += w2[(o * M + c) * 3 + k] * r[c * W + at];
        }
      z[o * W + i] = acc + x[o * W + i];
    }
  Tensor xt(DT_FLOAT, TensorShape({1, C, W}));
  std::copy(x.begin(), x.end(), xt.base<float>());
  std::vector<Tensor> out = RunModel(ChainModel(1), xt);
  ASSERT_EQ(out.size(), 3u);
  ExpectValues(out[0], {1, M, W}, r);
  ExpectValues(out[1], {1, 2 * M, 1}, y);
  ExpectValues(out[2], {1, C, W}, z);
}

// A Resize of a convolution's output runs on its channels-last twin: the same values as a
// Resize of the same tensor without a twin (a Reshape to its own shape in between), for
// nearest and linear modes.
TEST(OnnxLayout, ResizeOfATwinEqualsResizeOfTheNchwValue) {
  for (const char* mode : {"nearest", "linear"}) {
    SCOPED_TRACE(mode);
    std::vector<Tensor> outs;
    for (bool twin : {true, false}) {
      ModelProto m = NewModel(13);
      AddInput(&m, "x", {1, C, H, W});
      AddFloatInit(&m, "w", {M, C, 1, 1}, Iota(M * C, 0.25f, -1.f));
      AddFloatInit(&m, "scales", {4}, {1.f, 1.f, 2.f, 1.5f});
      AddInt64Init(m.mutable_graph(), "shape", {4}, {1, M, H, W});
      AddNode(&m, "Conv", {"x", "w"}, {"conv"});
      std::string in = "conv";
      if (!twin) {
        AddNode(&m, "Reshape", {"conv", "shape"}, {"plain"});
        in = "plain";
      }
      AddStringAttr(AddNode(&m, "Resize", {in, "", "scales"}, {"y"}), "mode", mode);
      AddOutput(&m, "y");
      Tensor xt(DT_FLOAT, TensorShape({1, C, H, W}));
      const std::vector<float> x = Iota(C * H * W, 0.3f, -1.2f);
      std::copy(x.begin(), x.end(), xt.base<float>());
      std::vector<Tensor> out = RunModel(m, xt);
      ASSERT_EQ(out.size(), 1u);
      outs.push_back(out[0]);
    }
    ASSERT_EQ(outs[0].shape(), TensorShape({1, M, 2 * H, 6}));
    std::vector<float> want(outs[1].base<float>(), outs[1].base<float>() + outs[1].NumElements());
    ExpectValues(outs[0], {1, M, 2 * H, 6}, want);
  }
}

// Depthwise: 2 channels, 2 filters each (group 2, 4 outputs), 3x3 dilated by 2, strides
// (1, 2), pads (2, 1, 1, 0) on a 6x7 image, with a bias.
TEST(OnnxLayout, DepthwiseConvWithMultiplierDilationAndPads) {
  constexpr int64_t kC = 2, kM = 4, kH = 6, kW = 7, k = 3, d = 2, sh = 1, sw = 2;
  const int64_t pt = 2, pl = 1, pb = 1, pr = 0;
  const int64_t oh = (kH + pt + pb - ((k - 1) * d + 1)) / sh + 1;
  const int64_t ow = (kW + pl + pr - ((k - 1) * d + 1)) / sw + 1;
  const std::vector<float> x = Iota(kC * kH * kW, 0.2f, -1.f), w = Iota(kM * k * k, -0.3f, 1.f),
                           bias = {0.1f, -0.2f, 0.3f, -0.4f};
  ModelProto m = NewModel(13);
  AddInput(&m, "x", {1, kC, kH, kW});
  AddFloatInit(&m, "w", {kM, 1, k, k}, w);
  AddFloatInit(&m, "bias", {kM}, bias);
  auto* n = AddNode(&m, "Conv", {"x", "w", "bias"}, {"y"});
  AddInt(n, "group", kC);
  AddInts(n, "dilations", {d, d});
  AddInts(n, "strides", {sh, sw});
  AddInts(n, "pads", {pt, pl, pb, pr});
  AddOutput(&m, "y");
  std::vector<float> want;
  for (int64_t o = 0; o < kM; ++o) {
    const int64_t c = o / (kM / kC);
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        float acc = bias[o];
        for (int64_t a = 0; a < k; ++a)
          for (int64_t b = 0; b < k; ++b) {
            const int64_t ih = i * sh - pt + a * d, iw = j * sw - pl + b * d;
            if (ih < 0 || ih >= kH || iw < 0 || iw >= kW) continue;
            acc += w[(o * k + a) * k + b] * x[(c * kH + ih) * kW + iw];
          }
        want.push_back(acc);
      }
  }
  Tensor xt(DT_FLOAT, TensorShape({1, kC, kH, kW}));
  std::copy(x.begin(), x.end(), xt.base<float>());
  std::vector<Tensor> out = RunModel(m, xt);
  ASSERT_EQ(out.size(), 1u);
  ExpectValues(out[0], {1, kM, oh, ow}, want);
}

}  // namespace layout_test
}  // namespace
}  // namespace rill
