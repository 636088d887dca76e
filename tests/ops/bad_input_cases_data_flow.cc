// Valid recipes and op-specific bad inputs of DynamicPartition and the DynamicStitch ops:
// partitions out of range or not a prefix of data, negative indices, data that does not
// follow its indices' shape, rows of different shapes, lists of unequal length.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_data_flow {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

void PartitionCases() {
  const AttrMap two = {{"num_partitions", int64_t{2}}};
  AddRecipe({"DynamicPartition", {F({4, 3}), I({4}, {0, 1, 1, 0})}, two});
  AddCase("a partition past num_partitions (in the kernel)",
          {"DynamicPartition", {F({4, 3}), I({4}, {0, 1, 2, 0})}, two}, kRun, kInvalid,
          {"partitions[2] = 2"});
  AddCase("a negative partition (in the kernel)",
          {"DynamicPartition", {F({4, 3}), I({4}, {0, -1, 1, 0})}, two}, kRun, kInvalid,
          {"partitions[1] = -1"});
  Both("partitions that are not a prefix of data's shape",
       {"DynamicPartition", {F({4, 3}), I({3}, {0, 1, 1})}, two}, {"[3]", "[4,3]"});
  Both("partitions of higher rank than data",
       {"DynamicPartition", {F({4}), I({4, 1}, {0, 1, 1, 0})}, two}, {"[4,1]"});
  AddCase("num_partitions 0",
          {"DynamicPartition", {F({4, 3}), I({4}, {0, 0, 0, 0})}, {{"num_partitions", int64_t{0}}}},
          kConstruction, kInvalid, {"num_partitions"});
  AddCase("num_partitions past the output list limit",
          {"DynamicPartition",
           {F({4, 3}), I({4}, {0, 0, 0, 0})},
           {{"num_partitions", int64_t{1} << 20}}},
          kConstruction, kInvalid, {"num_partitions"});
}

void StitchCases() {
  for (const char* op : {"DynamicStitch", "ParallelDynamicStitch"}) {
    AddRecipe({op, {I({2}, {0, 2}), I({1}, {1}), F({2, 3}), F({1, 3})}});
    Both("a negative index", {op, {I({2}, {0, -2}), I({1}, {1}), F({2, 3}), F({1, 3})}}, {"-2"});
    Both("data that does not start with its indices' shape",
         {op, {I({2}, {0, 2}), I({1}, {1}), F({3, 3}), F({1, 3})}}, {"data[0]", "[3,3]"});
    Both("rows of different shapes", {op, {I({2}, {0, 2}), I({1}, {1}), F({2, 3}), F({1, 4})}},
         {"data[1]", "[1,4]"});
    Both("data of lower rank than its indices",
         {op, {I({2, 1}, {0, 2}), I({1}, {1}), F({2}), F({1})}}, {"data[0]"});
    AddCase("lists of unequal length", {op, {I({2}, {0, 2}), I({1}, {1}), F({2, 3})}},
            kConstruction, kInvalid, {"equally long"});
  }
}

const bool kRegistered = [] {
  PartitionCases();
  StitchCases();
  return true;
}();

}  // namespace bad_input_cases_data_flow
}  // namespace
}  // namespace rill::testing
