// GPU kernels that move values: Const (uploaded once), Identity, Snapshot, NoOp, the variable ops,
// the buffer-sharing reshapes (their shape inputs read on the host), and fills.
#include <mutex>

#include "rill/core/kernel_util.h"
#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

class ConstGpu : public OpKernel {
 public:
  explicit ConstGpu(OpKernelConstruction& c) : OpKernel(c), host_(*c.node().constant_value()) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!device_value_.IsInitialized()) {
      RILL_RETURN_IF_ERROR(ctx.device()->CopyFromHost(host_, &device_value_));
    }
    ctx.set_output(0, device_value_);
    return absl::OkStatus();
  }

 private:
  Tensor host_;
  std::mutex mu_;
  Tensor device_value_;
};

class PassThroughGpu : public OpKernel {  // Identity
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    ctx.set_output(0, ctx.input(0));
    return absl::OkStatus();
  }
};

class PassThroughNGpu : public OpKernel {  // IdentityN
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    for (int i = 0; i < ctx.num_inputs(); ++i) ctx.set_output(i, ctx.input(i));
    return absl::OkStatus();
  }
};

class SnapshotGpu : public OpKernel {  // a device-to-device copy into a new buffer
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    if (x.TotalBytes() == 0) return absl::OkStatus();
    RILL_CUDA_CHECK(cudaMemcpyAsync(out->data(), x.data(), x.TotalBytes(), cudaMemcpyDeviceToDevice,
                                    ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

class NothingGpu : public OpKernel {  // NoOp, Variable (read by consumers, see plan.cc)
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext&) override { return absl::OkStatus(); }
};

template <typename T, int kMode>  // 0: Assign, 1: AssignAdd, -1: AssignSub
class AssignGpu : public OpKernel {
 public:
  explicit AssignGpu(OpKernelConstruction& c) : OpKernel(c) {
    const Node& v = *c.node().input(0).node;
    var_ = c.resources()->LookupOrCreateVar(v.name(), v.output_type(0), v.output_shape(0));
    validate_ = kMode != 0 || c.node().attr<bool>("validate_shape");
  }
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& value = ctx.input(1);
    cudaStream_t stream = ContextOf(ctx)->stream;
    std::lock_guard<std::mutex> lock(var_->mu());
    if (validate_ && !var_->shape().IsCompatibleWith(value.shape())) {
      return errors::InvalidArgument("cannot assign a value of shape ", value.shape().DebugString(),
                                     " to variable '", var_->name(), "' of shape ",
                                     var_->shape().DebugString());
    }
    Tensor& cur = var_->value();
    if (kMode != 0) {
      if (!cur.IsInitialized()) {
        return errors::FailedPrecondition("Attempting to use uninitialized value ", var_->name());
      }
      if (cur.shape() != value.shape()) {
        return errors::InvalidArgument("variable '", var_->name(), "' has shape ",
                                       cur.shape().DebugString(), " but the update has shape ",
                                       value.shape().DebugString());
      }
    }
    // Copy on write, as on the CPU: a value someone still holds never changes.
    bool reuse = cur.IsInitialized() && cur.RefCountIsOne() && cur.shape() == value.shape();
    if (!reuse) {
      RILL_ASSIGN_OR_RETURN(
          Tensor fresh, Tensor::Create(value.dtype(), value.shape(), ctx.device()->allocator()));
      if (kMode != 0) {
        RILL_CUDA_CHECK(cudaMemcpyAsync(fresh.data(), cur.data(), cur.TotalBytes(),
                                        cudaMemcpyDeviceToDevice, stream));
      }
      cur = std::move(fresh);
    }
    if constexpr (kMode == 0) {
      RILL_CUDA_CHECK(cudaMemcpyAsync(cur.data(), value.data(), value.TotalBytes(),
                                      cudaMemcpyDeviceToDevice, stream));
    } else {
      RILL_CUDA_CHECK(LaunchAxpy<T>(static_cast<T>(kMode), value.base<T>(), cur.base<T>(),
                                    value.NumElements(), stream));
    }
    ctx.set_output(0, cur);
    return absl::OkStatus();
  }

 private:
  Var* var_;
  bool validate_;
};

// Reshape, ExpandDims, Squeeze: a new shape over the same device buffer.
template <int kWhich>  // 0 Reshape, 1 ExpandDims, 2 Squeeze
class AliasGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    shape_util::Dims dims;
    if constexpr (kWhich == 0) {
      RILL_ASSIGN_OR_RETURN(auto spec, shape_fns::IntValues(ctx.input(1), "shape"));
      if (ctx.input(1).dims() != 1) return errors::InvalidArgument("shape must be a vector");
      RILL_ASSIGN_OR_RETURN(dims, shape_util::Reshape(x.shape().dim_sizes(), spec));
    } else if constexpr (kWhich == 1) {
      RILL_ASSIGN_OR_RETURN(auto axis, shape_fns::IntValues(ctx.input(1), "dim"));
      if (axis.size() != 1) return errors::InvalidArgument("dim must hold exactly one value");
      RILL_ASSIGN_OR_RETURN(dims, shape_util::ExpandDims(x.shape().dim_sizes(), axis[0]));
    } else {
      RILL_ASSIGN_OR_RETURN(dims,
                            shape_util::Squeeze(x.shape().dim_sizes(),
                                                node().attr<std::vector<int64_t>>("squeeze_dims")));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
    return AliasInputAsOutput(ctx, shape);
  }
};

template <typename T, int kValue>  // ZerosLike (0), OnesLike (1)
class FillLikeGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, ctx.input(0).shape(), &out));
    RILL_CUDA_CHECK(LaunchFillConstant<T>(static_cast<T>(kValue), out->base<T>(),
                                          out->NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T>
class FillGpu : public OpKernel {  // dims on the host, value on the device
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    if (ctx.input(1).dims() != 0) return errors::InvalidArgument("value must be a scalar");
    RILL_ASSIGN_OR_RETURN(TensorShape shape, shape_fns::ShapeFromTensor(ctx.input(0), "dims"));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
    RILL_CUDA_CHECK(LaunchFill<T>(ctx.input(1).base<T>(), out->base<T>(), out->NumElements(),
                                  ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

RILL_REGISTER_KERNEL("Const", DEVICE_GPU, "", DT_INVALID, ConstGpu);
RILL_REGISTER_KERNEL("Identity", DEVICE_GPU, "", DT_INVALID, PassThroughGpu);
RILL_REGISTER_KERNEL("IdentityN", DEVICE_GPU, "", DT_INVALID, PassThroughNGpu);
RILL_REGISTER_KERNEL("StopGradient", DEVICE_GPU, "", DT_INVALID, PassThroughGpu);
RILL_REGISTER_KERNEL("GuaranteeConst", DEVICE_GPU, "", DT_INVALID, PassThroughGpu);
RILL_REGISTER_KERNEL("PreventGradient", DEVICE_GPU, "", DT_INVALID, PassThroughGpu);
RILL_REGISTER_KERNEL("Snapshot", DEVICE_GPU, "", DT_INVALID, SnapshotGpu);
RILL_REGISTER_KERNEL("NoOp", DEVICE_GPU, "", DT_INVALID, NothingGpu);
RILL_REGISTER_KERNEL("Variable", DEVICE_GPU, "", DT_INVALID, NothingGpu);
RILL_REGISTER_KERNEL_HOST_INPUTS("Reshape", DEVICE_GPU, "", DT_INVALID, {1}, AliasGpu<0>);
RILL_REGISTER_KERNEL_HOST_INPUTS("ExpandDims", DEVICE_GPU, "", DT_INVALID, {1}, AliasGpu<1>);
RILL_REGISTER_KERNEL("Squeeze", DEVICE_GPU, "", DT_INVALID, AliasGpu<2>);
#define RILL_REG_GPU_STATE(T, unused)                                                              \
  RILL_REGISTER_KERNEL("Assign", DEVICE_GPU, "T", DataTypeToEnum<T>::value, AssignGpu<T, 0>);      \
  RILL_REGISTER_KERNEL("ZerosLike", DEVICE_GPU, "T", DataTypeToEnum<T>::value, FillLikeGpu<T, 0>); \
  RILL_REGISTER_KERNEL("OnesLike", DEVICE_GPU, "T", DataTypeToEnum<T>::value, FillLikeGpu<T, 1>);  \
  RILL_REGISTER_KERNEL_HOST_INPUTS("Fill", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {0},         \
                                   FillGpu<T>);
RILL_FOR_GPU_ALL_TYPES(RILL_REG_GPU_STATE, 0)
#define RILL_REG_GPU_UPDATE(T, unused)                                                           \
  RILL_REGISTER_KERNEL("AssignAdd", DEVICE_GPU, "T", DataTypeToEnum<T>::value, AssignGpu<T, 1>); \
  RILL_REGISTER_KERNEL("AssignSub", DEVICE_GPU, "T", DataTypeToEnum<T>::value, AssignGpu<T, -1>);
RILL_FOR_GPU_SIGNED_TYPES(RILL_REG_GPU_UPDATE, 0)

}  // namespace
}  // namespace rill::gpu
