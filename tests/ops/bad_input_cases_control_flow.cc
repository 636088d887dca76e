// Valid recipes and op-specific bad inputs of If, PartitionedCall, StatefulPartitionedCall, While,
// _WhileRecord (While's loop run again for its gradient) and _LogRead (a value of its log):
// functions that do not fit the node are refused when it is added; values that do not fit a
// function's arguments, functions that fail, and loop variables that cannot be stacked are refused
// when it runs.
#include <string>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_control_flow {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
constexpr Where kConstruction = Where::kConstruction;

// A function of one arg of `dt` and `shape` whose returns `body` builds.
FunctionRef Fn(const std::string& name, DataType dt, PartialTensorShape shape,
               const std::function<std::vector<Output>(const Scope&, Output)>& body) {
  return *ops::MakeFunction(
      name, {dt}, {shape},
      [&](const Scope& s, const std::vector<Output>& a, std::vector<Output>* r) -> absl::Status {
        *r = body(s, a[0]);
        return s.status();
      });
}

AttrMap IfAttrs(FunctionRef then_f, FunctionRef else_f) {
  std::vector<DataType> tout = then_f->ret_types();
  return {{"Tout", tout}, {"then_branch", then_f}, {"else_branch", else_f}};
}

void IfCases() {
  const PartialTensorShape any;
  auto twice = Fn("twice", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Mul(s, x, 2.f)};
  });
  auto neg = Fn("neg", DT_FLOAT, any,
                [](const Scope& s, Output x) { return std::vector<Output>{ops::Neg(s, x)}; });
  const Tensor yes(true);
  AddRecipe({"If", {yes, F({2})}, IfAttrs(twice, neg)});
  auto of_int = Fn("of_int", DT_INT32, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Cast(s, x, DT_FLOAT)};
  });
  AddCase("a branch taking int32", {"If", {yes, F({2})}, IfAttrs(of_int, neg)}, kConstruction,
          kInvalid, {"then_branch", "takes [int32]", "[float]"});
  auto to_int = Fn("to_int", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Cast(s, x, DT_INT32)};
  });
  AddCase("branches returning other dtypes", {"If", {yes, F({2})}, IfAttrs(twice, to_int)},
          kConstruction, kInvalid, {"else_branch", "returns [int32]"});
  auto two = Fn("two", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Neg(s, x), ops::Neg(s, x)};
  });
  AddCase("a branch returning two values", {"If", {yes, F({2})}, IfAttrs(twice, two)},
          kConstruction, kInvalid, {"else_branch", "[float,float]"});
  auto of3 = Fn("of3", DT_FLOAT, PartialTensorShape({3}),
                [](const Scope& s, Output x) { return std::vector<Output>{ops::Neg(s, x)}; });
  Both("an input of another shape than the branch takes", {"If", {yes, F({2})}, IfAttrs(of3, of3)},
       {"[3]", "[2]"});
  auto reshape5 = Fn("reshape5", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Reshape(s, x, {5})};
  });
  AddCase("a branch that fails when it runs", {"If", {yes, F({2})}, IfAttrs(reshape5, reshape5)},
          Where::kRun, kInvalid, {"function 'reshape5'", "Reshape"});
  AttrMap none = IfAttrs(twice, neg);
  none["else_branch"] = FunctionRef();
  AddCase("no else_branch function", {"If", {yes, F({2})}, none}, kConstruction, kInvalid,
          {"holds no function"});
}

void WhileCases() {
  const PartialTensorShape scalar = TensorShape();
  auto below5 = Fn("below5", DT_FLOAT, scalar, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Less(s, x, 5.f)};
  });
  auto plus1 = Fn("plus1", DT_FLOAT, scalar, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Add(s, x, 1.f)};
  });
  auto attrs = [](FunctionRef c, FunctionRef b) {
    return AttrMap{{"cond", std::move(c)}, {"body", std::move(b)}};
  };
  const Tensor one = F({});
  AddRecipe({"While", {one}, attrs(below5, plus1)});
  auto pair = Fn("pair", DT_FLOAT, scalar, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Less(s, x, 5.f), ops::Less(s, x, 6.f)};
  });
  AddCase("a cond returning two values", {"While", {one}, attrs(pair, plus1)}, kConstruction,
          kInvalid, {"must return one scalar", "2 value(s)"});
  const PartialTensorShape any;
  auto vec = Fn("vec", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Less(s, ops::Reshape(s, x, {1}), 5.f)};
  });
  AddCase("a cond returning a vector", {"While", {one}, attrs(vec, plus1)}, kConstruction, kInvalid,
          {"one scalar", "[1]"});
  auto to_int = Fn("to_int", DT_FLOAT, scalar, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Cast(s, x, DT_INT32)};
  });
  AddCase("a body returning int32", {"While", {one}, attrs(below5, to_int)}, kConstruction,
          kInvalid, {"'body'", "returns [int32]"});
  auto grow = Fn("grow", DT_FLOAT, scalar, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Reshape(s, x, {1})};
  });
  AddCase("a body changing the scalar to [1]", {"While", {one}, attrs(below5, grow)}, kConstruction,
          kInvalid, {"cannot take", "[1]"});
  Both("a vector where the functions take a scalar", {"While", {F({2})}, attrs(below5, plus1)},
       {"[]", "[2]"});
  auto bad_vec = Fn("bad_body", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Reshape(s, x, {3})};
  });
  auto below5_any = Fn("below5_any", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{
        ops::Less(s, ops::Reshape(s, x, Tensor(DT_INT32, TensorShape({0}))), 5.f)};
  });
  AddCase("a body that fails when it runs", {"While", {one}, attrs(below5_any, bad_vec)},
          Where::kRun, kInvalid, {"function 'bad_body'", "Reshape"});
}

void WhileRecordCases() {
  const PartialTensorShape any;
  auto small = Fn("small", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Less(s, ops::Sum(s, ops::Reshape(s, x, {-1}), 0), 20.f)};
  });
  auto plus1 = Fn("plus1", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Add(s, x, 1.f)};
  });
  auto attrs = [](FunctionRef c, FunctionRef b, std::vector<int64_t> record,
                  std::vector<DataType> values, std::vector<DataType> layout = {DT_INT64}) {
    return AttrMap{{"cond", std::move(c)},
                   {"body", std::move(b)},
                   {"record", std::move(record)},
                   {"Thistory", std::move(values)},
                   {"Tlayout", std::move(layout)}};
  };
  const Tensor one = F({1});
  AddRecipe({"_WhileRecord", {one}, attrs(small, plus1, {0}, {DT_FLOAT})});
  AddCase("a recorded variable out of range",
          {"_WhileRecord", {one}, attrs(small, plus1, {1}, {DT_FLOAT})}, kConstruction, kInvalid,
          {"'record'[0] = 1", "1 variables"});
  AddCase("a negative recorded variable",
          {"_WhileRecord", {one}, attrs(small, plus1, {-1}, {DT_FLOAT})}, kConstruction, kInvalid,
          {"'record'[0] = -1"});
  AddCase("values of another dtype", {"_WhileRecord", {one}, attrs(small, plus1, {0}, {DT_INT32})},
          kConstruction, kInvalid, {"of dtype int32"});
  AddCase(
      "a log of a value the body does not return",
      {"_WhileRecord", {one}, attrs(small, plus1, {0}, {DT_FLOAT, DT_FLOAT}, {DT_INT64, DT_INT64})},
      kConstruction, kInvalid, {"'body'", "returns [float]", "[float,float]"});
  AddCase("fewer logs than recorded variables",
          {"_WhileRecord", {one}, attrs(small, plus1, {0, 0}, {DT_FLOAT})}, kConstruction, kInvalid,
          {"names 2 variables but 'Thistory' 1"});
  AddCase("a layout of int32",
          {"_WhileRecord", {one}, attrs(small, plus1, {0}, {DT_FLOAT}, {DT_INT32})}, kConstruction,
          kInvalid, {"'Tlayout' [int32]", "one int64 per log"});
  auto nest = Fn("nest", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Reshape(s, ops::Add(s, x, 1.f), {1, -1})};
  });
  AddCase(
      "a recorded variable that changes rank",
      {"_WhileRecord", {one}, attrs(small, nest, {0}, {DT_FLOAT})}, Where::kRun, kInvalid,
      {"loop variable 0 is [1] before iteration 0", "[1,1] before iteration 1", "keep their rank"});
}

// An int64 tensor of `shape` holding `values`.
Tensor L(std::vector<int64_t> shape, std::vector<int64_t> values) {
  Tensor t(DT_INT64, TensorShape(absl::MakeConstSpan(shape)));
  for (size_t i = 0; i < values.size(); ++i) t.base<int64_t>()[i] = values[i];
  return t;
}

void LogReadCases() {
  const Tensor values = F({4});
  const AttrMap of2 = {{"shape", PartialTensorShape({2})}};
  auto read = [&](Tensor layout, int64_t i, AttrMap attrs) {
    return Recipe("_LogRead", {values, std::move(layout), Tensor(i)}, std::move(attrs));
  };
  AddRecipe(read(L({2, 2}, {0, 2, 2, 2}), 1, of2));
  AddCase("an index past the log", read(L({2, 2}, {0, 2, 2, 2}), 2, of2), Where::kRun, kInvalid,
          {"index 2 is outside the log's 2 values"});
  AddCase("a negative index", read(L({2, 2}, {0, 2, 2, 2}), -1, of2), Where::kRun, kInvalid,
          {"index -1"});
  AddCase("a value past the end", read(L({1, 2}, {3, 2}), 0, of2), Where::kRun, kInvalid,
          {"2 elements from 3", "4 elements"});
  AddCase("a negative offset", read(L({1, 2}, {-1, 2}), 0, of2), Where::kRun, kInvalid,
          {"from -1"});
  AddCase("a negative dim", read(L({1, 2}, {0, -2}), 0, of2), Where::kRun, kInvalid, {"-2"});
  AddCase("a value of another shape than the attr",
          read(L({1, 2}, {0, 2}), 0, {{"shape", PartialTensorShape({3})}}), Where::kRun, kInvalid,
          {"is [2], not [3]"});
  Both("a layout that is a vector", read(L({2}, {0, 2}), 0, of2), {"[2]"});
}

// PartitionedCall and StatefulPartitionedCall: the same checks of f against the node.
void CallCases() {
  const PartialTensorShape any;
  auto twice = Fn("twice", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Mul(s, x, 2.f)};
  });
  auto of_int = Fn("of_int", DT_INT32, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Cast(s, x, DT_FLOAT)};
  });
  auto of3 = Fn("of3", DT_FLOAT, PartialTensorShape({3}),
                [](const Scope& s, Output x) { return std::vector<Output>{ops::Neg(s, x)}; });
  auto reshape5 = Fn("reshape5", DT_FLOAT, any, [](const Scope& s, Output x) {
    return std::vector<Output>{ops::Reshape(s, x, {5})};
  });
  auto attrs = [](FunctionRef f, std::vector<DataType> tout) {
    return AttrMap{{"Tout", std::move(tout)}, {"f", std::move(f)}};
  };
  for (const char* op : {"PartitionedCall", "StatefulPartitionedCall"}) {
    AddRecipe({op, {F({2})}, attrs(twice, {DT_FLOAT})});
    AddCase("a function taking int32", {op, {F({2})}, attrs(of_int, {DT_FLOAT})}, kConstruction,
            kInvalid, {"'f'", "takes [int32]", "[float]"});
    AddCase("Tout other than the function's returns", {op, {F({2})}, attrs(twice, {DT_INT32})},
            kConstruction, kInvalid, {"returns [float]", "[int32]"});
    Both("an input of another shape than the function takes",
         {op, {F({2})}, attrs(of3, {DT_FLOAT})}, {"[3]", "[2]"});
    AddCase("a function that fails when it runs", {op, {F({2})}, attrs(reshape5, {DT_FLOAT})},
            Where::kRun, kInvalid, {"function 'reshape5'", "Reshape"});
    AddCase("no function", {op, {F({2})}, attrs(FunctionRef(), {DT_FLOAT})}, kConstruction,
            kInvalid, {"holds no function"});
  }
}

const bool kRegistered = [] {
  IfCases();
  CallCases();
  WhileCases();
  WhileRecordCases();
  LogReadCases();
  return true;
}();

}  // namespace bad_input_cases_control_flow
}  // namespace
}  // namespace rill::testing
