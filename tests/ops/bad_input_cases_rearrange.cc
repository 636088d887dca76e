// Valid recipes and op-specific bad inputs of the rearranging ops: Roll, ReverseSequence,
// MirrorPad, MirrorPadGrad, SpaceToDepth, DepthToSpace, SpaceToBatchND, BatchToSpaceND and
// the diagonal ops.
#include <cstdint>
#include <limits>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_rearrange {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
constexpr Where kConstruction = Where::kConstruction;

Tensor L(std::vector<int64_t> shape, std::vector<int64_t> v) {
  Tensor t(DT_INT64, TensorShape(shape));
  for (size_t i = 0; i < v.size(); ++i) t.base<int64_t>()[i] = v[i];
  return t;
}

void Roll() {
  AddRecipe({"Roll", {F({2, 3}), I({2}, {1, -1}), I({2}, {0, 1})}, {}});
  Both("an axis past the rank", {"Roll", {F({2, 3}), I({1}, {1}), I({1}, {2})}, {}}, {"axis"});
  Both("shift and axis of different lengths",
       {"Roll", {F({2, 3}), I({2}, {1, 1}), I({1}, {0})}, {}}, {"shift", "axis"});
  Both("a matrix shift", {"Roll", {F({2, 3}), I({1, 1}, {1}), I({1, 1}, {0})}, {}}, {"shift"});
  Both("an axis for a scalar", {"Roll", {F({}), I({}, {1}), I({}, {0})}, {}}, {"axis"});
  AddCase("a float shift", {"Roll", {F({2, 3}), F({1}, {1}), I({1}, {0})}, {}}, kConstruction,
          kInvalid, {"float"});
}

void ReverseSequence() {
  const AttrMap attrs = {{"seq_dim", int64_t{1}}};
  AddRecipe({"ReverseSequence", {F({2, 3}), L({2}, {3, 1})}, attrs});
  Both("a length past the sequence", {"ReverseSequence", {F({2, 3}), L({2}, {4, 1})}, attrs},
       {"seq_lengths[0] = 4"});
  Both("a negative length", {"ReverseSequence", {F({2, 3}), L({2}, {1, -1})}, attrs},
       {"seq_lengths[1] = -1"});
  Both("lengths not matching the batch", {"ReverseSequence", {F({2, 3}), L({3}, {1, 1, 1})}, attrs},
       {"seq_lengths"});
  Both("seq_dim equal to batch_dim",
       {"ReverseSequence", {F({2, 3}), L({2}, {1, 1})}, {{"seq_dim", int64_t{0}}}}, {"differ"});
  Both("seq_dim past the rank",
       {"ReverseSequence", {F({2, 3}), L({2}, {1, 1})}, {{"seq_dim", int64_t{2}}}}, {"seq_dim 2"});
  Both("a negative batch_dim",
       {"ReverseSequence",
        {F({2, 3}), L({2}, {1, 1})},
        {{"seq_dim", int64_t{1}}, {"batch_dim", int64_t{-1}}}},
       {"batch_dim -1"});
}

void MirrorPads() {
  for (const char* op : {"MirrorPad", "MirrorPadGrad"}) {
    const AttrMap reflect = {{"mode", std::string("REFLECT")}};
    const Tensor x = std::string(op) == "MirrorPad" ? F({2, 3}) : F({4, 7});
    AddRecipe({op, {x, I({2, 2}, {1, 1, 2, 2})}, reflect});
    Both("a negative padding", {op, {x, I({2, 2}, {1, -1, 2, 2})}, reflect}, {">= 0"});
    Both("paddings of the wrong shape", {op, {x, I({3, 2}, {1, 1, 1, 1, 1, 1})}, reflect},
         {"paddings"});
    Both("an unknown mode", {op, {x, I({2, 2}, {1, 1, 2, 2})}, {{"mode", std::string("WRAP")}}},
         {"WRAP"});
  }
  const AttrMap reflect = {{"mode", std::string("REFLECT")}};
  Both("a REFLECT padding as large as the dim",
       {"MirrorPad", {F({2, 3}), I({2, 2}, {2, 0, 0, 0})}, reflect}, {"at most 1"});
  Both("a SYMMETRIC padding larger than the dim",
       {"MirrorPad", {F({2, 3}), I({2, 2}, {0, 0, 4, 0})}, {{"mode", std::string("SYMMETRIC")}}},
       {"at most 3"});
  Both("paddings larger than the gradient",
       {"MirrorPadGrad", {F({2, 3}), I({2, 2}, {2, 1, 0, 0})}, reflect}, {"exceed"});
  Both("a huge padding",
       {"MirrorPad",
        {F({2, 3}), I({2, 2}, {0, std::numeric_limits<int32_t>::max(), 0, 0})},
        reflect},
       {"at most"});
}

void SpaceDepth() {
  const AttrMap b2 = {{"block_size", int64_t{2}}};
  AddRecipe({"SpaceToDepth", {F({1, 4, 2, 3})}, b2});
  AddRecipe({"DepthToSpace", {F({1, 2, 1, 8})}, b2});
  Both("H not divisible by the block", {"SpaceToDepth", {F({1, 3, 2, 3})}, b2}, {"divisible"});
  Both("depth not divisible by the block squared", {"DepthToSpace", {F({1, 2, 1, 6})}, b2},
       {"divisible"});
  for (const char* op : {"SpaceToDepth", "DepthToSpace"}) {
    const Tensor x = std::string(op) == "SpaceToDepth" ? F({1, 4, 2, 4}) : F({1, 2, 2, 4});
    // Attributes alone: refused when the node is added, whatever is known of the input.
    AddCase("a block of 1", {op, {x}, {{"block_size", int64_t{1}}}}, kConstruction, kInvalid,
            {"block_size"});
    AddCase("a huge block", {op, {x}, {{"block_size", std::numeric_limits<int64_t>::max()}}},
            kConstruction, kInvalid, {"block_size"});
    AddCase("an unknown data_format",
            {op, {x}, {{"block_size", int64_t{2}}, {"data_format", std::string("NCWH")}}},
            kConstruction, kInvalid, {"NCWH"});
    Both("a rank-3 input", {op, {F({4, 2, 4})}, b2}, {"rank 4"});
  }
}

void BatchSpace() {
  AddRecipe({"SpaceToBatchND", {F({1, 2, 4, 1}), I({2}, {2, 2}), I({2, 2}, {0, 0, 1, 1})}, {}});
  AddRecipe({"BatchToSpaceND", {F({4, 1, 3, 1}), I({2}, {2, 2}), I({2, 2}, {0, 0, 1, 1})}, {}});
  Both("a padded dim not divisible by the block",
       {"SpaceToBatchND", {F({1, 2, 4, 1}), I({2}, {2, 2}), I({2, 2}, {0, 0, 1, 0})}, {}},
       {"divisible"});
  Both("a batch not divisible by the block",
       {"BatchToSpaceND", {F({3, 1, 3, 1}), I({2}, {2, 2}), I({2, 2}, {0, 0, 1, 1})}, {}},
       {"divisible"});
  Both("crops larger than the dim",
       {"BatchToSpaceND", {F({4, 1, 3, 1}), I({2}, {2, 2}), I({2, 2}, {0, 0, 4, 3})}, {}},
       {"crops"});
  for (const char* op : {"SpaceToBatchND", "BatchToSpaceND"}) {
    const Tensor x = std::string(op) == "SpaceToBatchND" ? F({1, 2, 4, 1}) : F({4, 1, 2, 1});
    Both("a zero block", {op, {x, I({2}, {0, 2}), I({2, 2}, {0, 0, 0, 0})}, {}}, {"block_shape"});
    Both("more block dims than the input has",
         {op, {F({4, 2}), I({2}, {2, 2}), I({2, 2}, {0, 0, 0, 0})}, {}}, {"rank"});
    Both("a negative padding or crop", {op, {x, I({2}, {2, 2}), I({2, 2}, {0, -2, 0, 0})}, {}},
         {">= 0"});
    Both("paddings of the wrong shape", {op, {x, I({2}, {2, 2}), I({2}, {0, 0})}, {}}, {"[2, 2]"});
    Both("a block whose product overflows",
         {op, {x, L({2}, {int64_t{1} << 40, int64_t{1} << 40}), I({2, 2}, {0, 0, 0, 0})}, {}},
         {"overflow"});
  }
}

void Diagonals() {
  AddRecipe({"Diag", {F({2, 3})}, {}});
  Both("a scalar diagonal", {"Diag", {F({})}, {}}, {"rank 1"});
  Both("a rank-5 diagonal", {"Diag", {F({1, 1, 1, 1, 2})}, {}}, {"rank 1 to 4"});
  AddRecipe({"DiagPart", {F({2, 3, 2, 3})}, {}});
  Both("an odd rank", {"DiagPart", {F({2, 3, 2})}, {}}, {"even rank"});
  Both("unequal halves", {"DiagPart", {F({2, 3, 3, 2})}, {}}, {"equal"});
  AddRecipe({"MatrixDiag", {F({2, 3})}, {}});
  Both("a scalar diagonal", {"MatrixDiag", {F({})}, {}}, {"rank 1"});
  Both("a rank-8 diagonal", {"MatrixDiag", {F({1, 1, 1, 1, 1, 1, 1, 2})}, {}}, {"rank 1 to 7"});
  AddRecipe({"MatrixDiagPart", {F({2, 3, 4})}, {}});
  Both("a vector", {"MatrixDiagPart", {F({3})}, {}}, {"rank >= 2"});
  AddRecipe({"MatrixSetDiag", {F({2, 3, 4}), F({2, 3})}, {}});
  Both("a diagonal of the wrong length", {"MatrixSetDiag", {F({2, 3, 4}), F({2, 4})}, {}},
       {"[2,3]"});
  Both("a vector input", {"MatrixSetDiag", {F({3}), F({3})}, {}}, {"rank >= 2"});
  AddRecipe({"MatrixBandPart", {F({3, 4}), L({}, {1}), L({}, {-1})}, {}});
  Both("num_lower past the rows", {"MatrixBandPart", {F({3, 4}), L({}, {4}), L({}, {0})}, {}},
       {"num_lower 4"});
  Both("num_upper past the columns", {"MatrixBandPart", {F({3, 4}), L({}, {0}), L({}, {5})}, {}},
       {"num_upper 5"});
  Both("a vector bound", {"MatrixBandPart", {F({3, 4}), L({1}, {0}), L({}, {0})}, {}},
       {"num_lower"});
  Both("a vector input", {"MatrixBandPart", {F({4}), L({}, {0}), L({}, {0})}, {}}, {"rank >= 2"});
}

void CheckNumerics() {
  const AttrMap msg = {{"message", std::string("checked")}};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  AddRecipe({"CheckNumerics", {F({2, 2})}, msg});
  AddCase("a NaN", {"CheckNumerics", {F({2, 2}, {1, nan, 2, 3})}, msg}, Where::kRun, kInvalid,
          {"checked : Tensor had NaN values"});
  AddCase("an Inf", {"CheckNumerics", {F({3}, {-inf, 0, 0})}, msg}, Where::kRun, kInvalid,
          {"checked : Tensor had Inf values"});
  AddCase("int32 values", {"CheckNumerics", {I({2}, {1, 2})}, msg}, kConstruction, kInvalid,
          {"int32"});
}

void Lrn() {
  AddRecipe({"LRN", {F({1, 2, 2, 3})}, {}});
  AddRecipe({"LRNGrad", {F({1, 2, 2, 3}), F({1, 2, 2, 3}), F({1, 2, 2, 3})}, {}});
  Both("a 3-D input", {"LRN", {F({2, 2, 3})}, {}}, {"4-D"});
  Both("inputs of two shapes", {"LRNGrad", {F({1, 2, 2, 3}), F({1, 2, 2, 3}), F({1, 2, 3, 2})}, {}},
       {"one shape"});
  AddCase("a negative depth_radius", {"LRN", {F({1, 2, 2, 3})}, {{"depth_radius", int64_t{-1}}}},
          kConstruction, kInvalid, {"depth_radius"});
  AddCase("an infinite beta",
          {"LRN", {F({1, 2, 2, 3})}, {{"beta", std::numeric_limits<float>::infinity()}}},
          kConstruction, kInvalid, {"finite"});
  AddCase("int32 input", {"LRN", {I({1, 2, 2, 3})}, {}}, kConstruction, kInvalid, {"int32"});
}

const bool kRegistered = [] {
  Lrn();
  CheckNumerics();
  Roll();
  ReverseSequence();
  MirrorPads();
  SpaceDepth();
  BatchSpace();
  Diagonals();
  return true;
}();

}  // namespace bad_input_cases_rearrange
}  // namespace
}  // namespace rill::testing
