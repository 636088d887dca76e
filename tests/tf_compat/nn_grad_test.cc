// The cases of TensorFlow's tensorflow/cc/gradients/nn_grad_test.cc, rewritten against rill
// (inputs and the error bound are TensorFlow's; the code is ours): each gradient against
// ComputeGradientError's numeric Jacobian, within 1e-4 for the file's first cases and 1e-3
// (its later bound) for the cases after BiasAddGradHelper, which come from its later
// versions, up to its latest (the fractional poolings, FusedBatchNormV3 in both layouts and
// ranks, Conv2DBackpropInput's and DepthwiseConv2dNative's gradients).
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"

namespace rill {
using namespace ops;  // NOLINT(build/namespaces)

namespace {
namespace nn_grad_test {

class NNGradTest : public ::testing::Test {
 protected:
  NNGradTest() : scope_(Scope::NewRootScope()) {}

  void RunTest(const Output& x, const TensorShape& x_shape, const Output& y,
               const TensorShape& y_shape, float bound = 1e-4) {
    float max_error;
    TF_ASSERT_OK((ComputeGradientError(scope_, {x}, {x_shape}, {y}, {y_shape}, &max_error)));
    EXPECT_LT(max_error, bound);
  }
  void RunTest(const Output& x, const Tensor& x_init_value, const Output& y,
               const TensorShape& y_shape, float bound = 1e-4) {
    float max_error;
    TF_ASSERT_OK((ComputeGradientError(scope_, x, x_init_value, y, y_shape, &max_error)));
    EXPECT_LT(max_error, bound);
  }
  void RunTest(const OutputList& xs, const std::vector<TensorShape>& x_shapes, const OutputList& ys,
               const std::vector<TensorShape>& y_shapes) {
    TF_ASSERT_OK(scope_.status());
    float max_error;
    TF_ASSERT_OK((
        ComputeGradientError<float, float, float>(scope_, xs, x_shapes, ys, y_shapes, &max_error)));
    EXPECT_LT(max_error, 1e-3);
  }

  // Values far enough apart that the numeric gradient's steps never change which element
  // of a pooling window is the max: an increasing sequence, shuffled.
  template <typename T>
  void SetRandomValuesForMaxPooling(Tensor* tensor) {
    auto flat = tensor->flat<T>();
    T cur = 0;
    for (int64 i = 0; i < tensor->NumElements(); ++i) {
      flat(i) = cur;
      cur += 5e-2;
    }
    for (int64 i = tensor->NumElements() - 1; i >= 1; --i) {
      std::swap(flat(i), flat(random::New64() % (i + 1)));
    }
  }

  Scope scope_;
};

// Values away from the kinks of the activations below.
Tensor AwayFromZero() {
  return test::AsTensor<float>({-0.9f, -0.7f, -0.5f, -0.3f, -0.1f, 0.1f, 0.3f, 0.5f, 0.7f, 0.9f},
                               {5, 2});
}

TEST_F(NNGradTest, SoftmaxGrad) {
  TensorShape shape({32, 10});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  auto y = Softmax(scope_, x);
  RunTest(x, shape, y, shape);
}

TEST_F(NNGradTest, LogSoftmaxGrad) {
  TensorShape shape({5, 3});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  auto y = LogSoftmax(scope_, x);
  Tensor x_init_value = test::AsTensor<float>({-0.9f, -0.7f, -0.5f, -0.3f, -0.1f, 0.1f, 0.3f, 0.5f,
                                               0.7f, 0.8f, -0.1f, 0.1f, 0.1f, 0.1f, 1.2f},
                                              {5, 3});
  RunTest(x, x_init_value, y, shape);
}

TEST_F(NNGradTest, ReluGrad) {
  TensorShape shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  RunTest(x, AwayFromZero(), Relu(scope_, x), shape);
}

TEST_F(NNGradTest, Relu6Grad) {
  TensorShape shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  Tensor x_init_value = test::AsTensor<float>(
      {-0.9f, -0.7f, -0.5f, -0.3f, -0.1f, 6.1f, 6.3f, 6.5f, 6.7f, 6.9f}, {5, 2});
  RunTest(x, x_init_value, Relu6(scope_, x), shape);
}

TEST_F(NNGradTest, EluGrad) {
  TensorShape shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  RunTest(x, AwayFromZero(), Elu(scope_, x), shape);
}

TEST_F(NNGradTest, SeluGrad) {
  TensorShape shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  RunTest(x, AwayFromZero(), Selu(scope_, x), shape);
}

TEST_F(NNGradTest, BiasAddGradHelper) {
  TensorShape shape({4, 5});
  TensorShape bias_shape({5});
  auto x1 = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  Tensor bias1 = test::AsTensor<float>({-0.9f, -0.5f, 0.1f, 0.3f, 0.5f}, {5});
  auto y1 = BiasAdd(scope_, x1, bias1);
  auto x2 = test::AsTensor<float>({-0.9f, -0.7f, -0.5f, -0.3f, -0.1f, 0.1f, 0.3f, 0.5f, 0.7f, 0.9f,
                                   -0.9f, -0.7f, -0.5f, -0.3f, -0.1f, 0.1f, 0.3f, 0.5f, 0.7f, 0.9f},
                                  {4, 5});
  auto bias2 = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(bias_shape));
  auto y2 = BiasAdd(scope_, x2, bias2);
  RunTest(x1, shape, y1, shape);
  RunTest(bias2, bias_shape, y2, shape);
}

TEST_F(NNGradTest, SoftmaxCrossEntropyWithLogitsGrad) {
  TensorShape logits_shape({5, 3});
  TensorShape loss_shape({5});
  auto logits = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(logits_shape));
  auto labels = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(logits_shape));
  auto y = SoftmaxCrossEntropyWithLogits(scope_, logits, labels);
  // Both outputs, the backprop first (as TensorFlow's test orders them).
  RunTest({logits, labels}, {logits_shape, logits_shape}, {y.backprop, y.loss},
          {logits_shape, loss_shape});
}

TEST_F(NNGradTest, LeakyReluGrad) {
  TensorShape shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  RunTest(x, AwayFromZero(), internal::LeakyRelu(scope_, x), shape, 1e-3);
}

TEST_F(NNGradTest, LeakyReluGradGrad) {
  TensorShape shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  Tensor x_init_value = test::AsTensor<float>(
      {2.3f, 1.9f, 1.5f, 1.1f, 0.7f, 0.3f, -0.1f, -0.5f, -0.9f, -1.3f}, {5, 2});
  auto y = internal::LeakyReluGrad(scope_, x, AwayFromZero());
  RunTest(x, x_init_value, y, shape, 1e-3);
}

TEST_F(NNGradTest, L2LossGrad) {
  TensorShape x_shape({5, 2});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(x_shape));
  RunTest(x, x_shape, L2Loss(scope_, x), TensorShape({1}), 1e-3);
}

TEST_F(NNGradTest, BiasAddGradBothInputs) {
  TensorShape shape({4, 5});
  TensorShape bias_shape({5});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  auto bias = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(bias_shape));
  RunTest({x, bias}, {shape, bias_shape}, {BiasAdd(scope_, x, bias)}, {shape});
}

TEST_F(NNGradTest, Conv2DGrad) {
  TensorShape shape({1, 2, 2, 1});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  Tensor filter = test::AsTensor<float>({0.5f}, {1, 1, 1, 1});
  const std::vector<int> strides{1, 1, 1, 1};
  RunTest(x, shape, Conv2D(scope_, x, filter, strides, "SAME"), shape, 1e-3);
}

TEST_F(NNGradTest, MaxPoolGradHelper) {
  TensorShape x_shape({1, 2, 2, 1});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(x_shape));
  // One window over the whole input.
  const std::vector<int> ksize{1, 2, 2, 1};
  const std::vector<int> strides{1, 2, 2, 1};
  auto y = MaxPool(scope_, x, ksize, strides, "VALID");
  Tensor x_init_value = Tensor(DT_FLOAT, x_shape);
  SetRandomValuesForMaxPooling<float>(&x_init_value);
  RunTest(x, x_init_value, y, TensorShape({1, 1, 1, 1}), 1e-3);
}

TEST_F(NNGradTest, MaxPoolGradV2Helper) {
  TensorShape x_shape({1, 2, 2, 1});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(x_shape));
  // The window and strides as tensors this time; still one window over the whole input.
  Tensor ksize = test::AsTensor<int>({1, 2, 2, 1}, {4});
  Tensor strides = test::AsTensor<int>({1, 2, 2, 1}, {4});
  auto y = MaxPoolV2(scope_, x, ksize, strides, "VALID");
  Tensor x_init_value = Tensor(DT_FLOAT, x_shape);
  SetRandomValuesForMaxPooling<float>(&x_init_value);
  RunTest(x, x_init_value, y, TensorShape({1, 1, 1, 1}), 1e-3);
}

TEST_F(NNGradTest, MaxPool3DGradHelper) {
  TensorShape x_shape({1, 3, 3, 3, 1});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(x_shape));
  // One 3x3x3 window over the whole input.
  const std::vector<int> ksize{1, 3, 3, 3, 1};
  const std::vector<int> strides{1, 3, 3, 3, 1};
  auto y = MaxPool3D(scope_, x, ksize, strides, "VALID");
  Tensor x_init_value = Tensor(DT_FLOAT, x_shape);
  SetRandomValuesForMaxPooling<float>(&x_init_value);
  RunTest(x, x_init_value, y, TensorShape({1, 1, 1, 1, 1}), 1e-3);
}

TEST_F(NNGradTest, AvgPoolGradHelper) {
  TensorShape x_shape({1, 2, 2, 1});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(x_shape));
  const std::vector<int> ksize{1, 2, 2, 1};
  const std::vector<int> strides{1, 2, 2, 1};
  auto y = AvgPool(scope_, x, ksize, strides, "SAME");
  RunTest(x, x_shape, y, TensorShape({1, 1, 1, 1}), 1e-3);
}

TEST_F(NNGradTest, AvgPool3DGradHelper) {
  TensorShape x_shape({1, 3, 3, 3, 1});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(x_shape));
  const std::vector<int> ksize{1, 3, 3, 3, 1};
  const std::vector<int> strides{1, 3, 3, 3, 1};
  auto y = AvgPool3D(scope_, x, ksize, strides, "SAME");
  RunTest(x, x_shape, y, TensorShape({1, 1, 1, 1, 1}), 1e-3);
}

TEST_F(NNGradTest, SoftplusGrad) {
  TensorShape shape({3, 7});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  RunTest(x, shape, Softplus(scope_, x), shape, 1e-3);
}

TEST_F(NNGradTest, SoftsignGrad) {
  TensorShape shape({3, 7});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  RunTest(x, shape, Softsign(scope_, x), shape, 1e-3);
}

TEST_F(NNGradTest, FractionalAvgPoolGradHelper) {
  TensorShape x_shape({1, 3, 7, 1});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(x_shape));
  // Seeded and deterministic: the same regions on every evaluation of the check.
  auto y =
      FractionalAvgPool(scope_, x, {1, 1.2, 1.9, 1},
                        FractionalAvgPool::Deterministic(true).Overlapping(true).Seed(1).Seed2(2));
  RunTest(x, x_shape, y.output, TensorShape({1, 2, 3, 1}), 1e-3);
}

TEST_F(NNGradTest, FractionalMaxPoolGradHelper) {
  TensorShape x_shape({1, 3, 7, 1});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(x_shape));
  auto y =
      FractionalMaxPool(scope_, x, {1, 1.2, 1.9, 1},
                        FractionalMaxPool::Deterministic(true).Overlapping(true).Seed(1).Seed2(2));
  Tensor x_init_value = Tensor(DT_FLOAT, x_shape);
  SetRandomValuesForMaxPooling<float>(&x_init_value);
  RunTest(x, x_init_value, y.output, TensorShape({1, 2, 3, 1}), 1e-3);
}

TEST_F(NNGradTest, LRN) {
  TensorShape x_shape({1, 1, 2, 1});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(x_shape));
  RunTest(x, x_shape, LRN(scope_, x), x_shape, 1e-3);
}

// Training and inference, channels first and last, 4-D and 5-D inputs.
class FusedBatchNormGradTest
    : public NNGradTest,
      public ::testing::WithParamInterface<std::tuple<bool, bool, TensorShape>> {};

TEST_P(FusedBatchNormGradTest, FusedBatchNormV3Grad) {
  FusedBatchNormV3::Attrs attrs;
  attrs.is_training_ = std::get<0>(GetParam());
  const bool channel_first = std::get<1>(GetParam());
  const TensorShape shape = std::get<2>(GetParam());
  const int channel_dim = channel_first ? 1 : shape.dims() - 1;
  const TensorShape scale_shape({shape.dim_size(channel_dim)});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  auto scale = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(scale_shape));
  auto offset = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(scale_shape));
  auto mean = ZerosLike(scope_, scale);
  auto var = OnesLike(scope_, scale);
  if (channel_first) {
    attrs.data_format_ = shape.dims() == 5 ? "NCDHW" : "NCHW";
  } else {
    attrs.data_format_ = shape.dims() == 5 ? "NDHWC" : "NHWC";
  }
  auto y = FusedBatchNormV3(scope_, x, scale, offset, mean, var, attrs);
  RunTest({x, scale, offset}, {shape, scale_shape, scale_shape}, {y.y}, {shape});
}

INSTANTIATE_TEST_SUITE_P(FusedBatchNormGrad, FusedBatchNormGradTest,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool(),
                                            ::testing::Values(TensorShape({2, 3, 4, 5}),
                                                              TensorShape({2, 3, 2, 2, 2}))));

TEST_F(NNGradTest, Conv2DBackpropInputGrad) {
  TensorShape shape({1, 2, 2, 1});
  TensorShape filter_shape({1, 1, 1, 1});
  auto out = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  auto filter = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(filter_shape));
  const std::vector<int> strides{1, 1, 1, 1};
  auto y = Conv2DBackpropInput(scope_, Shape(scope_, out), filter, out, strides, "SAME");
  RunTest({out, filter}, {shape, filter_shape}, {y}, {shape});
}

TEST_F(NNGradTest, DepthwiseConv2dNativeGrad) {
  TensorShape shape({1, 2, 2, 1});
  TensorShape filter_shape({1, 1, 1, 1});
  auto x = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(shape));
  auto filter = Placeholder(scope_, DT_FLOAT, Placeholder::Shape(filter_shape));
  const std::vector<int> strides{1, 1, 1, 1};
  auto y = DepthwiseConv2dNative(scope_, x, filter, strides, "SAME");
  RunTest({x, filter}, {shape, filter_shape}, {y}, {shape});
}

}  // namespace nn_grad_test
}  // namespace
}  // namespace rill
