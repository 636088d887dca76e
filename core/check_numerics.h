// CheckNumerics: which non-finite values a tensor holds, one element at a time on either
// device (a flag per kind, OR-ed over the tensor), and the error the op reports.
#pragma once

#include <cmath>
#include <string>

#include "absl/status/status.h"
#include "rill/core/host_device.h"

namespace rill {

inline constexpr int kHasNan = 1;
inline constexpr int kHasInf = 2;

template <typename T>
RILL_HOST_DEVICE inline int NumericFlags(T x) {
  using std::isinf;
  using std::isnan;
  if (isnan(x)) return kHasNan;
  return isinf(x) ? kHasInf : 0;
}

// OK for flags 0; otherwise InvalidArgument "<message> : Tensor had NaN values" (Inf, or
// Inf and NaN), TensorFlow's wording.
absl::Status NumericsStatus(int flags, const std::string& message);

}  // namespace rill
