// Valid recipes and op-specific bad inputs of MaxPoolV2, MaxPoolGradV2 and the 3-D
// poolings: windows that are not NDHWC lists, inputs of the wrong rank, gradients of the
// wrong shape, windows fed at run time that the kernel must refuse.
#include <cstdint>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_pool {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
using Ints = std::vector<int64_t>;

AttrMap Window3D(Ints ksize, Ints strides, std::string padding = "VALID") {
  return {{"ksize", std::move(ksize)},
          {"strides", std::move(strides)},
          {"padding", std::move(padding)}};
}

void InKernel(const std::string& what, const Recipe& r, std::vector<std::string> mentions = {}) {
  AddCase(what + " (in the kernel)", r, kRun, kInvalid, mentions);
}

void Pool3DForward() {
  const AttrMap w = Window3D({1, 2, 2, 2, 1}, {1, 2, 2, 2, 1});
  for (const char* op : {"MaxPool3D", "AvgPool3D"}) {
    AddRecipe({op, {F({1, 4, 4, 4, 2})}, w});
    Both("a rank-4 input", {op, {F({4, 4, 4, 2})}, w}, {"[4,4,4,2]"});
    AddCase("a 4-element ksize",
            {op, {F({1, 4, 4, 4, 2})}, Window3D({1, 2, 2, 1}, {1, 2, 2, 2, 1})}, kConstruction,
            kInvalid, {"ksize", "5 elements"});
    AddCase("a zero stride", {op, {F({1, 4, 4, 4, 2})}, Window3D({1, 2, 2, 2, 1}, {1, 2, 0, 2, 1})},
            kConstruction, kInvalid, {"strides"});
    AddCase("a window over the channels",
            {op, {F({1, 4, 4, 4, 2})}, Window3D({1, 2, 2, 2, 2}, {1, 2, 2, 2, 1})}, kConstruction,
            kInvalid, {"channel"});
    AddCase("padding 'EXPLICIT'",
            {op, {F({1, 4, 4, 4, 2})}, Window3D({1, 2, 2, 2, 1}, {1, 2, 2, 2, 1}, "EXPLICIT")},
            kConstruction, kInvalid, {"EXPLICIT"});
    Both("a VALID window deeper than the input", {op, {F({1, 1, 4, 4, 2})}, w}, {"depth"});
    Both("a SAME window whose padding overflows int64",
         {op, {F({1, 4, 4, 4, 2})}, Window3D({1, 2, INT64_MAX, 2, 1}, {1, 1, 1, 1, 1}, "SAME")},
         {"overflow"});
    AttrMap nc = w;
    nc["data_format"] = std::string("NCDHW");
    AddCase("data_format NCDHW", {op, {F({1, 2, 4, 4, 4})}, nc}, kConstruction, kInvalid,
            {"NCDHW"});
  }
}

void Pool3DGradients() {
  const AttrMap w = Window3D({1, 2, 2, 2, 1}, {1, 2, 2, 2, 1});
  AddRecipe({"MaxPool3DGrad", {F({1, 4, 4, 4, 2}), F({1, 2, 2, 2, 2}), F({1, 2, 2, 2, 2})}, w});
  InKernel("a gradient of the wrong shape",
           {"MaxPool3DGrad", {F({1, 4, 4, 4, 2}), F({1, 2, 2, 2, 2}), F({1, 3, 2, 2, 2})}, w},
           {"grad", "[1,3,2,2,2]"});
  InKernel("orig_output of the wrong shape",
           {"MaxPool3DGrad", {F({1, 4, 4, 4, 2}), F({1, 2, 2, 2, 3}), F({1, 2, 2, 2, 2})}, w},
           {"orig_output", "[1,2,2,2,3]"});
  Both("a rank-3 orig_input",
       {"MaxPool3DGrad", {F({4, 4, 2}), F({1, 2, 2, 2, 2}), F({1, 2, 2, 2, 2})}, w}, {"[4,4,2]"});
  AddRecipe({"AvgPool3DGrad", {I({5}, {1, 4, 4, 4, 2}), F({1, 2, 2, 2, 2})}, w});
  Both("orig_input_shape of length 4",
       {"AvgPool3DGrad", {I({4}, {4, 4, 4, 2}), F({1, 2, 2, 2, 2})}, w}, {"5-element"});
  Both("a negative orig_input_shape",
       {"AvgPool3DGrad", {I({5}, {1, -4, 4, 4, 2}), F({1, 2, 2, 2, 2})}, w});
  InKernel("a gradient of the wrong shape",
           {"AvgPool3DGrad", {I({5}, {1, 4, 4, 4, 2}), F({1, 2, 2, 1, 2})}, w}, {"[1,2,2,1,2]"});
  Both("orig_input_shape too small for a VALID window",
       {"AvgPool3DGrad", {I({5}, {1, 4, 1, 4, 2}), F({1, 2, 2, 2, 2})}, w}, {"height"});
}

void MaxPoolV2Cases() {
  const AttrMap valid = {{"padding", std::string("VALID")}};
  const Tensor k = I({4}, {1, 2, 2, 1});
  AddRecipe({"MaxPoolV2", {F({1, 4, 4, 2}), k, k}, valid});
  Both("a zero in ksize", {"MaxPoolV2", {F({1, 4, 4, 2}), I({4}, {1, 0, 2, 1}), k}, valid},
       {"ksize"});
  Both("a window over the batch", {"MaxPoolV2", {F({1, 4, 4, 2}), I({4}, {2, 2, 2, 1}), k}, valid},
       {"ksize"});
  Both("3-element strides", {"MaxPoolV2", {F({1, 4, 4, 2}), k, I({3}, {1, 2, 2})}, valid},
       {"strides"});
  Both("a rank-3 input", {"MaxPoolV2", {F({4, 4, 2}), k, k}, valid}, {"[4,4,2]"});
  Both("a VALID window larger than the input",
       {"MaxPoolV2", {F({1, 4, 4, 2}), I({4}, {1, 5, 2, 1}), k}, valid}, {"height"});
  AddCase("padding 'FULL'",
          {"MaxPoolV2", {F({1, 4, 4, 2}), k, k}, {{"padding", std::string("FULL")}}}, kConstruction,
          kInvalid, {"FULL"});
  AddRecipe({"MaxPoolGradV2", {F({1, 4, 4, 2}), F({1, 2, 2, 2}), F({1, 2, 2, 2}), k, k}, valid});
  InKernel("a gradient of the wrong shape",
           {"MaxPoolGradV2", {F({1, 4, 4, 2}), F({1, 2, 2, 2}), F({1, 3, 2, 2}), k, k}, valid},
           {"[1,3,2,2]"});
  Both("a zero stride",
       {"MaxPoolGradV2",
        {F({1, 4, 4, 2}), F({1, 2, 2, 2}), F({1, 2, 2, 2}), k, I({4}, {1, 0, 2, 1})},
        valid},
       {"strides"});
}

void ArgmaxCases() {
  const AttrMap w = {{"ksize", Ints{1, 2, 2, 1}},
                     {"strides", Ints{1, 2, 2, 1}},
                     {"padding", std::string("VALID")}};
  AddRecipe({"MaxPoolWithArgmax", {F({1, 4, 4, 2})}, w});
  Both("a rank-3 input", {"MaxPoolWithArgmax", {F({4, 4, 2})}, w}, {"[4,4,2]"});
  Both("a VALID window larger than the input", {"MaxPoolWithArgmax", {F({1, 1, 4, 2})}, w},
       {"height"});
  AttrMap bad = w;
  bad["ksize"] = Ints{1, 2, 2, 2};
  AddCase("a window over the channels", {"MaxPoolWithArgmax", {F({1, 4, 4, 2})}, bad},
          kConstruction, kInvalid, {"ksize"});
  bad = w;
  bad["Targmax"] = DT_FLOAT;
  AddCase("a float Targmax", {"MaxPoolWithArgmax", {F({1, 4, 4, 2})}, bad}, kConstruction, kInvalid,
          {"Targmax"});
  const Tensor x = F({1, 4, 4, 2}), dy = F({1, 2, 2, 2});
  AddRecipe({"MaxPoolGradWithArgmax", {x, dy, I({1, 2, 2, 2})}, w});
  Both("a gradient of the wrong shape",
       {"MaxPoolGradWithArgmax", {x, F({1, 3, 2, 2}), I({1, 2, 2, 2})}, w}, {"[1,3,2,2]"});
  Both("an argmax of the wrong shape", {"MaxPoolGradWithArgmax", {x, dy, I({1, 2, 2})}, w},
       {"[1,2,2]"});
  AddCase("a negative argmax",
          {"MaxPoolGradWithArgmax", {x, dy, I({1, 2, 2, 2}, {0, 1, -1, 3, 4, 5, 6, 7})}, w}, kRun,
          kInvalid, {"argmax -1", "outside image 0"});
  AddCase("an argmax past its image",
          {"MaxPoolGradWithArgmax", {x, dy, I({1, 2, 2, 2}, {0, 1, 2, 32, 4, 5, 6, 7})}, w}, kRun,
          kInvalid, {"argmax 32"});
}

const bool kRegistered = [] {
  ArgmaxCases();
  Pool3DForward();
  Pool3DGradients();
  MaxPoolV2Cases();
  return true;
}();

}  // namespace bad_input_cases_pool
}  // namespace
}  // namespace rill::testing
