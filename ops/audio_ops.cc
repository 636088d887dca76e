// AudioSpectrogram and Mfcc (ops/audio_ops.h): schemas, shape functions (core/spectrogram.h,
// core/mfcc.h) and wrappers. Neither is differentiable, as in TensorFlow.
#include "rill/ops/audio_ops.h"

#include "rill/core/mfcc.h"
#include "rill/core/spectrogram.h"
#include "rill/ops/gradients.h"

namespace rill {

RILL_REGISTER_OP("AudioSpectrogram")
    .Input("input", DT_FLOAT)
    .Output("spectrogram", DT_FLOAT)
    .Attr("window_size", AttrKind::kInt)
    .Attr("stride", AttrKind::kInt)
    .Attr("magnitude_squared", AttrKind::kBool, false)
    .SetShapeFn(SpectrogramShape);

RILL_REGISTER_OP("Mfcc")
    .Input("spectrogram", DT_FLOAT)
    .Input("sample_rate", DT_INT32)
    .Output("output", DT_FLOAT)
    .Attr("upper_frequency_limit", AttrKind::kFloat, 4000.0f)
    .Attr("lower_frequency_limit", AttrKind::kFloat, 20.0f)
    .Attr("filterbank_channel_count", AttrKind::kInt, int64_t{40})
    .Attr("dct_coefficient_count", AttrKind::kInt, int64_t{13})
    .SetShapeFn(MfccShape);

namespace ops {

AudioSpectrogram::AudioSpectrogram(const Scope& scope, Input input, int64_t window_size,
                                   int64_t stride, const Attrs& attrs) {
  internal::NodeBuilder(scope, "AudioSpectrogram")
      .Input(input)
      .Attr("window_size", window_size)
      .Attr("stride", stride)
      .Attr("magnitude_squared", attrs.magnitude_squared_)
      .Finalize(this);
  spectrogram = output;
}

Mfcc::Mfcc(const Scope& scope, Input spectrogram, Input sample_rate, const Attrs& attrs) {
  internal::NodeBuilder(scope, "Mfcc")
      .Input(spectrogram)
      .Input(sample_rate)
      .Attr("upper_frequency_limit", attrs.upper_frequency_limit_)
      .Attr("lower_frequency_limit", attrs.lower_frequency_limit_)
      .Attr("filterbank_channel_count", attrs.filterbank_channel_count_)
      .Attr("dct_coefficient_count", attrs.dct_coefficient_count_)
      .Finalize(this);
}

RILL_REGISTER_NO_GRADIENT("AudioSpectrogram");
RILL_REGISTER_NO_GRADIENT("Mfcc");

}  // namespace ops
}  // namespace rill
