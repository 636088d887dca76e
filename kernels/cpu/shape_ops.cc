// CPU kernels that rearrange data: Reshape, ExpandDims, Squeeze (buffer shared), Shape,
// Rank, Fill, ZerosLike, OnesLike, OneHot (Transpose, Slice and Concat:
// copy_ops.cc). Copies work on bytes, so one implementation serves every dtype.
#include <cstring>

#include "rill/core/kernel_util.h"
#include "rill/core/shape_util.h"
#include "rill/kernels/cpu/cwise.h"

namespace rill::cpu {
namespace {

using shape_fns::IntValues;

absl::StatusOr<TensorShape> ToShape(const shape_util::Dims& d) { return TensorShape::Build(d); }

class ReshapeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(auto spec, IntVectorInput(ctx.input(1), "shape"));
    RILL_ASSIGN_OR_RETURN(auto dims, shape_util::Reshape(ctx.input(0).shape().dim_sizes(), spec));
    RILL_ASSIGN_OR_RETURN(TensorShape shape, ToShape(dims));
    return AliasInputAsOutput(ctx, shape);
  }
};

class ExpandDimsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& axis_t = ctx.input(1);
    if (axis_t.NumElements() != 1) {
      return errors::InvalidArgument("dim must hold exactly one value, got shape ",
                                     axis_t.shape().DebugString());
    }
    RILL_ASSIGN_OR_RETURN(auto axis, IntValues(axis_t, "dim"));
    RILL_ASSIGN_OR_RETURN(auto dims,
                          shape_util::ExpandDims(ctx.input(0).shape().dim_sizes(), axis[0]));
    RILL_ASSIGN_OR_RETURN(TensorShape shape, ToShape(dims));
    return AliasInputAsOutput(ctx, shape);
  }
};

class SqueezeOp : public OpKernel {
 public:
  explicit SqueezeOp(OpKernelConstruction& c)
      : OpKernel(c), axes_(c.node().attr<std::vector<int64_t>>("squeeze_dims")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_ASSIGN_OR_RETURN(auto dims, shape_util::Squeeze(ctx.input(0).shape().dim_sizes(), axes_));
    RILL_ASSIGN_OR_RETURN(TensorShape shape, ToShape(dims));
    return AliasInputAsOutput(ctx, shape);
  }

 private:
  std::vector<int64_t> axes_;
};

class ShapeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const TensorShape& s = ctx.input(0).shape();
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({s.dims()}), &out));
    for (int i = 0; i < s.dims(); ++i) {
      if (out->dtype() == DT_INT32) {
        out->base<int32_t>()[i] = static_cast<int32_t>(s.dim_size(i));
      } else {
        out->base<int64_t>()[i] = s.dim_size(i);
      }
    }
    return absl::OkStatus();
  }
};

void FillBytes(Tensor* out, const void* value) {
  const size_t es = DataTypeSize(out->dtype());
  char* dst = static_cast<char*>(out->data());
  for (int64_t i = 0; i < out->NumElements(); ++i) std::memcpy(dst + i * es, value, es);
}

class FillOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& value = ctx.input(1);
    if (value.dims() != 0) {
      return errors::InvalidArgument("value must be a scalar, got shape ",
                                     value.shape().DebugString());
    }
    RILL_ASSIGN_OR_RETURN(TensorShape shape, shape_fns::ShapeFromTensor(ctx.input(0), "dims"));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
    FillBytes(out, value.data());
    return absl::OkStatus();
  }
};

template <int kValue>
class FillLikeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, ctx.input(0).shape(), &out));
    VisitDataType(out->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T v = static_cast<T>(kValue);
      FillBytes(out, &v);
    });
    return absl::OkStatus();
  }
};

template <typename T, typename TI>
class OneHotOp : public OpKernel {
 public:
  explicit OneHotOp(OpKernelConstruction& c) : OpKernel(c), axis_(c.node().attr<int64_t>("axis")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& idx = ctx.input(0);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const OneHotGeometry g, PrepareOneHot(ctx, axis_, &out));
    const T on = ctx.input(2).base<T>()[0], off = ctx.input(3).base<T>()[0];
    const int64_t outer = g.outer, depth = g.depth, inner = g.inner;
    const TI* in = idx.base<TI>();
    T* o = out->base<T>();
    for (int64_t a = 0; a < outer; ++a) {
      for (int64_t d = 0; d < depth; ++d) {
        for (int64_t b = 0; b < inner; ++b) {
          // Out-of-range indices give a row of off_value, as in TensorFlow.
          o[(a * depth + d) * inner + b] = static_cast<int64_t>(in[a * inner + b]) == d ? on : off;
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  int64_t axis_;
};

class RankOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({}), &out));
    out->base<int32_t>()[0] = ctx.input(0).dims();
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("Reshape", DEVICE_CPU, "", DT_INVALID, ReshapeOp);
RILL_REGISTER_KERNEL("ExpandDims", DEVICE_CPU, "", DT_INVALID, ExpandDimsOp);
RILL_REGISTER_KERNEL("Squeeze", DEVICE_CPU, "", DT_INVALID, SqueezeOp);
RILL_REGISTER_KERNEL("Shape", DEVICE_CPU, "", DT_INVALID, ShapeOp);
// On a GPU, Shape reads only its input's shape and makes its output on the host.
RILL_REGISTER_KERNEL_HOST_OUTPUTS("Shape", DEVICE_GPU, "", DT_INVALID, {}, ShapeOp);
RILL_REGISTER_KERNEL("Rank", DEVICE_CPU, "", DT_INVALID, RankOp);
RILL_REGISTER_KERNEL_HOST_OUTPUTS("Rank", DEVICE_GPU, "", DT_INVALID, {}, RankOp);
RILL_REGISTER_KERNEL("Fill", DEVICE_CPU, "", DT_INVALID, FillOp);
RILL_REGISTER_KERNEL("ZerosLike", DEVICE_CPU, "", DT_INVALID, FillLikeOp<0>);
RILL_REGISTER_KERNEL("OnesLike", DEVICE_CPU, "", DT_INVALID, FillLikeOp<1>);
#define RILL_REG_ONE_HOT(T, unused) \
  RILL_REGISTER_KERNEL("OneHot", DEVICE_CPU, "T", DataTypeToEnum<T>::value, OneHotDispatch<T>);

// OneHot is keyed by T; the index type is chosen at construction.
template <typename T>
class OneHotDispatch : public OpKernel {
 public:
  explicit OneHotDispatch(OpKernelConstruction& c) : OpKernel(c) {
    switch (c.node().input_type(0)) {
      case DT_UINT8:
        impl_ = std::make_unique<OneHotOp<T, uint8_t>>(c);
        break;
      case DT_INT32:
        impl_ = std::make_unique<OneHotOp<T, int32_t>>(c);
        break;
      default:
        impl_ = std::make_unique<OneHotOp<T, int64_t>>(c);
        break;
    }
  }
  absl::Status Compute(OpKernelContext& ctx) override { return impl_->Compute(ctx); }

 private:
  std::unique_ptr<OpKernel> impl_;
};
RILL_FOR_ALL_TYPES(RILL_REG_ONE_HOT, 0)

}  // namespace
}  // namespace rill::cpu
