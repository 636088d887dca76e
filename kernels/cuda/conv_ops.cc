// GPU kernels of Conv2D and its two gradients through cuDNN, float32 over NHWC tensors.
// The algorithm of each pass is chosen once per shape by timing cuDNN's candidates
// (cudnnFind*AlgorithmEx) and cached in the kernel. Filters are HWIO (TensorFlow's
// layout) and cuDNN's NHWC filters are KRSC, so a filter is transposed on the way in and
// a filter gradient on the way out. Where cuDNN has no usable NHWC algorithm for a pass
// (FMA math rules out tensor-core kernels), that pass runs on NCHW copies made on
// the device instead, as TensorFlow's layout optimizer would. cuDNN pads symmetrically: a SAME
// padding with one more row or column after than before (odd totals) gets an explicitly padded copy
// of the input instead. TF32 only when the session allows it (FMA math otherwise).
#include <algorithm>
#include <array>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <string>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "rill/core/conv_kernel_util.h"
#include "rill/kernels/cuda/conv_launch.h"
#include "rill/kernels/cuda/copy_launch.h"
#include "rill/kernels/cuda/fused_epilogue_gpu.h"
#include "rill/kernels/cuda/gpu_context.h"
#include "rill/kernels/cuda/launch.h"

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
  bool nchw;  // cuDNN had no usable NHWC algorithm: the pass runs on NCHW copies
};
using Key = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                       int64_t, int64_t, int64_t, int64_t, int64_t>;

// Find*AlgorithmEx may use this much scratch while it times the candidates.
constexpr size_t kFindWorkspaceBytes = size_t{64} << 20;

// dst = src [d0, d1, d2, d3] with its dimensions permuted: dst dim i is src dim perm[i].
absl::Status Permute4(const float* src, float* dst, const std::array<int64_t, 4>& dims,
                      const std::array<int, 4>& perm, cudaStream_t stream) {
  RILL_CUDA_CHECK(LaunchCopy(PermutationCopy(dims, perm), sizeof(float), src, dst, stream));
  return absl::OkStatus();
}

constexpr std::array<int, 4> kNhwcToNchw = {0, 3, 1, 2}, kNchwToNhwc = {0, 2, 3, 1};
constexpr std::array<int, 4> kHwioToKcrs = {3, 2, 0, 1}, kKcrsToHwio = {2, 3, 1, 0};

const char* StatusName(cudnnStatus_t st) { return cudnnGetErrorString(st); }

// FFT and Winograd algorithms trade float32 digits for speed (about 1% off on the MNIST
// CNN's second layer under an FFT forward pass): without TF32 they are not taken, so a
// convolution keeps full float32 as MatMul does.
bool ReducedPrecision(cudnnConvolutionFwdAlgo_t a) {
  return a == CUDNN_CONVOLUTION_FWD_ALGO_FFT || a == CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING ||
         a == CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD ||
         a == CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED;
}
bool ReducedPrecision(cudnnConvolutionBwdDataAlgo_t a) {
  return a == CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT ||
         a == CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING ||
         a == CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD ||
         a == CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED;
}
bool ReducedPrecision(cudnnConvolutionBwdFilterAlgo_t a) {
  return a == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT ||
         a == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING ||
         a == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED;
}

// kMode 0: Conv2D(input, filter); 1: BackpropInput(sizes, filter, dy);
// 2: BackpropFilter(input, sizes, dy). kFused (kMode 0): _FusedConv2D(input, filter, args),
// the convolution then its bias and activation in place (fused_epilogue_gpu.h).
template <int kMode, bool kFused = false>
class ConvGpu : public OpKernel {
 public:
  explicit ConvGpu(OpKernelConstruction& c) : OpKernel(c), tf32_(c.options().allow_tf32) {
    if constexpr (kFused) fused_ = ParseFusedConv2DEpilogue(c.node().attrs());
  }
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) override {
    Tensor* out;
    RILL_ASSIGN_OR_RETURN(Conv2DGeometry g, PrepareConv2D(ctx, static_cast<ConvMode>(kMode), &out));
    if constexpr (kFused) {
      RILL_RETURN_IF_ERROR(fused_.status());
      for (int i = 0; i < fused_->num_args(); ++i) {
        RILL_RETURN_IF_ERROR(CheckFusedBias(ctx, 2 + i, out->shape()));
      }
      RILL_RETURN_IF_ERROR(CheckFusedEpilogueGpu(*fused_));
    }
    RILL_RETURN_IF_ERROR(Convolve(ctx, g, out));
    if constexpr (kFused) {
      RILL_RETURN_IF_ERROR(FusedEpilogueGpu<float>(*fused_, out->base<float>(),
                                                   ctx.input(2).base<float>(), out->NumElements(),
                                                   g.out_c, ContextOf(ctx)->stream));
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Convolve(OpKernelContext& ctx, const Conv2DGeometry& g, Tensor* out) {
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
    const Key key{g.batch,
                  lay.h,
                  lay.w,
                  g.in_c,
                  g.out_c,
                  g.k_h,
                  g.k_w,
                  g.out_h,
                  g.out_w,
                  lay.pad_h,
                  lay.pad_w,
                  g.stride_h * 65536 + g.stride_w,
                  g.dilation_h * 65536 + g.dilation_w};
    std::lock_guard<std::mutex> handle_lock(*ContextOf(ctx)->library_mu);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(key);
    if (it != cache_.end()) return Run(ctx, g, lay, it->second.nchw, &it->second, out);
    // First time for this shape: NHWC (no copies), else NCHW, whichever cuDNN can do.
    // RILL_CUDNN_LAYOUT=NCHW takes the NCHW route at once (tests, comparisons).
    const char* layout = std::getenv("RILL_CUDNN_LAYOUT");
    const bool only_nchw = layout != nullptr && std::string(layout) == "NCHW";
    std::string why;
    for (bool nchw : {false, true}) {
      if (only_nchw && !nchw) continue;
      Choice found{};
      absl::Status st = Run(ctx, g, lay, nchw, nullptr, out, &found, &why);
      if (st.ok()) cache_.emplace(key, found);
      if (!absl::IsNotFound(st)) return st;
    }
    return errors::Internal("cuDNN has no usable algorithm for ", node().type_string(), " (",
                            tf32_ ? "TF32 allowed" : "FMA math", ") on input [", g.batch, ",",
                            g.in_h, ",", g.in_w, ",", g.in_c, "], filter [", g.k_h, ",", g.k_w, ",",
                            g.in_c, ",", g.out_c, "]:", why);
  }

  struct Descs {
    TensorDesc x, y;
    FilterDesc w;
    ConvDesc conv;
  };

  absl::Status MakeDescs(const Conv2DGeometry& g, const SymmetricPadLayout& lay, bool nchw,
                         Descs* d) const {
    const cudnnTensorFormat_t f = nchw ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC;
    // cuDNN's descriptors take int. A stride past int32 leaves one window per dim (the
    // output is 1 there), which the largest int stride describes as well; any other size
    // past int32 is refused rather than truncated.
    constexpr int64_t kMax = std::numeric_limits<int>::max();
    for (int64_t v : {g.batch, g.in_c, lay.h, lay.w, g.out_c, g.out_h, g.out_w, g.k_h, g.k_w,
                      lay.pad_h, lay.pad_w, g.dilation_h, g.dilation_w}) {
      if (v > kMax) {
        return errors::InvalidArgument("a convolution of ", v,
                                       " along one dim is beyond cuDNN's int sizes");
      }
    }
    const int stride_h = static_cast<int>(std::min(g.stride_h, kMax));
    const int stride_w = static_cast<int>(std::min(g.stride_w, kMax));
    RILL_CUDA_CHECK(cudnnCreateTensorDescriptor(&d->x.d));
    RILL_CUDA_CHECK(cudnnCreateTensorDescriptor(&d->y.d));
    RILL_CUDA_CHECK(cudnnCreateFilterDescriptor(&d->w.d));
    RILL_CUDA_CHECK(cudnnCreateConvolutionDescriptor(&d->conv.d));
    RILL_CUDA_CHECK(cudnnSetTensor4dDescriptor(d->x.d, f, CUDNN_DATA_FLOAT, int(g.batch),
                                               int(g.in_c), int(lay.h), int(lay.w)));
    RILL_CUDA_CHECK(cudnnSetTensor4dDescriptor(d->y.d, f, CUDNN_DATA_FLOAT, int(g.batch),
                                               int(g.out_c), int(g.out_h), int(g.out_w)));
    RILL_CUDA_CHECK(cudnnSetFilter4dDescriptor(d->w.d, CUDNN_DATA_FLOAT, f, int(g.out_c),
                                               int(g.in_c), int(g.k_h), int(g.k_w)));
    RILL_CUDA_CHECK(cudnnSetConvolution2dDescriptor(
        d->conv.d, int(lay.pad_h), int(lay.pad_w), stride_h, stride_w, int(g.dilation_h),
        int(g.dilation_w), CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    RILL_CUDA_CHECK(
        cudnnSetConvolutionMathType(d->conv.d, tf32_ ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH));
    return absl::OkStatus();
  }

  // Runs the pass with cuDNN's tensors in one layout. With `choice` null it first times
  // cuDNN's algorithms (into *found); NotFound (reasons appended to *why) when none is
  // usable in this layout, before anything is written.
  absl::Status Run(OpKernelContext& ctx, const Conv2DGeometry& g, const SymmetricPadLayout& lay,
                   bool nchw, const Choice* choice, Tensor* out, Choice* found = nullptr,
                   std::string* why = nullptr) {
    cudaStream_t stream = ContextOf(ctx)->stream;
    const int64_t K = g.k_h * g.k_w * g.in_c;
    const std::array<int64_t, 4> x_dims = {g.batch, lay.h, lay.w, g.in_c};
    const std::array<int64_t, 4> y_dims = {g.batch, g.out_h, g.out_w, g.out_c};
    const std::array<int64_t, 4> w_dims = {g.k_h, g.k_w, g.in_c, g.out_c};
    auto temp = [&](const std::array<int64_t, 4>& dims, const char* what) {
      return Temp(ctx, DT_FLOAT, TensorShape({dims[0], dims[1], dims[2], dims[3]}), what);
    };
    // The operands as cuDNN takes them.
    const float* x = nullptr;  // input (modes 0, 2)
    const float* w = nullptr;  // KRSC or KCRS filter (modes 0, 1)
    const float* dy = nullptr;
    Tensor x_padded, x_t, w_t, dy_t, result_t, nhwc_t;
    if constexpr (kMode != 1) {
      x = ctx.input(0).base<float>();
      if (lay.padded_copy) {
        RILL_ASSIGN_OR_RETURN(x_padded, temp(x_dims, "padded input"));
        RILL_CUDA_CHECK(LaunchPadOrCropNhwc<float>(true, x, x_padded.base<float>(), g.batch, g.in_h,
                                                   g.in_w, g.in_c, lay.h, lay.w, g.pad_top,
                                                   g.pad_left, stream));
        x = x_padded.base<float>();
      }
      if (nchw) {
        RILL_ASSIGN_OR_RETURN(x_t, temp(x_dims, "NCHW input"));
        RILL_RETURN_IF_ERROR(Permute4(x, x_t.base<float>(), x_dims, kNhwcToNchw, stream));
        x = x_t.base<float>();
      }
    }
    if constexpr (kMode != 2) {
      RILL_ASSIGN_OR_RETURN(w_t, temp(w_dims, "cuDNN filter"));
      if (nchw) {
        RILL_RETURN_IF_ERROR(
            Permute4(ctx.input(1).base<float>(), w_t.base<float>(), w_dims, kHwioToKcrs, stream));
      } else {
        RILL_CUDA_CHECK(LaunchTranspose2D<float>(ctx.input(1).base<float>(), w_t.base<float>(), K,
                                                 g.out_c, stream));
      }
      w = w_t.base<float>();
    }
    if constexpr (kMode != 0) {
      dy = ctx.input(2).base<float>();
      if (nchw) {
        RILL_ASSIGN_OR_RETURN(dy_t, temp(y_dims, "NCHW output gradient"));
        RILL_RETURN_IF_ERROR(Permute4(dy, dy_t.base<float>(), y_dims, kNhwcToNchw, stream));
        dy = dy_t.base<float>();
      }
    }
    // Where cuDNN writes: the output itself, or a temporary to crop / permute from.
    float* result = out->base<float>();
    const std::array<int64_t, 4>& result_dims = kMode == 0 ? y_dims : kMode == 1 ? x_dims : w_dims;
    if (kMode == 2 || nchw || (kMode == 1 && lay.padded_copy)) {
      RILL_ASSIGN_OR_RETURN(result_t, temp(result_dims, "cuDNN result"));
      result = result_t.base<float>();
    }

    Descs d;
    RILL_RETURN_IF_ERROR(MakeDescs(g, lay, nchw, &d));
    Choice c{};
    if (choice != nullptr) {
      c = *choice;
    } else {
      absl::StrAppend(why, nchw ? " NCHW" : " NHWC");
      RILL_ASSIGN_OR_RETURN(c, Find(ctx, d, x, w, dy, result, why));
      c.nchw = nchw;
      *found = c;
    }
    RILL_CUDA_CHECK(cudnnSetConvolutionMathType(d.conv.d, c.math));
    Tensor ws;
    if (c.workspace > 0) {
      RILL_ASSIGN_OR_RETURN(
          ws, Temp(ctx, DT_UINT8, TensorShape({int64_t(c.workspace)}), "cuDNN workspace"));
    }
    void* wsp = c.workspace > 0 ? ws.data() : nullptr;
    cudnnHandle_t h = ContextOf(ctx)->cudnn;
    const float one = 1.0f, zero = 0.0f;
    if constexpr (kMode == 0) {
      RILL_CUDA_CHECK(cudnnConvolutionForward(h, &one, d.x.d, x, d.w.d, w, d.conv.d,
                                              cudnnConvolutionFwdAlgo_t(c.algo), wsp, c.workspace,
                                              &zero, d.y.d, result));
      if (nchw) {
        const std::array<int64_t, 4> nchw_dims = {g.batch, g.out_c, g.out_h, g.out_w};
        RILL_RETURN_IF_ERROR(Permute4(result, out->base<float>(), nchw_dims, kNchwToNhwc, stream));
      }
    } else if constexpr (kMode == 1) {
      RILL_CUDA_CHECK(cudnnConvolutionBackwardData(h, &one, d.w.d, w, d.y.d, dy, d.conv.d,
                                                   cudnnConvolutionBwdDataAlgo_t(c.algo), wsp,
                                                   c.workspace, &zero, d.x.d, result));
      const float* nhwc = result;
      if (nchw) {  // back to NHWC: the output itself, or a padded temporary to crop
        float* to = out->base<float>();
        if (lay.padded_copy) {
          RILL_ASSIGN_OR_RETURN(nhwc_t, temp(x_dims, "padded input gradient"));
          to = nhwc_t.base<float>();
        }
        const std::array<int64_t, 4> nchw_dims = {g.batch, g.in_c, lay.h, lay.w};
        RILL_RETURN_IF_ERROR(Permute4(result, to, nchw_dims, kNchwToNhwc, stream));
        nhwc = to;
      }
      if (lay.padded_copy) {
        RILL_CUDA_CHECK(LaunchPadOrCropNhwc<float>(false, nhwc, out->base<float>(), g.batch, g.in_h,
                                                   g.in_w, g.in_c, lay.h, lay.w, g.pad_top,
                                                   g.pad_left, stream));
      }
    } else {
      RILL_CUDA_CHECK(cudnnConvolutionBackwardFilter(h, &one, d.x.d, x, d.y.d, dy, d.conv.d,
                                                     cudnnConvolutionBwdFilterAlgo_t(c.algo), wsp,
                                                     c.workspace, &zero, d.w.d, result));
      if (nchw) {
        const std::array<int64_t, 4> kcrs = {g.out_c, g.in_c, g.k_h, g.k_w};
        RILL_RETURN_IF_ERROR(Permute4(result, out->base<float>(), kcrs, kKcrsToHwio, stream));
      } else {
        RILL_CUDA_CHECK(LaunchTranspose2D<float>(result, out->base<float>(), g.out_c, K, stream));
      }
    }
    return absl::OkStatus();
  }

  // Times cuDNN's algorithms for this pass and shape (writing `result`, which the pass
  // overwrites right after) and keeps the fastest that succeeds with the allowed math.
  absl::StatusOr<Choice> Find(OpKernelContext& ctx, const Descs& d, const float* x, const float* w,
                              const float* dy, float* result, std::string* why) {
    Tensor scratch(ctx.device()->allocator(), DT_UINT8,
                   TensorShape({int64_t(kFindWorkspaceBytes)}));
    void* sp = scratch.IsInitialized() ? scratch.data() : nullptr;
    const size_t sbytes = scratch.IsInitialized() ? kFindWorkspaceBytes : 0;
    cudnnHandle_t h = ContextOf(ctx)->cudnn;
    constexpr int kMax = 16;
    int n = 0;
    if constexpr (kMode == 0) {
      cudnnConvolutionFwdAlgoPerf_t perf[kMax];
      RILL_CUDA_CHECK(cudnnFindConvolutionForwardAlgorithmEx(h, d.x.d, x, d.w.d, w, d.conv.d, d.y.d,
                                                             result, kMax, &n, perf, sp, sbytes));
      return Pick(perf, n, sbytes, why);
    } else if constexpr (kMode == 1) {
      cudnnConvolutionBwdDataAlgoPerf_t perf[kMax];
      RILL_CUDA_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(
          h, d.w.d, w, d.y.d, dy, d.conv.d, d.x.d, result, kMax, &n, perf, sp, sbytes));
      return Pick(perf, n, sbytes, why);
    } else {
      cudnnConvolutionBwdFilterAlgoPerf_t perf[kMax];
      RILL_CUDA_CHECK(cudnnFindConvolutionBackwardFilterAlgorithmEx(
          h, d.x.d, x, d.y.d, dy, d.conv.d, d.w.d, result, kMax, &n, perf, sp, sbytes));
      return Pick(perf, n, sbytes, why);
    }
  }

  // The fastest candidate that succeeded within the workspace limit with the allowed math
  // and precision (the minimum over all: cuDNN 9 does not always list them fastest first). With the
  // environment variable RILL_CUDNN_LOG set, every candidate and the choice go to stderr.
  template <typename Perf>
  absl::StatusOr<Choice> Pick(const Perf* perf, int n, size_t limit, std::string* why) const {
    std::string seen;
    int best = -1;
    for (int i = 0; i < n; ++i) {
      absl::StrAppend(&seen, " algo ", int(perf[i].algo), ": ");
      if (perf[i].status != CUDNN_STATUS_SUCCESS) {
        absl::StrAppend(&seen, StatusName(perf[i].status), ";");
        continue;
      }
      absl::StrAppend(&seen, perf[i].time, " ms, ", perf[i].memory, " bytes, math ",
                      int(perf[i].mathType), ";");
      if (perf[i].memory > limit) continue;
      if (!tf32_ &&
          ((perf[i].mathType != CUDNN_FMA_MATH && perf[i].mathType != CUDNN_DEFAULT_MATH) ||
           ReducedPrecision(perf[i].algo))) {
        continue;
      }
      if (best < 0 || perf[i].time < perf[best].time) best = i;
    }
    if (std::getenv("RILL_CUDNN_LOG") != nullptr) {
      std::fprintf(stderr, "rill cuDNN %s:%s -> %s\n", node().name().c_str(), seen.c_str(),
                   best < 0 ? "none" : absl::StrCat("algo ", int(perf[best].algo)).c_str());
    }
    if (best < 0) {
      absl::StrAppend(why, seen);
      return errors::NotFound("no usable algorithm");
    }
    // Without TF32 the pass runs under FMA math whatever cuDNN reported (on an H100 its
    // default math may use TF32).
    return Choice{int(perf[best].algo), perf[best].memory,
                  tf32_ ? perf[best].mathType : CUDNN_FMA_MATH, false};
  }

  bool tf32_;
  absl::StatusOr<FusedEpilogue> fused_ = FusedEpilogue();  // _FusedConv2D's end
  std::mutex mu_;
  absl::flat_hash_map<Key, Choice> cache_;
};

RILL_REGISTER_KERNEL("Conv2D", DEVICE_GPU, "T", DT_FLOAT, ConvGpu<0>);
RILL_REGISTER_KERNEL("_FusedConv2D", DEVICE_GPU, "T", DT_FLOAT, ConvGpu<0, true>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Conv2DBackpropInput", DEVICE_GPU, "T", DT_FLOAT, {0}, ConvGpu<1>);
RILL_REGISTER_KERNEL_HOST_INPUTS("Conv2DBackpropFilter", DEVICE_GPU, "T", DT_FLOAT, {1},
                                 ConvGpu<2>);

}  // namespace
}  // namespace rill::gpu
