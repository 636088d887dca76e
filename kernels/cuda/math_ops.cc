// GPU kernels of the math family: elementwise with broadcasting, AddN, Cast, MatMul and
// _FusedMatMul (cuBLAS), reductions and ArgMax (axes read on the host), softmax, random ops.
#include "rill/core/broadcast.h"
#include "rill/core/conv_kernel_util.h"
#include "rill/core/kernel_util.h"
#include "rill/core/shape_inference.h"
#include "rill/core/shape_util.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/fused_epilogue_gpu.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

namespace rill::gpu {
namespace {

template <typename T, BinaryKind kOp>
class BinaryGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    TensorShape shape = a.shape();
    if (a.shape() != b.shape()) {
      RILL_ASSIGN_OR_RETURN(shape, shape_fns::Broadcast(a.shape(), b.shape()));
    }
    if constexpr (std::is_integral_v<T> && (kOp == BinaryKind::kDiv || kOp == BinaryKind::kPow)) {
      // Checking divisors needs their values on the host; integer Div and Pow stay on
      // the CPU (no GPU kernel is registered for them).
      static_assert(sizeof(T) == 0, "not registered");
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
    BroadcastPlan plan = MakeBroadcastPlan(a.shape(), b.shape(), shape);
    RILL_CUDA_CHECK(LaunchBinary<T>(kOp, a.base<T>(), b.base<T>(), out->data(), out->NumElements(),
                                    plan, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

// kOp: a UnaryKind (cwise.cu) or a UnaryMath (unary_math.cu); LaunchUnary takes either.
template <typename T, auto kOp>
class UnaryGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.forward_or_allocate_output(0, 0, x.shape(), &out));
    RILL_CUDA_CHECK(
        LaunchUnary<T>(kOp, x.base<T>(), out->base<T>(), x.NumElements(), ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T, FloatClass kClass>
class FloatClassGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    RILL_CUDA_CHECK(LaunchFloatClass<T>(kClass, x.base<T>(), out->base<bool>(), x.NumElements(),
                                        ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T>
class ClipByValueGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const T *x = ctx.input(0).base<T>(), *lo = ctx.input(1).base<T>(), *hi = ctx.input(2).base<T>();
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(ClipGeometry g, PrepareClipByValue(ctx, &out));
    RILL_CUDA_CHECK(LaunchClipByValue<T>(x, lo, g.lo_step, hi, g.hi_step, out->base<T>(), g.n,
                                         ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

// sum(t^2) / 2: the squares, their sum (the reduction's chunked path for long inputs),
// then the halving.
template <typename T>
class L2LossGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({}), &out));
    const int64_t n = x.NumElements();
    Allocator* a = ctx.device()->allocator();
    RILL_ASSIGN_OR_RETURN(Tensor squares, Tensor::Create(x.dtype(), TensorShape({n}), a));
    Tensor scratch;
    if (const int64_t e = ReduceScratchElements(1, n); e > 0) {
      RILL_ASSIGN_OR_RETURN(scratch, Tensor::Create(x.dtype(), TensorShape({e}), a));
    }
    cudaStream_t stream = ContextOf(ctx)->stream;
    RILL_CUDA_CHECK(LaunchUnary<T>(UnaryKind::kSquare, x.base<T>(), squares.base<T>(), n, stream));
    RILL_CUDA_CHECK(LaunchReduce<T>(ReduceKind::kSum, squares.base<T>(), out->base<T>(), 1, n, 1,
                                    scratch.IsInitialized() ? scratch.base<T>() : nullptr, stream));
    RILL_CUDA_CHECK(LaunchScale<T>(out->base<T>(), T(1), 2, 1, stream));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return true; }
};

template <typename T>
class AddNGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& first = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(PrepareAddN(ctx, &out));
    cudaStream_t stream = ContextOf(ctx)->stream;
    RILL_CUDA_CHECK(cudaMemcpyAsync(out->data(), first.data(), first.TotalBytes(),
                                    cudaMemcpyDeviceToDevice, stream));
    for (int i = 1; i < ctx.num_inputs(); ++i) {
      RILL_CUDA_CHECK(
          LaunchAxpy<T>(T(1), ctx.input(i).base<T>(), out->base<T>(), first.NumElements(), stream));
    }
    return absl::OkStatus();
  }
};

class CastGpu : public OpKernel {
 public:
  explicit CastGpu(OpKernelConstruction& c)
      : OpKernel(c), truncate_(GetNodeAttrOr(c.node().attrs(), "Truncate", false)) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, x.shape(), &out));
    cudaStream_t stream = ContextOf(ctx)->stream;
    cudaError_t err = cudaSuccess;
    VisitDataType(x.dtype(), [&](auto from) {
      using F = typename decltype(from)::type;
      VisitDataType(out->dtype(), [&](auto to) {
        using T = typename decltype(to)::type;
        err = LaunchCast<F, T>(x.base<F>(), out->base<T>(), x.NumElements(), truncate_, stream);
      });
    });
    RILL_CUDA_CHECK(err);
    return absl::OkStatus();
  }

 private:
  const bool truncate_;
};

// Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands.
// kFused: _FusedMatMul, the product then its bias and activation in place (one kernel over
// the product, as _BiasActivation's).
template <typename T, bool kFused = false>
class MatMulGpu : public OpKernel {
 public:
  explicit MatMulGpu(OpKernelConstruction& c)
      : OpKernel(c),
        ta_(c.node().attr<bool>("transpose_a")),
        tb_(c.node().attr<bool>("transpose_b")),
        tf32_(c.options().allow_tf32) {
    if constexpr (kFused) epilogue_ = ParseFusedMatMulEpilogue(c.node().attrs());
  }
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(MatMulGeometry geo, PrepareMatMul(ctx, ta_, tb_, &out));
    if constexpr (kFused) {
      RILL_RETURN_IF_ERROR(epilogue_.status());
      RILL_RETURN_IF_ERROR(CheckFusedBias(ctx, 2, out->shape()));
    }
    if (geo.m == 0 || geo.n == 0) return absl::OkStatus();
    RILL_RETURN_IF_ERROR(Product(ctx, geo, out));
    if constexpr (kFused) {
      RILL_RETURN_IF_ERROR(FusedEpilogueGpu<T>(*epilogue_, out->base<T>(), ctx.input(2).base<T>(),
                                               out->NumElements(), geo.n, ContextOf(ctx)->stream));
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return true; }

 private:
  absl::Status Product(OpKernelContext& ctx, const MatMulGeometry& geo, Tensor* out) {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    const int64_t m = geo.m, n = geo.n, k = geo.k;
    GpuContext* g = ContextOf(ctx);
    if (k == 0) {
      RILL_CUDA_CHECK(cudaMemsetAsync(out->data(), 0, out->TotalBytes(), g->stream));
      return absl::OkStatus();
    }
    constexpr int64_t kMaxInt = 2147483647;
    if (m > kMaxInt || n > kMaxInt || k > kMaxInt) {
      return errors::InvalidArgument("MatMul dimension beyond cuBLAS's int range");
    }
    const T one = 1, zero = 0;
    auto op = [](bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; };
    int lda = static_cast<int>(a.dim_size(1)), ldb = static_cast<int>(b.dim_size(1));
    std::lock_guard<std::mutex> handle_lock(*g->library_mu);
    if constexpr (std::is_same_v<T, float>) {
      // The compute type is chosen per call, so Sessions with and without TF32 can share
      // the device's handle.
      RILL_CUDA_CHECK(Cublas().GemmEx(
          g->cublas, op(tb_), op(ta_), n, m, k, &one, b.base<float>(), CUDA_R_32F, ldb,
          a.base<float>(), CUDA_R_32F, lda, &zero, out->base<float>(), CUDA_R_32F, n,
          tf32_ ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    } else {
      RILL_CUDA_CHECK(Cublas().Dgemm(g->cublas, op(tb_), op(ta_), n, m, k, &one, b.base<double>(),
                                     ldb, a.base<double>(), lda, &zero, out->base<double>(), n));
    }
    return absl::OkStatus();
  }

  bool ta_, tb_, tf32_;
  absl::StatusOr<FusedEpilogue> epilogue_ = FusedEpilogue();  // _FusedMatMul's
};

// Sum, Mean, Max, Min, Prod: one pass per group of adjacent reduced dims, last group first.
template <typename T, int kMode>  // 0 Sum, 1 Mean, 2 Max, 3 Min, 4 Prod
class ReduceGpu : public OpKernel {
 public:
  explicit ReduceGpu(OpKernelConstruction& c)
      : OpKernel(c), keep_(c.node().attr<bool>("keep_dims")) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(ReductionGeometry geo, PrepareReduction(ctx, keep_, &out));
    cudaStream_t stream = ContextOf(ctx)->stream;
    const auto& groups = geo.groups;
    constexpr ReduceKind kind = kMode == 2   ? ReduceKind::kMax
                                : kMode == 3 ? ReduceKind::kMin
                                : kMode == 4 ? ReduceKind::kProd
                                             : ReduceKind::kSum;
    int last = -1;
    for (int k = static_cast<int>(groups.size()) - 1; k >= 0 && last < 0; --k)
      if (groups[k].second) last = k;
    if (last < 0) {  // nothing reduced: a copy
      RILL_CUDA_CHECK(
          cudaMemcpyAsync(out->data(), x.data(), x.TotalBytes(), cudaMemcpyDeviceToDevice, stream));
    }
    Tensor cur = x;
    for (int k = last; k >= 0; --k) {
      if (!groups[k].second) continue;
      int64_t outer = 1, inner = 1;
      bool final_pass = true;
      for (int j = 0; j < k; ++j) {
        outer *= groups[j].first;
        final_pass &= !groups[j].second;
      }
      for (size_t j = k + 1; j < groups.size(); ++j)
        inner *= groups[j].second ? 1 : groups[j].first;
      Tensor next;
      if (final_pass) {
        next = *out;
      } else {
        RILL_ASSIGN_OR_RETURN(next, Tensor::Create(x.dtype(), TensorShape({outer * inner}),
                                                   ctx.device()->allocator()));
      }
      Tensor scratch;
      if (const int64_t e = ReduceScratchElements(outer * inner, groups[k].first); e > 0) {
        RILL_ASSIGN_OR_RETURN(
            scratch, Tensor::Create(x.dtype(), TensorShape({e}), ctx.device()->allocator()));
      }
      RILL_CUDA_CHECK(LaunchReduce<T>(kind, cur.base<T>(), next.base<T>(), outer, groups[k].first,
                                      inner, scratch.IsInitialized() ? scratch.base<T>() : nullptr,
                                      stream));
      cur = next;
    }
    if constexpr (kMode == 1) {
      RILL_CUDA_CHECK(
          LaunchScale<T>(out->base<T>(), T(1), geo.reduced_count, out->NumElements(), stream));
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return true; }

 private:
  bool keep_;
};

template <typename T, bool kMin>
class ArgMaxGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(AxisGeometry g, PrepareArgMax(ctx, &out));
    cudaStream_t s = ContextOf(ctx)->stream;
    if (out->dtype() == DT_INT32) {
      RILL_CUDA_CHECK((LaunchArgMax<T, int32_t>(x.base<T>(), out->base<int32_t>(), g.outer, g.r,
                                                g.inner, kMin, s)));
    } else {
      RILL_CUDA_CHECK((LaunchArgMax<T, int64_t>(x.base<T>(), out->base<int64_t>(), g.outer, g.r,
                                                g.inner, kMin, s)));
    }
    return absl::OkStatus();
  }
};

template <typename T, bool kLog>
class SoftmaxGpu : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const int64_t cols, PrepareSoftmax(ctx, &out));
    if (cols == 0) return absl::OkStatus();
    RILL_CUDA_CHECK(LaunchSoftmax<T>(x.base<T>(), out->base<T>(), x.NumElements() / cols, cols,
                                     kLog, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
};

template <typename T, RandomKind kKind>
class RandomGpu : public RandomKernelBase {
 public:
  explicit RandomGpu(OpKernelConstruction& c) : RandomKernelBase(c) {}
  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(const RandomDraw draw, Prepare(ctx, &out));
    RILL_CUDA_CHECK(LaunchRandom<T>(kKind, out->base<T>(), out->NumElements(), key(), draw.base,
                                    draw.recorded, ContextOf(ctx)->stream));
    return absl::OkStatus();
  }
  bool AdvancesThroughReplayCounters() const override { return true; }
};

#define RILL_REG_GPU_BINARY(T, NAME, KIND) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_GPU, "T", DataTypeToEnum<T>::value, BinaryGpu<T, KIND>);
#define RILL_REG_GPU_UNARY(T, NAME, KIND) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_GPU, "T", DataTypeToEnum<T>::value, UnaryGpu<T, KIND>);
// int32 is not here: as in TensorFlow, int32 elementwise ops on the GPU are host-memory
// kernels (kernels/cpu/cwise_*_ops.cc), since int32 tensors are shapes, sizes and axes that
// their consumers read on the host.
#define RILL_GPU_SIGNED_TYPES(M, ...) RILL_FOR_FLOAT_TYPES(M, __VA_ARGS__) M(int64_t, __VA_ARGS__)
#define RILL_GPU_NUMBER_TYPES(M, ...) RILL_GPU_SIGNED_TYPES(M, __VA_ARGS__) M(uint8_t, __VA_ARGS__)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "Add", BinaryKind::kAdd)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "AddV2", BinaryKind::kAdd)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "Sub", BinaryKind::kSub)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "Mul", BinaryKind::kMul)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "Div", BinaryKind::kDiv)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "RealDiv", BinaryKind::kDiv)
RILL_GPU_SIGNED_TYPES(RILL_REG_GPU_BINARY, "SquaredDifference", BinaryKind::kSquaredDifference)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "Polygamma", BinaryKind::kPolygamma)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "FloorDiv", BinaryKind::kFloorDiv)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "FloorMod", BinaryKind::kFloorMod)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "TruncateDiv", BinaryKind::kTruncateDiv)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "TruncateMod", BinaryKind::kTruncateMod)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "Mod", BinaryKind::kTruncateMod)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "Atan2", BinaryKind::kAtan2)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "DivNoNan", BinaryKind::kDivNoNan)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "MulNoNan", BinaryKind::kMulNoNan)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "Xlogy", BinaryKind::kXlogy)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "Xlog1py", BinaryKind::kXlog1py)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "Xdivy", BinaryKind::kXdivy)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_BINARY, "Pow", BinaryKind::kPow)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "Maximum", BinaryKind::kMax)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "Minimum", BinaryKind::kMin)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "Equal", BinaryKind::kEqual)
RILL_REG_GPU_BINARY(bool, "Equal", BinaryKind::kEqual)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "Less", BinaryKind::kLess)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "Greater", BinaryKind::kGreater)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "NotEqual", BinaryKind::kNotEqual)
RILL_REG_GPU_BINARY(bool, "NotEqual", BinaryKind::kNotEqual)
RILL_REGISTER_KERNEL("LogicalAnd", DEVICE_GPU, "", DT_INVALID,
                     BinaryGpu<bool, BinaryKind::kLogicalAnd>);
RILL_REGISTER_KERNEL("LogicalOr", DEVICE_GPU, "", DT_INVALID,
                     BinaryGpu<bool, BinaryKind::kLogicalOr>);
RILL_REGISTER_KERNEL("LogicalNot", DEVICE_GPU, "", DT_INVALID,
                     UnaryGpu<bool, UnaryKind::kLogicalNot>);
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "LessEqual", BinaryKind::kLessEqual)
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_BINARY, "GreaterEqual", BinaryKind::kGreaterEqual)
RILL_GPU_SIGNED_TYPES(RILL_REG_GPU_UNARY, "Neg", UnaryKind::kNeg)
RILL_GPU_SIGNED_TYPES(RILL_REG_GPU_UNARY, "Abs", UnaryKind::kAbs)
RILL_GPU_SIGNED_TYPES(RILL_REG_GPU_UNARY, "Square", UnaryKind::kSquare)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_UNARY, "Sqrt", UnaryKind::kSqrt)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_UNARY, "Exp", UnaryKind::kExp)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_UNARY, "Log", UnaryKind::kLog)
RILL_GPU_SIGNED_TYPES(RILL_REG_GPU_UNARY, "Sign", UnaryKind::kSign)
RILL_GPU_SIGNED_TYPES(RILL_REG_GPU_UNARY, "Relu", UnaryKind::kRelu)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_UNARY, "Sigmoid", UnaryKind::kSigmoid)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_UNARY, "Tanh", UnaryKind::kTanh)
#define RILL_REG_GPU_UNARY_MATH_OP(NAME, KIND) RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_UNARY, NAME, KIND)
RILL_FOR_UNARY_MATH_OPS(RILL_REG_GPU_UNARY_MATH_OP)
RILL_FOR_UNARY_MATH_ALIASES(RILL_REG_GPU_UNARY_MATH_OP)
#define RILL_REG_GPU_FLOAT_CLASS(T, NAME, CLASS) \
  RILL_REGISTER_KERNEL(NAME, DEVICE_GPU, "T", DataTypeToEnum<T>::value, FloatClassGpu<T, CLASS>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_FLOAT_CLASS, "IsNan", FloatClass::kNan)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_FLOAT_CLASS, "IsInf", FloatClass::kInf)
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_FLOAT_CLASS, "IsFinite", FloatClass::kFinite)
// All and Any: the min and max of bools.
RILL_REGISTER_KERNEL_HOST_INPUTS("All", DEVICE_GPU, "", DT_INVALID, {1}, ReduceGpu<bool, 3>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Any", DEVICE_GPU, "", DT_INVALID, {1}, ReduceGpu<bool, 2>);
#define RILL_REG_GPU_CLIP(T, unused) \
  RILL_REGISTER_KERNEL("ClipByValue", DEVICE_GPU, "T", DataTypeToEnum<T>::value, ClipByValueGpu<T>);
RILL_GPU_NUMBER_TYPES(RILL_REG_GPU_CLIP, 0)
RILL_REGISTER_KERNEL("Cast", DEVICE_GPU, "", DT_INVALID, CastGpu);
#define RILL_REG_GPU_REDUCE(T, unused)                                                       \
  RILL_REGISTER_KERNEL("AddN", DEVICE_GPU, "T", DataTypeToEnum<T>::value, AddNGpu<T>);       \
  RILL_REGISTER_KERNEL_HOST_INPUTS("Sum", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1},    \
                                   ReduceGpu<T, 0>);                                         \
  RILL_REGISTER_KERNEL_HOST_INPUTS("Mean", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1},   \
                                   ReduceGpu<T, 1>);                                         \
  RILL_REGISTER_KERNEL_HOST_INPUTS("Max", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1},    \
                                   ReduceGpu<T, 2>);                                         \
  RILL_REGISTER_KERNEL_HOST_INPUTS("Min", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1},    \
                                   ReduceGpu<T, 3>);                                         \
  RILL_REGISTER_KERNEL_HOST_INPUTS("Prod", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1},   \
                                   ReduceGpu<T, 4>);                                         \
  RILL_REGISTER_KERNEL_HOST_INPUTS("ArgMax", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1}, \
                                   ArgMaxGpu<T, false>);                                     \
  RILL_REGISTER_KERNEL_HOST_INPUTS("ArgMin", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {1}, \
                                   ArgMaxGpu<T, true>);
RILL_FOR_GPU_NUMBER_TYPES(RILL_REG_GPU_REDUCE, 0)
#define RILL_REG_GPU_FLOAT(T, unused)                                                              \
  RILL_REGISTER_KERNEL("MatMul", DEVICE_GPU, "T", DataTypeToEnum<T>::value, MatMulGpu<T>);         \
  RILL_REGISTER_KERNEL("L2Loss", DEVICE_GPU, "T", DataTypeToEnum<T>::value, L2LossGpu<T>);         \
  RILL_REGISTER_KERNEL("Softmax", DEVICE_GPU, "T", DataTypeToEnum<T>::value,                       \
                       SoftmaxGpu<T, false>);                                                      \
  RILL_REGISTER_KERNEL("LogSoftmax", DEVICE_GPU, "T", DataTypeToEnum<T>::value,                    \
                       SoftmaxGpu<T, true>);                                                       \
  RILL_REGISTER_KERNEL_HOST_INPUTS("RandomUniform", DEVICE_GPU, "dtype", DataTypeToEnum<T>::value, \
                                   {0}, RandomGpu<T, RandomKind::kUniform>);                       \
  RILL_REGISTER_KERNEL_HOST_INPUTS("RandomStandardNormal", DEVICE_GPU, "dtype",                    \
                                   DataTypeToEnum<T>::value, {0},                                  \
                                   RandomGpu<T, RandomKind::kNormal>);                             \
  RILL_REGISTER_KERNEL_HOST_INPUTS("TruncatedNormal", DEVICE_GPU, "dtype",                         \
                                   DataTypeToEnum<T>::value, {0},                                  \
                                   RandomGpu<T, RandomKind::kTruncated>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_FLOAT, 0)
#define RILL_REG_GPU_FUSED_MATMUL(T, unused)                                      \
  RILL_REGISTER_KERNEL("_FusedMatMul", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                       MatMulGpu<T, true>);
RILL_FOR_FLOAT_TYPES(RILL_REG_GPU_FUSED_MATMUL, 0)

}  // namespace
}  // namespace rill::gpu
