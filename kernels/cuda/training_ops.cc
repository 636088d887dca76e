// GPU kernels for training: ReluGrad/SigmoidGrad/TanhGrad, the fused losses, and the
// optimizer updates (in place on the variable's device buffers; scalars stay on the device).
#include "rill/core/apply_util.h"
#include "rill/core/kernel_util.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, FusedActivation kKind>
class ActGradGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(CheckSameShapes(ctx));
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, a.shape(), &out));
    RILL_CUDA_CHECK(LaunchActivationGrad<T>(kKind, a.base<T>(), b.base<T>(), out->base<T>(),
                                            a.NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

// Sparse labels are read on the host (input 1 is a host-memory input), checked there as
// on the CPU, and copied to the device for the kernel; only through the checked upload,
// so a recorded step checks and copies each run's labels before its launch.
template <typename T, bool kSparse>
class SoftmaxXentGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& f = ctx.input(0);
    Tensor *loss, *bp;
    RILL_ASSIGN_OR_RETURN(XentGeometry geo, PrepareXent(ctx, kSparse, &loss, &bp));
    const int64_t rows = geo.batch, cols = geo.classes;
    cudaStream_t s = ContextOf(ctx)->stream;
    Tensor ids;
    if (kSparse) {
      RILL_ASSIGN_OR_RETURN(ids, ctx.UploadCheckedHostInput(1, [cols](const Tensor& labels) {
        return CheckSparseLabels(labels, cols);
      }));
    }
    if (rows == 0) return absl::OkStatus();
    if (cols == 0) {  // no classes: zero loss, empty backprop
      RILL_CUDA_CHECK(cudaMemsetAsync(loss->data(), 0, loss->TotalBytes(), s));
      return absl::OkStatus();
    }
    if (!kSparse) {
      RILL_CUDA_CHECK(
          (LaunchSoftmaxXent<T, int32_t>(f.base<T>(), ctx.input(1).base<T>(), nullptr,
                                         loss->base<T>(), bp->base<T>(), rows, cols, s)));
    } else if (ids.dtype() == DT_INT32) {
      RILL_CUDA_CHECK(
          (LaunchSoftmaxXent<T, int32_t>(f.base<T>(), nullptr, ids.base<int32_t>(), loss->base<T>(),
                                         bp->base<T>(), rows, cols, s)));
    } else {
      RILL_CUDA_CHECK(
          (LaunchSoftmaxXent<T, int64_t>(f.base<T>(), nullptr, ids.base<int64_t>(), loss->base<T>(),
                                         bp->base<T>(), rows, cols, s)));
    }
    return absl::OkStatus();
  }
  bool UploadsCheckedHostInput(int input) const override { return kSparse && input == 1; }
};

template <typename T>
class CategoricalCrossentropyGpu : public OpKernel {
 public:
  explicit CategoricalCrossentropyGpu(OpKernelConstruction& c)
      : OpKernel(c), eps_(c.node().attr<float>("epsilon")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor *loss, *bp;
    RILL_ASSIGN_OR_RETURN(XentGeometry geo, PrepareXent(ctx, false, &loss, &bp));
    RILL_CUDA_CHECK(LaunchCategoricalCrossentropy<T>(
        ctx.input(0).base<T>(), ctx.input(1).base<T>(), loss->base<T>(), bp->base<T>(), geo.batch,
        geo.classes, static_cast<T>(eps_), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }

 private:
  float eps_;
};

template <typename T>
class SigmoidXentGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    const Tensor& z = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckSameShapes(ctx));
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    RILL_CUDA_CHECK(LaunchSigmoidXent<T>(x.base<T>(), z.base<T>(), out->base<T>(), x.NumElements(),
                                         ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

// kKind: 0 GradientDescent, 1 Momentum, 2 Adam.
template <typename T, int kKind>
class ApplyGpu : public OpKernel {
 public:
  static constexpr int kRefs = kKind == 0 ? 1 : (kKind == 1 ? 2 : 3);
  static constexpr int kGrad = kKind == 0 ? 2 : (kKind == 1 ? 3 : 9);
  explicit ApplyGpu(OpKernelConstruction& c)
      : OpKernel(c),
        vars_(c, kRefs),
        nesterov_(kKind != 0 && c.node().attr<bool>("use_nesterov")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    if constexpr (kKind == 0) RILL_RETURN_IF_ERROR(ScalarShapeCheck(ctx, {1}));
    if constexpr (kKind == 1) RILL_RETURN_IF_ERROR(ScalarShapeCheck(ctx, {2, 4}));
    if constexpr (kKind == 2) RILL_RETURN_IF_ERROR(ScalarShapeCheck(ctx, {3, 4, 5, 6, 7, 8}));
    const Tensor& grad = ctx.input(kGrad);
    VarLocks locks;
    VarValues v;
    RILL_RETURN_IF_ERROR(vars_.Prepare(ctx, grad.shape(), &locks, &v));
    cudaStream_t s = ContextOf(ctx)->stream;
    const int64_t n = grad.NumElements();
    auto in = [&](int i) { return ctx.input(i).base<T>(); };
    if constexpr (kKind == 0) {
      RILL_CUDA_CHECK(LaunchApplyGradientDescent<T>(v[0]->base<T>(), in(1), in(2), n, s));
    } else if constexpr (kKind == 1) {
      RILL_CUDA_CHECK(LaunchApplyMomentum<T>(v[0]->base<T>(), v[1]->base<T>(), in(2), in(3), in(4),
                                             nesterov_, n, s));
    } else {
      RILL_CUDA_CHECK(LaunchApplyAdam<T>(v[0]->base<T>(), v[1]->base<T>(), v[2]->base<T>(), in(3),
                                         in(4), in(5), in(6), in(7), in(8), in(9), nesterov_, n,
                                         s));
    }
    ctx.set_output(0, *v[0]);
    return absl::OkStatus();
  }

 private:
  ApplyVars vars_;
  bool nesterov_;
};

// var -= lr * op(a) op(b) as one cuBLAS GEMM into the variable (beta = 1). A constant
// learning rate gives host scalars; any other is read on the device, so nothing waits for
// the host.
template <typename T>
class MatMulApplyGradientDescentGpu : public OpKernel {
 public:
  explicit MatMulApplyGradientDescentGpu(OpKernelConstruction& c)
      : OpKernel(c),
        vars_(c, 1),
        ta_(c.node().attr<bool>("transpose_a")),
        tb_(c.node().attr<bool>("transpose_b")) {
    // A constant learning rate (the optimizers' own) is known now: alpha and beta can be
    // host scalars, with no kernel to write them each step.
    const Tensor* lr = c.node().input(1).node->constant_value();
    if (lr != nullptr && lr->dtype() == DataTypeToEnum<T>::value && lr->NumElements() == 1) {
      host_scalars_[0] = -lr->base<T>()[0];
      host_scalars_[1] = T(1);
      constant_lr_ = true;
    }
  }
  absl::Status Compute(OpKernelContext& ctx) override {
    RILL_RETURN_IF_ERROR(ScalarShapeCheck(ctx, {1}));
    const Tensor& a = ctx.input(2);
    const Tensor& b = ctx.input(3);
    RILL_ASSIGN_OR_RETURN(MatMulGeometry geo, FusedUpdateGeometry(ctx, ta_, tb_));
    const int64_t m = geo.m, n = geo.n, k = geo.k;
    constexpr int64_t kMaxInt = 2147483647;
    if (m > kMaxInt || n > kMaxInt || k > kMaxInt) {
      return errors::InvalidArgument("MatMul dimension beyond cuBLAS's int range");
    }
    VarLocks locks;
    VarValues v;
    RILL_RETURN_IF_ERROR(vars_.Prepare(ctx, TensorShape({m, n}), &locks, &v));
    GpuContext* g = ContextOf(ctx);
    if (m > 0 && n > 0 && k > 0) {
      // One GEMM into the variable itself, var = -lr * op(a) op(b) + 1 * var: no product is
      // written out and read back (for the CIFAR MLP's first layer, 74 MB per step). A
      // learning rate that is not a constant stays on the device: alpha and beta are then
      // written there by a one-thread kernel and read in cuBLAS's device pointer mode.
      Tensor scalars;
      const T* alpha = host_scalars_;
      if (!constant_lr_) {
        RILL_ASSIGN_OR_RETURN(
            scalars, Tensor::Create(a.dtype(), TensorShape({2}), ctx.device()->allocator()));
        RILL_CUDA_CHECK(
            LaunchGemmUpdateScalars<T>(ctx.input(1).base<T>(), scalars.base<T>(), g->stream));
        alpha = scalars.base<T>();
      }
      const T* beta = alpha + 1;
      auto op = [](bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; };
      const int lda = static_cast<int>(a.dim_size(1)), ldb = static_cast<int>(b.dim_size(1));
      // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T.
      std::lock_guard<std::mutex> handle_lock(*g->library_mu);
      if (!constant_lr_) {
        RILL_CUDA_CHECK(Cublas().SetPointerMode(g->cublas, CUBLAS_POINTER_MODE_DEVICE));
      }
      cublasStatus_t st;
      if constexpr (std::is_same_v<T, float>) {
        st = Cublas().GemmEx(g->cublas, op(tb_), op(ta_), n, m, k, alpha, b.base<float>(),
                             CUDA_R_32F, ldb, a.base<float>(), CUDA_R_32F, lda, beta,
                             v[0]->base<float>(), CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT);
      } else {
        st = Cublas().Dgemm(g->cublas, op(tb_), op(ta_), n, m, k, alpha, b.base<double>(), ldb,
                            a.base<double>(), lda, beta, v[0]->base<double>(), n);
      }
      // Every other call on the handle passes host scalars.
      if (!constant_lr_) {
        RILL_CUDA_CHECK(Cublas().SetPointerMode(g->cublas, CUBLAS_POINTER_MODE_HOST));
      }
      RILL_CUDA_CHECK(st);
    }
    ctx.set_output(0, *v[0]);
    return absl::OkStatus();
  }

 private:
  ApplyVars vars_;
  bool ta_, tb_;
  bool constant_lr_ = false;
  T host_scalars_[2] = {T(0), T(1)};  // -lr and 1, when the learning rate is a constant
};

template <typename T>
class DropoutGpu : public RandomKernelBase {
 public:
  explicit DropoutGpu(OpKernelConstruction& c)
      : RandomKernelBase(c), rate_(c.node().attr<float>("rate")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor *out, *mask;
    RILL_ASSIGN_OR_RETURN(const RandomDraw draw, PrepareDropout(ctx, rate_, &out, &mask));
    const int64_t n = x.NumElements();
    RILL_CUDA_CHECK(LaunchDropout<T>(x.base<T>(), out->base<T>(), mask->base<T>(), n, rate_, key(),
                                     draw.base, draw.recorded, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
  bool AdvancesThroughReplayCounters() const override { return true; }

 private:
  float rate_;
};

#define RILL_REG_GPU_TRAINING(T, unused)                                                           \
  RILL_REGISTER_KERNEL("ReluGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value,                      \
                       ActGradGpu<T, FusedActivation::kRelu>);                                     \
  RILL_REGISTER_KERNEL("SigmoidGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value,                   \
                       ActGradGpu<T, FusedActivation::kSigmoid>);                                  \
  RILL_REGISTER_KERNEL("TanhGrad", DEVICE_GPU, "T", DataTypeToEnum<T>::value,                      \
                       ActGradGpu<T, FusedActivation::kTanh>);                                     \
  RILL_REGISTER_KERNEL("SoftmaxCrossEntropyWithLogits", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       SoftmaxXentGpu<T, false>);                                                  \
  RILL_REGISTER_KERNEL_HOST_INPUTS("SparseSoftmaxCrossEntropyWithLogits", DEVICE_GPU, "T",         \
                                   DataTypeToEnum<T>::value, {1}, SoftmaxXentGpu<T, true>);        \
  RILL_REGISTER_KERNEL("SigmoidCrossEntropyWithLogits", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       SigmoidXentGpu<T>);                                                         \
  RILL_REGISTER_KERNEL("_CategoricalCrossentropy", DEVICE_GPU, "T", DataTypeToEnum<T>::value,      \
                       CategoricalCrossentropyGpu<T>);                                             \
  RILL_REGISTER_KERNEL("Dropout", DEVICE_GPU, "T", DataTypeToEnum<T>::value, DropoutGpu<T>);       \
  RILL_REGISTER_KERNEL("ApplyGradientDescent", DEVICE_GPU, "T", DataTypeToEnum<T>::value,          \
                       ApplyGpu<T, 0>);                                                            \
  RILL_REGISTER_KERNEL("ApplyMomentum", DEVICE_GPU, "T", DataTypeToEnum<T>::value,                 \
                       ApplyGpu<T, 1>);                                                            \
  RILL_REGISTER_KERNEL("ApplyAdam", DEVICE_GPU, "T", DataTypeToEnum<T>::value, ApplyGpu<T, 2>);    \
  RILL_REGISTER_KERNEL("_MatMulApplyGradientDescent", DEVICE_GPU, "T", DataTypeToEnum<T>::value,   \
                       MatMulApplyGradientDescentGpu<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_TRAINING, 0)

}  // namespace
}  // namespace rill::gpu
