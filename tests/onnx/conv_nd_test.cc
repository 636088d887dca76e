// Conv and ConvTranspose over 3-D windows (rill's Conv3D and Conv3DBackpropInputV2): each
// 2-D case with its pads, strides, dilations, groups, auto_pad and output shapes is also
// run as a 3-D window of depth 1, and the two imports (different converters, different
// kernels) must agree. ONNX's own cases check 3-D values (test_Conv3d_*, test_convtranspose_3d).
#include <algorithm>
#include <vector>

#include "gtest/gtest.h"
#include "onnx/onnx_pb.h"
#include "onnx_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace conv_nd_test {

using ::onnx::ModelProto;
using namespace onnx_test;

struct Window {
  std::vector<int64_t> kernel, strides, pads, dilations, output_padding, output_shape;
  std::string auto_pad;
  int64_t group = 1;
};

void AddInts(::onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
  if (v.empty()) return;
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

std::vector<float> Values(int64_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 7 + seed * 13) % 17) / 8.f - 1.f;
  return v;
}

// y = op(x, w, b) with the window's attributes.
ModelProto WindowModel(const std::string& op, const std::vector<int64_t>& x_dims,
                       const std::vector<int64_t>& w_dims, const Window& win) {
  ModelProto m = NewModel(13);
  AddInput(&m, "x", x_dims);
  int64_t n = 1;
  for (int64_t d : w_dims) n *= d;
  AddFloatInit(&m, "w", w_dims, Values(n, 3));
  const int64_t out_c = op == "Conv" ? w_dims[0] : w_dims[1] * win.group;
  AddFloatInit(&m, "b", {out_c}, Values(out_c, 5));
  auto* node = AddNode(&m, op, {"x", "w", "b"}, {"y"});
  AddInts(node, "kernel_shape", win.kernel);
  AddInts(node, "strides", win.strides);
  AddInts(node, "pads", win.pads);
  AddInts(node, "dilations", win.dilations);
  AddInts(node, "output_padding", win.output_padding);
  AddInts(node, "output_shape", win.output_shape);
  if (!win.auto_pad.empty()) AddStringAttr(node, "auto_pad", win.auto_pad);
  auto* g = node->add_attribute();
  g->set_name("group");
  g->set_type(::onnx::AttributeProto::INT);
  g->set_i(win.group);
  AddOutput(&m, "y");
  return m;
}

// The same window with a leading spatial dim of 1.
Window Deepened(Window w) {
  auto lead = [](std::vector<int64_t>* v, int64_t x) {
    if (!v->empty()) v->insert(v->begin(), x);
  };
  lead(&w.kernel, 1);
  lead(&w.strides, 1);
  lead(&w.dilations, 1);
  lead(&w.output_padding, 0);
  lead(&w.output_shape, 1);
  if (!w.pads.empty()) w.pads = {0, w.pads[0], w.pads[1], 0, w.pads[2], w.pads[3]};
  return w;
}

Tensor Run(const ModelProto& m, const Tensor& x) {
  Scope root = Scope::NewRootScope();
  auto imported = onnx::ImportModel(root, Bytes(m));
  EXPECT_TRUE(imported.ok()) << imported.status();
  if (!imported.ok()) return Tensor();
  ClientSession session(root);
  std::vector<Tensor> out;
  absl::Status s = session.Run({{imported->input("x"), x}}, imported->outputs, &out);
  EXPECT_TRUE(s.ok()) << s;
  return s.ok() ? out[0] : Tensor();
}

// Runs op over x [1, C, H, W] in 2-D and as [1, C, 1, H, W] in 3-D; the values must agree.
void ExpectDepthOneAgrees(const std::string& op, int64_t c, const std::vector<int64_t>& w_dims,
                          const Window& win) {
  const std::vector<int64_t> x2 = {1, c, 5, 6}, x3 = {1, c, 1, 5, 6};
  std::vector<int64_t> w3 = w_dims;
  w3.insert(w3.begin() + 2, 1);
  Tensor x(DT_FLOAT, TensorShape(x2));
  const std::vector<float> xv = Values(x.NumElements(), 7);
  std::copy(xv.begin(), xv.end(), x.base<float>());
  Tensor x_deep(DT_FLOAT, TensorShape(x3));
  std::copy(xv.begin(), xv.end(), x_deep.base<float>());
  const Tensor flat = Run(WindowModel(op, x2, w_dims, win), x);
  const Tensor deep = Run(WindowModel(op, x3, w3, Deepened(win)), x_deep);
  ASSERT_TRUE(flat.IsInitialized() && deep.IsInitialized());
  ASSERT_EQ(deep.dims(), 5);
  ASSERT_EQ(deep.dim_size(2), 1);
  ASSERT_EQ(flat.shape(),
            TensorShape({deep.dim_size(0), deep.dim_size(1), deep.dim_size(3), deep.dim_size(4)}));
  for (int64_t i = 0; i < flat.NumElements(); ++i) {
    EXPECT_NEAR(deep.base<float>()[i], flat.base<float>()[i], 1e-4) << i;
  }
}

TEST(OnnxConvNd, ConvOfDepthOneIsThe2DConv) {
  const Window windows[] = {
      {{3, 2}, {2, 1}, {1, 0, 1, 1}, {1, 2}, {}, {}, "", 1},
      {{3, 3}, {2, 2}, {}, {}, {}, {}, "SAME_UPPER", 2},
      {{2, 3}, {2, 2}, {}, {}, {}, {}, "SAME_LOWER", 1},
      {{2, 2}, {1, 1}, {}, {2, 2}, {}, {}, "VALID", 4},
  };
  for (const Window& w : windows) {
    SCOPED_TRACE(w.auto_pad + " group " + std::to_string(w.group));
    ExpectDepthOneAgrees("Conv", 4, {w.group * 2, 4 / w.group, w.kernel[0], w.kernel[1]}, w);
  }
}

TEST(OnnxConvNd, ConvTransposeOfDepthOneIsThe2DOne) {
  const Window windows[] = {
      {{3, 3}, {2, 2}, {1, 1, 0, 1}, {}, {1, 0}, {}, "", 1},
      {{3, 2}, {2, 2}, {}, {}, {}, {}, "SAME_UPPER", 1},
      {{2, 3}, {2, 1}, {}, {}, {}, {}, "SAME_LOWER", 2},
      {{3, 3}, {2, 3}, {}, {}, {}, {9, 16}, "", 1},
      {{2, 2}, {1, 1}, {0, 1, 1, 0}, {}, {}, {}, "", 4},
      {{3, 2}, {2, 1}, {1, 0, 0, 1}, {2, 3}, {}, {}, "", 1},  // dilated
      {{2, 3}, {1, 2}, {}, {3, 2}, {}, {}, "SAME_UPPER", 2},
  };
  for (const Window& w : windows) {
    SCOPED_TRACE(w.auto_pad + " group " + std::to_string(w.group));
    ExpectDepthOneAgrees("ConvTranspose", 4, {4, 3, w.kernel[0], w.kernel[1]}, w);
  }
}

}  // namespace conv_nd_test
}  // namespace
}  // namespace rill
