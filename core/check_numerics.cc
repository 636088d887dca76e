#include "rill/core/check_numerics.h"

#include "rill/core/status.h"

namespace rill {

absl::Status NumericsStatus(int flags, const std::string& message) {
  if (flags == 0) return absl::OkStatus();
  const char* what = flags == (kHasNan | kHasInf) ? "Inf and NaN"
                     : flags == kHasNan           ? "NaN"
                                                  : "Inf";
  return errors::InvalidArgument(message, " : Tensor had ", what, " values");
}

}  // namespace rill
