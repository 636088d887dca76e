// Valid recipes and op-specific bad inputs of Bucketize (boundaries out of order or NaN),
// HistogramFixedWidth (a range that is not 2 values or not increasing, nbins not a positive
// scalar), UnravelIndex (indices of rank 2, dims not a vector, negative, or too small for an
// index) and ListDiff (inputs that are not vectors).
#include <cmath>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_value_bins {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

void BinCases() {
  const char* b = "Bucketize";
  auto bounds = [&](std::vector<float> v) {
    return Recipe(b, {F({2, 3})}, {{"boundaries", std::move(v)}});
  };
  AddRecipe(bounds({1, 2.5f, 4}));
  AddCase("boundaries out of order", bounds({1, 4, 2.5f}), kConstruction, kInvalid,
          {"sorted", "boundaries[2] = 2.5"});
  AddCase("a NaN boundary", bounds({1, std::nanf("")}), kConstruction, kInvalid, {"NaN"});
  AddCase("no boundaries attr", Recipe(b, {F({2})}), kConstruction, kInvalid, {"boundaries"});
  const char* h = "HistogramFixedWidth";
  AddRecipe({h, {F({2, 3}), F({2}, {0, 4}), I({}, {3})}});
  Both("a range of 3 values", {h, {F({4}), F({3}, {0, 4, 5}), I({}, {3})}}, {"value_range", "[3]"});
  Both("a vector nbins", {h, {F({4}), F({2}, {0, 4}), I({1}, {3})}}, {"nbins", "[1]"});
  Both("nbins of 0", {h, {F({4}), F({2}, {0, 4}), I({}, {0})}}, {"nbins", "positive", "0"});
  AddCase("a decreasing range", {h, {F({4}), F({2}, {4, 0}), I({}, {3})}}, kRun, kInvalid,
          {"value_range[0] < value_range[1]", "[4, 0]"});
  AddCase("an empty range", {h, {F({4}), F({2}, {1, 1}), I({}, {3})}}, kRun, kInvalid, {"[1, 1]"});
}

void IndexCases() {
  const char* u = "UnravelIndex";
  AddRecipe({u, {I({3}, {22, 41, 37}), I({2}, {7, 6})}});
  Both("2-D indices", {u, {I({1, 3}, {22, 41, 37}), I({2}, {7, 6})}}, {"indices", "[1,3]"});
  Both("scalar dims", {u, {I({3}, {22, 41, 37}), I({}, {42})}}, {"dims", "vector", "[]"});
  AddCase("an index past the array", {u, {I({3}, {22, 42, 37}), I({2}, {7, 6})}}, kRun, kInvalid,
          {"index 42", "[0, 42)"});
  AddCase("a negative index", {u, {I({1}, {-1}), I({2}, {7, 6})}}, kRun, kInvalid, {"index -1"});
  AddCase("a negative dim", {u, {I({1}, {0}), I({2}, {7, -6})}}, kRun, kInvalid,
          {"dims must not be negative", "-6"});
  const char* d = "ListDiff";
  AddRecipe({d, {I({4}, {1, 2, 3, 4}), I({2}, {2, 4})}});
  Both("a matrix x", {d, {I({2, 2}, {1, 2, 3, 4}), I({2}, {2, 4})}}, {"[2,2]"});
  Both("a scalar y", {d, {I({4}, {1, 2, 3, 4}), I({}, {2})}}, {"y", "[]"});
  AddCase("x and y of two dtypes", {d, {I({4}, {1, 2, 3, 4}), F({2}, {2, 4})}}, kConstruction,
          kInvalid, {"int32", "float"});
}

const bool kRegistered = [] {
  BinCases();
  IndexCases();
  return true;
}();

}  // namespace bad_input_cases_value_bins
}  // namespace
}  // namespace rill::testing
