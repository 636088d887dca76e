// GPU kernels of Conv2D and its two gradients through cuDNN, float32 over NHWC tensors.
// The algorithm of each pass is chosen once per shape by timing cuDNN's candidates
// (cudnnFind*AlgorithmEx) and cached in the kernel. Filters are HWIO (TensorFlow's
// layout) and cuDNN's NHWC filters are KRSC, so a filter is transposed on the way in and
// a filter gradient on the way out. cuDNN pads symmetrically: a SAME padding with one
// more row or column after than before (odd totals) gets an explicitly padded copy of
// the input instead. TF32 only when the session allows it (FMA math otherwise).
#include <climits>
#include <mutex>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "rill/core/conv_kernel_util.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/gpu_context.h"

namespace rill::gpu {
namespace {

// Owners of cuDNN descriptors.
struct TensorDesc {
  cudnnTensorDescriptor_t d = nullptr;
  ~TensorDesc() {
    if (d) (void)cudnnDestroyTensorDescriptor(d);
  }
};
struct FilterDesc {
  cudnnFilterDescriptor_t d = nullptr;
  ~FilterDesc() {
    if (d) (void)cudnnDestroyFilterDescriptor(d);
  }
};
struct ConvDesc {
  cudnnConvolutionDescriptor_t d = nullptr;
  ~ConvDesc() {
    if (d) (void)cudnnDestroyConvolutionDescriptor(d);
  }
};

absl::StatusOr<Tensor> Temp(OpKernelContext& ctx, DataType dt, const TensorShape& shape,
                            const char* what) {
  Tensor t(ctx.device()->allocator(), dt, shape);
  if (!t.IsInitialized()) {
    return errors::ResourceExhausted("out of GPU memory allocating the ", what, " of shape ",
                                     shape.DebugString(), " (", DataTypeString(dt), ")");
  }
  return t;
}

struct Choice {
  int algo;
  size_t workspace;
  cudnnMathType_t math;
};
using Key = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                       int64_t, int64_t, int64_t, int64_t>;

// Find*AlgorithmEx may use this much scratch while it times the candidates.
constexpr size_t kFindWorkspaceBytes = size_t{64} << 20;

// kMode 0: Conv2D(input, filter); 1: BackpropInput(sizes, filter, dy);
// 2: BackpropFilter(input, sizes, dy).
template <int kMode>
class ConvGpu : public OpKernel {
 public:
  explicit ConvGpu(OpKernelConstruction& c) : OpKernel(c), tf32_(c.options().allow_tf32) {}
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PrepareConv2D(ctx, static_cast<ConvMode>(kMode), &out));
    GpuContext* gc = ContextOf(ctx);
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t K = g.k_h * g.k_w * g.in_c;
    if (g.out_h * g.out_w == 0 || K == 0 || g.batch == 0) {  // nothing reaches the output
      RILL_CUDA_CHECK(cudaMemsetAsync(out->data(), 0, out->TotalBytes(), gc->stream));
      return absl::OkStatus();
    }
    const SymmetricPadLayout lay = SymmetricPadLayoutOf(g);
    for (int64_t v :
         {g.batch * lay.h * lay.w * g.in_c, g.batch * g.out_h * g.out_w * g.out_c, K * g.out_c}) {
      if (v > INT_MAX) {
        return errors::InvalidArgument(
            "cuDNN takes at most ", INT_MAX, " elements per tensor; input [", g.batch, ",", g.in_h,
            ",", g.in_w, ",", g.in_c, "], filter [", g.k_h, ",", g.k_w, ",", g.in_c, ",", g.out_c,
            "] need ", v, " (place the node on /CPU:0)");
      }
    }
    cudaStream_t stream = gc->stream;
    // The operands as cuDNN takes them.
    const float* x = nullptr;  // input (modes 0, 2)
    const float* w = nullptr;  // KRSC filter (modes 0, 1)
    const float* dy = kMode == 0 ? nullptr : ctx.input(2).base<float>();
    Tensor x_padded, w_krsc, grad_tmp;
    if constexpr (kMode != 1) {
      x = ctx.input(0).base<float>();
      if (lay.padded_copy) {
        RILL_ASSIGN_OR_RETURN(
            x_padded,
            Temp(ctx, DT_FLOAT, TensorShape({g.batch, lay.h, lay.w, g.in_c}), "padded input"));
        RILL_CUDA_CHECK(LaunchPadOrCropNhwc<float>(true, x, x_padded.base<float>(), g.batch, g.in_h,
                                                   g.in_w, g.in_c, lay.h, lay.w, g.pad_top,
                                                   g.pad_left, stream));
        x = x_padded.base<float>();
      }
    }
    if constexpr (kMode != 2) {
      RILL_ASSIGN_OR_RETURN(w_krsc, Temp(ctx, DT_FLOAT, TensorShape({g.out_c, K}), "KRSC filter"));
      RILL_CUDA_CHECK(LaunchTranspose2D<float>(ctx.input(1).base<float>(), w_krsc.base<float>(), K,
                                               g.out_c, stream));
      w = w_krsc.base<float>();
    }
    // Where cuDNN writes: the output itself, or a temporary to crop / transpose from.
    float* result = out->base<float>();
    if (kMode == 1 && lay.padded_copy) {
      RILL_ASSIGN_OR_RETURN(grad_tmp,
                            Temp(ctx, DT_FLOAT, TensorShape({g.batch, lay.h, lay.w, g.in_c}),
                                 "padded input gradient"));
      result = grad_tmp.base<float>();
    } else if (kMode == 2) {
      RILL_ASSIGN_OR_RETURN(grad_tmp,
                            Temp(ctx, DT_FLOAT, TensorShape({g.out_c, K}), "KRSC filter gradient"));
      result = grad_tmp.base<float>();
    }

    TensorDesc xd, yd;
    FilterDesc wd;
    ConvDesc cd;
    RILL_CUDA_CHECK(cudnnCreateTensorDescriptor(&xd.d));
    RILL_CUDA_CHECK(cudnnCreateTensorDescriptor(&yd.d));
    RILL_CUDA_CHECK(cudnnCreateFilterDescriptor(&wd.d));
    RILL_CUDA_CHECK(cudnnCreateConvolutionDescriptor(&cd.d));
    RILL_CUDA_CHECK(cudnnSetTensor4dDescriptor(xd.d, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT,
                                               int(g.batch), int(g.in_c), int(lay.h), int(lay.w)));
    RILL_CUDA_CHECK(cudnnSetTensor4dDescriptor(yd.d, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT,
                                               int(g.batch), int(g.out_c), int(g.out_h),
                                               int(g.out_w)));
    RILL_CUDA_CHECK(cudnnSetFilter4dDescriptor(wd.d, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC,
                                               int(g.out_c), int(g.in_c), int(g.k_h), int(g.k_w)));
    RILL_CUDA_CHECK(cudnnSetConvolution2dDescriptor(cd.d, int(lay.pad_h), int(lay.pad_w),
                                                    int(g.stride_h), int(g.stride_w), 1, 1,
                                                    CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    RILL_CUDA_CHECK(cudnnSetConvolutionMathType(cd.d, tf32_ ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH));

    const Key key{g.batch, lay.h,   lay.w,   g.in_c,    g.out_c,   g.k_h,
                  g.k_w,   g.out_h, g.out_w, lay.pad_h, lay.pad_w, g.stride_h * 65536 + g.stride_w};
    Choice choice;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = cache_.find(key);
      if (it == cache_.end()) {
        RILL_ASSIGN_OR_RETURN(Choice found,
                              Find(ctx, gc, xd.d, x, wd.d, w, yd.d, dy, cd.d, result));
        it = cache_.emplace(key, found).first;
      }
      choice = it->second;
    }
    RILL_CUDA_CHECK(cudnnSetConvolutionMathType(cd.d, choice.math));
    Tensor ws;
    if (choice.workspace > 0) {
      RILL_ASSIGN_OR_RETURN(
          ws, Temp(ctx, DT_UINT8, TensorShape({int64_t(choice.workspace)}), "cuDNN workspace"));
    }
    void* wsp = choice.workspace > 0 ? ws.data() : nullptr;
    const float one = 1.0f, zero = 0.0f;
    if constexpr (kMode == 0) {
      RILL_CUDA_CHECK(cudnnConvolutionForward(gc->cudnn, &one, xd.d, x, wd.d, w, cd.d,
                                              cudnnConvolutionFwdAlgo_t(choice.algo), wsp,
                                              choice.workspace, &zero, yd.d, result));
    } else if constexpr (kMode == 1) {
      RILL_CUDA_CHECK(cudnnConvolutionBackwardData(gc->cudnn, &one, wd.d, w, yd.d, dy, cd.d,
                                                   cudnnConvolutionBwdDataAlgo_t(choice.algo), wsp,
                                                   choice.workspace, &zero, xd.d, result));
      if (lay.padded_copy) {
        RILL_CUDA_CHECK(LaunchPadOrCropNhwc<float>(false, result, out->base<float>(), g.batch,
                                                   g.in_h, g.in_w, g.in_c, lay.h, lay.w, g.pad_top,
                                                   g.pad_left, stream));
      }
    } else {
      RILL_CUDA_CHECK(cudnnConvolutionBackwardFilter(gc->cudnn, &one, xd.d, x, yd.d, dy, cd.d,
                                                     cudnnConvolutionBwdFilterAlgo_t(choice.algo),
                                                     wsp, choice.workspace, &zero, wd.d, result));
      RILL_CUDA_CHECK(LaunchTranspose2D<float>(result, out->base<float>(), g.out_c, K, stream));
    }
    return absl::OkStatus();
  }

 private:
  // Times cuDNN's algorithms for this pass and shape (writing `result`, which the caller
  // overwrites right after) and keeps the fastest that succeeds with the allowed math.
  absl::StatusOr<Choice> Find(OpKernelContext& ctx, GpuContext* gc, cudnnTensorDescriptor_t xd,
                              const float* x, cudnnFilterDescriptor_t wd, const float* w,
                              cudnnTensorDescriptor_t yd, const float* dy,
                              cudnnConvolutionDescriptor_t cd, float* result) {
    Tensor scratch(ctx.device()->allocator(), DT_UINT8,
                   TensorShape({int64_t(kFindWorkspaceBytes)}));
    void* sp = scratch.IsInitialized() ? scratch.data() : nullptr;
    const size_t sbytes = scratch.IsInitialized() ? kFindWorkspaceBytes : 0;
    constexpr int kMax = 16;
    int n = 0;
    if constexpr (kMode == 0) {
      cudnnConvolutionFwdAlgoPerf_t perf[kMax];
      RILL_CUDA_CHECK(cudnnFindConvolutionForwardAlgorithmEx(gc->cudnn, xd, x, wd, w, cd, yd,
                                                             result, kMax, &n, perf, sp, sbytes));
      return Pick(perf, n, sbytes);
    } else if constexpr (kMode == 1) {
      cudnnConvolutionBwdDataAlgoPerf_t perf[kMax];
      RILL_CUDA_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(
          gc->cudnn, wd, w, yd, dy, cd, xd, result, kMax, &n, perf, sp, sbytes));
      return Pick(perf, n, sbytes);
    } else {
      cudnnConvolutionBwdFilterAlgoPerf_t perf[kMax];
      RILL_CUDA_CHECK(cudnnFindConvolutionBackwardFilterAlgorithmEx(
          gc->cudnn, xd, x, yd, dy, cd, wd, result, kMax, &n, perf, sp, sbytes));
      return Pick(perf, n, sbytes);
    }
  }

  template <typename Perf>
  absl::StatusOr<Choice> Pick(const Perf* perf, int n, size_t limit) const {
    for (int i = 0; i < n; ++i) {  // sorted fastest first
      if (perf[i].status != CUDNN_STATUS_SUCCESS || perf[i].memory > limit) continue;
      if (!tf32_ && perf[i].mathType != CUDNN_FMA_MATH && perf[i].mathType != CUDNN_DEFAULT_MATH) {
        continue;
      }
      // Without TF32 the pass runs under FMA math whatever cuDNN reported (on an H100 its
      // default math may use TF32).
      return Choice{int(perf[i].algo), perf[i].memory, tf32_ ? perf[i].mathType : CUDNN_FMA_MATH};
    }
    return errors::Internal("cuDNN found no usable algorithm among ", n, " for ",
                            node().type_string(), " (", tf32_ ? "TF32 allowed" : "FMA math", ")");
  }

  bool tf32_;
  std::mutex mu_;
  absl::flat_hash_map<Key, Choice> cache_;
};

RILL_REGISTER_KERNEL("Conv2D", DEVICE_GPU, "T", DT_FLOAT, ConvGpu<0>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Conv2DBackpropInput", DEVICE_GPU, "T", DT_FLOAT, {0}, ConvGpu<1>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Conv2DBackpropFilter", DEVICE_GPU, "T", DT_FLOAT, {1},
                                 ConvGpu<2>);

}  // namespace
}  // namespace rill::gpu
