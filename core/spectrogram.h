// AudioSpectrogram (tf.raw_ops.AudioSpectrogram, TensorFlow's speech front end): each
// channel of [samples, channels] audio cut into windows of window_size samples, stride
// apart; each window times a periodic Hann window, zero-padded to the next power of two and
// Fourier-transformed; out [channels, frames, 1 + fft / 2] the magnitude of each bin (or its
// square). Frames = 1 + (samples - window_size) / stride, 0 when the audio is shorter than
// a window. Computed in double and stored as float, as TensorFlow's. Shared by the kernel
// and the shape function.
#pragma once

#include <cstdint>

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

struct SpectrogramParams {
  int64_t window = 0, stride = 0;
  bool squared = false;
};

// window_size > 1 and stride > 0, each within int32 as TensorFlow's attrs.
absl::StatusOr<SpectrogramParams> SpectrogramAttrs(const AttrMap& attrs);
// input [samples, channels] float; output [channels, frames, bins].
absl::Status SpectrogramShape(InferenceContext& c);

// The FFT's length: the least power of two >= window (window <= 2^31 - 1).
int64_t SpectrogramFftLength(int64_t window);
// Frames of `samples` samples.
int64_t SpectrogramFrames(int64_t samples, const SpectrogramParams& p);

// The kernel's work: the input checked, output 0 allocated and filled.
absl::Status ComputeSpectrogram(OpKernelContext& ctx, const SpectrogramParams& p);

}  // namespace rill
