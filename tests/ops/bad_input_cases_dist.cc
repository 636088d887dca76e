// Valid recipes and op-specific bad inputs of the collectives (run in this test binary's
// job of one rank: tests/runtime/dist_test.cc starts it before any test).
#include <cstdint>
#include <string>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_dist {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
constexpr Where kConstruction = Where::kConstruction;

void AllReduce() {
  AddRecipe({"CollectiveAllReduce", {F({2, 3})}, {}});
  for (const char* r : {"max", "", "Sum", "mean "}) {
    AddCase(std::string("reduction '") + r + "'",
            {"CollectiveAllReduce", {F({2, 3})}, {{"reduction", std::string(r)}}}, kConstruction,
            kInvalid, {"reduction must be sum or mean"});
  }
}

void Broadcast() {
  for (const char* op : {"CollectiveBroadcast", "_CollectiveBroadcastGrad"}) {
    AddRecipe({op, {F({2})}, {}});
    AddCase("a negative root", {op, {F({2})}, {{"root_rank", int64_t{-1}}}}, kConstruction,
            kInvalid, {"-1"});
    AddCase("a root past the job's ranks", {op, {F({2})}, {{"root_rank", int64_t{1}}}}, Where::kRun,
            kInvalid, {"root_rank 1", "job of 1"});
    AddCase("a root of 2^40", {op, {F({2})}, {{"root_rank", int64_t{1} << 40}}}, Where::kRun,
            kInvalid, {"1099511627776"});
  }
}

void AllGather() {
  AddRecipe({"CollectiveAllGather", {F({2, 3})}, {}});
  Both("a scalar input", {"CollectiveAllGather", {F({})}, {}}, {"rank >= 1"});
  AddRecipe({"_CollectiveAllGatherGrad", {F({2, 3}), F({2, 3})}, {}});
  Both("a scalar x", {"_CollectiveAllGatherGrad", {F({2, 3}), F({})}, {}}, {"[]"});
  Both("a grad of another rank", {"_CollectiveAllGatherGrad", {F({2}), F({2, 3})}, {}}, {"[2]"});
  Both("rows of another width", {"_CollectiveAllGatherGrad", {F({2, 4}), F({2, 3})}, {}},
       {"[2,4]", "[2,3]"});
  AddCase("more gradient rows than were gathered",
          {"_CollectiveAllGatherGrad", {F({3, 3}), F({2, 3})}, {}}, Where::kRun, kInvalid,
          {"3 rows", "gathered 2"});
}

void RankShare() {
  AddRecipe({"_RankShare", {F({2, 3})}, {}});
  AddCase("an integer x", {"_RankShare", {I({2}, {4, 6})}, {}}, kConstruction, kInvalid, {"int32"});
}

void ReplicaUpdate() {
  const char* op = "_MatMulAllReduceApplyGradientDescent";
  const Tensor lr = F({}, {0.1f});
  AddRecipe({op, {F({3, 4}), lr, F({3, 2}), F({2, 4})}, {}});
  Both("a product of the wrong shape", {op, {F({3, 4}), lr, F({3, 2}), F({2, 5})}, {}},
       {"[3,5]", "[3,4]"});
  Both("inner dimensions that differ", {op, {F({3, 4}), lr, F({3, 2}), F({3, 4})}, {}});
  Both("an alpha that is not a scalar", {op, {F({3, 4}), F({2}), F({3, 2}), F({2, 4})}, {}});
  Both("a of rank 3", {op, {F({3, 4}), lr, F({3, 2, 1}), F({2, 4})}, {}});
  AddCase("integers", {op, {I({1, 1}, {1}), I({}, {1}), I({1, 1}, {1}), I({1, 1}, {1})}, {}},
          kConstruction, kInvalid, {"int32"});
}

const bool kRegistered = [] {
  ReplicaUpdate();
  RankShare();
  AllReduce();
  Broadcast();
  AllGather();
  return true;
}();

}  // namespace bad_input_cases_dist
}  // namespace
}  // namespace rill::testing
