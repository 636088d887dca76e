// Valid recipes and op-specific bad inputs of CropAndResize and its gradients: boxes not
// [n, 4], box_ind of another length or outside the batch, sizes that are not positive,
// an unknown method, grads that disagree with the boxes or the image.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_crop {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

void CropCases() {
  const Tensor boxes = F({2, 4}, {0, 0, 1, 1, 0.2f, 0.1f, 0.7f, 0.9f});
  AddRecipe({"CropAndResize", {F({2, 4, 5, 3}), boxes, I({2}, {1, 0}), I({2}, {3, 3})}});
  AddCase("a box index past the batch (in the kernel)",
          {"CropAndResize", {F({2, 4, 5, 3}), boxes, I({2}, {1, 2}), I({2}, {3, 3})}}, kRun,
          kInvalid, {"box_ind[1] = 2"});
  AddCase("a negative box index (in the kernel)",
          {"CropAndResize", {F({2, 4, 5, 3}), boxes, I({2}, {-1, 0}), I({2}, {3, 3})}}, kRun,
          kInvalid, {"box_ind[0] = -1"});
  Both("boxes of 3 coordinates",
       {"CropAndResize", {F({2, 4, 5, 3}), F({2, 3}), I({2}, {1, 0}), I({2}, {3, 3})}}, {"[2,3]"});
  Both("box_ind of another length",
       {"CropAndResize", {F({2, 4, 5, 3}), boxes, I({3}, {1, 0, 0}), I({2}, {3, 3})}}, {"box_ind"});
  Both("a zero crop size",
       {"CropAndResize", {F({2, 4, 5, 3}), boxes, I({2}, {1, 0}), I({2}, {0, 3})}}, {"positive"});
  Both("a 3-D image", {"CropAndResize", {F({4, 5, 3}), boxes, I({2}, {1, 0}), I({2}, {3, 3})}},
       {"image"});
  AddCase("method 'bicubic'",
          {"CropAndResize",
           {F({2, 4, 5, 3}), boxes, I({2}, {1, 0}), I({2}, {3, 3})},
           {{"method", std::string("bicubic")}}},
          kConstruction, kInvalid, {"bicubic"});
}

void CropGradCases() {
  const Tensor boxes = F({2, 4}, {0, 0, 1, 1, 0.2f, 0.1f, 0.7f, 0.9f});
  const AttrMap t = {{"T", DT_FLOAT}};
  AddRecipe({"CropAndResizeGradImage",
             {F({2, 3, 3, 3}), boxes, I({2}, {1, 0}), I({4}, {2, 4, 5, 3})},
             t});
  AddCase(
      "a box index past image_size's batch (in the kernel)",
      {"CropAndResizeGradImage", {F({2, 3, 3, 3}), boxes, I({2}, {1, 2}), I({4}, {2, 4, 5, 3})}, t},
      kRun, kInvalid, {"box_ind[1] = 2"});
  Both(
      "an image_size of another depth",
      {"CropAndResizeGradImage", {F({2, 3, 3, 3}), boxes, I({2}, {1, 0}), I({4}, {2, 4, 5, 4})}, t},
      {"depth"});
  Both(
      "a zero image_size",
      {"CropAndResizeGradImage", {F({2, 3, 3, 3}), boxes, I({2}, {1, 0}), I({4}, {2, 0, 5, 3})}, t},
      {"positive"});
  Both("image_size of 3 values",
       {"CropAndResizeGradImage", {F({2, 3, 3, 3}), boxes, I({2}, {1, 0}), I({3}, {2, 4, 5})}, t},
       {"image_size"});
  AddCase(
      "grads for 3 boxes, 2 given (in the kernel)",
      {"CropAndResizeGradImage", {F({3, 3, 3, 3}), boxes, I({2}, {1, 0}), I({4}, {2, 4, 5, 3})}, t},
      kRun, kInvalid, {"one crop per box"});

  AddRecipe({"CropAndResizeGradBoxes", {F({2, 3, 3, 3}), F({2, 4, 5, 3}), boxes, I({2}, {1, 0})}});
  AddCase("a box index past the batch (in the kernel)",
          {"CropAndResizeGradBoxes", {F({2, 3, 3, 3}), F({2, 4, 5, 3}), boxes, I({2}, {0, 5})}},
          kRun, kInvalid, {"box_ind[1] = 5"});
  AddCase("an image of another depth (in the kernel)",
          {"CropAndResizeGradBoxes", {F({2, 3, 3, 3}), F({2, 4, 5, 2}), boxes, I({2}, {1, 0})}},
          kRun, kInvalid, {"depth"});
  Both("boxes of rank 1",
       {"CropAndResizeGradBoxes", {F({2, 3, 3, 3}), F({2, 4, 5, 3}), F({8}), I({2}, {1, 0})}},
       {"boxes"});
  AddCase("method 'nearest'",
          {"CropAndResizeGradBoxes",
           {F({2, 3, 3, 3}), F({2, 4, 5, 3}), boxes, I({2}, {1, 0})},
           {{"method", std::string("nearest")}}},
          kConstruction, kInvalid, {"bilinear"});
  AddCase("grads for 1 box, 2 given (in the kernel)",
          {"CropAndResizeGradBoxes", {F({1, 3, 3, 3}), F({2, 4, 5, 3}), boxes, I({2}, {1, 0})}},
          kRun, kInvalid, {"one crop per box"});
}

const bool kRegistered = [] {
  CropCases();
  CropGradCases();
  return true;
}();

}  // namespace bad_input_cases_crop
}  // namespace
}  // namespace rill::testing
