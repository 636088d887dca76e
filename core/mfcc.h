// Mfcc (tf.raw_ops.Mfcc): mel-frequency cepstral coefficients of each frame of a
// spectrogram [channels, frames, bins] (AudioSpectrogram's squared magnitudes) at a sample
// rate (a scalar int32). Per frame, as TensorFlow's: the square root of each bin from the
// first above lower_frequency_limit (the DC bin never) to the last at or below
// upper_frequency_limit, summed into filterbank_channel_count triangles evenly spaced on
// the mel scale (1127 ln(1 + f / 700)), each triangle's edges at its neighbours' centres;
// then ln(max(x, 1e-12)); then a DCT-II scaled by sqrt(2 / channels), its first
// dct_coefficient_count coefficients out [channels, frames, dct_coefficient_count]. In
// double, stored as float. Shared by the kernel and the shape function.
#pragma once

#include <cstdint>

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

struct MfccParams {
  double upper = 4000, lower = 20;
  int64_t filterbank = 40, dct = 13;
};

// 0 <= lower < upper, both finite; 1 <= dct_coefficient_count <= filterbank_channel_count
// <= 2^31 - 1.
absl::StatusOr<MfccParams> MfccAttrs(const AttrMap& attrs);
// spectrogram 3-D, sample_rate a scalar; output [spectrogram dims 0 and 1, dct].
absl::Status MfccShape(InferenceContext& c);

// The kernel's work: the inputs checked, output 0 allocated and filled.
absl::Status ComputeMfcc(OpKernelContext& ctx, const MfccParams& p);

}  // namespace rill
