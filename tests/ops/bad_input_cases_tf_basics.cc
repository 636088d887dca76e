// Bad-input cases of TensorFlow's small everyday ops: All, Any, IsNan, IsInf, IsFinite,
// Erfc, Rint, Rank, BroadcastArgs, LinSpace, Snapshot, PreventGradient, IdentityN and the
// TensorScatter ops, the variable scatters.
#include "bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_tf_basics {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

void PredicateCases() {
  const Tensor b23 = FromDoubles(DT_BOOL, {2, 3}, {1, 0, 1, 0, 1, 1});
  for (const char* op : {"All", "Any"}) {
    AddRecipe({op, {b23, I({1}, {1})}, {}});
    Both("a reduction axis past the rank", {op, {b23, I({1}, {2})}, {}}, {"2"});
    Both("a negative axis past the rank", {op, {b23, I({1}, {-3})}, {}}, {"-3"});
    Both("axes of rank 2", {op, {b23, I({1, 1}, {0})}, {}});
    AddCase("a float input", {op, {F({2, 3}), I({1}, {1})}, {}}, kConstruction, kInvalid,
            {"float"});
  }
  for (const char* op : {"IsNan", "IsInf", "IsFinite", "Erfc", "Rint"}) {
    AddRecipe({op, {F({2, 3})}, {}});
    AddCase("an int32 input", {op, {I({2, 3})}, {}}, kConstruction, kInvalid, {"int32"});
  }
}

void ShapeHelperCases() {
  AddRecipe({"Rank", {F({2, 3})}, {}});
  AddRecipe({"BroadcastArgs", {I({2}, {2, 3}), I({1}, {3})}, {}});
  Both("a shape of rank 2", {"BroadcastArgs", {I({1, 2}, {2, 3}), I({1}, {3})}, {}});
  AddCase("shapes that do not broadcast", {"BroadcastArgs", {I({2}, {2, 3}), I({1}, {4})}, {}},
          kRun, kInvalid, {"[2,3]", "[4]"});
  AddCase("a negative dim", {"BroadcastArgs", {I({2}, {2, -3}), I({1}, {3})}, {}}, kRun, kInvalid,
          {"negative"});
  AddCase("float shapes", {"BroadcastArgs", {F({2}), F({1})}, {}}, kConstruction, kInvalid,
          {"float"});

  AddRecipe({"LinSpace", {F({}, {0}), F({}, {1}), I({}, {5})}, {}});
  Both("num 0", {"LinSpace", {F({}, {0}), F({}, {1}), I({}, {0})}, {}}, {"num", "0"});
  Both("a negative num", {"LinSpace", {F({}, {0}), F({}, {1}), I({}, {-4})}, {}}, {"-4"});
  Both("a start that is not a scalar", {"LinSpace", {F({2}), F({}, {1}), I({}, {5})}, {}},
       {"start", "[2]"});
  Both("a stop that is not a scalar", {"LinSpace", {F({}, {0}), F({1, 1}), I({}, {5})}, {}},
       {"stop", "[1,1]"});
  Both("a num that is not a scalar", {"LinSpace", {F({}, {0}), F({}, {1}), I({2}, {5, 6})}, {}},
       {"num", "[2]"});
  AddCase("int32 ends", {"LinSpace", {I({}, {0}), I({}, {1}), I({}, {5})}, {}}, kConstruction,
          kInvalid, {"int32"});
}

void IdentityCases() {
  AddRecipe({"Snapshot", {F({2, 3})}, {}});
  AddRecipe({"GuaranteeConst", {F({2, 3})}, {}});
  AddRecipe({"PreventGradient", {F({2, 3})}, {{"message", std::string("no")}}});
  AddRecipe({"IdentityN", {F({2, 3}), I({2}, {1, 2})}, {}});
  AddCase("a T that is not the inputs' dtypes",
          {"IdentityN", {F({2, 3}), I({2}, {1, 2})}, {{"T", std::vector<DataType>{DT_FLOAT}}}},
          kConstruction, kInvalid, {"int32"});
  AddCase("a message that is not a string",
          {"PreventGradient", {F({2, 3})}, {{"message", int64_t{3}}}}, kConstruction, kInvalid,
          {"message"});
}

// Ops that scatter by index tuples (tensor or variable, indices [m..., K], updates).
void IndexTupleCases(const char* op) {
  AddRecipe({op, {F({4, 2}), I({3, 1}, {3, 0, 3}), F({3, 2})}, {}});
  AddCase("an index past the first dim", {op, {F({4, 2}), I({3, 1}, {3, 4, 0}), F({3, 2})}, {}},
          kRun, kInvalid, {"4"});
  AddCase("a negative index", {op, {F({4, 2}), I({3, 1}, {3, -1, 0}), F({3, 2})}, {}}, kRun,
          kInvalid, {"-1"});
  Both("updates of the wrong shape", {op, {F({4, 2}), I({3, 1}, {3, 0, 3}), F({3, 3})}, {}},
       {"[3,2]", "[3,3]"});
  Both("tuples longer than the tensor's rank", {op, {F({4}), I({1, 2}, {0, 0}), F({1})}, {}},
       {"2"});
  Both("scalar indices", {op, {F({4}), I({}, {0}), F({})}, {}});
}

void TensorScatterCases() {
  for (const char* op : {"TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub",
                         "TensorScatterMin", "TensorScatterMax"}) {
    IndexTupleCases(op);
  }
}

// The variable scatters: ref input 0 is a variable initialized to the value given.
void VariableScatterCases() {
  for (const char* op : {"ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv",
                         "ScatterMin", "ScatterMax"}) {
    AddRecipe({op, {F({4, 2}), I({3}, {3, 0, 3}), F({3, 2})}, {}});
    AddCase("an index past the first dim", {op, {F({4, 2}), I({3}, {3, 4, 0}), F({3, 2})}, {}},
            kRun, kInvalid, {"4"});
    AddCase("a negative index", {op, {F({4, 2}), I({3}, {3, -1, 0}), F({3, 2})}, {}}, kRun,
            kInvalid, {"-1"});
    Both("updates of the wrong shape", {op, {F({4, 2}), I({3}, {3, 0, 3}), F({3, 3})}, {}},
         {"[3,2]", "[3,3]"});
    Both("updates missing the indices' dims", {op, {F({4, 2}), I({3}, {3, 0, 3}), F({2})}, {}},
         {"[3,2]"});
    // (Refused when the graph is built: the variable's shape is known there.)
    AddCase("a scalar variable", {op, {F({}), I({1}, {0}), F({1})}, {}}, kConstruction, kInvalid,
            {"rank >= 1"});
  }
  AddCase("an integer division by zero",
          {"ScatterDiv", {I({3}, {4, 6, 8}), I({2}, {0, 2}), I({2}, {2, 0})}, {}}, kRun, kInvalid,
          {"division by zero"});
  for (const char* op : {"ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub"}) IndexTupleCases(op);
}

const bool kRegistered = [] {
  VariableScatterCases();
  PredicateCases();
  ShapeHelperCases();
  IdentityCases();
  TensorScatterCases();
  return true;
}();

}  // namespace bad_input_cases_tf_basics
}  // namespace
}  // namespace rill::testing
