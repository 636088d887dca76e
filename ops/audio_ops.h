// TensorFlow's audio feature ops (tensorflow/cc/ops/audio_ops.h): AudioSpectrogram and
// Mfcc, the speech front end of tf.raw_ops (core/spectrogram.h, core/mfcc.h). CPU kernels
// only (on a GPU placement they run on the CPU). Not differentiable, as in TensorFlow.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

struct AudioSpectrogramAttrs {
  AudioSpectrogramAttrs MagnitudeSquared(bool x) const {
    AudioSpectrogramAttrs r = *this;
    r.magnitude_squared_ = x;
    return r;
  }
  bool magnitude_squared_ = false;
};
// input [samples, channels] float (values in [-1, 1] by convention) into spectrogram
// [channels, 1 + (samples - window_size) / stride, 1 + fft / 2]: the magnitude (or its
// square) of each frequency bin of each Hann-windowed frame, fft the least power of two
// >= window_size. window_size > 1, stride > 0.
class AudioSpectrogram : public OpWrapper {
 public:
  using Attrs = AudioSpectrogramAttrs;
  AudioSpectrogram(const Scope& scope, Input input, int64_t window_size, int64_t stride,
                   const Attrs& attrs = Attrs());
  static Attrs MagnitudeSquared(bool x) { return Attrs().MagnitudeSquared(x); }
  Output spectrogram;
};

struct MfccAttrs {
  MfccAttrs UpperFrequencyLimit(float x) const {
    MfccAttrs r = *this;
    r.upper_frequency_limit_ = x;
    return r;
  }
  MfccAttrs LowerFrequencyLimit(float x) const {
    MfccAttrs r = *this;
    r.lower_frequency_limit_ = x;
    return r;
  }
  MfccAttrs FilterbankChannelCount(int64_t x) const {
    MfccAttrs r = *this;
    r.filterbank_channel_count_ = x;
    return r;
  }
  MfccAttrs DctCoefficientCount(int64_t x) const {
    MfccAttrs r = *this;
    r.dct_coefficient_count_ = x;
    return r;
  }
  float upper_frequency_limit_ = 4000;
  float lower_frequency_limit_ = 20;
  int64_t filterbank_channel_count_ = 40;
  int64_t dct_coefficient_count_ = 13;
};
// spectrogram [channels, frames, bins] (AudioSpectrogram's with MagnitudeSquared(true))
// and sample_rate (a scalar int32) into output [channels, frames, dct_coefficient_count]:
// mel-frequency cepstral coefficients, TensorFlow's filterbank and DCT (core/mfcc.h).
class Mfcc : public OpWrapper {
 public:
  using Attrs = MfccAttrs;
  Mfcc(const Scope& scope, Input spectrogram, Input sample_rate, const Attrs& attrs = Attrs());
  static Attrs UpperFrequencyLimit(float x) { return Attrs().UpperFrequencyLimit(x); }
  static Attrs LowerFrequencyLimit(float x) { return Attrs().LowerFrequencyLimit(x); }
  static Attrs FilterbankChannelCount(int64_t x) { return Attrs().FilterbankChannelCount(x); }
  static Attrs DctCoefficientCount(int64_t x) { return Attrs().DctCoefficientCount(x); }
};

}  // namespace rill::ops
