// The cases of TensorFlow's tensorflow/core/kernels/conv_ops_test.cc, rewritten against rill
// (their images, filters, fusions and tolerances are TensorFlow's; the code is ours):
// Conv2D by hand and with anisotropic strides, and _FusedConv2D with TensorFlow's attrs
// (fused_ops BiasAdd or FusedBatchNorm, then Relu, Relu6 or Elu) against Conv2D, BiasAdd or
// FusedBatchNorm and the activation as separate nodes, with SAME and EXPLICIT padding.
// rill: the FusedResizeAndPadConv2D and FusedPadConv2D cases are left out (rill has neither
// op), as are the half-float ones. The unfused graph runs through rill's GraphDef flow with
// the graph optimizer off (SessionOptions::optimize_graph, where TensorFlow turns off
// Grappler's passes one by one); the fused node runs through OpsTestBase from a
// NodeDefBuilder with FakeInputs, where TensorFlow adds a NodeDef to the GraphDef.
#include <string>
#include <vector>

#include "fused_op_test_util.h"
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace conv_ops_test {

class ConvOpTest : public OpsTestBase {
 protected:
  void HandwrittenConv() {
    const int stride = 1;
    TF_EXPECT_OK(NodeDefBuilder("conv_op", "Conv2D")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_FLOAT))
                     .Attr("T", DT_FLOAT)
                     .Attr("strides", {1, stride, stride, 1})
                     .Attr("padding", "SAME")
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
    const int depth = 1, image_width = 4, image_height = 3, image_batch_count = 1;
    Tensor image(DT_FLOAT, {image_batch_count, image_height, image_width, depth});
    test::FillValues<float>(&image, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    const int filter_size = 3, filter_count = 1;
    Tensor filter(DT_FLOAT, {filter_size, filter_size, depth, filter_count});
    test::FillValues<float>(&filter, {1, 4, 7, 2, 5, 8, 3, 6, 9});
    AddInputFromArray<float>(image.shape(), image.flat<float>());
    AddInputFromArray<float>(filter.shape(), filter.flat<float>());
    TF_ASSERT_OK(RunOpKernel());
    // The 3x3 filter slid across the 3x4 image, zeros outside it (SAME).
    Tensor expected(DT_FLOAT,
                    TensorShape({image_batch_count, image_height, image_width, filter_count}));
    test::FillValues<float>(&expected, {105, 150, 183, 95, 235, 312, 357, 178, 187, 234, 261, 121});
    test::ExpectTensorNear<float>(expected, *GetOutput(0), 1e-5);
  }

  void AnisotropicStrides() {
    const int stride_width = 3, stride_height = 1;
    TF_EXPECT_OK(NodeDefBuilder("conv_op", "Conv2D")
                     .Input(FakeInput(DT_FLOAT))
                     .Input(FakeInput(DT_FLOAT))
                     .Attr("T", DT_FLOAT)
                     .Attr("strides", {1, stride_height, stride_width, 1})
                     .Attr("padding", "VALID")
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
    Tensor image(DT_FLOAT, {1, 3, 6, 1});
    test::FillValues<float>(&image, {3, 2, 1, -1, -2, -3,  //
                                     4, 3, 2, -2, -3, -4,  //
                                     5, 4, 3, -3, -4, -5});
    Tensor filter(DT_FLOAT, {2, 2, 1, 1});
    test::FillValues<float>(&filter, {1, 2, 3, 4});
    AddInputFromArray<float>(image.shape(), image.flat<float>());
    AddInputFromArray<float>(filter.shape(), filter.flat<float>());
    TF_ASSERT_OK(RunOpKernel());
    Tensor expected(DT_FLOAT, TensorShape({1, 2, 2, 1}));
    test::FillValues<float>(&expected, {31, -23, 41, -33});
    test::ExpectTensorNear<float>(expected, *GetOutput(0), 1e-5);
  }
};

TEST_F(ConvOpTest, HandwrittenConv) { HandwrittenConv(); }

TEST_F(ConvOpTest, AnisotropicStride) { AnisotropicStrides(); }

template <typename T>
class FusedConv2DOpTest : public fused_op_test_util::FusedOpTestBase {
 protected:
  static constexpr int kDepth = 3;
  static constexpr int kImageWidth = 32;
  static constexpr int kImageHeight = 32;
  static constexpr int kImageBatchCount = 8;

  using BiasAddGraphRunner = std::function<void(const Tensor& input_data, const Tensor& filter_data,
                                                const Tensor& bias_data, Tensor* out)>;
  using BatchNormGraphRunner =
      std::function<void(const Tensor& input_data, const Tensor& filter_data,
                         const Tensor& scale_data, const Tensor& offset_data,
                         const Tensor& mean_data, const Tensor& variance_data, Tensor* out)>;

  ops::Conv2D Conv(const Scope& root, const Tensor& input_data, const Tensor& filter_data,
                   const std::string& padding, const std::vector<int>& explicit_paddings) {
    return ops::Conv2D(root.WithOpName("conv"),
                       ops::Const(root.WithOpName("input"), Input::Initializer(input_data)),
                       ops::Const(root.WithOpName("filter"), Input::Initializer(filter_data)),
                       {1, 1, 1, 1}, padding,
                       ops::Conv2D::Attrs().ExplicitPaddings(explicit_paddings));
  }

  static void Activation(const Scope& root, const std::string& activation_type, Output x) {
    if (activation_type == "Relu") {
      ops::Relu(root.WithOpName("with_activation"), x);
    } else if (activation_type == "Relu6") {
      ops::Relu6(root.WithOpName("with_activation"), x);
    } else if (activation_type == "Elu") {
      ops::Elu(root.WithOpName("with_activation"), x);
    } else {
      ops::Identity(root.WithOpName("with_activation"), x);
    }
  }

  void RunConv2DWithBiasAndActivation(const Tensor& input_data, const Tensor& filter_data,
                                      const Tensor& bias_data, const std::string& activation_type,
                                      const std::string& padding,
                                      const std::vector<int>& explicit_paddings, Tensor* output,
                                      bool allow_gpu_device = false) {
    Scope root = Scope::NewRootScope();
    ops::BiasAdd with_bias =
        ops::BiasAdd(root.WithOpName("with_bias"),
                     Conv(root, input_data, filter_data, padding, explicit_paddings),
                     ops::Const(root.WithOpName("bias"), Input::Initializer(bias_data)));
    Activation(root, activation_type, with_bias);
    RunAndFetch(root, "with_activation", output, allow_gpu_device);
  }

  void RunConv2DWithBatchNormAndActivation(const Tensor& input_data, const Tensor& filter_data,
                                           const Tensor& scale_data, const Tensor& offset_data,
                                           const Tensor& mean_data, const Tensor& variance_data,
                                           const std::string& activation_type,
                                           const std::string& padding,
                                           const std::vector<int>& explicit_paddings,
                                           Tensor* output) {
    Scope root = Scope::NewRootScope();
    ops::FusedBatchNorm::Attrs attr;
    attr = attr.IsTraining(false);
    ops::FusedBatchNorm with_fused_batch_norm = ops::FusedBatchNorm(
        root.WithOpName("with_fused_batch_norm"),
        Conv(root, input_data, filter_data, padding, explicit_paddings),
        ops::Const(root.WithOpName("scale"), Input::Initializer(scale_data)),
        ops::Const(root.WithOpName("offset"), Input::Initializer(offset_data)),
        ops::Const(root.WithOpName("mean"), Input::Initializer(mean_data)),
        ops::Const(root.WithOpName("var"), Input::Initializer(variance_data)), attr);
    Activation(root, activation_type, with_fused_batch_norm.y);
    RunAndFetch(root, "with_activation", output, false);
  }

  void RunFusedConv2DOp(const Tensor& input_data, const Tensor& filter_data,
                        const std::vector<Tensor>& args_data,
                        const std::vector<std::string>& fused_ops, const std::string& padding,
                        const std::vector<int>& explicit_paddings, Tensor* output,
                        bool allow_gpu_device = false) {
    const DataType dtype = DataTypeToEnum<T>::v();
    const int num_args = static_cast<int>(args_data.size());
    TF_ASSERT_OK(NodeDefBuilder("fused_conv", "_FusedConv2D")
                     .Input(FakeInput(dtype))
                     .Input(FakeInput(dtype))
                     .Input(FakeInput(num_args, dtype))
                     .Attr("num_args", num_args)
                     .Attr("T", dtype)
                     .Attr("strides", {1, 1, 1, 1})
                     .Attr("padding", padding)
                     .Attr("explicit_paddings", explicit_paddings)
                     .Attr("fused_ops", fused_ops)
                     .Finalize(node_def()));
    std::vector<const Tensor*> inputs = {&input_data, &filter_data};
    for (const Tensor& arg : args_data) inputs.push_back(&arg);
    this->template RunNode<T>(inputs, output, allow_gpu_device);
  }

  // TensorFlow's tolerance: looser when the filter covers the whole image (each output a
  // full sum).
  static void ExpectNear(const Tensor& conv_2d, const Tensor& fused_conv_2d, int image_width,
                         int image_height, int filter_size) {
    ASSERT_EQ(conv_2d.dtype(), fused_conv_2d.dtype());
    ASSERT_EQ(conv_2d.shape(), fused_conv_2d.shape());
    if (image_width == filter_size && image_height == filter_size) {
      test::ExpectClose(conv_2d, fused_conv_2d, /*atol=*/1e-4);
    } else {
      test::ExpectClose(conv_2d, fused_conv_2d, /*atol=*/1e-5);
    }
  }

  static Tensor Random(const TensorShape& shape, T shift) {
    Tensor t(DataTypeToEnum<T>::v(), shape);
    t.flat<T>() = t.flat<T>().setRandom();
    t.flat<T>() += t.flat<T>().constant(shift);
    return t;
  }

  void VerifyBiasAddTensorsNear(int depth, int image_width, int image_height, int image_batch_count,
                                int filter_size, int filter_count,
                                const BiasAddGraphRunner& run_default,
                                const BiasAddGraphRunner& run_fused) {
    const Tensor image = Random({image_batch_count, image_height, image_width, depth}, T(0));
    // Some negative values in the filter, to test Relu properly.
    const Tensor filter = Random({filter_size, filter_size, depth, filter_count}, T(-0.5));
    const Tensor bias = Random({filter_count}, T(0.5));
    Tensor conv_2d, fused_conv_2d;
    run_default(image, filter, bias, &conv_2d);
    run_fused(image, filter, bias, &fused_conv_2d);
    ExpectNear(conv_2d, fused_conv_2d, image_width, image_height, filter_size);
  }

  void VerifyFusedBatchNormTensorsNear(int depth, int image_width, int image_height,
                                       int image_batch_count, int filter_size, int filter_count,
                                       const BatchNormGraphRunner& run_default,
                                       const BatchNormGraphRunner& run_fused) {
    const Tensor image = Random({image_batch_count, image_height, image_width, depth}, T(0));
    const Tensor filter = Random({filter_size, filter_size, depth, filter_count}, T(-0.5));
    const Tensor scale = Random({filter_count}, T(0));
    const Tensor offset = Random({filter_count}, T(0));
    const Tensor mean = Random({filter_count}, T(0));
    const Tensor variance = Random({filter_count}, T(0.5));
    Tensor conv_2d, fused_conv_2d;
    run_default(image, filter, scale, offset, mean, variance, &conv_2d);
    run_fused(image, filter, scale, offset, mean, variance, &fused_conv_2d);
    ExpectNear(conv_2d, fused_conv_2d, image_width, image_height, filter_size);
  }

  // Conv2D+BiasAdd+{Activation} in a graph against _FusedConv2D ("" : no activation).
  void VerifyConv2DWithBiasAndActivation(const std::string& activation, int filter_size,
                                         int filter_count,
                                         const std::vector<int>& explicit_paddings = {}) {
    const std::string padding = explicit_paddings.empty() ? "SAME" : "EXPLICIT";
    const bool gpu = activation == "Relu" || activation.empty();
    const BiasAddGraphRunner run_default = [&](const Tensor& input_data, const Tensor& filter_data,
                                               const Tensor& bias_data, Tensor* out) {
      RunConv2DWithBiasAndActivation(input_data, filter_data, bias_data, activation, padding,
                                     explicit_paddings, out, gpu);
    };
    const BiasAddGraphRunner run_fused = [&](const Tensor& input_data, const Tensor& filter_data,
                                             const Tensor& bias_data, Tensor* out) {
      std::vector<std::string> fused_ops = {"BiasAdd"};
      if (!activation.empty()) fused_ops.push_back(activation);
      RunFusedConv2DOp(input_data, filter_data, {bias_data}, fused_ops, padding, explicit_paddings,
                       out, gpu);
    };
    VerifyBiasAddTensorsNear(kDepth, kImageWidth, kImageHeight, kImageBatchCount, filter_size,
                             filter_count, run_default, run_fused);
  }

  // Conv2D+FusedBatchNorm+{Activation} in a graph against _FusedConv2D.
  void VerifyConv2DWithBatchNormAndActivation(const std::string& activation, int filter_size,
                                              int filter_count,
                                              const std::vector<int>& explicit_paddings = {}) {
    const std::string padding = explicit_paddings.empty() ? "SAME" : "EXPLICIT";
    const BatchNormGraphRunner run_default =
        [&](const Tensor& input_data, const Tensor& filter_data, const Tensor& scale_data,
            const Tensor& offset_data, const Tensor& mean_data, const Tensor& variance_data,
            Tensor* out) {
          RunConv2DWithBatchNormAndActivation(input_data, filter_data, scale_data, offset_data,
                                              mean_data, variance_data, activation, padding,
                                              explicit_paddings, out);
        };
    const BatchNormGraphRunner run_fused = [&](const Tensor& input_data, const Tensor& filter_data,
                                               const Tensor& scale_data, const Tensor& offset_data,
                                               const Tensor& mean_data, const Tensor& variance_data,
                                               Tensor* out) {
      std::vector<std::string> fused_ops = {"FusedBatchNorm"};
      if (!activation.empty()) fused_ops.push_back(activation);
      RunFusedConv2DOp(input_data, filter_data, {scale_data, offset_data, mean_data, variance_data},
                       fused_ops, padding, explicit_paddings, out);
    };
    VerifyFusedBatchNormTensorsNear(kDepth, kImageWidth, kImageHeight, kImageBatchCount,
                                    filter_size, filter_count, run_default, run_fused);
  }
};

template <typename T>
class FusedConv2DWithBiasOpTest : public FusedConv2DOpTest<T> {};
template <typename T>
class FusedConv2DWithBatchNormOpTest : public FusedConv2DOpTest<T> {};

TYPED_TEST_SUITE_P(FusedConv2DWithBiasOpTest);
TYPED_TEST_SUITE_P(FusedConv2DWithBatchNormOpTest);

const std::vector<int> kExplicitPaddings = {0, 0, 1, 2, 3, 4, 0, 0};
const char* const kActivations[] = {"Relu", "Relu6", "Elu"};

TYPED_TEST_P(FusedConv2DWithBiasOpTest, OneByOneConvolution) {
  this->VerifyConv2DWithBiasAndActivation("", 1, 12);
}
TYPED_TEST_P(FusedConv2DWithBiasOpTest, ImageSizeConvolution) {
  this->VerifyConv2DWithBiasAndActivation("", TestFixture::kImageWidth, 12);
}
TYPED_TEST_P(FusedConv2DWithBiasOpTest, SpatialConvolution) {
  this->VerifyConv2DWithBiasAndActivation("", 3, 12);
}
TYPED_TEST_P(FusedConv2DWithBiasOpTest, ExplicitPaddingConvolution) {
  this->VerifyConv2DWithBiasAndActivation("", 3, 12, kExplicitPaddings);
}
TYPED_TEST_P(FusedConv2DWithBiasOpTest, OneByOneConvolutionAndActivation) {
  for (const std::string activation : kActivations) {
    this->VerifyConv2DWithBiasAndActivation(activation, 1, 12);
  }
}
TYPED_TEST_P(FusedConv2DWithBiasOpTest, ImageSizeConvolutionAndActivation) {
  for (const std::string activation : kActivations) {
    this->VerifyConv2DWithBiasAndActivation(activation, TestFixture::kImageWidth, 12);
  }
}
TYPED_TEST_P(FusedConv2DWithBiasOpTest, SpatialConvolutionAndActivation) {
  for (const std::string activation : kActivations) {
    this->VerifyConv2DWithBiasAndActivation(activation, 3, 12);
  }
}
TYPED_TEST_P(FusedConv2DWithBiasOpTest, ExplicitPaddingConvolutionAndActivation) {
  for (const std::string activation : kActivations) {
    this->VerifyConv2DWithBiasAndActivation(activation, 3, 12, kExplicitPaddings);
  }
}

TYPED_TEST_P(FusedConv2DWithBatchNormOpTest, OneByOneConvolution) {
  this->VerifyConv2DWithBatchNormAndActivation("", 1, 12);
}
TYPED_TEST_P(FusedConv2DWithBatchNormOpTest, ImageSizeConvolution) {
  this->VerifyConv2DWithBatchNormAndActivation("", TestFixture::kImageWidth, 12);
}
TYPED_TEST_P(FusedConv2DWithBatchNormOpTest, SpatialConvolution) {
  this->VerifyConv2DWithBatchNormAndActivation("", 3, 12);
}
TYPED_TEST_P(FusedConv2DWithBatchNormOpTest, ExplicitPaddingConvolution) {
  this->VerifyConv2DWithBatchNormAndActivation("", 3, 12, kExplicitPaddings);
}
TYPED_TEST_P(FusedConv2DWithBatchNormOpTest, OneByOneConvolutionAndActivation) {
  for (const std::string activation : kActivations) {
    this->VerifyConv2DWithBatchNormAndActivation(activation, 1, 12);
  }
}
TYPED_TEST_P(FusedConv2DWithBatchNormOpTest, ImageSizeConvolutionAndActivation) {
  for (const std::string activation : kActivations) {
    this->VerifyConv2DWithBatchNormAndActivation(activation, TestFixture::kImageWidth, 12);
  }
}
TYPED_TEST_P(FusedConv2DWithBatchNormOpTest, SpatialConvolutionAndActivation) {
  for (const std::string activation : kActivations) {
    this->VerifyConv2DWithBatchNormAndActivation(activation, 3, 12);
  }
}
TYPED_TEST_P(FusedConv2DWithBatchNormOpTest, ExplicitPaddingConvolutionAndActivation) {
  for (const std::string activation : kActivations) {
    this->VerifyConv2DWithBatchNormAndActivation(activation, 3, 12, kExplicitPaddings);
  }
}

REGISTER_TYPED_TEST_SUITE_P(FusedConv2DWithBiasOpTest, OneByOneConvolution, ImageSizeConvolution,
                            SpatialConvolution, ExplicitPaddingConvolution,
                            OneByOneConvolutionAndActivation, ImageSizeConvolutionAndActivation,
                            SpatialConvolutionAndActivation,
                            ExplicitPaddingConvolutionAndActivation);
REGISTER_TYPED_TEST_SUITE_P(FusedConv2DWithBatchNormOpTest, OneByOneConvolution,
                            ImageSizeConvolution, SpatialConvolution, ExplicitPaddingConvolution,
                            OneByOneConvolutionAndActivation, ImageSizeConvolutionAndActivation,
                            SpatialConvolutionAndActivation,
                            ExplicitPaddingConvolutionAndActivation);

using FusedBiasAddDataTypes = ::testing::Types<float, double>;
INSTANTIATE_TYPED_TEST_SUITE_P(Test, FusedConv2DWithBiasOpTest, FusedBiasAddDataTypes);
using FusedBatchNormDataTypes = ::testing::Types<float>;
INSTANTIATE_TYPED_TEST_SUITE_P(Test, FusedConv2DWithBatchNormOpTest, FusedBatchNormDataTypes);

}  // namespace conv_ops_test
}  // namespace
}  // namespace rill
