// Valid recipes and op-specific bad inputs of the fractional poolings and their gradient
// ops: pooling ratios TensorFlow refuses, inputs too small to pool, and pooling sequences
// fed to the gradient ops that are too short, not increasing or outside the input.
#include <cmath>
#include <cstdint>
#include <limits>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_fractional {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

Tensor L(std::vector<int64_t> values) {
  Tensor t(DT_INT64, TensorShape({static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) t.base<int64_t>()[i] = values[i];
  return t;
}

AttrMap Ratio(std::vector<float> ratio) { return {{"pooling_ratio", std::move(ratio)}}; }

void InKernel(const std::string& what, const Recipe& r, std::vector<std::string> mentions = {}) {
  AddCase(what + " (in the kernel)", r, kRun, kInvalid, mentions);
}

void Forward() {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const char* op : {"FractionalMaxPool", "FractionalAvgPool"}) {
    AddRecipe({op, {F({1, 7, 10, 2})}, Ratio({1, 1.5f, 2, 1})});
    AddCase("a pooling_ratio of 3 values", {op, {F({1, 7, 10, 2})}, Ratio({1, 1.5f, 2})},
            kConstruction, kInvalid, {"4 values"});
    AddCase("a pooling_ratio over the channels", {op, {F({1, 7, 10, 2})}, Ratio({1, 1.5f, 2, 2})},
            kConstruction, kInvalid, {"channels"});
    for (float bad : {0.5f, nan, inf, -2.f}) {
      AddCase(absl::StrCat("a pooling_ratio of ", bad),
              {op, {F({1, 7, 10, 2})}, Ratio({1, bad, 2, 1})}, kConstruction, kInvalid, {">= 1"});
    }
    AttrMap seeded = Ratio({1, 1.5f, 2, 1});
    seeded["seed2"] = int64_t{5};
    AddCase("a seed without deterministic", {op, {F({1, 7, 10, 2})}, seeded}, kConstruction,
            kInvalid, {"deterministic"});
    Both("a rank-3 value", {op, {F({7, 10, 2})}, Ratio({1, 1.5f, 2, 1})}, {"[7,10,2]"});
    Both("a ratio larger than the rows", {op, {F({1, 1, 10, 2})}, Ratio({1, 1.5f, 2, 1})},
         {"rows"});
    Both("a ratio larger than the columns", {op, {F({1, 7, 3, 2})}, Ratio({1, 1.5f, 3.5f, 1})},
         {"columns"});
  }
}

void Gradients() {
  const std::vector<Tensor> max_in = {F({1, 4, 4, 1}), F({1, 2, 2, 1}), F({1, 2, 2, 1}),
                                      L({0, 2, 4}), L({0, 1, 4})};
  AddRecipe({"FractionalMaxPoolGrad", max_in});
  auto max_with = [&](size_t i, Tensor t) {
    std::vector<Tensor> in = max_in;
    in[i] = std::move(t);
    return Recipe("FractionalMaxPoolGrad", in);
  };
  Both("a row sequence of 2 boundaries for 2 regions", max_with(3, L({0, 2})),
       {"row_pooling_sequence"});
  InKernel("a decreasing row sequence", max_with(3, L({0, 3, 2})), {"strictly increasing"});
  InKernel("a repeated column boundary", max_with(4, L({0, 0, 4})), {"strictly increasing"});
  InKernel("a row sequence past the input", max_with(3, L({0, 2, 5})), {"<= 4"});
  InKernel("a negative column start", max_with(4, L({-1, 1, 4})), {"col_pooling_sequence"});
  Both("a rank-3 orig_input", max_with(0, F({4, 4, 1})), {"[4,4,1]"});
  Both("orig_output of another shape than out_backprop", max_with(1, F({1, 2, 3, 1})),
       {"[1,2,3,1]"});
  InKernel("out_backprop of another batch",
           {"FractionalMaxPoolGrad",
            {F({1, 4, 4, 1}), F({2, 2, 2, 1}), F({2, 2, 2, 1}), L({0, 2, 4}), L({0, 1, 4})}},
           {"batch"});

  const std::vector<Tensor> avg_in = {L({1, 4, 4, 1}), F({1, 2, 2, 1}), L({0, 2, 4}), L({0, 1, 4})};
  AddRecipe({"FractionalAvgPoolGrad", avg_in});
  auto avg_with = [&](size_t i, Tensor t) {
    std::vector<Tensor> in = avg_in;
    in[i] = std::move(t);
    return Recipe("FractionalAvgPoolGrad", in);
  };
  Both("an orig_input_tensor_shape of 3 dims", avg_with(0, L({4, 4, 1})), {"4"});
  Both("a negative dim in orig_input_tensor_shape", avg_with(0, L({1, -4, 4, 1})), {"-4"});
  InKernel("an orig_input_tensor_shape of 2^80 elements",
           avg_with(0, L({1, int64_t{1} << 40, int64_t{1} << 40, 1})));
  InKernel("a column sequence past the shape", avg_with(3, L({0, 2, 9})), {"<= 4"});
  Both("a column sequence of 4 boundaries for 2 regions", avg_with(3, L({0, 1, 2, 4})),
       {"col_pooling_sequence"});
  InKernel("out_backprop with other channels", avg_with(1, F({1, 2, 2, 3})), {"channels"});
}

const bool kRegistered = [] {
  Forward();
  Gradients();
  return true;
}();

}  // namespace bad_input_cases_fractional
}  // namespace
}  // namespace rill::testing
