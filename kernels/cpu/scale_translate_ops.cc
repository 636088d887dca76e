// CPU kernels of ScaleAndTranslate and its gradient (CPU only, as TensorFlow's). Separable,
// in two passes over float64 sums: the columns into [batch, height, out_width, channels],
// then the rows; the gradient scatters back through the rows, then the columns. Each pass
// costs its span per element, where one gather over both axes would cost its square.
#include <algorithm>
#include <cstring>

#include "rill/core/kernel_util.h"
#include "rill/core/scale_translate.h"

namespace rill::cpu {
namespace {

// Tables past this many weights are refused: only a tiny scale with antialias (every
// output pixel reading the whole input) comes near it.
constexpr int64_t kMaxWeights = int64_t{1} << 24;

absl::StatusOr<std::pair<float, float>> Pair(const Tensor& t, const char* what) {
  if (t.dims() != 1 || t.NumElements() != 2) {
    return errors::InvalidArgument(what, " must hold 2 values [y, x], got shape ",
                                   t.shape().DebugString());
  }
  return std::make_pair(t.base<float>()[0], t.base<float>()[1]);
}

absl::Status CheckImage(const Tensor& t, const char* what) {
  if (t.dims() != 4) {
    return errors::InvalidArgument(what, " must be 4-D [batch, height, width, channels], got ",
                                   t.shape().DebugString());
  }
  if (t.dim_size(1) < 1 || t.dim_size(2) < 1) {
    return errors::InvalidArgument(what, " must have a height and width of at least 1, got ",
                                   t.shape().DebugString());
  }
  return absl::OkStatus();
}

// The spans of both axes for an image of in_h x in_w sampled to out_h x out_w by the
// node's kernel, at the scale and translation of inputs 2 and 3.
struct Sampling {
  SampleSpans rows, cols;
};
absl::StatusOr<Sampling> SpansOf(const OpKernelContext& ctx, int64_t in_h, int64_t in_w,
                                 int64_t out_h, int64_t out_w) {
  RILL_ASSIGN_OR_RETURN(auto scale, Pair(ctx.input(2), "scale"));
  RILL_ASSIGN_OR_RETURN(auto translation, Pair(ctx.input(3), "translation"));
  if (!(scale.first > 0 && scale.second > 0)) {
    return errors::InvalidArgument("scale must be greater than 0, got [", scale.first, ",",
                                   scale.second, "]");
  }
  RILL_ASSIGN_OR_RETURN(SamplingKernel k,
                        SamplingKernelNamed(ctx.node().attr<std::string>("kernel_type")));
  const bool antialias = ctx.node().attr<bool>("antialias");
  Sampling s;
  RILL_ASSIGN_OR_RETURN(s.rows, ComputeSampleSpans(k, in_h, out_h, scale.first, translation.first,
                                                   antialias, kMaxWeights));
  RILL_ASSIGN_OR_RETURN(s.cols, ComputeSampleSpans(k, in_w, out_w, scale.second, translation.second,
                                                   antialias, kMaxWeights));
  return s;
}

// The taps of output o that lie inside an axis of n pixels (padding taps have weight 0 and
// may lie past it).
int64_t TapsOf(const SampleSpans& s, int64_t o, int64_t n) {
  return std::min(s.span, n - s.start[o]);
}

absl::StatusOr<Tensor> Zeros(const TensorShape& shape) {
  RILL_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(DT_DOUBLE, shape, nullptr));
  std::memset(t.data(), 0, t.TotalBytes());
  return t;
}

template <typename T>
class ScaleAndTranslateOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& x = ctx.input(0);
    RILL_RETURN_IF_ERROR(CheckImage(x, "images"));
    const Tensor& size = ctx.input(1);
    if (size.dims() != 1 || size.NumElements() != 2) {
      return errors::InvalidArgument("size must be a 2-element vector [height, width], got shape ",
                                     size.shape().DebugString());
    }
    const int64_t B = x.dim_size(0), H = x.dim_size(1), W = x.dim_size(2), C = x.dim_size(3);
    const int64_t OH = size.base<int32_t>()[0], OW = size.base<int32_t>()[1];
    if (OH < 1 || OW < 1) {
      return errors::InvalidArgument("size must be positive, got [", OH, ",", OW, "]");
    }
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, TensorShape({B, OH, OW, C}), &out));
    if (out->NumElements() == 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(const Sampling s, SpansOf(ctx, H, W, OH, OW));
    RILL_ASSIGN_OR_RETURN(Tensor tmp, Zeros(TensorShape({B, H, OW, C})));
    const T* xv = x.base<T>();
    double* t = tmp.base<double>();
    for (int64_t bi = 0; bi < B * H; ++bi)  // columns: (b, i) one input row at a time
      for (int64_t o = 0; o < OW; ++o)
        for (int64_t k = 0; k < TapsOf(s.cols, o, W); ++k) {
          const double w = s.cols.weight[o * s.cols.span + k];
          const T* src = xv + (bi * W + s.cols.start[o] + k) * C;
          double* dst = t + (bi * OW + o) * C;
          for (int64_t c = 0; c < C; ++c) dst[c] += w * static_cast<double>(src[c]);
        }
    RILL_ASSIGN_OR_RETURN(Tensor row, Zeros(TensorShape({OW * C})));
    double* acc = row.base<double>();
    float* y = out->base<float>();
    for (int64_t b = 0; b < B; ++b)  // rows, one output row at a time
      for (int64_t o = 0; o < OH; ++o) {
        float* dst = y + (b * OH + o) * OW * C;
        std::fill(acc, acc + OW * C, 0.0);
        for (int64_t k = 0; k < TapsOf(s.rows, o, H); ++k) {
          const double w = s.rows.weight[o * s.rows.span + k];
          const double* src = t + (b * H + s.rows.start[o] + k) * OW * C;
          for (int64_t e = 0; e < OW * C; ++e) acc[e] += w * src[e];
        }
        for (int64_t e = 0; e < OW * C; ++e) dst[e] = static_cast<float>(acc[e]);
      }
    return absl::OkStatus();
  }
};

template <typename T>
class ScaleAndTranslateGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& dy = ctx.input(0);
    const Tensor& image = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckImage(image, "original_image"));
    RILL_RETURN_IF_ERROR(CheckImage(dy, "grads"));
    if (image.dim_size(0) != dy.dim_size(0) || image.dim_size(3) != dy.dim_size(3)) {
      return errors::InvalidArgument("grads ", dy.shape().DebugString(), " and original_image ",
                                     image.shape().DebugString(),
                                     " must have the same batch and channels");
    }
    const int64_t B = image.dim_size(0), H = image.dim_size(1), W = image.dim_size(2);
    const int64_t C = image.dim_size(3), OH = dy.dim_size(1), OW = dy.dim_size(2);
    Tensor* out;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(0, image.shape(), &out));
    if (out->NumElements() == 0) return absl::OkStatus();
    RILL_ASSIGN_OR_RETURN(const Sampling s, SpansOf(ctx, H, W, OH, OW));
    RILL_ASSIGN_OR_RETURN(Tensor rows, Zeros(TensorShape({B, H, OW, C})));
    RILL_ASSIGN_OR_RETURN(Tensor cols, Zeros(image.shape()));
    const float* g = dy.base<float>();
    double* r = rows.base<double>();
    for (int64_t b = 0; b < B; ++b)  // through the rows: [B, OH, OW, C] onto [B, H, OW, C]
      for (int64_t o = 0; o < OH; ++o)
        for (int64_t k = 0; k < TapsOf(s.rows, o, H); ++k) {
          const double w = s.rows.weight[o * s.rows.span + k];
          const float* src = g + (b * OH + o) * OW * C;
          double* dst = r + (b * H + s.rows.start[o] + k) * OW * C;
          for (int64_t e = 0; e < OW * C; ++e) dst[e] += w * static_cast<double>(src[e]);
        }
    double* d = cols.base<double>();
    for (int64_t bi = 0; bi < B * H; ++bi)  // through the columns onto [B, H, W, C]
      for (int64_t o = 0; o < OW; ++o)
        for (int64_t k = 0; k < TapsOf(s.cols, o, W); ++k) {
          const double w = s.cols.weight[o * s.cols.span + k];
          const double* src = r + (bi * OW + o) * C;
          double* dst = d + (bi * W + s.cols.start[o] + k) * C;
          for (int64_t c = 0; c < C; ++c) dst[c] += w * src[c];
        }
    T* dx = out->base<T>();
    for (int64_t i = 0, n = out->NumElements(); i < n; ++i) dx[i] = static_cast<T>(d[i]);
    return absl::OkStatus();
  }
};

#define RILL_REG_SCALE_TRANSLATE(T, unused)                                            \
  RILL_REGISTER_KERNEL("ScaleAndTranslate", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ScaleAndTranslateOp<T>);
RILL_FOR_NUMBER_TYPES(RILL_REG_SCALE_TRANSLATE, 0)
#define RILL_REG_SCALE_TRANSLATE_GRAD(T, unused)                                           \
  RILL_REGISTER_KERNEL("ScaleAndTranslateGrad", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       ScaleAndTranslateGradOp<T>);
RILL_FOR_FLOAT_TYPES(RILL_REG_SCALE_TRANSLATE_GRAD, 0)

}  // namespace
}  // namespace rill::cpu
