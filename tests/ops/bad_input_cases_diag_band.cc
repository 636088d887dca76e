// Valid recipes and op-specific bad inputs of the band diagonal ops (MatrixDiagV2/V3,
// MatrixDiagPartV2/V3, MatrixSetDiagV2/V3): k's shape, order and bounds, the number of
// diagonals, the matrix size asked for, the packed diagonal's shape, align.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_diag_band {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
constexpr Where kConstruction = Where::kConstruction;

// [2, 3] packed diagonals of k = [-1, 1]... as given.
Recipe Diag(const std::string& v, Tensor diag, Tensor k, int rows = -1, int cols = -1) {
  return {"MatrixDiag" + v, {diag, k, I({}, {rows}), I({}, {cols}), F({})}};
}
Recipe Part(const std::string& v, Tensor in, Tensor k) {
  return {"MatrixDiagPart" + v, {in, k, F({})}};
}
Recipe SetDiag(const std::string& v, Tensor in, Tensor diag, Tensor k) {
  return {"MatrixSetDiag" + v, {in, diag, k}};
}

void AddVersion(const std::string& v) {
  const Tensor band = I({2}, {-1, 1});
  AddRecipe(Diag(v, F({2, 3, 3}), band));
  Both("k with three values", Diag(v, F({3, 3}), I({3}, {-1, 0, 1})), {"k", "3"});
  Both("k[0] above k[1]", Diag(v, F({3, 3}), I({2}, {1, -1})), {"k[0]", "1 > -1"});
  Both("two diagonals for a band of three", Diag(v, F({2, 3}), band), {"3 diagonals", "[2,3]"});
  Both("num_rows too small", Diag(v, F({3}), I({}, {0}), 2, 3), {"num_rows 2", "at least 3"});
  Both("rows and columns both past the least", Diag(v, F({3}), I({}, {0}), 4, 4),
       {"num_rows 4", "(3 or 3)"});
  AddCase("a matrix k", Diag(v, F({3}), I({1, 1}, {0})), kConstruction, kInvalid, {"k must be"});

  AddRecipe(Part(v, F({3, 4}), band));
  Both("a vector input", Part(v, F({4}), band), {"rank >= 2", "[4]"});
  Both("k past the columns", Part(v, F({3, 4}), I({}, {4})), {"k[0] = 4", "out of bounds"});
  Both("k past the rows", Part(v, F({3, 4}), I({2}, {-3, 0})), {"k[0] = -3", "out of bounds"});
  Both("k[0] above k[1]", Part(v, F({3, 4}), I({2}, {2, 1})), {"2 > 1"});
  AddCase("padding that is a vector", {"MatrixDiagPart" + v, {F({3, 4}), band, F({2})}},
          kConstruction, kInvalid, {"padding_value"});

  AddRecipe(SetDiag(v, F({3, 4}), F({3, 3}), band));
  Both("a packed band of the wrong length", SetDiag(v, F({3, 4}), F({3, 2}), band),
       {"[3,3]", "[3,2]"});
  Both("a packed band missing a diagonal", SetDiag(v, F({3, 4}), F({2, 3}), band),
       {"[3,3]", "[2,3]"});
  Both("k past the columns", SetDiag(v, F({3, 4}), F({3}), I({}, {5})), {"k[0] = 5"});
  Both("a vector input", SetDiag(v, F({4}), F({3}), I({}, {0})), {"rank >= 2"});
  AddCase("an int32 diagonal for float matrices", SetDiag(v, F({3, 4}), I({3, 3}), band),
          kConstruction, kInvalid);
}

const bool kCases = [] {
  AddVersion("V2");
  AddVersion("V3");
  for (const char* op : {"MatrixDiagV3", "MatrixDiagPartV3", "MatrixSetDiagV3"}) {
    const std::string name = op;
    Recipe r = name == "MatrixDiagV3"       ? Diag("V3", F({3}), I({}, {0}))
               : name == "MatrixDiagPartV3" ? Part("V3", F({3, 3}), I({}, {0}))
                                            : SetDiag("V3", F({3, 3}), F({3}), I({}, {0}));
    r.attrs["align"] = std::string("LEFT_CENTER");
    AddCase("an unknown align", r, kConstruction, kInvalid, {"align", "LEFT_CENTER"});
  }
  return true;
}();

}  // namespace bad_input_cases_diag_band
}  // namespace
}  // namespace rill::testing
