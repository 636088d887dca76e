// The raw libraries matmul_bench compares against, timed in the same process: oneDNN's
// sgemm on the CPU, cuBLAS on a GPU (when built with CUDA).
#pragma once

#include <memory>
#include <string>

#include "rill/rill.h"

namespace rill::bench {

class RawGemm {
 public:
  virtual ~RawGemm() = default;
  // Milliseconds for one n x n float32 product of a and b (host tensors), synchronised.
  virtual double TimeMs(const Tensor& a, const Tensor& b, int64_t n) = 0;
  virtual std::string Name() const = 0;
};

// For "cpu" or "gpu"; nullptr when there is no raw library for that device in this build.
std::unique_ptr<RawGemm> MakeRawGemm(const std::string& device_type, bool tf32);

}  // namespace rill::bench
