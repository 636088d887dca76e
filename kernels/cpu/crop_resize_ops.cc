// CPU kernels of CropAndResize and its gradients: each element through
// core/crop_resize_row.h (the GPU kernels' own functions). The image gradient scatters each
// crop element onto the pixels it read, in crop order.
#include <cstring>

#include "rill/core/crop_resize.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

template <typename T>
class CropAndResizeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const CropDims d, PrepareCropAndResize(ctx, &out));
    const T* image = ctx.input(0).base<T>();
    const float* boxes = ctx.input(1).base<float>();
    const int32_t* ind = ctx.input(2).base<int32_t>();
    float* o = out->base<float>();
    for (int64_t i = 0, n = out->NumElements(); i < n; ++i) {
      o[i] = CropAndResizeAt(d, image, boxes, ind, i);
    }
    return absl::OkStatus();
  }
};

template <typename T>
class CropGradImageOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const CropDims d, PrepareCropGradImage(ctx, &out));
    std::memset(out->data(), 0, out->TotalBytes());
    const float* g = ctx.input(0).base<float>();
    const float* boxes = ctx.input(1).base<float>();
    const int32_t* ind = ctx.input(2).base<int32_t>();
    T* o = out->base<T>();
    for (int64_t i = 0, n = ctx.input(0).NumElements(); i < n; ++i) {
      const CropTaps t = CropTapsAt(d, boxes, ind, i);
      for (int k = 0; k < t.count; ++k) o[t.at[k]] += static_cast<T>(t.w[k] * g[i]);
    }
    return absl::OkStatus();
  }
};

template <typename T>
class CropGradBoxesOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const CropDims d, PrepareCropGradBoxes(ctx, &out));
    const T* image = ctx.input(1).base<T>();
    const float* boxes = ctx.input(2).base<float>();
    const int32_t* ind = ctx.input(3).base<int32_t>();
    const float* g = ctx.input(0).base<float>();
    float* o = out->base<float>();
    for (int64_t b = 0; b < d.boxes; ++b) CropBoxGrad(d, image, boxes, ind, g, b, o + 4 * b);
    return absl::OkStatus();
  }
};

#define RILL_REG_CROP(T, unused)                                                            \
  RILL_REGISTER_KERNEL("CropAndResize", DEVICE_CPU, "T", DataTypeToEnum<T>::value,          \
                       CropAndResizeOp<T>);                                                 \
  RILL_REGISTER_KERNEL("CropAndResizeGradBoxes", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       CropGradBoxesOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_CROP, 0)
#define RILL_REG_CROP_GRAD_IMAGE(T, unused)                                                 \
  RILL_REGISTER_KERNEL("CropAndResizeGradImage", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       CropGradImageOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_CROP_GRAD_IMAGE, 0)

}  // namespace
}  // namespace rill::cpu
