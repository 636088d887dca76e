// Valid recipes and op-specific bad inputs of IsotonicRegression (a scalar input, an
// output dtype that is not floating, bool input) and its gradient op (grads and segments of
// two shapes, a scalar, segments that do not number their runs 0, 1, 2, ...).
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_isotonic {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

const bool kRegistered = [] {
  const char* op = "IsotonicRegression";
  AddRecipe({op, {F({2, 3})}});
  Both("a scalar input", {op, {F({})}}, {"at least 1-D", "[]"});
  AddCase("an int32 output dtype", {op, {F({2, 3})}, {{"output_dtype", DT_INT32}}}, kConstruction,
          kInvalid, {"output_dtype", "int32"});
  AddCase("bool input", {op, {Tensor(DT_BOOL, TensorShape({2}))}}, kConstruction, kInvalid,
          {"bool"});
  const char* grad = "_IsotonicRegressionGrad";
  AddRecipe({grad, {F({2, 3}), I({2, 3}, {0, 0, 1, 0, 1, 2})}});
  Both("segments of another shape", {grad, {F({2, 3}), I({3, 2}, {0, 0, 1, 0, 1, 2})}},
       {"[2,3]", "[3,2]"});
  Both("scalars", {grad, {F({}), I({}, {0})}}, {"[]"});
  AddCase("segments that skip a number", {grad, {F({2, 3}), I({2, 3}, {0, 0, 2, 0, 1, 2})}}, kRun,
          kInvalid, {"0, 1, 2", "got 2 at 2"});
  AddCase("segments that start at 1", {grad, {F({1, 3}), I({1, 3}, {1, 1, 2})}}, kRun, kInvalid,
          {"got 1 at 0"});
  AddCase("segments that come back", {grad, {F({1, 3}), I({1, 3}, {0, 1, 0})}}, kRun, kInvalid,
          {"got 0 at 2"});
  return true;
}();

}  // namespace bad_input_cases_isotonic
}  // namespace
}  // namespace rill::testing
