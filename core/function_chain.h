// Two functions as one (While's body and condition: one run an iteration instead of two).
#pragma once

#include "absl/status/statusor.h"
#include "rill/core/function.h"

namespace rill {

// One function that runs `first`, then `second` on first's return values: its args are
// first's, its rets first's then second's. `second`'s args must match first's rets in
// number and dtype; its nodes are renamed where first has the name.
absl::StatusOr<FunctionRef> ChainFunctions(const Function& first, const Function& second);

}  // namespace rill
