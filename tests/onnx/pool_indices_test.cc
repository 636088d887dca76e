// MaxPool's Indices output (through MaxPoolWithArgmax): values and indices against a loop
// over ONNX's definition written here, for explicit pads, SAME_LOWER and SAME_UPPER,
// strides, several images and channels, and both storage orders.
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "onnx/onnx_pb.h"
#include "onnx_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace pool_indices_test {

using namespace onnx_test;

constexpr int64_t N = 2, C = 3, H = 5, W = 4;

struct Case {
  std::vector<int64_t> kernel, strides, pads;  // pads: top, left, bottom, right
  std::string auto_pad;
  int64_t storage_order;
};

void AddInts(::onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

// The definition: each window's max over real elements and the NCHW index of its first
// maximal one (row-major scan), the in-plane part column major for storage_order 1.
void Reference(const std::vector<float>& x, const Case& k, const std::vector<int64_t>& pads,
               int64_t oh, int64_t ow, std::vector<float>* y, std::vector<int64_t>* idx) {
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          float best = -std::numeric_limits<float>::infinity();
          int64_t at = -1;
          for (int64_t a = 0; a < k.kernel[0]; ++a)
            for (int64_t b = 0; b < k.kernel[1]; ++b) {
              const int64_t h = i * k.strides[0] - pads[0] + a, w = j * k.strides[1] - pads[1] + b;
              if (h < 0 || h >= H || w < 0 || w >= W) continue;
              const float v = x[((n * C + c) * H + h) * W + w];
              if (v > best) {
                best = v;
                at = (n * C + c) * H * W + (k.storage_order == 0 ? h * W + w : w * H + h);
              }
            }
          y->push_back(best);
          idx->push_back(at);
        }
}

TEST(OnnxMaxPoolIndices, MatchTheDefinition) {
  const Case cases[] = {
      {{3, 2}, {2, 1}, {1, 0, 0, 1}, "", 0},
      {{3, 2}, {2, 1}, {}, "SAME_LOWER", 0},
      {{2, 3}, {2, 2}, {}, "SAME_UPPER", 1},
      {{2, 2}, {2, 2}, {}, "VALID", 1},
  };
  std::vector<float> xv(N * C * H * W);
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>((i * 37) % 101) - 50.f;
  Tensor x(DT_FLOAT, TensorShape({N, C, H, W}));
  std::copy(xv.begin(), xv.end(), x.base<float>());
  for (const Case& k : cases) {
    SCOPED_TRACE(k.auto_pad + " storage_order " + std::to_string(k.storage_order));
    ::onnx::ModelProto m = NewModel(12);
    AddInput(&m, "x", {N, C, H, W});
    auto* node = AddNode(&m, "MaxPool", {"x"}, {"y", "i"});
    AddInts(node, "kernel_shape", k.kernel);
    AddInts(node, "strides", k.strides);
    if (!k.pads.empty()) AddInts(node, "pads", {k.pads[0], k.pads[1], k.pads[2], k.pads[3]});
    if (!k.auto_pad.empty()) AddStringAttr(node, "auto_pad", k.auto_pad);
    auto* so = node->add_attribute();
    so->set_name("storage_order");
    so->set_type(::onnx::AttributeProto::INT);
    so->set_i(k.storage_order);
    AddOutput(&m, "y");
    AddOutput(&m, "i", ::onnx::TensorProto::INT64);
    // The padding before and the output size per dim, as ONNX sizes them.
    std::vector<int64_t> pads = k.pads.empty() ? std::vector<int64_t>{0, 0, 0, 0} : k.pads;
    int64_t out[2];
    const int64_t in[2] = {H, W};
    for (int d = 0; d < 2; ++d) {
      const int64_t s = k.strides[d];
      if (k.auto_pad == "SAME_LOWER" || k.auto_pad == "SAME_UPPER") {
        out[d] = (in[d] + s - 1) / s;
        const int64_t total = std::max<int64_t>((out[d] - 1) * s + k.kernel[d] - in[d], 0);
        pads[d] = k.auto_pad == "SAME_LOWER" ? total - total / 2 : total / 2;
      } else {
        out[d] = (in[d] + pads[d] + pads[2 + d] - k.kernel[d]) / s + 1;
      }
    }
    std::vector<float> want_y;
    std::vector<int64_t> want_i;
    Reference(xv, k, pads, out[0], out[1], &want_y, &want_i);
    Scope root = Scope::NewRootScope();
    auto imported = onnx::ImportModel(root, Bytes(m));
    ASSERT_TRUE(imported.ok()) << imported.status();
    ClientSession session(root);
    std::vector<Tensor> got;
    ASSERT_TRUE(session.Run({{imported->input("x"), x}}, imported->outputs, &got).ok());
    ASSERT_EQ(got[0].shape(), TensorShape({N, C, out[0], out[1]}));
    ASSERT_EQ(got[1].shape(), got[0].shape());
    for (size_t e = 0; e < want_y.size(); ++e) {
      EXPECT_EQ(got[0].base<float>()[e], want_y[e]) << e;
      EXPECT_EQ(got[1].base<int64_t>()[e], want_i[e]) << e;
    }
  }
}

}  // namespace pool_indices_test
}  // namespace
}  // namespace rill
