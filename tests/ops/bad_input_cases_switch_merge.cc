// Valid recipes and op-specific bad inputs of Switch and Merge: a predicate that is not one
// bool (refused when the node is added, and by the kernel when it is fed), Merge inputs of
// two dtypes or none.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_switch_merge {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

Tensor Bools(std::vector<int64_t> shape) {
  Tensor t(DT_BOOL, TensorShape(absl::MakeConstSpan(shape)));
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<bool>()(i) = true;
  return t;
}

Recipe SwitchRecipe(Tensor data, Tensor pred) {
  Recipe r("Switch", {std::move(data), std::move(pred)});
  r.dead_outputs = {0};  // pred is true: output_false is dead
  return r;
}

void SwitchCases() {
  AddRecipe(SwitchRecipe(F({2, 3}), Bools({})));
  Both("a pred of shape [2]", SwitchRecipe(F({2}), Bools({2})), {"pred must be a scalar", "[2]"});
  Both("a pred of shape [1]", SwitchRecipe(F({2}), Bools({1})), {"pred must be a scalar", "[1]"});
  Both("an empty pred", SwitchRecipe(F({2}), Bools({0})), {"pred must be a scalar", "[0]"});
  AddCase("an int32 pred", SwitchRecipe(F({2}), I({})), Where::kConstruction, kInvalid);
  AddCase("a float pred", SwitchRecipe(I({2}), F({})), Where::kConstruction, kInvalid);
}

void MergeCases() {
  AddRecipe({"Merge", {F({2}), F({3})}});
  AddCase("inputs of two dtypes", {"Merge", {F({2}), I({2})}}, Where::kConstruction, kInvalid);
  AddCase("no inputs", {"Merge", {}, {{"N", int64_t{0}}, {"T", DT_FLOAT}}}, Where::kConstruction,
          kInvalid, {"input list 'inputs' is empty"});
  AddCase("N that is not the number of inputs", {"Merge", {F({2}), F({2})}, {{"N", int64_t{3}}}},
          Where::kConstruction, kInvalid, {"attr 'N' is 3", "has 2 inputs"});
}

const bool kRegistered = [] {
  SwitchCases();
  MergeCases();
  return true;
}();

}  // namespace bad_input_cases_switch_merge
}  // namespace
}  // namespace rill::testing
