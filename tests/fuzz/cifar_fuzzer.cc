// libFuzzer target: any bytes given to the CIFAR-10 batch parser give whole records with
// labels 0..9 and pixels in [0, 1], or a DataLoss Status.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rill/runtime/data/cifar.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto d = rill::data::ParseCifar10(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  if (!d.ok()) {
    if (d.status().code() != absl::StatusCode::kDataLoss) __builtin_trap();
    return 0;
  }
  const int64_t n = d->labels.NumElements();
  if (n * rill::data::kCifarRecordBytes != static_cast<int64_t>(size)) __builtin_trap();
  const int32_t* labels = d->labels.base<int32_t>();
  for (int64_t i = 0; i < n; ++i) {
    if (labels[i] < 0 || labels[i] > 9) __builtin_trap();
  }
  const float* px = d->images.base<float>();
  for (int64_t i = 0; i < d->images.NumElements(); ++i) {
    if (!(px[i] >= 0.f && px[i] <= 1.f)) __builtin_trap();
  }
  return 0;
}
