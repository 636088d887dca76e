// Valid recipes and op-specific bad inputs of the bitwise ops: operands that do not
// broadcast, at construction (constants) and in the kernel (fed).
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_bitwise {

const bool kRegistered = [] {
  for (const char* op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift"}) {
    AddRecipe({op, {I({2, 3}), I({3})}});
    Both("shapes that do not broadcast", {op, {I({2, 3}), I({4})}}, {"[2,3]", "[4]"});
    Both("shapes that do not broadcast in a middle dim", {op, {I({2, 3, 1}), I({4, 1})}},
         {"[2,3,1]", "[4,1]"});
  }
  for (const char* op : {"Invert", "PopulationCount"}) AddRecipe({op, {I({2, 3})}});
  return true;
}();

}  // namespace bad_input_cases_bitwise
}  // namespace
}  // namespace rill::testing
