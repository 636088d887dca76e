// Valid recipes and op-specific bad inputs of the fake quantization ops: num_bits outside
// 2..16, an empty or inverted range (attrs at construction, tensors in the kernel), ranges
// that are not scalars or not one per channel, gradients of another shape.
#include <limits>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_quant {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

void ArgsCases() {
  for (const char* op : {"FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxArgsGradient"}) {
    const bool grad = std::string(op).ends_with("Gradient");
    auto in = [grad](std::vector<Tensor> x) {
      if (grad) x.insert(x.begin(), x[0]);
      return x;
    };
    AddRecipe({op, in({F({2, 3})})});
    AddCase("num_bits 1", {op, in({F({2, 3})}), {{"num_bits", int64_t{1}}}}, kConstruction,
            kInvalid, {"num_bits", "1"});
    AddCase("num_bits 17", {op, in({F({2, 3})}), {{"num_bits", int64_t{17}}}}, kConstruction,
            kInvalid, {"17"});
    AddCase("min equal to max", {op, in({F({2, 3})}), {{"min", 1.0f}, {"max", 1.0f}}},
            kConstruction, kInvalid, {"min has to be smaller than max"});
    AddCase("min above max", {op, in({F({2, 3})}), {{"min", 2.0f}, {"max", -1.0f}}}, kConstruction,
            kInvalid, {"2", "-1"});
    AddCase("an infinite max",
            {op, in({F({2, 3})}), {{"max", std::numeric_limits<float>::infinity()}}}, kConstruction,
            kInvalid, {"inf"});
  }
  Both("gradients of another shape", {"FakeQuantWithMinMaxArgsGradient", {F({2, 3}), F({3, 2})}},
       {"[2,3]", "[3,2]"});
}

void VarsCases() {
  for (const char* op : {"FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsGradient"}) {
    const bool grad = std::string(op).ends_with("Gradient");
    auto in = [grad](std::vector<Tensor> x) {
      if (grad) x.insert(x.begin(), x[0]);
      return x;
    };
    AddRecipe({op, in({F({2, 3}), F({}, {-1}), F({}, {2})})});
    Both("a min that is not a scalar", {op, in({F({2, 3}), F({1}, {-1}), F({}, {2})})},
         {"`min` must be rank 0"});
    Both("a max of rank 2", {op, in({F({2, 3}), F({}, {-1}), F({1, 1}, {2})})},
         {"`max` must be rank 0"});
    AddCase("min above max", {op, in({F({2, 3}), F({}, {3}), F({}, {2})})}, kRun, kInvalid,
            {"min 3", "max 2"});
    AddCase("a NaN min",
            {op, in({F({2, 3}), F({}, {std::numeric_limits<float>::quiet_NaN()}), F({}, {2})})},
            kRun, kInvalid, {"finite"});
    AddCase("num_bits 0",
            {op, in({F({2, 3}), F({}, {-1}), F({}, {2})}), {{"num_bits", int64_t{0}}}},
            kConstruction, kInvalid, {"num_bits"});
  }
  for (const char* op :
       {"FakeQuantWithMinMaxVarsPerChannel", "FakeQuantWithMinMaxVarsPerChannelGradient"}) {
    const bool grad = std::string(op).ends_with("Gradient");
    auto in = [grad](std::vector<Tensor> x) {
      if (grad) x.insert(x.begin(), x[0]);
      return x;
    };
    AddRecipe({op, in({F({2, 3}), F({3}, {-1, -1, 0}), F({3}, {1, 2, 3})})});
    Both("one range too few", {op, in({F({2, 3}), F({2}, {-1, -1}), F({2}, {1, 2})})},
         {"per channel", "[2,3]"});
    Both("scalar ranges", {op, in({F({2, 3}), F({}, {-1}), F({}, {1})})}, {"must be rank 1"});
    AddCase("one channel's min above its max",
            {op, in({F({2, 3}), F({3}, {-1, 5, 0}), F({3}, {1, 2, 3})})}, kRun, kInvalid,
            {"channel 1"});
    AddCase("a scalar input", {op, in({F({}), F({1}, {-1}), F({1}, {1})})}, kRun, kInvalid,
            {"at least 1-D"});
    AddCase(
        "num_bits 20",
        {op, in({F({2, 3}), F({3}, {-1, -1, 0}), F({3}, {1, 2, 3})}), {{"num_bits", int64_t{20}}}},
        kConstruction, kInvalid, {"20"});
  }
}

const bool kRegistered = [] {
  ArgsCases();
  VarsCases();
  return true;
}();

}  // namespace bad_input_cases_quant
}  // namespace
}  // namespace rill::testing
