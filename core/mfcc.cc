#include "rill/core/mfcc.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "rill/core/attr_value.h"

namespace rill {
namespace {

double FreqToMel(double hz) { return 1127.0 * std::log1p(hz / 700.0); }

// The filterbank and the DCT for one spectrogram width and sample rate. Its tables are
// Tensors: sizes come from attrs, and one the host cannot hold is ResourceExhausted.
struct MelBank {
  int64_t channels = 0, start = 0, end = -1;  // bins start..end feed the triangles
  double mel_low = 0, spacing = 0;
  Tensor mapper, weights;  // per bin: the triangle whose falling edge it is on, and its weight
  Tensor cosines;          // [dct, channels]
  Tensor mel;              // one frame's triangles
  // TensorFlow's expression for centre i, so the bins fall on the same sides of it.
  double Center(int64_t i) const { return mel_low + spacing * static_cast<double>(i + 1); }
};

// Which bins feed the triangles, at sample_rate for a spectrogram of `bins` bins.
absl::Status BinRange(int64_t bins, int32_t sample_rate, const MfccParams& p, MelBank& b) {
  if (sample_rate <= 0) {
    return errors::InvalidArgument("sample_rate must be positive, got ", sample_rate);
  }
  if (bins < 2) {
    return errors::InvalidArgument("the spectrogram needs at least 2 bins (its last dim), got ",
                                   bins);
  }
  const double hz_per_bin = 0.5 * sample_rate / static_cast<double>(bins - 1);
  const double end = p.upper / hz_per_bin;
  // TensorFlow's filterbank reads past such a frame; refused here.
  if (end >= static_cast<double>(bins)) {
    return errors::InvalidArgument("upper_frequency_limit ", p.upper,
                                   " is above the spectrogram's highest frequency, ",
                                   0.5 * sample_rate, " Hz at sample rate ", sample_rate);
  }
  b.start = static_cast<int64_t>(1.5 + p.lower / hz_per_bin);  // the DC bin never
  b.end = static_cast<int64_t>(end);
  return absl::OkStatus();
}

absl::Status Triangles(int64_t bins, int32_t sample_rate, const MfccParams& p, MelBank& b) {
  const double hz_per_bin = 0.5 * sample_rate / static_cast<double>(bins - 1);
  b.channels = p.filterbank;
  b.mel_low = FreqToMel(p.lower);
  b.spacing = (FreqToMel(p.upper) - b.mel_low) / static_cast<double>(p.filterbank + 1);
  RILL_ASSIGN_OR_RETURN(b.mapper, Tensor::Create(DT_INT64, TensorShape({bins})));
  RILL_ASSIGN_OR_RETURN(b.weights, Tensor::Create(DT_DOUBLE, TensorShape({bins})));
  int64_t* mapper = b.mapper.base<int64_t>();
  double* weights = b.weights.base<double>();
  int64_t channel = 0;
  for (int64_t i = b.start; i <= b.end; ++i) {
    const double mel = FreqToMel(static_cast<double>(i) * hz_per_bin);
    while (channel < b.channels && b.Center(channel) < mel) ++channel;
    mapper[i] = channel - 1;  // -1: below the first centre
    const int64_t c = channel - 1;
    weights[i] = c >= 0 ? (b.Center(c + 1) - mel) / (b.Center(c + 1) - b.Center(c))
                        : (b.Center(0) - mel) / (b.Center(0) - b.mel_low);
  }
  return absl::OkStatus();
}

absl::Status Dct(const MfccParams& p, MelBank& b) {
  RILL_ASSIGN_OR_RETURN(b.cosines, Tensor::Create(DT_DOUBLE, TensorShape({p.dct, p.filterbank})));
  RILL_ASSIGN_OR_RETURN(b.mel, Tensor::Create(DT_DOUBLE, TensorShape({p.filterbank})));
  const double norm = std::sqrt(2.0 / static_cast<double>(p.filterbank));
  const double arg = std::numbers::pi / static_cast<double>(p.filterbank);
  double* cos = b.cosines.base<double>();
  for (int64_t i = 0; i < p.dct; ++i) {
    for (int64_t j = 0; j < p.filterbank; ++j) {
      cos[i * p.filterbank + j] =
          norm * std::cos(static_cast<double>(i) * arg * (static_cast<double>(j) + 0.5));
    }
  }
  return absl::OkStatus();
}

// One frame's `bins` squared magnitudes into its dct coefficients.
void MfccFrame(const float* spectrum, const MelBank& b, int64_t dct, float* out) {
  double* mel = b.mel.base<double>();
  std::fill_n(mel, b.channels, 0.0);
  const int64_t* mapper = b.mapper.base<int64_t>();
  const double* weights = b.weights.base<double>();
  for (int64_t i = b.start; i <= b.end; ++i) {
    const double magnitude = std::sqrt(static_cast<double>(spectrum[i]));
    const double falling = magnitude * weights[i];
    const int64_t c = mapper[i];
    if (c >= 0) mel[c] += falling;
    if (c + 1 < b.channels) mel[c + 1] += magnitude - falling;
  }
  for (int64_t j = 0; j < b.channels; ++j) mel[j] = std::log(std::max(mel[j], 1e-12));
  const double* cos = b.cosines.base<double>();
  for (int64_t i = 0; i < dct; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < b.channels; ++j) sum += cos[i * b.channels + j] * mel[j];
    out[i] = static_cast<float>(sum);
  }
}

}  // namespace

absl::StatusOr<MfccParams> MfccAttrs(const AttrMap& attrs) {
  MfccParams p;
  float upper = 0, lower = 0;
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "upper_frequency_limit", &upper));
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "lower_frequency_limit", &lower));
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "filterbank_channel_count", &p.filterbank));
  RILL_RETURN_IF_ERROR(GetNodeAttr(attrs, "dct_coefficient_count", &p.dct));
  p.upper = upper;
  p.lower = lower;
  if (!(std::isfinite(p.lower) && p.lower >= 0)) {
    return errors::InvalidArgument("lower_frequency_limit must be finite and >= 0, got ", lower);
  }
  if (!(std::isfinite(p.upper) && p.upper > p.lower)) {
    return errors::InvalidArgument("upper_frequency_limit (", upper,
                                   ") must be finite and above lower_frequency_limit (", lower,
                                   ")");
  }
  if (p.filterbank < 1 || p.filterbank > std::numeric_limits<int32_t>::max()) {
    return errors::InvalidArgument("filterbank_channel_count must be in [1, 2^31 - 1], got ",
                                   p.filterbank);
  }
  if (p.dct < 1 || p.dct > p.filterbank) {
    return errors::InvalidArgument("dct_coefficient_count must be in [1, filterbank_channel_count ",
                                   p.filterbank, "], got ", p.dct);
  }
  return p;
}

absl::Status MfccShape(InferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(const MfccParams p, MfccAttrs(c.attrs()));
  // rill: a scalar sample rate, as TensorFlow's kernel reads it (its shape function asks for
  // a vector, so its own test turns shape inference off).
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 1, "sample_rate"));
  const PartialTensorShape& s = c.input_shape(0);
  if (s.unknown_rank()) {
    c.set_output(0, PartialTensorShape({-1, -1, p.dct}));
    return absl::OkStatus();
  }
  if (s.dims() != 3) {
    return errors::InvalidArgument("spectrogram must be 3-D [channels, frames, bins], got ",
                                   s.DebugString());
  }
  c.set_output(0, PartialTensorShape({s.dim_size(0), s.dim_size(1), p.dct}));
  return absl::OkStatus();
}

absl::Status ComputeMfcc(OpKernelContext& ctx, const MfccParams& p) {
  const Tensor &spectrogram = ctx.input(0), &rate = ctx.input(1);
  if (spectrogram.dims() != 3) {
    return errors::InvalidArgument("spectrogram must be 3-D [channels, frames, bins], got ",
                                   spectrogram.shape().DebugString());
  }
  if (rate.dims() != 0) {
    return errors::InvalidArgument("sample_rate must be a scalar, got shape ",
                                   rate.shape().DebugString());
  }
  const int64_t bins = spectrogram.dim_size(2);
  const int64_t frames = spectrogram.dim_size(0) * spectrogram.dim_size(1);
  MelBank bank;
  RILL_RETURN_IF_ERROR(BinRange(bins, rate.base<int32_t>()[0], p, bank));
  RILL_ASSIGN_OR_RETURN(
      const TensorShape shape,
      TensorShape::Build({spectrogram.dim_size(0), spectrogram.dim_size(1), p.dct}));
  Tensor* out;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &out));
  if (frames == 0) return absl::OkStatus();  // the tables follow bins, which no frame holds
  RILL_RETURN_IF_ERROR(Triangles(bins, rate.base<int32_t>()[0], p, bank));
  RILL_RETURN_IF_ERROR(Dct(p, bank));
  for (int64_t f = 0; f < frames; ++f) {
    MfccFrame(spectrogram.base<float>() + f * bins, bank, p.dct, out->base<float>() + f * p.dct);
  }
  return absl::OkStatus();
}

}  // namespace rill
