// Valid recipes and op-specific bad inputs of the square-matrix ops: inputs that are not
// batches of square matrices and right-hand sides that do not fit them, each at
// construction (constants) and in the kernel (fed); singular matrices, when run.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_linalg {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

void Square(const char* op) {
  Both("a vector", {op, {F({3})}}, {"at least rank 2", "[3]"});
  Both("matrices that are not square", {op, {F({2, 3})}}, {"square", "[2,3]"});
  Both("a batch of matrices that are not square", {op, {F({4, 3, 2})}}, {"square", "[4,3,2]"});
}

void Solve() {
  AddRecipe({"MatrixSolve", {F({2, 2, 2}), F({2, 2, 1})}});
  Both("a right-hand side of other rows", {"MatrixSolve", {F({2, 2}), F({3, 1})}},
       {"[3,1]", "does not fit"});
  Both("a right-hand side of other batch dims", {"MatrixSolve", {F({2, 2, 2}), F({3, 2, 1})}},
       {"[3,2,1]", "[2,2,2]"});
  Both("a vector right-hand side", {"MatrixSolve", {F({2, 2}), F({2})}},
       {"rhs must be at least rank 2", "[2]"});
  Both("a matrix that is not square", {"MatrixSolve", {F({2, 3}), F({2, 1})}}, {"square", "[2,3]"});
  AddCase("a singular matrix", {"MatrixSolve", {F({2, 2}, {1, 2, 2, 4}), F({2, 1})}}, Where::kRun,
          kInvalid, {"not invertible"});
}

const bool kRegistered = [] {
  for (const char* op : {"MatrixDeterminant", "LogMatrixDeterminant", "MatrixInverse"}) {
    AddRecipe({op, {F({2, 2, 2})}});
    Square(op);
  }
  AddCase("a singular matrix", {"MatrixInverse", {F({2, 2, 2}, {1, 0, 0, 1, 1, 2, 2, 4})}},
          Where::kRun, kInvalid, {"matrix 1 of the input of shape [2,2,2] is not invertible"});
  Solve();
  return true;
}();

}  // namespace bad_input_cases_linalg
}  // namespace
}  // namespace rill::testing
