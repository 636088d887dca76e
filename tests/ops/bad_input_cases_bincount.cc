// Valid recipes and op-specific bad inputs of Bincount and DenseBincount: a size that is
// negative or not a scalar, weights of another shape, DenseBincount's input of rank 0 or 3,
// and (when run) a negative value.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_bincount {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

const bool kRegistered = [] {
  for (const char* op : {"Bincount", "DenseBincount"}) {
    const Tensor in = I({2, 3}, {0, 1, 1, 2, 3, 9}), none = F({0});
    AddRecipe({op, {in, I({}, {4}), F({2, 3})}});
    Both("a negative size", {op, {in, I({}, {-1}), none}}, {"size (-1) must be non-negative"});
    Both("a size that is a vector", {op, {in, I({1}, {4}), none}}, {"size", "[1]"});
    Both("weights of another shape", {op, {in, I({}, {4}), F({3, 2})}}, {"weights", "[3,2]"});
    AddCase("a negative value", {op, {I({3}, {1, -2, 0}), I({}, {4}), none}}, kRun, kInvalid,
            {"non-negative", "-2"});
  }
  Both("an input of rank 3", {"DenseBincount", {I({1, 2, 3}), I({}, {4}), F({0})}},
       {"1-D or 2-D", "[1,2,3]"});
  Both("a scalar input", {"DenseBincount", {I({}, {1}), I({}, {4}), F({0})}}, {"1-D or 2-D", "[]"});
  return true;
}();

}  // namespace bad_input_cases_bincount
}  // namespace
}  // namespace rill::testing
