// Valid recipes and op-specific bad inputs of the image resizes, ScaleAndTranslate and their
// gradients: sizes that are not two positive values, images that are not 4-D, both corner
// conventions at once, scales that are not positive, unknown kernels, gradients that
// disagree with the original image (ResizeArea's and its gradient's too); RGBToHSV, HSVToRGB and
// their gradients: pixels of other than 3 channels; AdjustContrastv2: images below 3-D, a factor
// that is not a finite scalar.
#include <limits>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_image {

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

// ScaleAndTranslate(images, size, scale, translation) and its gradient (grads,
// original_image, scale, translation).
void ScaleAndTranslateCases() {
  const Tensor image = F({1, 4, 5, 2}), scale = F({2}, {1.5f, 0.5f}), shift = F({2}, {0.5f, 0});
  AddRecipe({"ScaleAndTranslate", {image, I({2}, {6, 3}), scale, shift}});
  Both("a zero scale", {"ScaleAndTranslate", {image, I({2}, {6, 3}), F({2}, {1, 0}), shift}},
       {"greater than 0"});
  Both("a NaN scale",
       {"ScaleAndTranslate",
        {image, I({2}, {6, 3}), F({2}, {1, std::numeric_limits<float>::quiet_NaN()}), shift}},
       {"greater than 0"});
  Both("a translation of 3 values",
       {"ScaleAndTranslate", {image, I({2}, {6, 3}), scale, F({3}, {0, 0, 0})}}, {"translation"});
  Both("a negative size", {"ScaleAndTranslate", {image, I({2}, {-6, 3}), scale, shift}},
       {"positive"});
  Both("a 3-D image", {"ScaleAndTranslate", {F({4, 5, 2}), I({2}, {6, 3}), scale, shift}},
       {"[4,5,2]"});
  AddCase("kernel_type 'bilinear'",
          {"ScaleAndTranslate",
           {image, I({2}, {6, 3}), scale, shift},
           {{"kernel_type", std::string("bilinear")}}},
          kConstruction, kInvalid, {"kernel_type", "bilinear"});
  AddCase("an image of width 0 (in the kernel)",
          {"ScaleAndTranslate", {F({1, 4, 0, 2}), I({2}, {6, 3}), scale, shift}}, kRun, kInvalid,
          {"[1,4,0,2]"});
  // A scale of 1e-30 with antialias stretches the kernel over every input pixel for each of
  // the 2^20 output rows: refused before any table is made.
  AddCase(
      "a tiny scale over a tall output (in the kernel)",
      {"ScaleAndTranslate", {F({1, 4096, 1, 1}), I({2}, {1 << 20, 1}), F({2}, {1e-30f, 1}), shift}},
      kRun, kInvalid, {"weights"});
  AddRecipe({"ScaleAndTranslateGrad", {F({1, 6, 3, 2}), image, scale, shift}});
  Both("an original image with other channels",
       {"ScaleAndTranslateGrad", {F({1, 6, 3, 2}), F({1, 4, 5, 3}), scale, shift}}, {"channels"});
  Both("a negative scale",
       {"ScaleAndTranslateGrad", {F({1, 6, 3, 2}), image, F({2}, {-1, 1}), shift}},
       {"greater than 0"});
}

void ColorCases() {
  for (const char* op : {"RGBToHSV", "HSVToRGB"}) {
    AddRecipe({op, {F({2, 4, 3})}});
    Both("4 channels", {op, {F({2, 4})}}, {"3 channels", "4 channels"});
    Both("a scalar", {op, {F({})}}, {"at least 1D"});
    Both("an image of no channels", {op, {F({5, 0})}}, {"0 channels"});
    AddCase("int32 pixels", {op, {I({3}, {1, 2, 3})}}, kConstruction, kInvalid, {"int32"});
  }
  for (const char* op : {"_RGBToHSVGrad", "_HSVToRGBGrad"}) {
    AddRecipe({op, {F({2, 3}), F({2, 3})}});
    Both("grads of another shape", {op, {F({2, 3}), F({1, 3})}}, {"[2,3]", "[1,3]"});
    Both("2 channels", {op, {F({2, 2}), F({2, 2})}}, {"2 channels"});
    Both("a scalar", {op, {F({}), F({})}}, {"at least 1D"});
  }
}

void ContrastCases() {
  const char* op = "AdjustContrastv2";
  AddRecipe({op, {F({2, 3, 4, 3}), F({}, {1.5})}});
  Both("a 2-D image", {op, {F({3, 4}), F({}, {1.5})}}, {"at least 3-D", "[3,4]"});
  Both("a factor that is not a scalar", {op, {F({3, 4, 3}), F({1}, {1.5})}},
       {"contrast_factor", "[1]"});
  AddCase("an infinite factor",
          {op, {F({3, 4, 3}), F({}, {std::numeric_limits<float>::infinity()})}}, kRun, kInvalid,
          {"finite"});
  AddCase("a double factor", {op, {F({3, 4, 3}), FromDoubles(DT_DOUBLE, {}, {2})}}, kConstruction,
          kInvalid, {"double"});
}

void AreaCases() {
  AddRecipe({"ResizeArea", {F({1, 4, 5, 2}), I({2}, {3, 2})}});
  Both("a zero size", {"ResizeArea", {F({1, 4, 5, 2}), I({2}, {0, 2})}}, {"positive"});
  Both("a size of one value", {"ResizeArea", {F({1, 4, 5, 2}), I({1}, {3})}}, {"2-element"});
  Both("a 3-D image", {"ResizeArea", {F({4, 5, 2}), I({2}, {3, 2})}}, {"[4,5,2]"});
  AddCase("an image of width 0 (in the kernel)", {"ResizeArea", {F({1, 4, 0, 2}), I({2}, {3, 2})}},
          kRun, kInvalid, {"4x0"});
  AddRecipe({"_ResizeAreaGrad", {F({1, 3, 2, 2}), F({1, 4, 5, 2})}});
  Both("an original image with other channels",
       {"_ResizeAreaGrad", {F({1, 3, 2, 2}), F({1, 4, 5, 3})}}, {"channels"});
  Both("3-D grads", {"_ResizeAreaGrad", {F({3, 2, 2}), F({1, 4, 5, 2})}}, {"[3,2,2]"});
}

const bool kRegistered = [] {
  AreaCases();
  ColorCases();
  ContrastCases();
  ResizeCases();
  ResizeGradCases();
  ScaleAndTranslateCases();
  return true;
}();

}  // namespace bad_input_cases_image
}  // namespace
}  // namespace rill::testing
