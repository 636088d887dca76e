// Valid recipe and op-specific bad inputs of GridSample: an image that is not [N, C, H, W],
// a grid whose last dim is not 2 or whose batch differs (each when built and when fed), and
// unknown modes and paddings and integer images (when built).
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_grid_sample {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

const bool kRegistered = [] {
  const char* op = "GridSample";
  AddRecipe({op, {F({1, 2, 3, 3}), F({1, 2, 2, 2}, {0, 0, 0.5f, 0, 0, 0.5f, -1, 1})}});
  Both("an image of rank 3", {op, {F({2, 3, 3}), F({1, 2, 2, 2})}},
       {"X must be [N, C, H, W]", "[2,3,3]"});
  Both("grid points of 3 coordinates", {op, {F({1, 2, 3, 3}), F({1, 2, 2, 3})}},
       {"grid must be [N, H_out, W_out, 2]", "[1,2,2,3]"});
  Both("a grid of another batch", {op, {F({2, 2, 3, 3}), F({1, 2, 2, 2})}}, {"[1,2,2,2]"});
  AddCase("mode 'area'", {op, {F({1, 2, 3, 3}), F({1, 2, 2, 2})}, {{"mode", std::string("area")}}},
          Where::kConstruction, kInvalid, {"mode 'area'"});
  AddCase("padding_mode 'wrap'",
          {op, {F({1, 2, 3, 3}), F({1, 2, 2, 2})}, {{"padding_mode", std::string("wrap")}}},
          Where::kConstruction, kInvalid, {"padding_mode 'wrap'"});
  AddCase("int32 images", {op, {I({1, 1, 2, 2}), I({1, 1, 1, 2})}}, Where::kConstruction, kInvalid,
          {"int32"});
  return true;
}();

}  // namespace bad_input_cases_grid_sample
}  // namespace
}  // namespace rill::testing
