// Valid recipes and op-specific bad inputs of the segment reductions: ids out of order,
// negative or past the segment count, indices past data's rows, ids that do not fit the
// data's shape, counts that should be non-negative scalars, each at construction (constants)
// and in the kernel (fed).
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_segment {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

void Sorted() {
  for (const char* op : {"SegmentSum", "SegmentMean", "SegmentProd", "SegmentMax", "SegmentMin"}) {
    AddRecipe({op, {F({3, 2}), I({3}, {0, 0, 2})}});
    Both("segment ids out of order", {op, {F({3, 2}), I({3}, {1, 0, 0})}},
         {"segment_ids[1] = 0", "segment_ids[0] = 1"});
    Both("a negative segment id", {op, {F({3, 2}), I({3}, {-1, 0, 0})}}, {"-1", ">= 0"});
    Both("an id per row missing", {op, {F({3, 2}), I({2}, {0, 0})}}, {"[2]", "[3,2]"});
    Both("segment ids of two dims", {op, {F({3, 2}), I({3, 1}, {0, 0, 0})}}, {"vector", "[3,1]"});
    Both("scalar data", {op, {F({}), I({1}, {0})}}, {"rank >= 1"});
  }
}

void Unsorted() {
  for (const char* op : {"UnsortedSegmentProd", "UnsortedSegmentMax", "UnsortedSegmentMin"}) {
    AddRecipe({op, {F({4, 2}), I({4}, {2, 0, -1, 2}), I({}, {3})}});
    Both("a segment id past num_segments", {op, {F({4, 2}), I({4}, {0, 3, 0, 1}), I({}, {3})}},
         {"segment_ids[1] = 3", "[0, 3)"});
    Both("segment_ids that are not a prefix of data's shape",
         {op, {F({4, 2}), I({3}, {0, 1, 0}), I({}, {2})}}, {"[3]", "[4,2]"});
    Both("a negative num_segments", {op, {F({4, 2}), I({4}, {0, 1, 0, 1}), I({}, {-1})}},
         {"num_segments", "-1"});
    Both("num_segments that is not a scalar", {op, {F({4, 2}), I({4}, {0, 1, 0, 1}), I({1}, {2})}},
         {"num_segments"});
  }
}

void Sparse() {
  for (const char* op : {"SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"}) {
    const std::string with = std::string(op) + "WithNumSegments";
    AddRecipe({op, {F({3, 2}), I({4}, {2, 0, 2, 1}), I({4}, {0, 0, 1, 3})}});
    AddRecipe({with, {F({3, 2}), I({2}, {2, 0}), I({2}, {0, 2}), I({}, {4})}});
    for (const std::string& name : {std::string(op), with}) {
      auto recipe = [&](Tensor indices, Tensor ids) {
        std::vector<Tensor> in = {F({3, 2}), std::move(indices), std::move(ids)};
        if (name == with) in.push_back(I({}, {4}));
        return Recipe(name, in);
      };
      Both("an index past data's rows", recipe(I({2}, {0, 3}), I({2}, {0, 1})),
           {"indices[1] = 3", "[0, 3)"});
      Both("a negative index", recipe(I({2}, {-1, 0}), I({2}, {0, 1})), {"indices[0] = -1"});
      Both("segment ids out of order", recipe(I({2}, {0, 1}), I({2}, {1, 0})),
           {"segment_ids[1] = 0"});
      Both("a segment id per index missing", recipe(I({2}, {0, 1}), I({1}, {0})), {"[1]", "[2]"});
      Both("indices of two dims", recipe(I({2, 1}, {0, 1}), I({2}, {0, 1})), {"indices", "[2,1]"});
    }
    Both("a segment id past num_segments",
         {with, {F({3, 2}), I({2}, {0, 1}), I({2}, {0, 4}), I({}, {4})}},
         {"not below num_segments 4"});
    Both("a negative num_segments",
         {with, {F({3, 2}), I({2}, {0, 1}), I({2}, {0, 1}), I({}, {-2})}}, {"num_segments", "-2"});
  }
}

void SparseGrads() {
  for (const char* op :
       {"SparseSegmentSumGrad", "SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad"}) {
    AddRecipe({op, {F({2, 3}), I({3}, {0, 4, 0}), I({3}, {1, 0, 1}), I({}, {5})}});
    Both("a segment id past grad's rows",
         {op, {F({2, 3}), I({2}, {0, 1}), I({2}, {0, 2}), I({}, {5})}},
         {"segment_ids[1] = 2", "[0, 2)"});
    Both("an index past output_dim0", {op, {F({2, 3}), I({2}, {0, 5}), I({2}, {0, 1}), I({}, {5})}},
         {"indices[1] = 5", "[0, 5)"});
    Both("a negative output_dim0", {op, {F({2, 3}), I({2}, {0, 1}), I({2}, {0, 1}), I({}, {-1})}},
         {"output_dim0", "-1"});
    Both("output_dim0 that is not a scalar",
         {op, {F({2, 3}), I({2}, {0, 1}), I({2}, {0, 1}), I({1}, {5})}}, {"output_dim0"});
    AddCase("int32 grad", {op, {I({2, 3}), I({2}, {0, 1}), I({2}, {0, 1}), I({}, {5})}},
            Where::kConstruction, kInvalid, {"int32"});
  }
}

const bool kRegistered = [] {
  Sorted();
  Unsorted();
  Sparse();
  SparseGrads();
  return true;
}();

}  // namespace bad_input_cases_segment
}  // namespace
}  // namespace rill::testing
