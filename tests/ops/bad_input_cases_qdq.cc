// Valid recipes and op-specific bad inputs of QuantizeAndDequantizeV2, V3, V4 and V4Grad:
// num_bits outside its range (an attr at construction, V3's input in the kernel), an unknown
// round mode, an axis below -1 or past the input, range tensors of the wrong shape for the
// axis, an inverted given range, gradients of another shape.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_qdq {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

AttrMap Given(AttrMap more = {}) {
  more["range_given"] = true;
  return more;
}

// Cases every op with a range gets; `in` makes its inputs from (input, min, max).
void RangeCases(const char* op, const std::function<std::vector<Tensor>(std::vector<Tensor>)>& in,
                AttrMap attrs) {
  auto with = [&](AttrMap more) {
    for (auto& [k, v] : attrs) more.emplace(k, v);
    return more;
  };
  Both("a min that is not a scalar", {op, in({F({2, 3}), F({1}, {-1}), F({}, {2})}), attrs},
       {"input_min", "[1]"});
  Both("a range per slice of the wrong length",
       {op, in({F({2, 3}), F({2}, {-1, -1}), F({2}, {2, 2})}), with({{"axis", int64_t{1}}})},
       {"input_min", "[2]"});
  Both("an axis past the input",
       {op, in({F({2, 3}), F({2}, {-1, -1}), F({2}, {2, 2})}), with({{"axis", int64_t{2}}})},
       {"2", "[2,3]"});
  AddCase("an axis below -1",
          {op, in({F({2, 3}), F({}, {-1}), F({}, {2})}), with({{"axis", int64_t{-2}}})},
          kConstruction, kInvalid, {"axis should be at least -1, got -2"});
}

void ForwardCases() {
  for (const char* op : {"QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4"}) {
    auto in = [](std::vector<Tensor> x) { return x; };
    AddRecipe({op, {F({2, 3}), F({}, {-1}), F({}, {2})}, Given()});
    RangeCases(op, in, Given());
    AddCase("num_bits 0",
            {op, {F({2, 3}), F({}, {-1}), F({}, {2})}, Given({{"num_bits", int64_t{0}}})},
            kConstruction, kInvalid, {"num_bits is out of range: 0"});
    AddCase("num_bits 62, signed",
            {op, {F({2, 3}), F({}, {-1}), F({}, {2})}, {{"num_bits", int64_t{62}}}}, kConstruction,
            kInvalid, {"62"});
    AddCase("an unknown round mode",
            {op, {F({2, 3}), F({}, {-1}), F({}, {2})}, {{"round_mode", std::string("HALF_DOWN")}}},
            kConstruction, kInvalid, {"HALF_DOWN"});
    AddCase("a given range with min above max", {op, {F({2, 3}), F({}, {3}), F({}, {2})}, Given()},
            kRun, kInvalid, {"Invalid range: input_min 3 > input_max 2"});
  }
  const char* v3 = "QuantizeAndDequantizeV3";
  auto in = [](std::vector<Tensor> x) {
    x.push_back(I({}, {8}));
    return x;
  };
  AddRecipe({v3, in({F({2, 3}), F({}, {-1}), F({}, {2})})});
  RangeCases(v3, in, {});
  AddCase("num_bits 0", {v3, {F({2, 3}), F({}, {-1}), F({}, {2}), I({}, {0})}}, kRun, kInvalid,
          {"num_bits is out of range: 0"});
  AddCase("num_bits 63, unsigned",
          {v3, {F({2, 3}), F({}, {-1}), F({}, {2}), I({}, {63})}, {{"signed_input", false}}}, kRun,
          kInvalid, {"63"});
  Both("num_bits that is a vector", {v3, {F({2, 3}), F({}, {-1}), F({}, {2}), I({1}, {8})}},
       {"num_bits", "[1]"});
  AddCase("min above max", {v3, in({F({2, 3}), F({}, {3}), F({}, {2})})}, kRun, kInvalid,
          {"Invalid range: input_min 3 > input_max 2"});
}

void GradCases() {
  const char* op = "QuantizeAndDequantizeV4Grad";
  auto in = [](std::vector<Tensor> x) {
    x.insert(x.begin(), x[0]);
    return x;
  };
  AddRecipe({op, in({F({2, 3}), F({}, {-1}), F({}, {2})})});
  RangeCases(op, in, {});
  Both("gradients of another shape", {op, {F({3, 2}), F({2, 3}), F({}, {-1}), F({}, {2})}},
       {"same size", "[3,2]", "[2,3]"});
}

const bool kRegistered = [] {
  ForwardCases();
  GradCases();
  return true;
}();

}  // namespace bad_input_cases_qdq
}  // namespace
}  // namespace rill::testing
