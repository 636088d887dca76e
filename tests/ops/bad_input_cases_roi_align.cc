// Valid recipe and op-specific bad inputs of RoiAlign: an image that is not [N, C, H, W],
// rois that are not [R, 4] or not one per batch index (each when built and when fed), a
// batch index outside the images and a NaN roi (when run), and unknown modes and empty
// outputs (when built).
#include <cmath>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_roi_align {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

Tensor Batch(std::vector<int64_t> v) {
  Tensor t(DT_INT64, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.base<int64_t>()[i] = v[i];
  return t;
}

const bool kRegistered = [] {
  const char* op = "RoiAlign";
  const Tensor x = F({2, 3, 4, 4}), rois = F({2, 4}, {0, 0, 2, 2, 1, 1, 3, 3});
  AddRecipe({op, {x, rois, Batch({0, 1})}, {{"output_height", int64_t{2}}}});
  Both("an image of rank 3", {op, {F({3, 4, 4}), rois, Batch({0, 1})}},
       {"X [N, C, H, W]", "[3,4,4]"});
  Both("rois of 3 coordinates", {op, {x, F({2, 3}), Batch({0, 1})}}, {"rois [R, 4]", "[2,3]"});
  Both("one batch index for two rois", {op, {x, rois, Batch({0})}}, {"batch_indices [R]", "[1]"});
  AddCase("a batch index past the images", {op, {x, rois, Batch({0, 2})}}, Where::kRun, kInvalid,
          {"batch_indices[1] = 2 is not in [0, 2)"});
  AddCase("a NaN roi", {op, {x, F({2, 4}, {0, 0, 2, NAN, 1, 1, 3, 3}), Batch({0, 1})}}, Where::kRun,
          kInvalid, {"rois[0] has a coordinate that is not finite"});
  AddCase("mode 'min'", {op, {x, rois, Batch({0, 1})}, {{"mode", std::string("min")}}},
          Where::kConstruction, kInvalid, {"mode 'min'"});
  AddCase("an output height of 0", {op, {x, rois, Batch({0, 1})}, {{"output_height", int64_t{0}}}},
          Where::kConstruction, kInvalid, {"output_height 0"});
  return true;
}();

}  // namespace bad_input_cases_roi_align
}  // namespace
}  // namespace rill::testing
