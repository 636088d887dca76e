#include "rill/core/scale_translate.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rill/core/status.h"

namespace rill {
namespace {

constexpr float kPi = 3.14159265359f;

float Lanczos(float radius, float x) {
  if (x > radius) return 0;
  if (x <= 1e-3f) return 1;  // the limit at 0
  return radius * std::sin(kPi * x) * std::sin(kPi * x / radius) / (kPi * kPi * x * x);
}

// The kernel at distance x >= 0, and its radius (beyond it the kernel is 0).
float KernelAt(SamplingKernel k, float x) {
  switch (k) {
    case SamplingKernel::kLanczos1:
      return Lanczos(1, x);
    case SamplingKernel::kLanczos3:
      return Lanczos(3, x);
    case SamplingKernel::kLanczos5:
      return Lanczos(5, x);
    case SamplingKernel::kGaussian:  // sigma 1/2, cut at 3 sigma
      return x >= 1.5f ? 0 : std::exp(-x * x / (2 * 0.25f));
    case SamplingKernel::kBox:
      return x < 0.5f ? 1 : x == 0.5f ? 0.5f : 0;
    case SamplingKernel::kTriangle:
      return x < 1 ? 1 - x : 0;
    case SamplingKernel::kKeysCubic:  // Keys' cubic convolution, a = -0.5
      if (x >= 2) return 0;
      if (x >= 1) return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
      return (1.5f * x - 2.5f) * x * x + 1.0f;
    case SamplingKernel::kMitchellCubic:  // Mitchell-Netravali, B = C = 1/3
      if (x >= 2) return 0;
      if (x >= 1) return ((-7.0f / 18.0f * x + 2.0f) * x - 10.0f / 3.0f) * x + 16.0f / 9.0f;
      return (7.0f / 6.0f * x - 2.0f) * x * x + 8.0f / 9.0f;
  }
  return 0;
}

float RadiusOf(SamplingKernel k) {
  switch (k) {
    case SamplingKernel::kLanczos1:
    case SamplingKernel::kBox:
    case SamplingKernel::kTriangle:
      return 1;
    case SamplingKernel::kLanczos3:
      return 3;
    case SamplingKernel::kLanczos5:
      return 5;
    case SamplingKernel::kGaussian:
      return 1.5f;
    case SamplingKernel::kKeysCubic:
    case SamplingKernel::kMitchellCubic:
      return 2;
  }
  return 1;
}

// A float position as a pixel index in [lo, hi]: clamped before the cast, so a span of
// 1e30 pixels (a tiny scale) never converts out of range.
int64_t ClampedIndex(float v, int64_t lo, int64_t hi) {
  return static_cast<int64_t>(
      std::min(std::max(v, static_cast<float>(lo)), static_cast<float>(hi)));
}

}  // namespace

absl::StatusOr<SamplingKernel> SamplingKernelNamed(const std::string& name) {
  static const std::pair<const char*, SamplingKernel> kNames[] = {
      {"lanczos1", SamplingKernel::kLanczos1},
      {"lanczos3", SamplingKernel::kLanczos3},
      {"lanczos5", SamplingKernel::kLanczos5},
      {"gaussian", SamplingKernel::kGaussian},
      {"box", SamplingKernel::kBox},
      {"triangle", SamplingKernel::kTriangle},
      {"keyscubic", SamplingKernel::kKeysCubic},
      {"mitchellcubic", SamplingKernel::kMitchellCubic}};
  for (const auto& [n, k] : kNames) {
    if (name == n) return k;
  }
  return errors::InvalidArgument(
      "kernel_type must be lanczos1, lanczos3, lanczos5, gaussian, box, triangle, keyscubic or "
      "mitchellcubic, got '",
      name, "'");
}

absl::StatusOr<SampleSpans> ComputeSampleSpans(SamplingKernel kernel, int64_t in, int64_t out,
                                               float scale, float translation, bool antialias,
                                               int64_t max_weights) {
  const float inv_scale = 1.0f / scale;
  const float inv_translate = -inv_scale * translation;
  // Downsampling filters as well as interpolates: the kernel widens by 1 / scale.
  const float kernel_scale = antialias ? std::max(inv_scale, 1.0f) : 1.0f;
  const float one_over_kernel_scale = 1.0f / kernel_scale;
  const float reach = RadiusOf(kernel) * kernel_scale;
  SampleSpans s;
  s.span = static_cast<int64_t>(
      std::min(2 * std::ceil(static_cast<double>(reach)) + 1, static_cast<double>(in)));
  if (s.span > max_weights / out) {
    return errors::InvalidArgument("sampling ", out, " pixels from ", in, " at scale ", scale,
                                   " reads ", s.span, " pixels each: more than ", max_weights,
                                   " weights");
  }
  s.start.assign(out, 0);
  s.weight.assign(out * s.span, 0.0f);
  std::vector<float> w;
  for (int64_t o = 0; o < out; ++o) {
    const float at = (static_cast<float>(o) + 0.5f) * inv_scale + inv_translate;
    if (!(at >= 0 && at <= static_cast<float>(in))) continue;  // outside, or NaN: reads nothing
    const int64_t first = ClampedIndex(std::ceil(at - reach - 0.5f), 0, in - 1);
    const int64_t last = ClampedIndex(std::floor(at + reach - 0.5f), 0, in - 1);
    w.clear();
    float sum = 0;
    for (int64_t i = first; i <= last && static_cast<int64_t>(w.size()) < s.span; ++i) {
      const float distance = static_cast<float>(i) + 0.5f - at;
      w.push_back(KernelAt(kernel, std::abs(distance * one_over_kernel_scale)));
      sum += w.back();
    }
    s.start[o] = first;
    if (std::abs(sum) < 1000.0f * std::numeric_limits<float>::min()) continue;  // all ~0
    for (size_t k = 0; k < w.size(); ++k) s.weight[o * s.span + k] = w[k] * (1.0f / sum);
  }
  return s;
}

}  // namespace rill
