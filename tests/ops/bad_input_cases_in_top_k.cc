// Valid recipes and op-specific bad inputs of InTopK and InTopKV2 (predictions not 2-D,
// targets not 1-D or of another batch, V2's k not a scalar, predictions not float).
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_in_top_k {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

const bool kRegistered = [] {
  const AttrMap k = {{"k", int64_t{2}}};
  const char* v1 = "InTopK";
  AddRecipe({v1, {F({2, 4}), I({2}, {0, 3})}, k});
  Both("1-D predictions", {v1, {F({8}), I({2}, {0, 3})}, k}, {"predictions", "2-dimensional"});
  Both("2-D targets", {v1, {F({2, 4}), I({2, 1}, {0, 3})}, k}, {"targets", "1-dimensional"});
  Both("targets for another batch", {v1, {F({2, 4}), I({3}, {0, 3, 1})}, k}, {"2", "3"});
  AddCase("double predictions", {v1, {Tensor(DT_DOUBLE, TensorShape({2, 4})), I({2}, {0, 3})}, k},
          kConstruction, kInvalid, {"double"});
  const char* v2 = "InTopKV2";
  AddRecipe({v2, {F({2, 4}), I({2}, {0, 3}), I({}, {2})}});
  Both("a vector k", {v2, {F({2, 4}), I({2}, {0, 3}), I({1}, {2})}}, {"k", "[1]"});
  Both("3-D predictions", {v2, {F({2, 4, 1}), I({2}, {0, 3}), I({}, {2})}},
       {"predictions", "[2,4,1]"});
  Both("scalar targets", {v2, {F({2, 4}), I({}, {0}), I({}, {2})}}, {"targets", "[]"});
  Both("targets for another batch", {v2, {F({2, 4}), I({1}, {0}), I({}, {2})}}, {"2", "1"});
  return true;
}();

}  // namespace bad_input_cases_in_top_k
}  // namespace
}  // namespace rill::testing
