// Valid recipe and op-specific bad inputs of SparseToDense: indices of rank 3, an output
// shape that is not a vector or disagrees with the indices, values of the wrong length, a
// default that is not a scalar, and (when run) indices outside the output, out of order or
// repeated, and an output shape with a negative dim.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_sparse {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
using enum Where;

AttrMap Validate(bool v) { return {{"validate_indices", v}}; }

const bool kRegistered = [] {
  const char* op = "SparseToDense";
  const Tensor idx = I({3, 2}, {0, 1, 0, 2, 2, 3});
  AddRecipe({op, {idx, I({2}, {3, 4}), F({3}), F({}, {-1})}});
  Both("indices of rank 3", {op, {I({3, 1, 2}), I({2}, {3, 4}), F({3}), F({})}},
       {"scalar, vector, or matrix", "[3,1,2]"});
  Both("values of the wrong length", {op, {idx, I({2}, {3, 4}), F({2}), F({})}},
       {"sparse_values", "[2]"});
  Both("a default that is not a scalar", {op, {idx, I({2}, {3, 4}), F({3}), F({1})}},
       {"default_value", "[1]"});
  Both("an output shape that is a matrix", {op, {idx, I({1, 2}, {3, 4}), F({3}), F({})}},
       {"output_shape", "[1,2]"});
  AddCase("an output shape of other rank than the indices",
          {op, {idx, I({3}, {3, 4, 5}), F({3}), F({})}}, kRun, kInvalid,
          {"output_shape has incorrect number of elements: 3 should be: 2"});
  AddCase("an output shape with a negative dim", {op, {idx, I({2}, {3, -4}), F({3}), F({})}}, kRun,
          kInvalid, {"output_shape"});
  AddCase("an index outside the output", {op, {idx, I({2}, {3, 3}), F({3}), F({})}}, kRun, kInvalid,
          {"indices[2] = [2,3] is out of bounds: need 0 <= index < [3,3]"});
  AddCase("a negative index unvalidated",
          {op, {I({2, 2}, {0, 1, -1, 0}), I({2}, {3, 4}), F({2}), F({})}, Validate(false)}, kRun,
          kInvalid, {"indices[1] = [-1,0] is out of bounds"});
  AddCase("indices out of order", {op, {I({2, 2}, {1, 0, 0, 1}), I({2}, {3, 4}), F({2}), F({})}},
          kRun, kInvalid, {"indices[1] = [0,1] is out of order"});
  AddCase("a repeated index", {op, {I({2, 2}, {1, 0, 1, 0}), I({2}, {3, 4}), F({2}), F({})}}, kRun,
          kInvalid, {"indices[1] = [1,0] is repeated"});
  return true;
}();

}  // namespace bad_input_cases_sparse
}  // namespace
}  // namespace rill::testing
