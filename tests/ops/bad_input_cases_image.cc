// Valid recipes and op-specific bad inputs of the image resizes and their gradients: sizes
// that are not two positive values, images that are not 4-D, both corner conventions at
// once, gradients that disagree with the original image.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

AttrMap Corners(bool align, bool half) {
  return {{"align_corners", align}, {"half_pixel_centers", half}};
}

void ResizeCases() {
  for (const char* op : {"ResizeNearestNeighbor", "ResizeBilinear", "ResizeBicubic"}) {
    AddRecipe({op, {F({1, 2, 3, 2}), I({2}, {4, 5})}});
    Both("a zero size", {op, {F({1, 2, 3, 2}), I({2}, {0, 5})}}, {"positive"});
    Both("a negative size", {op, {F({1, 2, 3, 2}), I({2}, {4, -5})}}, {"positive"});
    Both("a size of three values", {op, {F({1, 2, 3, 2}), I({3}, {4, 5, 6})}}, {"2-element"});
    Both("a 3-D image", {op, {F({2, 3, 2}), I({2}, {4, 5})}}, {"[2,3,2]"});
    AddCase("align_corners with half_pixel_centers",
            {op, {F({1, 2, 3, 2}), I({2}, {4, 5})}, Corners(true, true)}, kConstruction, kInvalid,
            {"align_corners"});
    AddCase("an image of height 0 (in the kernel)", {op, {F({1, 0, 3, 2}), I({2}, {4, 5})}}, kRun,
            kInvalid, {"0x3"});
  }
}

void ResizeGradCases() {
  AddRecipe({"ResizeNearestNeighborGrad", {F({1, 4, 5, 2}), I({2}, {2, 3})}});
  Both("a zero size", {"ResizeNearestNeighborGrad", {F({1, 4, 5, 2}), I({2}, {2, 0})}},
       {"positive"});
  Both("a size of one value", {"ResizeNearestNeighborGrad", {F({1, 4, 5, 2}), I({1}, {2})}},
       {"2-element"});
  Both("3-D grads", {"ResizeNearestNeighborGrad", {F({4, 5, 2}), I({2}, {2, 3})}}, {"grads"});
  for (const char* op : {"ResizeBilinearGrad", "ResizeBicubicGrad"}) {
    AddRecipe({op, {F({1, 4, 5, 2}), F({1, 2, 3, 2})}});
    Both("an original image with other channels", {op, {F({1, 4, 5, 2}), F({1, 2, 3, 3})}},
         {"channels"});
    Both("an original image with another batch", {op, {F({1, 4, 5, 2}), F({2, 2, 3, 2})}},
         {"batch"});
    Both("a 3-D original image", {op, {F({1, 4, 5, 2}), F({2, 3, 2})}}, {"original_image"});
    Both("3-D grads", {op, {F({4, 5, 2}), F({1, 2, 3, 2})}}, {"grads"});
    AddCase("align_corners with half_pixel_centers",
            {op, {F({1, 4, 5, 2}), F({1, 2, 3, 2})}, Corners(true, true)}, kConstruction, kInvalid,
            {"align_corners"});
  }
}

const bool kRegistered = [] {
  ResizeCases();
  ResizeGradCases();
  return true;
}();

}  // namespace
}  // namespace rill::testing
