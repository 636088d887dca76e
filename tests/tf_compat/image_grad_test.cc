// The resize cases of TensorFlow's tensorflow/cc/gradients/image_grad_test.cc (the
// gradients of ResizeNearestNeighbor, ResizeBilinear and ResizeBicubic), rewritten against
// rill (shapes, sizes, inputs and error bounds are TensorFlow's; the code is ours).
// Also its ScaleAndTranslate and CropAndResize cases. rill: the shape checks run for float
// and double only (no half in rill).
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/tf_compat.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace image_grad_test {

using ops::Const;
using ops::CropAndResize;
using ops::ResizeBicubic;
using ops::ResizeBilinear;
using ops::ResizeNearestNeighbor;
using ops::ScaleAndTranslate;

// 0, 1, 2, ... in the input's dtype.
template <typename T>
Tensor MakeData(const TensorShape& shape) {
  Tensor data(DataTypeToEnum<T>::v(), shape);
  auto flat = data.flat<T>();
  for (int i = 0; i < flat.size(); ++i) flat(i) = T(i);
  return data;
}

class ImageGradTest : public ::testing::Test {
 protected:
  ImageGradTest() : scope_(Scope::NewRootScope()) {}

  enum OpType { RESIZE_NEAREST, RESIZE_BILINEAR, RESIZE_BICUBIC };

  template <typename T>
  void MakeOp(OpType op, const Tensor& x_data, const Input& y_shape, bool align_corners,
              bool half_pixel_centers, Output* x, Output* y) {
    *x = Const<T>(scope_, x_data);
    if (op == RESIZE_NEAREST) {
      *y = ResizeNearestNeighbor(scope_, *x, y_shape,
                                 ResizeNearestNeighbor::AlignCorners(align_corners));
    } else if (op == RESIZE_BILINEAR) {
      *y = ResizeBilinear(
          scope_, *x, y_shape,
          ResizeBilinear::AlignCorners(align_corners).HalfPixelCenters(half_pixel_centers));
    } else {
      *y = ResizeBicubic(
          scope_, *x, y_shape,
          ResizeBicubic::AlignCorners(align_corners).HalfPixelCenters(half_pixel_centers));
    }
  }

  template <typename T>
  void TestResizedShapeForType(OpType op, bool align_corners, bool half_pixel_centers) {
    Output x, y;
    MakeOp<T>(op, MakeData<T>(TensorShape({1, 2, 2, 1})), {4, 6}, align_corners, half_pixel_centers,
              &x, &y);
    ClientSession session(scope_);
    std::vector<Tensor> outputs;
    TF_ASSERT_OK(session.Run({y}, &outputs));
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_EQ(outputs[0].shape(), TensorShape({1, 4, 6, 1}));
  }

  void TestResizedShape(OpType op) {
    for (bool half_pixel_centers : {true, false}) {
      for (bool align_corners : {true, false}) {
        if (half_pixel_centers && align_corners) continue;
        TestResizedShapeForType<float>(op, align_corners, half_pixel_centers);
        TestResizedShapeForType<double>(op, align_corners, half_pixel_centers);
      }
    }
  }

  // A 4x6 image to 2x3, and a 2x3 image to 4x6.
  template <typename X_T, typename Y_T, typename JAC_T>
  void TestResizeBothWays(OpType op, bool align_corners, bool half_pixel_centers) {
    for (bool smaller : {true, false}) {
      const TensorShape x_shape = smaller ? TensorShape({1, 4, 6, 1}) : TensorShape({1, 2, 3, 1});
      const TensorShape y_shape = smaller ? TensorShape({1, 2, 3, 1}) : TensorShape({1, 4, 6, 1});
      Tensor x_data = MakeData<X_T>(x_shape);
      Output x, y;
      MakeOp<X_T>(op, x_data,
                  {static_cast<int>(y_shape.dim_size(1)), static_cast<int>(y_shape.dim_size(2))},
                  align_corners, half_pixel_centers, &x, &y);
      JAC_T max_error;
      TF_ASSERT_OK(
          (ComputeGradientError<X_T, Y_T, JAC_T>(scope_, x, x_data, y, y_shape, &max_error)));
      EXPECT_LT(max_error, 1.5e-3);
    }
  }

  template <typename X_T, typename Y_T, typename JAC_T>
  void TestResize(OpType op) {
    for (bool half_pixel_centers : {true, false}) {
      for (bool align_corners : {true, false}) {
        if (half_pixel_centers && align_corners) continue;
        TestResizeBothWays<X_T, Y_T, JAC_T>(op, align_corners, half_pixel_centers);
      }
    }
  }

  Scope scope_;
};

TEST_F(ImageGradTest, TestNearestNeighbor) {
  TestResizedShape(RESIZE_NEAREST);
  TestResize<float, float, float>(RESIZE_NEAREST);
  TestResize<double, double, double>(RESIZE_NEAREST);
}

TEST_F(ImageGradTest, TestBilinear) {
  TestResizedShape(RESIZE_BILINEAR);
  TestResize<float, float, float>(RESIZE_BILINEAR);
  // The output is float32 whatever the input: a float64 input, float32 output.
  TestResize<double, float, double>(RESIZE_BILINEAR);
}

TEST_F(ImageGradTest, TestBicubic) {
  TestResizedShape(RESIZE_BICUBIC);
  TestResize<float, float, float>(RESIZE_BICUBIC);
  TestResize<double, float, double>(RESIZE_BICUBIC);
}

class ScaleAndTranslateGradTest : public ::testing::Test {
 protected:
  ScaleAndTranslateGradTest() : scope_(Scope::NewRootScope()) {}

  // The gradient of x sampled to out_height x out_width, numeric against symbolic.
  template <typename X_T, typename Y_T, typename JAC_T>
  void TestScaleAndTranslate(const TensorShape x_shape, const int out_height, const int out_width,
                             Input scale, Input translation, const std::string& kernel_type,
                             bool antialias) {
    Tensor x_data = MakeData<X_T>(x_shape);
    Output x = Const<X_T>(scope_, x_data);
    Output y = ScaleAndTranslate(scope_, x, {out_height, out_width}, scale, translation,
                                 ScaleAndTranslate::KernelType(kernel_type).Antialias(antialias));
    TF_ASSERT_OK(scope_.status());
    JAC_T max_error;
    TF_ASSERT_OK((ComputeGradientError<X_T, Y_T, JAC_T>(
        scope_, x, x_data, y, {1, out_height, out_width, 1}, &max_error)));
    EXPECT_LT(max_error, 2e-3);
  }

  const std::vector<Input> kScales = {Input{1.0f, 1.0f}, Input{0.37f, 0.47f}, Input{2.1f, 2.1f}};
  const std::vector<Input> kTranslations = {Input{0.0f, 0.0f}, Input{3.14f, 1.19f},
                                            Input{2.1f, 3.1f}, Input{100.0f, 200.0f}};
  Scope scope_;
};

TEST_F(ScaleAndTranslateGradTest, TestGrads) {
  const std::vector<std::string> kernel_types = {"lanczos1", "lanczos3", "lanczos5", "gaussian"};
  for (const Input& scale : kScales) {
    for (const Input& translation : kTranslations) {
      for (const std::string& kernel_type : kernel_types) {
        TestScaleAndTranslate<float, float, float>(TensorShape({1, 2, 3, 1}), 4, 6, scale,
                                                   translation, kernel_type, true);
      }
    }
  }
}

TEST_F(ScaleAndTranslateGradTest, TestGradsWithoutAntialias) {
  for (const Input& scale : kScales) {
    for (const Input& translation : kTranslations) {
      TestScaleAndTranslate<float, float, float>(TensorShape({1, 2, 3, 1}), 4, 6, scale,
                                                 translation, "lanczos3", false);
    }
  }
}

TEST_F(ScaleAndTranslateGradTest, TestGradsWithSameShape) {
  for (const Input& scale : kScales) {
    for (const Input& translation : kTranslations) {
      for (const std::string kernel_type : {"lanczos3", "gaussian"}) {
        TestScaleAndTranslate<float, float, float>(TensorShape({1, 2, 3, 1}), 2, 3, scale,
                                                   translation, kernel_type, true);
      }
    }
  }
}

TEST_F(ScaleAndTranslateGradTest, TestGradsWithSmallerShape) {
  for (const Input& scale : kScales) {
    for (const Input& translation : kTranslations) {
      for (const std::string kernel_type : {"lanczos3", "gaussian"}) {
        TestScaleAndTranslate<float, float, float>(TensorShape({1, 4, 6, 1}), 2, 3, scale,
                                                   translation, kernel_type, true);
      }
    }
  }
}

class CropAndResizeGradTest : public ::testing::Test {
 protected:
  CropAndResizeGradTest() : scope_(Scope::NewRootScope()) {}

  // One 1x1 crop of the box [0, 1, 2, 3] (its middle column falls outside the image).
  template <typename X_T, typename Y_T, typename JAC_T>
  void TestCropAndResize() {
    TensorShape x_shape({1, 4, 2, 1});
    Tensor x_data = MakeData<X_T>(x_shape);
    Tensor boxes = MakeData<X_T>(TensorShape({1, 4}));
    Output x = Const<X_T>(scope_, x_data);
    Output y = CropAndResize(scope_, x, boxes, {0}, {1, 1}, CropAndResize::Method("bilinear"));
    TF_ASSERT_OK(scope_.status());
    JAC_T max_error;
    TF_ASSERT_OK(
        (ComputeGradientError<X_T, Y_T, JAC_T>(scope_, x, x_data, y, {1, 1, 1, 1}, &max_error)));
    EXPECT_LT(max_error, 1e-3);
  }

  Scope scope_;
};

TEST_F(CropAndResizeGradTest, TestCrop) { TestCropAndResize<float, float, float>(); }

}  // namespace image_grad_test
}  // namespace
}  // namespace rill
