// Valid recipe and op-specific bad inputs of _UnaryOpsComposition: names it cannot compose
// (a binary op, a name in the wrong case, an unknown one after known ones), op_names that
// is not a list, and inputs that are not floats; each refused when the node is built.
#include <string>
#include <vector>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_unary_composition {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

AttrMap Names(std::vector<std::string> names) { return {{"op_names", std::move(names)}}; }

const bool kRegistered = [] {
  const char* op = "_UnaryOpsComposition";
  AddRecipe({op, {F({2, 3})}, Names({"Tanh", "Relu"})});
  AddCase("a binary op", {op, {F({2, 3})}, Names({"Add"})}, Where::kConstruction, kInvalid,
          {"op_names[0] = 'Add'", "not a unary op"});
  AddCase("an op name in lower case", {op, {F({2, 3})}, Names({"relu"})}, Where::kConstruction,
          kInvalid, {"op_names[0] = 'relu'"});
  AddCase("an unknown op after known ones", {op, {F({2})}, Names({"Sqrt", "Relu", "Nope"})},
          Where::kConstruction, kInvalid, {"op_names[2] = 'Nope'"});
  AddCase("op_names that is a string", {op, {F({2})}, {{"op_names", std::string("Relu")}}},
          Where::kConstruction, kInvalid, {"op_names"});
  AddCase("int32 x", {op, {I({2})}, Names({"Abs"})}, Where::kConstruction, kInvalid, {"int32"});
  AddCase("bool x", {op, {Tensor(DT_BOOL, TensorShape({2}))}, Names({"Abs"})}, Where::kConstruction,
          kInvalid, {"bool"});
  return true;
}();

}  // namespace bad_input_cases_unary_composition
}  // namespace
}  // namespace rill::testing
