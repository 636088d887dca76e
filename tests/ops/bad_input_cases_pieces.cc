// Valid recipes and op-specific bad inputs: Tile, ReverseV2, Reverse, Pack, Unpack, Split,
// SplitV, Range, Select, SelectV2, Where, Gather, GatherV2, UnsortedSegmentSum, Cumsum and
// Cumprod.
#include <cstdint>
#include <limits>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_pieces {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
constexpr Where kConstruction = Where::kConstruction;

Tensor B(std::vector<int64_t> shape, std::vector<double> v) {
  return FromDoubles(DT_BOOL, TensorShape(shape), v);
}

void Tile() {
  AddRecipe({"Tile", {F({2, 3}), I({2}, {2, 1})}, {}});
  Both("multiples of the wrong length", {"Tile", {F({2, 3}), I({3}, {1, 1, 1})}, {}},
       {"multiples", "[2,3]"});
  Both("a negative multiple", {"Tile", {F({2, 3}), I({2}, {1, -2})}, {}}, {"negative"});
  Both("multiples that are not a vector", {"Tile", {F({2, 3}), I({1, 2}, {1, 1})}, {}},
       {"multiples"});
  const int32_t big = std::numeric_limits<int32_t>::max();
  Both("a tiling whose element count overflows", {"Tile", {F({2, 3}), I({2}, {big, big})}, {}},
       {"[2,3]"});
}

void Reverse() {
  AddRecipe({"ReverseV2", {F({2, 3}), I({1}, {1})}, {}});
  Both("an axis past the rank", {"ReverseV2", {F({2, 3}), I({1}, {2})}, {}}, {"axis 2", "rank 2"});
  Both("a negative axis past the rank", {"ReverseV2", {F({2, 3}), I({1}, {-3})}, {}}, {"axis -3"});
  Both("one axis given twice", {"ReverseV2", {F({2, 3}), I({2}, {1, -1})}, {}}, {"more than once"});
  Both("an axis that is not a vector", {"ReverseV2", {F({2, 3}), I({1, 1}, {0})}, {}}, {"axis"});
  Both("an axis for a scalar", {"ReverseV2", {F({}), I({1}, {0})}, {}}, {"rank 0"});
  AddCase("a float axis", {"ReverseV2", {F({2, 3}), F({1}, {1})}, {}}, kConstruction,
          absl::StatusCode::kInvalidArgument, {"float"});
}

void ReverseDims() {
  AddRecipe({"Reverse", {F({2, 3}), B({2}, {1, 0})}, {}});
  Both("dims shorter than the rank", {"Reverse", {F({2, 3}), B({1}, {1})}, {}},
       {"input has 2, dims has 1"});
  Both("dims longer than the rank", {"Reverse", {F({2, 3}), B({3}, {1, 0, 1})}, {}},
       {"input has 2, dims has 3"});
  Both("dims that are not a vector", {"Reverse", {F({2, 3}), B({1, 2}, {1, 0})}, {}}, {"dims"});
  Both("dims for a scalar", {"Reverse", {F({}), B({1}, {1})}, {}}, {"input has 0"});
  AddCase("float dims", {"Reverse", {F({2, 3}), F({2}, {1, 0})}, {}}, kConstruction, kInvalid,
          {"float"});
  AddCase("int dims", {"Reverse", {F({2, 3}), I({2}, {1, 0})}, {}}, kConstruction, kInvalid,
          {"int32"});
}

void PackUnpack() {
  AddRecipe({"Pack", {F({2, 3}), F({2, 3})}, {}});
  Both("inputs of different shapes", {"Pack", {F({2, 3}), F({3, 2})}, {}}, {"[3,2]"});
  Both("an axis past the output's rank", {"Pack", {F({2, 3}), F({2, 3})}, {{"axis", int64_t{3}}}},
       {"3"});
  Both("a negative axis past the output's rank",
       {"Pack", {F({2, 3}), F({2, 3})}, {{"axis", int64_t{-4}}}}, {"-4"});
  Both("inputs of rank 8 (the output would have rank 9)",
       {"Pack", {F({1, 1, 1, 1, 1, 1, 1, 1}), F({1, 1, 1, 1, 1, 1, 1, 1})}, {}}, {"rank"});

  AddRecipe({"Unpack", {F({3, 2})}, {{"num", int64_t{3}}}});
  Both("num other than the unstacked dim", {"Unpack", {F({3, 2})}, {{"num", int64_t{2}}}},
       {"num", "[3,2]"});
  Both("an axis past the rank",
       {"Unpack", {F({3, 2})}, {{"num", int64_t{3}}, {"axis", int64_t{2}}}}, {"2"});
  Both("a scalar input", {"Unpack", {F({})}, {{"num", int64_t{1}}}}, {"scalar"});
  AddCase("a negative num", {"Unpack", {F({3, 2})}, {{"num", int64_t{-1}}}}, kConstruction,
          kInvalid, {"num"});
  AddCase("a num of 10^12 outputs", {"Unpack", {F({3, 2})}, {{"num", int64_t{1000000000000}}}},
          kConstruction, kInvalid, {"num"});
}

void Splits() {
  AddRecipe({"Split", {I({}, {1}), F({2, 6})}, {{"num_split", int64_t{3}}}});
  Both("a num_split that does not divide the dim",
       {"Split", {I({}, {1}), F({2, 6})}, {{"num_split", int64_t{4}}}}, {"4", "[2,6]"});
  Both("an axis past the rank", {"Split", {I({}, {2}), F({2, 6})}, {{"num_split", int64_t{2}}}},
       {"2"});
  Both("an axis that is not a scalar",
       {"Split", {I({1}, {1}), F({2, 6})}, {{"num_split", int64_t{2}}}}, {"split_dim"});
  Both("a scalar value", {"Split", {I({}, {0}), F({})}, {{"num_split", int64_t{1}}}});
  AddCase("num_split 0", {"Split", {I({}, {1}), F({2, 6})}, {{"num_split", int64_t{0}}}},
          kConstruction, kInvalid, {"num_split"});

  const AttrMap three = {{"num_split", int64_t{3}}};
  AddRecipe({"SplitV", {F({2, 6}), I({3}, {1, -1, 2}), I({}, {1})}, three});
  Both("sizes that do not add up", {"SplitV", {F({2, 6}), I({3}, {1, 1, 1}), I({}, {1})}, three},
       {"size_splits"});
  Both("two sizes of -1", {"SplitV", {F({2, 6}), I({3}, {-1, -1, 1}), I({}, {1})}, three}, {"-1"});
  Both("a negative size", {"SplitV", {F({2, 6}), I({3}, {-2, 7, 1}), I({}, {1})}, three},
       {"negative"});
  Both("sizes more than the dim with a -1",
       {"SplitV", {F({2, 6}), I({3}, {5, -1, 3}), I({}, {1})}, three}, {"size_splits"});
  Both("size_splits of another length than num_split",
       {"SplitV", {F({2, 6}), I({2}, {1, 5}), I({}, {1})}, three}, {"num_split"});
  Both("an axis past the rank", {"SplitV", {F({2, 6}), I({3}, {1, -1, 2}), I({}, {-3})}, three},
       {"-3"});
}

void RangeCases() {
  AddRecipe({"Range", {I({}, {0}), I({}, {5}), I({}, {1})}, {}});
  Both("delta 0", {"Range", {I({}, {0}), I({}, {5}), I({}, {0})}, {}}, {"delta"});
  Both("a limit below start with a positive delta",
       {"Range", {I({}, {5}), I({}, {0}), I({}, {1})}, {}}, {"limit"});
  Both("a limit above start with a negative delta",
       {"Range", {F({}, {0}), F({}, {5}), F({}, {-1})}, {}}, {"limit"});
  Both("an infinite limit",
       {"Range", {F({}, {0}), F({}, {std::numeric_limits<float>::infinity()}), F({}, {1})}, {}},
       {"finite"});
  Both("a start that is not a scalar", {"Range", {I({2}, {0, 1}), I({}, {5}), I({}, {1})}, {}},
       {"start"});
  Both("more elements than int64 counts",
       {"Range", {F({}, {0}), F({}, {3e38f}), F({}, {1e-30f})}, {}}, {"int64"});
  AddCase("start and limit of different dtypes",
          {"Range", {I({}, {0}), F({}, {5}), I({}, {1})}, {}}, kConstruction, kInvalid, {"float"});
}

void Selects() {
  const Tensor c = B({2, 3}, {1, 0, 1, 0, 1, 1});
  AddRecipe({"Select", {c, F({2, 3}), F({2, 3})}, {}});
  Both("t and e of different shapes", {"Select", {c, F({2, 3}), F({3})}, {}}, {"[2,3]", "[3]"});
  Both("a condition of another shape",
       {"Select", {B({3, 2}, {1, 0, 1, 0, 1, 1}), F({2, 3}), F({2, 3})}, {}}, {"[3,2]"});
  Both("a row condition of the wrong length",
       {"Select", {B({3}, {1, 0, 1}), F({2, 3}), F({2, 3})}, {}}, {"[3]"});
  AddCase("a float condition", {"Select", {F({2, 3}), F({2, 3}), F({2, 3})}, {}}, kConstruction,
          kInvalid, {"bool"});
  AddRecipe({"SelectV2", {B({2, 1}, {1, 0}), F({3}), F({})}, {}});
  Both("t and e that do not broadcast", {"SelectV2", {c, F({2, 3}), F({2})}, {}}, {"[2]"});
  Both("a condition that does not broadcast",
       {"SelectV2", {B({4}, {1, 0, 1, 0}), F({2, 3}), F({2, 3})}, {}}, {"[4]"});
  Both("a condition that does not broadcast in a middle dim",
       {"SelectV2", {B({2, 2, 1}, {1, 0, 1, 0}), F({3, 1}), F({3})}, {}}, {"[2,2,1]"});
  AddCase("t and e of different dtypes", {"SelectV2", {c, F({2, 3}), I({2, 3})}, {}}, kConstruction,
          kInvalid, {"int32"});
  AddRecipe({"Where", {c}, {}});
}

void Gathers() {
  AddRecipe({"Gather", {F({3, 2}), I({2}, {2, 0})}, {}});
  AddCase("an index past the rows", {"Gather", {F({3, 2}), I({2}, {3, 0})}, {}}, Where::kRun,
          kInvalid, {"indices[0] = 3", "[0, 3)"});
  AddCase("a negative index", {"Gather", {F({3, 2}), I({2}, {0, -1})}, {}}, Where::kRun, kInvalid,
          {"indices[1] = -1"});
  Both("scalar params", {"Gather", {F({}), I({1}, {0})}, {}}, {"scalar"});
  AddCase("float indices", {"Gather", {F({3, 2}), F({2})}, {}}, kConstruction, kInvalid, {"float"});
  AddRecipe({"GatherV2", {F({2, 3, 4}), I({2}, {1, 0}), I({}, {1})}, {}});
  Both("an axis past the rank", {"GatherV2", {F({2, 3, 4}), I({2}, {1, 0}), I({}, {3})}, {}},
       {"3"});
  Both("an axis that is not a scalar",
       {"GatherV2", {F({2, 3, 4}), I({2}, {1, 0}), I({1}, {1})}, {}}, {"axis"});
  Both("batch_dims past the axis",
       {"GatherV2",
        {F({2, 3, 4}), I({2, 2}, {1, 0, 1, 0}), I({}, {0})},
        {{"batch_dims", int64_t{1}}}},
       {"batch_dims (1) must be less than or equal to axis (0)"});
  Both("batch_dims past indices' rank",
       {"GatherV2", {F({2, 3, 4}), I({2}, {1, 0}), I({}, {2})}, {{"batch_dims", int64_t{-2}}}},
       {"Expected batch_dims in the range [-1, 1], but got -2"});
  Both("batch dims that differ",
       {"GatherV2", {F({2, 3, 4}), I({3, 1}, {1, 0, 1}), I({}, {2})}, {{"batch_dims", int64_t{1}}}},
       {"batch dimension"});
  AddCase("an index past the axis", {"GatherV2", {F({2, 3, 4}), I({2}, {1, 4}), I({}, {2})}, {}},
          Where::kRun, kInvalid, {"indices[1] = 4", "[0, 4)"});
  AddCase("a result of rank 9",
          {"GatherV2", {F({2, 1, 1, 1, 1}), I({1, 1, 1, 1, 1}, {0}), I({}, {0})}, {}},
          kConstruction, kInvalid, {"rank"});

  AddRecipe({"GatherNd", {F({3, 2}), I({2, 2}, {2, 1, 0, 0})}, {}});
  AddCase("a tuple entry past its dim", {"GatherNd", {F({3, 2}), I({1, 2}, {0, 2})}, {}},
          Where::kRun, kInvalid,
          {"indices[0] = [0, 2] does not index into param shape [3,2]", "[0, 2)"});
  AddCase("a negative tuple entry", {"GatherNd", {F({3, 2}), I({1, 2}, {-1, 0})}, {}}, Where::kRun,
          kInvalid, {"indices[0] = [-1, 0]", "entry 0, -1,"});
  AddCase("a bad tuple of 3-D indices", {"GatherNd", {F({3, 2}), I({2, 2, 1}, {0, 1, 2, 3})}, {}},
          Where::kRun, kInvalid, {"indices[1,1] = [3] does not index into param shape [3,2]"});
  Both("tuples longer than params' rank", {"GatherNd", {F({3, 2}), I({1, 3}, {0, 0, 0})}, {}},
       {"3 entries", "rank 2"});
  Both("scalar indices", {"GatherNd", {F({3, 2}), I({}, {0})}, {}}, {"rank >= 1"});
  AddCase("a result of rank 9", {"GatherNd", {F({2, 1, 1, 1, 1}), I({1, 1, 1, 1, 1, 0}, {})}, {}},
          kConstruction, kInvalid, {"rank 10"});
  AddRecipe({"ScatterNd", {I({2, 1}, {0, 2}), F({2, 2}), I({2}, {3, 2})}, {}});
  AddCase("a tuple past the shape",
          {"ScatterNd", {I({2, 1}, {0, 3}), F({2, 2}), I({2}, {3, 2})}, {}}, Where::kRun, kInvalid,
          {"indices[1] = [3] does not index into shape [3,2]", "[0, 3)"});
  Both("updates of the wrong shape",
       {"ScatterNd", {I({2, 1}, {0, 2}), F({2, 3}), I({2}, {3, 2})}, {}},
       {"updates must have shape [2,2]"});
  Both("a negative dim in shape",
       {"ScatterNd", {I({2, 1}, {0, 2}), F({2, 2}), I({2}, {3, -2})}, {}}, {"shape"});
  Both("tuples longer than the shape's rank",
       {"ScatterNd", {I({2, 3}, {0, 0, 0, 0, 0, 0}), F({2}), I({2}, {3, 2})}, {}}, {"3 entries"});
  AddCase("bool updates",
          {"ScatterNd", {I({2, 1}, {0, 2}), B({2, 2}, {1, 0, 1, 0}), I({2}, {3, 2})}, {}},
          kConstruction, kInvalid, {"bool"});

  AddRecipe({"UnsortedSegmentSum", {F({4, 2}), I({4}, {0, 1, 0, -1}), I({}, {2})}, {}});
  AddCase("a segment id past num_segments",
          {"UnsortedSegmentSum", {F({4, 2}), I({4}, {0, 2, 0, 1}), I({}, {2})}, {}}, Where::kRun,
          kInvalid, {"segment_ids[1] = 2"});
  Both("segment_ids that are not a prefix of data's shape",
       {"UnsortedSegmentSum", {F({4, 2}), I({3}, {0, 1, 0}), I({}, {2})}, {}}, {"[3]", "[4,2]"});
  Both("a negative num_segments",
       {"UnsortedSegmentSum", {F({4, 2}), I({4}, {0, 1, 0, 1}), I({}, {-1})}, {}},
       {"num_segments"});
  Both("num_segments that is not a scalar",
       {"UnsortedSegmentSum", {F({4, 2}), I({4}, {0, 1, 0, 1}), I({1}, {2})}, {}},
       {"num_segments"});
  AddCase("bool data", {"UnsortedSegmentSum", {B({2}, {1, 0}), I({2}, {0, 1}), I({}, {2})}, {}},
          kConstruction, kInvalid, {"bool"});
}

void Scans() {
  for (const char* op : {"Cumsum", "Cumprod"}) {
    AddRecipe({op, {F({2, 3}), I({}, {1})}, {}});
    Both("an axis past the rank", {op, {F({2, 3}), I({}, {2})}, {}}, {"2"});
    Both("a negative axis past the rank", {op, {F({2, 3}), I({}, {-3})}, {}}, {"-3"});
    Both("an axis that is not a scalar", {op, {F({2, 3}), I({1}, {1})}, {}}, {"axis"});
    Both("a scalar x", {op, {F({}), I({}, {0})}, {}}, {"scalar"});
    AddCase("bool x", {op, {B({2}, {1, 0}), I({}, {0})}, {}}, kConstruction, kInvalid, {"bool"});
  }
}

const bool kRegistered = [] {
  Scans();
  Gathers();
  Tile();
  Reverse();
  ReverseDims();
  PackUnpack();
  Splits();
  RangeCases();
  Selects();
  return true;
}();

}  // namespace bad_input_cases_pieces
}  // namespace
}  // namespace rill::testing
