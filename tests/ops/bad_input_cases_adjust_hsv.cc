// Valid recipes and op-specific bad inputs of AdjustHue and AdjustSaturation (images of
// rank 2 or with 4 channels, an amount that is not a scalar or not float, integer images).
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_adjust_hsv {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

const bool kRegistered = [] {
  for (const char* op : {"AdjustHue", "AdjustSaturation"}) {
    const std::string amount = std::string(op) == "AdjustHue" ? "delta" : "scale";
    AddRecipe({op, {F({1, 2, 2, 3}), F({}, {0.25f})}});
    Both("2-D images", {op, {F({4, 3}), F({}, {0.25f})}}, {"at least 3-D", "[4,3]"});
    Both("4 channels", {op, {F({2, 2, 4}), F({}, {0.25f})}}, {"3 channels", "4"});
    Both("a vector amount", {op, {F({2, 2, 3}), F({1}, {0.25f})}}, {amount, "[1]"});
    AddCase("int32 images", {op, {I({2, 2, 3}), F({}, {0.25f})}}, kConstruction, kInvalid,
            {"int32"});
    AddCase("a double amount", {op, {F({2, 2, 3}), Tensor(0.25)}}, kConstruction, kInvalid,
            {"double"});
  }
  return true;
}();

}  // namespace bad_input_cases_adjust_hsv
}  // namespace
}  // namespace rill::testing
