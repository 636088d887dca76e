// The ops _UnaryOpsComposition composes (core/unary_composition.h).
#include "rill/core/unary_composition.h"

#include <algorithm>

#include "absl/strings/str_join.h"
#include "rill/core/status.h"

namespace rill {

const std::vector<std::string>& ComposableUnaryOps() {
  static const auto* names = new std::vector<std::string>{
      "Abs",  "Acos",       "Acosh",    "Asin",     "Asinh",  "Atan",    "Atanh", "Ceil",
      "Cos",  "Cosh",       "Expm1",    "Exp",      "Floor",  "Inv",     "Log",   "Log1p",
      "Neg",  "Reciprocal", "Rint",     "Round",    "Rsqrt",  "Sigmoid", "Sin",   "Sinh",
      "Sqrt", "Square",     "Tan",      "Tanh",     "Elu",    "Relu",    "Relu6", "Selu",
      "Erf",  "Erfc",       "Softplus", "Softsign", "Lgamma", "Digamma", "Sign"};
  return *names;
}

absl::Status CheckComposableUnaryOps(const std::vector<std::string>& names) {
  const std::vector<std::string>& known = ComposableUnaryOps();
  for (size_t i = 0; i < names.size(); ++i) {
    if (std::find(known.begin(), known.end(), names[i]) == known.end()) {
      return errors::InvalidArgument("op_names[", i, "] = '", names[i],
                                     "' is not a unary op _UnaryOpsComposition can compose; it "
                                     "composes ",
                                     absl::StrJoin(known, ", "));
    }
  }
  return absl::OkStatus();
}

}  // namespace rill
