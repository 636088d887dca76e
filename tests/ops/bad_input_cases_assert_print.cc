// Valid recipes and op-specific bad inputs of Assert and Print: a condition that is not one
// bool (refused when the node is added, and by the kernel when it is fed), a false
// condition (the assert's own error, its data summarized), attrs of the wrong kind.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_assert_print {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

Tensor Bools(std::vector<int64_t> shape, bool value) {
  Tensor t(DT_BOOL, TensorShape(absl::MakeConstSpan(shape)));
  for (int64_t i = 0; i < t.NumElements(); ++i) t.flat<bool>()(i) = value;
  return t;
}

void AssertCases() {
  AddRecipe({"Assert", {Bools({}, true), F({2}), I({3})}});
  Both("a condition of shape [2]", {"Assert", {Bools({2}, true), F({2})}},
       {"In[0] should be a scalar", "[2]"});
  Both("a condition of shape [1, 1]", {"Assert", {Bools({1, 1}, true)}},
       {"In[0] should be a scalar", "[1,1]"});
  AddCase("an int32 condition", {"Assert", {I({}), F({2})}}, Where::kConstruction, kInvalid);
  AddCase("a false condition", {"Assert", {Bools({}, false), F({4}), I({1}, {7})}}, Where::kRun,
          kInvalid, {"assertion failed: [1 2 3...] [7]"});
  AddCase("a false condition, summarize 0",
          {"Assert", {Bools({}, false), F({2})}, {{"summarize", int64_t{0}}}}, Where::kRun,
          kInvalid, {"assertion failed: [...]"});
  AddCase("summarize a string", {"Assert", {Bools({}, true)}, {{"summarize", std::string("3")}}},
          Where::kConstruction, kInvalid, {"summarize"});
}

void PrintCases() {
  AddRecipe({"Print", {F({2}), I({3})}, {{"first_n", int64_t{0}}}});
  AddCase("a message that is not a string", {"Print", {F({2})}, {{"message", int64_t{1}}}},
          Where::kConstruction, kInvalid, {"message"});
  AddCase("first_n a float", {"Print", {F({2})}, {{"first_n", 1.f}}}, Where::kConstruction,
          kInvalid, {"first_n"});
  AddCase("U other than the data's dtypes",
          {"Print", {F({2}), I({3})}, {{"U", std::vector<DataType>{DT_FLOAT}}}},
          Where::kConstruction, kInvalid);
}

// Timestamp takes nothing: its generic cases (an input, an unknown attr, a bad device,
// a control input from another graph) are its own.
void TimestampCases() {
  AddRecipe({"Timestamp", {}});
  AddCase("an attr it does not have", {"Timestamp", {}, {{"T", DT_FLOAT}}}, Where::kConstruction,
          kInvalid, {"'T'"});
}

const bool kRegistered = [] {
  TimestampCases();
  AssertCases();
  PrintCases();
  return true;
}();

}  // namespace bad_input_cases_assert_print
}  // namespace
}  // namespace rill::testing
