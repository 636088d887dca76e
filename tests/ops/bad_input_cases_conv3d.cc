// Valid recipes and op-specific bad inputs of Conv3D and its gradients: ranks, channels
// that make no whole groups, strides and dilations over the batch or channels or of zero,
// windows larger than the input or overflowing int64, sizes inputs of the wrong length or
// with negative sizes, and gradients of the wrong shape.
#include <cstdint>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_conv3d {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
using Ints = std::vector<int64_t>;

AttrMap Window(Ints strides, std::string padding, Ints dilations = {1, 1, 1, 1, 1}) {
  return {{"strides", std::move(strides)},
          {"padding", std::move(padding)},
          {"dilations", std::move(dilations)}};
}
const Ints kOnes = {1, 1, 1, 1, 1};

void ForwardCases() {
  const AttrMap w = Window(kOnes, "SAME");
  const Tensor x = F({1, 4, 4, 4, 2}), f = F({2, 2, 2, 2, 3});
  AddRecipe({"Conv3D", {x, f}, w});
  Both("input channels that are no whole number of the filter's",
       {"Conv3D", {F({1, 4, 4, 4, 3}), f}, w}, {"not a multiple", "[2,2,2,2,3]"});
  Both("output channels that are no whole number of groups", {"Conv3D", {F({1, 4, 4, 4, 4}), f}, w},
       {"not a multiple", "2 groups"});
  Both("a rank-4 input", {"Conv3D", {F({4, 4, 4, 2}), f}, w}, {"[4,4,4,2]"});
  Both("a filter of empty depth", {"Conv3D", {x, F({0, 2, 2, 2, 3})}, w}, {"empty depth"});
  Both("a dilated VALID window larger than the input",
       {"Conv3D", {F({1, 3, 4, 4, 2}), f}, Window(kOnes, "VALID", {1, 3, 1, 1, 1})}, {"depth"});
  Both("a dilation that overflows int64",
       {"Conv3D", {x, f}, Window(kOnes, "SAME", {1, 1, INT64_MAX, 1, 1})}, {"overflows"});
  AddCase("a zero stride", {"Conv3D", {x, f}, Window({1, 1, 0, 1, 1}, "SAME")}, kConstruction,
          kInvalid, {"strides"});
  AddCase("a dilation over the channels",
          {"Conv3D", {x, f}, Window(kOnes, "SAME", {1, 1, 1, 1, 2})}, kConstruction, kInvalid,
          {"dilations"});
  AddCase("padding 'EXPLICIT'", {"Conv3D", {x, f}, Window(kOnes, "EXPLICIT")}, kConstruction,
          kInvalid, {"EXPLICIT"});
  AttrMap nc = w;
  nc["data_format"] = std::string("NCDHW");
  AddCase("data_format NCDHW", {"Conv3D", {x, f}, nc}, kConstruction, kInvalid, {"NCDHW"});
}

void BackpropInputCases() {
  const AttrMap w = Window(kOnes, "SAME");
  const Tensor f = F({2, 2, 2, 2, 3}), dy = F({1, 4, 4, 4, 3});
  AddRecipe({"Conv3DBackpropInputV2", {I({5}, {1, 4, 4, 4, 2}), f, dy}, w});
  AddCase("input_sizes that disagree with out_backprop (in the kernel)",
          {"Conv3DBackpropInputV2", {I({5}, {1, 6, 6, 6, 2}), f, dy}, w}, kRun, kInvalid,
          {"out_backprop", "[1,4,4,4,3]"});
  Both("input_sizes of length 4", {"Conv3DBackpropInputV2", {I({4}, {4, 4, 4, 2}), f, dy}, w},
       {"5"});
  Both("a negative input size", {"Conv3DBackpropInputV2", {I({5}, {1, -4, 4, 4, 2}), f, dy}, w});
  Both("input_sizes whose channels are no whole number of the filter's",
       {"Conv3DBackpropInputV2", {I({5}, {1, 4, 4, 4, 3}), f, dy}, w}, {"not a multiple"});
  AddCase(
      "a zero stride",
      {"Conv3DBackpropInputV2", {I({5}, {1, 4, 4, 4, 2}), f, dy}, Window({1, 0, 1, 1, 1}, "SAME")},
      kConstruction, kInvalid, {"strides"});
}

void BackpropFilterCases() {
  const AttrMap w = Window(kOnes, "SAME");
  const Tensor x = F({1, 4, 4, 4, 2}), dy = F({1, 4, 4, 4, 3});
  AddRecipe({"Conv3DBackpropFilterV2", {x, I({5}, {2, 2, 2, 2, 3}), dy}, w});
  AddCase("out_backprop of the wrong spatial size (in the kernel)",
          {"Conv3DBackpropFilterV2", {x, I({5}, {2, 2, 2, 2, 3}), F({1, 3, 3, 3, 3})}, w}, kRun,
          kInvalid, {"out_backprop", "[1,3,3,3,3]"});
  Both("filter_sizes of length 4", {"Conv3DBackpropFilterV2", {x, I({4}, {2, 2, 2, 3}), dy}, w},
       {"5"});
  Both("a negative filter size", {"Conv3DBackpropFilterV2", {x, I({5}, {2, -2, 2, 2, 3}), dy}, w});
  Both("filter_sizes whose input channels do not divide the input's",
       {"Conv3DBackpropFilterV2", {x, I({5}, {2, 2, 2, 3, 3}), dy}, w}, {"not a multiple"});
  AddCase("padding 'FULL'",
          {"Conv3DBackpropFilterV2", {x, I({5}, {2, 2, 2, 2, 3}), dy}, Window(kOnes, "FULL")},
          kConstruction, kInvalid, {"FULL"});
}

const bool kRegistered = [] {
  ForwardCases();
  BackpropInputCases();
  BackpropFilterCases();
  return true;
}();

}  // namespace bad_input_cases_conv3d
}  // namespace
}  // namespace rill::testing
