// AudioSpectrogram and Mfcc by hand: a windowed cosine's three bins, frames against a
// direct DFT of each Hann-windowed, zero-padded frame (a window that is not a power of two),
// frame counts, channels apart; Mfcc's floor and DCT on silence, a power scaled, no frames,
// and the two together on a tone.
#include <cmath>
#include <complex>
#include <numbers>

#include "rill/ops/audio_ops.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace audio_test {

MarkTested tested({"AudioSpectrogram", "Mfcc"});

constexpr double kPi = std::numbers::pi;

BuildFn Spectrogram(int64_t window, int64_t stride, bool squared = false) {
  return [=](const Scope& s, const std::vector<Output>& in) {
    return ops::AudioSpectrogram(s, in[0], window, stride,
                                 ops::AudioSpectrogram::MagnitudeSquared(squared))
        .spectrogram;
  };
}

// What each frame's bins must be: Hann-windowed, zero-padded to fft, a DFT summed directly.
std::vector<double> DirectSpectrogram(const std::vector<double>& x, int64_t channels,
                                      int64_t window, int64_t stride, int64_t fft) {
  const int64_t samples = static_cast<int64_t>(x.size()) / channels;
  const int64_t frames = samples < window ? 0 : 1 + (samples - window) / stride;
  std::vector<double> out;
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t f = 0; f < frames; ++f) {
      for (int64_t k = 0; k <= fft / 2; ++k) {
        std::complex<double> sum = 0;
        for (int64_t j = 0; j < window; ++j) {
          const double hann = 0.5 - 0.5 * std::cos(2 * kPi * j / window);
          sum += x[(f * stride + j) * channels + c] * hann *
                 std::polar(1.0, -2 * kPi * static_cast<double>(k * j) / fft);
        }
        out.push_back(std::abs(sum));
      }
    }
  }
  return out;
}

// cos(2 pi 3 n / 16) under a 16-point periodic Hann window: half its amplitude times 16 / 2
// at bin 3, a quarter at bins 2 and 4, nothing elsewhere. Stride 8 over 32 samples: 3 frames.
TEST(AudioSpectrogram, AWindowedCosineFillsThreeBins) {
  std::vector<double> x(32);
  for (int n = 0; n < 32; ++n) x[n] = std::cos(2 * kPi * 3 * n / 16);
  auto y = RunOp(Spectrogram(16, 8), {FromDoubles(DT_FLOAT, {32, 1}, x)});
  ASSERT_TRUE(y.ok()) << y.status();
  std::vector<double> frame = {0, 0, 2, 4, 2, 0, 0, 0, 0};
  std::vector<double> want;
  for (int f = 0; f < 3; ++f) want.insert(want.end(), frame.begin(), frame.end());
  ExpectTensorNear(*y, DT_FLOAT, {1, 3, 9}, want, 1e-5);
  auto squared = RunOp(Spectrogram(16, 8, true), {FromDoubles(DT_FLOAT, {32, 1}, x)});
  ASSERT_TRUE(squared.ok()) << squared.status();
  for (double& v : want) v *= v;
  ExpectTensorNear(*squared, DT_FLOAT, {1, 3, 9}, want, 1e-4);
}

// A window of 6 (fft 8, 5 bins), stride 4 over 23 samples: frames at 0, 4, ..., 16 (the
// samples after the last whole window are dropped); two channels of their own.
TEST(AudioSpectrogram, MatchesADirectTransformPerChannel) {
  const Tensor x = RandomTensor(DT_FLOAT, {23, 2}, -1, 1, 7);
  std::vector<double> values(x.flat<float>().data(), x.flat<float>().data() + 46);
  auto y = RunOp(Spectrogram(6, 4), {x});
  ASSERT_TRUE(y.ok()) << y.status();
  ExpectTensorNear(*y, DT_FLOAT, {2, 5, 5}, DirectSpectrogram(values, 2, 6, 4, 8), 1e-5);
}

TEST(AudioSpectrogram, AudioShorterThanAWindowHasNoFrames) {
  auto y = RunOp(Spectrogram(64, 1), {RandomTensor(DT_FLOAT, {63, 3}, -1, 1, 1)});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), TensorShape({3, 0, 33}));
}

BuildFn MfccOf(int32_t rate, ops::Mfcc::Attrs attrs = {}) {
  return [=](const Scope& s, const std::vector<Output>& in) {
    return Output(ops::Mfcc(s, in[0], ops::Const(s, rate), attrs));
  };
}

// Silence: every triangle floors at 1e-12, so the DCT of a constant ln(1e-12) over C
// channels is sqrt(2 / C) * C * ln(1e-12) in coefficient 0 and nothing in the others.
TEST(Mfcc, SilenceIsTheFloorsConstant) {
  const Tensor zeros = FromDoubles(DT_FLOAT, {2, 3, 257}, std::vector<double>(2 * 3 * 257, 0));
  for (int64_t channels : {40, 20}) {
    SCOPED_TRACE(channels);
    auto attrs = ops::Mfcc::FilterbankChannelCount(channels).DctCoefficientCount(5);
    auto y = RunOp(MfccOf(16000, attrs), {zeros});
    ASSERT_TRUE(y.ok()) << y.status();
    std::vector<double> want;
    for (int f = 0; f < 6; ++f) {
      want.push_back(std::sqrt(2.0 / channels) * channels * std::log(1e-12));
      for (int k = 1; k < 5; ++k) want.push_back(0);
    }
    ExpectTensorNear(*y, DT_FLOAT, {2, 3, 5}, want, 1e-3);
  }
}

// A flat spectrum puts energy in every triangle, above the floor; four times the power is
// twice the magnitude, ln 2 more in every channel: coefficient 0 gains sqrt(2 / 40) * 40 *
// ln 2 and the others, the DCT of a constant, nothing.
TEST(Mfcc, FourTimesThePowerShiftsOnlyCoefficientZero) {
  auto ones =
      RunOp(MfccOf(16000), {FromDoubles(DT_FLOAT, {1, 1, 513}, std::vector<double>(513, 1))});
  auto fours =
      RunOp(MfccOf(16000), {FromDoubles(DT_FLOAT, {1, 1, 513}, std::vector<double>(513, 4))});
  ASSERT_TRUE(ones.ok() && fours.ok()) << ones.status() << fours.status();
  const float *a = ones->flat<float>().data(), *b = fours->flat<float>().data();
  EXPECT_NEAR(b[0] - a[0], std::sqrt(2.0 / 40) * 40 * std::log(2.0), 1e-4);
  for (int k = 1; k < 13; ++k) EXPECT_NEAR(b[k], a[k], 1e-4) << k;
}

// A 1 kHz tone through both ops: the shapes follow (7 frames of 512, stride 256), and the
// tone lifts coefficient 0 well above silence's -247.1.
TEST(Mfcc, ToneThroughTheSpectrogram) {
  std::vector<double> x(2048);
  for (int n = 0; n < 2048; ++n) x[n] = 0.5 * std::sin(2 * kPi * 1000 * n / 16000.0);
  auto y = RunOp(
      [](const Scope& s, const std::vector<Output>& in) {
        auto spec = ops::AudioSpectrogram(s, in[0], 512, 256,
                                          ops::AudioSpectrogram::MagnitudeSquared(true));
        return Output(ops::Mfcc(s, spec.spectrogram, ops::Const(s, 16000)));
      },
      {FromDoubles(DT_FLOAT, {2048, 1}, x)});
  ASSERT_TRUE(y.ok()) << y.status();
  ASSERT_EQ(y->shape(), TensorShape({1, 7, 13}));
  for (int f = 0; f < 7; ++f) EXPECT_GT(y->flat<float>()(f * 13), -237) << f;
}

TEST(Mfcc, NoFramesNeedNoFilterbank) {
  auto y = RunOp(MfccOf(16000), {FromDoubles(DT_FLOAT, {2, 0, 513}, {})});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), TensorShape({2, 0, 13}));
}

}  // namespace audio_test
}  // namespace
}  // namespace rill::testing
