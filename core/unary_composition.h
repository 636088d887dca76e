// _UnaryOpsComposition (the op TensorFlow's remapper makes of a chain of unary ops on one
// tensor): the ops its op_names may list, shared by its shape function and its kernel.
// They are TensorFlow's list (Abs ... Selu, with Inv, the old name of Reciprocal) and the
// other float unary ops rill has (Erf, Erfc, Softplus, Softsign, Lgamma, Digamma, Sign).
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace rill {

const std::vector<std::string>& ComposableUnaryOps();

// InvalidArgument naming the first name that is not composable (an empty list is fine:
// the op is then the identity, as TensorFlow's).
absl::Status CheckComposableUnaryOps(const std::vector<std::string>& names);

}  // namespace rill
