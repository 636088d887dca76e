#include "rill/core/spectrogram.h"

#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

#include "rill/core/attr_value.h"

namespace rill {
namespace {

using Complex = std::complex<double>;

// The window and the transform's scratch, in Tensors so that a size the host cannot hold
// is ResourceExhausted rather than an exception.
struct FftPlan {
  int64_t n = 0;
  Tensor hann, twiddle, work;  // [window], [n / 2] complex, [n] complex (as doubles)
  const double* window() const { return hann.base<double>(); }
  const Complex* w() const { return reinterpret_cast<const Complex*>(twiddle.base<double>()); }
  Complex* a() const { return reinterpret_cast<Complex*>(work.base<double>()); }
};

absl::StatusOr<FftPlan> MakePlan(int64_t window) {
  FftPlan p;
  p.n = SpectrogramFftLength(window);
  RILL_ASSIGN_OR_RETURN(p.hann, Tensor::Create(DT_DOUBLE, TensorShape({window})));
  RILL_ASSIGN_OR_RETURN(p.twiddle, Tensor::Create(DT_DOUBLE, TensorShape({p.n})));
  RILL_ASSIGN_OR_RETURN(p.work, Tensor::Create(DT_DOUBLE, TensorShape({2 * p.n})));
  const double pi = std::numbers::pi;
  // Periodic Hann: the window of length + 1 without its last point, as TensorFlow's.
  for (int64_t i = 0; i < window; ++i) {
    p.hann.base<double>()[i] = 0.5 - 0.5 * std::cos(2 * pi * static_cast<double>(i) / window);
  }
  Complex* w = reinterpret_cast<Complex*>(p.twiddle.base<double>());
  for (int64_t k = 0; k < p.n / 2; ++k) w[k] = std::polar(1.0, -2 * pi * k / p.n);
  return p;
}

// a = the discrete Fourier transform of a (length n, a power of two): radix 2, in place.
void Fft(Complex* a, int64_t n, const Complex* w) {
  for (int64_t i = 1, j = 0; i < n; ++i) {  // bit-reversed order
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (int64_t len = 2; len <= n; len <<= 1) {
    const int64_t half = len / 2, step = n / len;
    for (int64_t i = 0; i < n; i += len) {
      for (int64_t j = 0; j < half; ++j) {
        const Complex u = a[i + j], v = a[i + j + half] * w[j * step];
        a[i + j] = u + v;
        a[i + j + half] = u - v;
      }
    }
  }
}

// One frame of one channel: `in` its first sample, `step` apart; out its bins.
void SpectrogramFrame(const float* in, int64_t step, const SpectrogramParams& p,
                      const FftPlan& plan, float* out) {
  Complex* a = plan.a();
  for (int64_t j = 0; j < p.window; ++j) a[j] = in[j * step] * plan.window()[j];
  for (int64_t j = p.window; j < plan.n; ++j) a[j] = 0;
  Fft(a, plan.n, plan.w());
  for (int64_t k = 0; k <= plan.n / 2; ++k) {
    // The square in double, stored as float, then its root: TensorFlow's order.
    const float sq = static_cast<float>(std::norm(a[k]));
    out[k] = p.squared ? sq : std::sqrt(sq);
  }
}

absl::Status PositiveInt32(int64_t v, int64_t least, const char* what, const char* rule) {
  if (v < least) return errors::InvalidArgument(what, " must be ", rule, ", got ", v);
  if (v > std::numeric_limits<int32_t>::max()) {
    return errors::InvalidArgument(what, " must fit in int32, got ", v);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SpectrogramParams> SpectrogramAttrs(const AttrMap& attrs) {
  SpectrogramParams p;
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "window_size", &p.window));
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "stride", &p.stride));
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "magnitude_squared", &p.squared));
  RILL_RETURN_IF_ERROR(PositiveInt32(p.window, 2, "window size", "> 1 (window_size)"));
  RILL_RETURN_IF_ERROR(PositiveInt32(p.stride, 1, "stride", "strictly positive"));
  return p;
}

int64_t SpectrogramFftLength(int64_t window) {
  int64_t n = 1;
  while (n < window) n <<= 1;
  return n;
}

int64_t SpectrogramFrames(int64_t samples, const SpectrogramParams& p) {
  return samples < p.window ? 0 : 1 + (samples - p.window) / p.stride;
}

absl::Status SpectrogramShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(const SpectrogramParams p, SpectrogramAttrs(c.attrs()));
  const PartialTensorShape& in = c.input_shape(0);
  const int64_t bins = 1 + SpectrogramFftLength(p.window) / 2;
  if (in.unknown_rank()) {
    c.set_output(0, PartialTensorShape({-1, -1, bins}));
    return absl::OkStatus();
  }
  if (in.dims() != 2) {
    return errors::InvalidArgument("input must be 2-D [samples, channels], got ", in.DebugString());
  }
  const int64_t samples = in.dim_size(0);
  c.set_output(0, PartialTensorShape(
                      {in.dim_size(1), samples < 0 ? -1 : SpectrogramFrames(samples, p), bins}));
  return absl::OkStatus();
}

absl::Status ComputeSpectrogram(OpKernelContext& ctx, const SpectrogramParams& p) {
  const Tensor& in = ctx.input(0);
  if (in.dims() != 2) {
    return errors::InvalidArgument("input must be 2-D [samples, channels], got ",
                                   in.shape().DebugString());
  }
  const int64_t samples = in.dim_size(0), channels = in.dim_size(1);
  const int64_t frames = SpectrogramFrames(samples, p);
  const int64_t bins = 1 + SpectrogramFftLength(p.window) / 2;
  RILL_ASSIGN_OR_RETURN(const TensorShape shape, TensorShape::Build({channels, frames, bins}));
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
  // Frames need window samples of the input, so the scratch (8 doubles a window sample at
  // most) stays within a small multiple of the input.
  if (shape.num_elements() == 0) return absl::OkStatus();
  RILL_ASSIGN_OR_RETURN(const FftPlan plan, MakePlan(p.window));
  const float* x = in.base<float>();
  float* y = out->base<float>();
  for (int64_t ch = 0; ch < channels; ++ch) {
    for (int64_t f = 0; f < frames; ++f) {
      SpectrogramFrame(x + f * p.stride * channels + ch, channels, p, plan,
                       y + (ch * frames + f) * bins);
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
