// Valid recipes and op-specific bad inputs of the linear algebra ops: inputs that are not
// batches of (square) matrices and right-hand sides that do not fit them, each at
// construction (constants) and in the kernel (fed); singular matrices and matrices that are
// not positive definite, when run. Cross: inputs that are not batches of 3-vectors of one
// shape.
#include <cmath>

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

// MatrixSolve and MatrixTriangularSolve: the same shapes, and a matrix they cannot solve
// with (singular; a zero on the diagonal).
void Solve(const char* op) {
  AddRecipe({op, {F({2, 2, 2}), F({2, 2, 1})}});
  Both("a right-hand side of other rows", {op, {F({2, 2}), F({3, 1})}}, {"[3,1]", "does not fit"});
  Both("a right-hand side of other batch dims", {op, {F({2, 2, 2}), F({3, 2, 1})}},
       {"[3,2,1]", "[2,2,2]"});
  Both("a vector right-hand side", {op, {F({2, 2}), F({2})}},
       {"rhs must be at least rank 2", "[2]"});
  Both("a matrix that is not square", {op, {F({2, 3}), F({2, 1})}}, {"square", "[2,3]"});
  AddCase("a matrix it cannot solve with", {op, {F({2, 2}, {0, 2, 0, 4}), F({2, 1})}}, Where::kRun,
          kInvalid, {"not invertible"});
}

// Cross(a, b): one shape, [..., 3].
void CrossCases() {
  AddRecipe({"Cross", {F({2, 3}), F({2, 3})}});
  Both("vectors of two elements", {"Cross", {F({2, 2}), F({2, 2})}}, {"3-element", "[2,2]"});
  Both("a scalar", {"Cross", {F({}), F({})}}, {"at least 1D"});
  Both("inputs of two shapes", {"Cross", {F({2, 3}), F({1, 3})}}, {"same shape", "[2,3]", "[1,3]"});
  Both("b of 4-vectors", {"Cross", {F({3}), F({4})}}, {"3-element", "[4]"});
  AddCase("a bool input",
          {"Cross", {Tensor(DT_BOOL, TensorShape({3})), Tensor(DT_BOOL, TensorShape({3}))}},
          Where::kConstruction, kInvalid, {"bool"});
}

// Qr and Svd: any batch of matrices, [..., M, N], of floats; bool attrs.
void FactorCases() {
  for (const char* op : {"Qr", "Svd"}) {
    AddRecipe({op, {F({2, 3, 2})}});
    Both("a vector", {op, {F({3})}}, {"at least rank 2", "[3]"});
    Both("a scalar", {op, {F({})}}, {"at least rank 2", "[]"});
    AddCase("int32 matrices", {op, {I({2, 2})}}, Where::kConstruction, kInvalid, {"int32"});
    AddCase("full_matrices that is not a bool", {op, {F({2, 2})}, {{"full_matrices", 1.0f}}},
            Where::kConstruction, kInvalid, {"full_matrices"});
  }
  AddCase("compute_uv that is not a bool", {"Svd", {F({2, 2})}, {{"compute_uv", 2}}},
          Where::kConstruction, kInvalid, {"compute_uv"});
  AddCase("bool matrices", {"Qr", {Tensor(DT_BOOL, TensorShape({2, 2}))}}, Where::kConstruction,
          kInvalid, {"bool"});
}

const bool kRegistered = [] {
  CrossCases();
  FactorCases();
  for (const char* op : {"MatrixDeterminant", "LogMatrixDeterminant", "MatrixInverse"}) {
    AddRecipe({op, {F({2, 2, 2})}});
    Square(op);
  }
  AddCase("a singular matrix", {"MatrixInverse", {F({2, 2, 2}, {1, 0, 0, 1, 1, 2, 2, 4})}},
          Where::kRun, kInvalid, {"matrix 1 of the input of shape [2,2,2] is not invertible"});
  Solve("MatrixSolve");
  Solve("MatrixTriangularSolve");
  AddRecipe({"Cholesky", {F({2, 2, 2}, {2, 0, 0, 2, 3, 1, 1, 3})}});
  Square("Cholesky");
  AddCase("a matrix that is not positive definite", {"Cholesky", {F({2, 2}, {1, 2, 2, 1})}},
          Where::kRun, kInvalid, {"matrix 0 of the input of shape [2,2] is not positive definite"});
  AddRecipe({"SelfAdjointEigV2", {F({2, 2, 2}, {2, 0, 0, 2, 3, 1, 1, 3})}});
  Square("SelfAdjointEigV2");
  AddCase("compute_v that is not a bool", {"SelfAdjointEigV2", {F({2, 2})}, {{"compute_v", 1.0f}}},
          Where::kConstruction, kInvalid, {"compute_v"});
  AddCase("int32 matrices", {"SelfAdjointEigV2", {I({2, 2})}}, Where::kConstruction, kInvalid,
          {"int32"});
  AddCase("a NaN in the lower triangle", {"SelfAdjointEigV2", {F({2, 2}, {1, 0, NAN, 2})}},
          Where::kRun, kInvalid, {"matrix 0 of the input of shape [2,2] did not converge"});
  return true;
}();

}  // namespace bad_input_cases_linalg
}  // namespace
}  // namespace rill::testing
