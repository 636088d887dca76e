// Valid recipes and op-specific bad inputs: elementwise, math, array and shape ops.
#include <cstdint>

#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_array {

using enum Where;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

// One function a family of ops: one function of every case took GCC over a minute to
// optimize.

void ElementwiseCases() {
  for (const char* op :
       {"Abs",   "Exp",        "Log",   "Neg",      "Relu",         "Sigmoid",   "Sign",
        "Sqrt",  "Square",     "Tanh",  "Identity", "StopGradient", "OnesLike",  "ZerosLike",
        "Rsqrt", "Reciprocal", "Floor", "Ceil",     "Round",        "Sin",       "Cos",
        "Erf",   "Softplus",   "Relu6", "Elu",      "Selu",         "LeakyRelu", "Expm1",
        "Log1p", "Sinh",       "Cosh",  "Tan",      "Asin",         "Acos",      "Atan",
        "Asinh", "Acosh",      "Atanh", "Softsign", "Lgamma",       "Digamma"}) {
    AddRecipe({op, {F({2, 3})}, {}});
  }
  const AttrMap fits = {{"shape", PartialTensorShape({-1, 3})}};
  AddRecipe({"EnsureShape", {F({2, 3})}, fits});
  Both("a value of another width", {"EnsureShape", {F({2, 4})}, fits}, {"[2,4]", "[?,3]"});
  Both("a value of another rank", {"EnsureShape", {F({6})}, fits}, {"[6]", "[?,3]"});
  AddCase("a shape with a dim below -1",
          {"EnsureShape", {F({2, 3})}, {{"shape", PartialTensorShape({-2, 3})}}}, kConstruction,
          kInvalid, {"-2"});
  for (const char* op : {"FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Mod"}) {
    AddCase("an integer divisor of zero", {op, {I({3}, {2, 4, 1}), I({3}, {1, 0, 1})}, {}},
            Where::kRun, kInvalid, {"division by zero"});
  }
  AddCase("an integer Reciprocal of zero", {"Reciprocal", {I({3}, {2, 0, 1})}, {}}, Where::kRun,
          kInvalid, {"division by zero"});
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    AddRecipe({op, {F({2, 3})}, {}});
    Both("a scalar (rank 0) input", {op, {F({})}, {}}, {"rank"});
  }
  for (const char* op : {"Add",
                         "AddV2",
                         "Sub",
                         "Mul",
                         "Div",
                         "RealDiv",
                         "SquaredDifference",
                         "Pow",
                         "Maximum",
                         "Minimum",
                         "Equal",
                         "Less",
                         "Greater",
                         "NotEqual",
                         "LessEqual",
                         "GreaterEqual",
                         "Polygamma",
                         "FloorDiv",
                         "FloorMod",
                         "TruncateDiv",
                         "TruncateMod",
                         "Mod",
                         "Atan2",
                         "DivNoNan",
                         "MulNoNan",
                         "Xlogy",
                         "Xlog1py",
                         "Xdivy"}) {
    AddRecipe({op, {F({2, 3}), F({2, 3})}, {}});
    Both("shapes that do not broadcast", {op, {F({2, 3}), F({4})}, {}}, {"[2,3]", "[4]"});
    Both("shapes that do not broadcast in a middle dim", {op, {F({2, 3, 1}), F({4, 1})}, {}},
         {"[2,3,1]", "[4,1]"});
  }
  for (const char* op : {"ReluGrad", "SigmoidGrad", "TanhGrad", "Relu6Grad", "EluGrad", "SeluGrad",
                         "LeakyReluGrad"}) {
    AddRecipe({op, {F({2, 3}), F({2, 3})}, {}});
    Both("shapes that differ", {op, {F({2, 3}), F({3, 2})}, {}}, {"[2,3]", "[3,2]"});
    Both("one input broadcastable but not equal", {op, {F({2, 3}), F({3})}, {}}, {"[3]"});
  }
  const Tensor b23 = FromDoubles(DT_BOOL, {2, 3}, {1, 0, 1, 0, 1, 1});
  for (const char* op : {"LogicalAnd", "LogicalOr"}) {
    AddRecipe({op, {b23, b23}, {}});
    Both("shapes that do not broadcast", {op, {b23, FromDoubles(DT_BOOL, {4}, {1, 0, 1, 0})}, {}},
         {"[2,3]", "[4]"});
    AddCase("float operands", {op, {F({2, 3}), F({2, 3})}, {}}, kConstruction, kInvalid,
            {"bool", "float"});
  }
  AddRecipe({"LogicalNot", {b23}, {}});
  AddCase("a float operand", {"LogicalNot", {F({2, 3})}, {}}, kConstruction, kInvalid,
          {"bool", "float"});
  AddRecipe({"ClipByValue", {F({2, 3}), F({}, {2}), F({2, 3})}, {}});
  Both("a lower bound of another shape", {"ClipByValue", {F({2, 3}), F({3}), F({})}, {}},
       {"clip_value_min", "[2,3]", "[3]"});
  Both("an upper bound of another shape", {"ClipByValue", {F({2, 3}), F({}), F({3, 2})}, {}},
       {"clip_value_max", "[3,2]"});
  AddCase("bounds of another dtype", {"ClipByValue", {F({2, 3}), I({}, {0}), I({}, {1})}, {}},
          kConstruction, kInvalid, {"int32"});
  AddRecipe({"L2Loss", {F({2, 3})}, {}});
  AddCase("an integer input", {"L2Loss", {I({2, 3})}, {}}, kConstruction, kInvalid, {"int32"});
  AddRecipe({"AddN", {F({2, 3}), F({2, 3})}, {}});
  Both("inputs of different shapes", {"AddN", {F({2, 3}), F({3, 2})}, {}}, {"[3,2]"});
  Both("a third input of another rank", {"AddN", {F({2, 3}), F({2, 3}), F({6})}, {}}, {"[6]"});
  AddCase("N that is not the number of inputs", {"AddN", {F({2}), F({2})}, {{"N", int64_t{1}}}},
          kConstruction, kInvalid, {"attr 'N' is 1", "has 2"});
  AddCase("inputs of different dtypes", {"AddN", {F({2, 3}), I({2, 3})}, {}}, kConstruction,
          kInvalid, {"int32"});
}

void MatMulAndSliceCases() {
  AddRecipe({"MatMul", {F({2, 3}), F({3, 4})}, {}});
  Both("inner dimensions that differ", {"MatMul", {F({2, 3}), F({4, 4})}, {}}, {"[2,3]", "[4,4]"});
  Both("a rank-3 operand", {"MatMul", {F({2, 3, 1}), F({3, 4})}, {}}, {"[2,3,1]"});
  Both("transpose_b making the inner dimensions differ",
       {"MatMul", {F({2, 3}), F({3, 4})}, {{"transpose_b", true}}}, {"[3,4]"});

  AddRecipe({"StridedSlice", {F({3, 4}), I({2}, {0, 1}), I({2}, {2, 3}), I({2}, {1, 1})}, {}});
  Both("a zero stride",
       {"StridedSlice", {F({3, 4}), I({2}, {0, 1}), I({2}, {2, 3}), I({2}, {1, 0})}, {}},
       {"strides[1]"});
  Both("begin, end and strides of different lengths",
       {"StridedSlice", {F({3, 4}), I({2}, {0, 1}), I({1}, {2}), I({2}, {1, 1})}, {}}, {"length"});
  Both("a shrunk index past the dim",
       {"StridedSlice",
        {F({3, 4}), I({2}, {3, 1}), I({2}, {4, 3}), I({2}, {1, 1})},
        {{"shrink_axis_mask", int64_t{1}}}},
       {"3", "out of bounds"});
  Both("more entries than dims",
       {"StridedSlice", {F({3}), I({2}, {0, 1}), I({2}, {2, 3}), I({2}, {1, 1})}, {}}, {"[3]"});
  Both("two ellipses",
       {"StridedSlice",
        {F({3, 4}), I({2}, {0, 1}), I({2}, {2, 3}), I({2}, {1, 1})},
        {{"ellipsis_mask", int64_t{3}}}},
       {"ellipsis"});
  AddRecipe({"StridedSliceGrad",
             {I({2}, {3, 4}), I({2}, {0, 1}), I({2}, {2, 3}), I({2}, {1, 1}), F({2, 2})},
             {}});
  Both("dy of the wrong shape",
       {"StridedSliceGrad",
        {I({2}, {3, 4}), I({2}, {0, 1}), I({2}, {2, 3}), I({2}, {1, 1}), F({2, 3})},
        {}},
       {"[2,3]"});
  Both("a zero stride",
       {"StridedSliceGrad",
        {I({2}, {3, 4}), I({2}, {0, 1}), I({2}, {2, 3}), I({2}, {0, 1}), F({2, 2})},
        {}},
       {"strides[0]"});
  Both("a negative dim in shape",
       {"StridedSliceGrad",
        {I({2}, {3, -4}), I({2}, {0, 1}), I({2}, {2, 3}), I({2}, {1, 1}), F({2, 2})},
        {}},
       {"-4"});
}

void SortAndEinsumCases() {
  for (const char* op : {"Unique", "UniqueWithCounts"}) {
    AddRecipe({op, {F({5})}, {}});
    Both("a matrix", {op, {F({2, 3})}, {}}, {"vector", "[2,3]"});
    Both("a scalar", {op, {F({})}, {}}, {"vector"});
    AddCase("float indices", {op, {F({5})}, {{"out_idx", DT_FLOAT}}}, kConstruction, kInvalid,
            {"float"});
  }

  for (const char* op : {"UniqueV2", "UniqueWithCountsV2"}) {
    AddRecipe({op, {F({2, 3}), I({1}, {1})}, {}});
    Both("an axis past the rank", {op, {F({2, 3}), I({1}, {2})}, {}}, {"axis", "2"});
    Both("an axis below -rank", {op, {F({2, 3}), I({1}, {-3})}, {}}, {"axis", "-3"});
    Both("an axis of two values", {op, {F({2, 3}), I({2}, {0, 1})}, {}}, {"axis", "[2]"});
    Both("no axis for a matrix", {op, {F({2, 3}), I({0})}, {}}, {"vector", "[2,3]"});
    Both("a scalar axis", {op, {F({2, 3}), I({}, {0})}, {}}, {"axis", "[]"});
    AddCase("a float axis", {op, {F({2, 3}), F({1})}, {}}, kConstruction, kInvalid, {"float"});
  }

  AddRecipe({"TopKV2", {F({2, 5}), I({}, {3})}, {}});
  Both("k past the last dimension", {"TopKV2", {F({2, 5}), I({}, {6})}, {}}, {"6", "[2,5]"});
  Both("a negative k", {"TopKV2", {F({2, 5}), I({}, {-1})}, {}}, {"-1"});
  Both("a scalar input", {"TopKV2", {F({}), I({}, {0})}, {}}, {"scalar"});
  Both("k that is not a scalar", {"TopKV2", {F({2, 5}), I({1}, {2})}, {}}, {"k"});
  AddCase("bool input", {"TopKV2", {FromDoubles(DT_BOOL, {2}, {1, 0}), I({}, {1})}, {}},
          kConstruction, kInvalid, {"bool"});

  const AttrMap matmul = {{"equation", std::string("bij,bjk->bik")}};
  AddRecipe({"Einsum", {F({2, 2, 3}), F({2, 3, 4})}, matmul});
  Both("a contracted label whose sizes differ", {"Einsum", {F({2, 2, 3}), F({2, 4, 4})}, matmul},
       {"'j'", "[2,2,3]", "[2,4,4]"});
  Both("operands of other ranks than the equation", {"Einsum", {F({2, 3}), F({2, 3, 4})}, matmul},
       {"[2,3]"});
  auto eq = [](const char* e) { return AttrMap{{"equation", std::string(e)}}; };
  Both("broadcast dims that do not broadcast",
       {"Einsum", {F({2, 3, 4}), F({3, 3, 4})}, eq("...ij,...kj->...ik")},
       {"dim 0 of '...'", "[3,3,4]"});
  Both("an ellipsis's dims the output lacks", {"Einsum", {F({2, 3, 3})}, eq("...ij->ij")},
       {"no '...'"});
  Both("an output of rank 9", {"Einsum", {F({2})}, eq("i->iiiiiiiii")}, {"rank 9"});
  AddCase("an equation without an output", {"Einsum", {F({2, 3}), F({3, 4})}, eq("ij,jk")},
          kConstruction, kInvalid, {"'->'"});
  AddCase("an output label in no operand", {"Einsum", {F({2, 3})}, eq("ij->k")}, kConstruction,
          kInvalid, {"label 'k'"});
  AddCase("two ellipses in a term", {"Einsum", {F({2, 3})}, eq("......->")}, kConstruction,
          kInvalid, {"more than one ellipsis"});
  AddCase("a term per input missing", {"Einsum", {F({2, 3}), F({3, 4})}, eq("ij->i")},
          kConstruction, kInvalid, {"1 operand term"});
  AddCase("three operands", {"Einsum", {F({2, 3}), F({3, 4}), F({4, 5})}, eq("ij,jk,kl->il")},
          kConstruction, kInvalid, {"one or two"});

  AddRecipe({"BatchMatMulV2", {F({2, 2, 3}), F({1, 3, 4})}, {}});
  Both("inner dimensions that differ", {"BatchMatMulV2", {F({2, 2, 3}), F({2, 4, 4})}, {}},
       {"[2,2,3]", "[2,4,4]"});
  Both("batch dims that do not broadcast", {"BatchMatMulV2", {F({2, 2, 3}), F({3, 3, 4})}, {}},
       {"batch"});
  Both("a rank-1 operand", {"BatchMatMulV2", {F({3}), F({3, 4})}, {}}, {"rank"});
  Both("adj_y making the inner dimensions differ",
       {"BatchMatMulV2", {F({2, 2, 3}), F({1, 3, 4})}, {{"adj_y", true}}}, {"[1,3,4]"});
  AddCase("operands of different dtypes", {"BatchMatMulV2", {F({2, 3}), I({3, 4})}, {}},
          kConstruction, kInvalid, {"int32"});
}

void ReductionCases() {
  for (const char* op : {"ArgMax", "ArgMin"}) {
    AddRecipe({op, {F({2, 3}), I({}, {1})}, {}});
    Both("an axis past the rank", {op, {F({2, 3}), I({}, {2})}, {}}, {"2"});
    Both("a negative axis past the rank", {op, {F({2, 3}), I({}, {-3})}, {}}, {"-3"});
    Both("an axis that is not a scalar", {op, {F({2, 3}), I({2}, {0, 1})}, {}});
    Both("a scalar input", {op, {F({}), I({}, {0})}, {}});
    Both("an empty dimension", {op, {F({2, 0}), I({}, {1})}, {}}, {"[2,0]"});
  }

  for (const char* op : {"Sum", "Mean", "Max", "Min", "Prod"}) {
    AddRecipe({op, {F({2, 3}), I({1}, {1})}, {}});
    Both("a reduction axis past the rank", {op, {F({2, 3}), I({1}, {5})}, {}}, {"5"});
    Both("a negative axis past the rank", {op, {F({2, 3}), I({1}, {-3})}, {}}, {"-3"});
    Both("axes of rank 2", {op, {F({2, 3}), I({1, 1}, {0})}, {}});
  }
  AddRecipe({"Bitcast", {F({2, 3})}, {{"type", DT_UINT8}}});
  Both("a last dim that is not the size ratio", {"Bitcast", {I({2, 3})}, {{"type", DT_INT64}}},
       {"last dim must be 2", "[2,3]"});
  Both("a scalar to a larger dtype", {"Bitcast", {I({})}, {{"type", DT_DOUBLE}}}, {"[]"});
  AddCase("a bool type", {"Bitcast", {F({2})}, {{"type", DT_BOOL}}}, kConstruction, kInvalid,
          {"bool"});
  AddRecipe({"EuclideanNorm", {F({2, 3}), I({1}, {1})}, {}});
  Both("a reduction axis past the rank", {"EuclideanNorm", {F({2, 3}), I({1}, {5})}, {}}, {"5"});
  Both("a negative axis past the rank", {"EuclideanNorm", {F({2, 3}), I({1}, {-3})}, {}}, {"-3"});
  AddCase("int32 values", {"EuclideanNorm", {I({2}), I({1}, {0})}, {}}, kConstruction, kInvalid,
          {"int32"});

  AddRecipe({"_MeanAllGrad", {F({1}), I({2}, {2, 3})}, {}});
  Both("gradients of two elements", {"_MeanAllGrad", {F({2}), I({2}, {2, 3})}, {}}, {"[2]"});
  Both("a shape of rank 2", {"_MeanAllGrad", {F({1}), I({1, 2}, {2, 3})}, {}}, {"[1,2]"});
  Both("a negative dim", {"_MeanAllGrad", {F({1}), I({2}, {2, -3})}, {}}, {"-3"});
}

void ShapeCases() {
  AddRecipe({"Reshape", {F({2, 3}), I({2}, {3, 2})}, {}});
  Both("a shape with another number of elements", {"Reshape", {F({2, 3}), I({2}, {4, 2})}, {}},
       {"[2,3]", "[4,2]"});
  Both("two -1 dims", {"Reshape", {F({2, 3}), I({2}, {-1, -1})}, {}}, {"-1"});
  Both("a dim below -1", {"Reshape", {F({2, 3}), I({2}, {-2, -3})}, {}}, {"-2"});
  Both("a shape of rank 2", {"Reshape", {F({2, 3}), I({1, 2}, {3, 2})}, {}});

  AddRecipe({"Transpose", {F({2, 3}), I({2}, {1, 0})}, {}});
  Both("a repeated axis", {"Transpose", {F({2, 3}), I({2}, {0, 0})}, {}});
  Both("an axis past the rank", {"Transpose", {F({2, 3}), I({2}, {0, 2})}, {}}, {"2"});
  Both("a permutation of the wrong length", {"Transpose", {F({2, 3}), I({1}, {0})}, {}});

  AddRecipe({"ConcatV2", {F({2, 3}), F({2, 3}), I({}, {0})}, {}});
  Both("an axis past the rank", {"ConcatV2", {F({2, 3}), F({2, 3}), I({}, {2})}, {}}, {"2"});
  Both("other dims that differ", {"ConcatV2", {F({2, 3}), F({2, 4}), I({}, {0})}, {}},
       {"[2,3]", "[2,4]"});
  Both("inputs of different ranks", {"ConcatV2", {F({2, 3}), F({6}), I({}, {0})}, {}}, {"[6]"});
  Both("an axis that is not a scalar", {"ConcatV2", {F({2, 3}), F({2, 3}), I({1}, {0})}, {}});

  AddRecipe({"Slice", {F({3, 4}), I({2}, {1, 1}), I({2}, {2, 2})}, {}});
  Both("a slice past the end", {"Slice", {F({3, 4}), I({2}, {2, 1}), I({2}, {2, 2})}, {}},
       {"[3,4]"});
  Both("a negative begin", {"Slice", {F({3, 4}), I({2}, {-1, 0}), I({2}, {1, 1})}, {}}, {"-1"});
  Both("begin of the wrong length", {"Slice", {F({3, 4}), I({1}, {0}), I({2}, {1, 1})}, {}});
  Both("a size below -1", {"Slice", {F({3, 4}), I({2}, {0, 0}), I({2}, {-2, 1})}, {}}, {"-2"});

  AddRecipe({"ExpandDims", {F({2, 3}), I({}, {0})}, {}});
  Both("a dim past the rank", {"ExpandDims", {F({2, 3}), I({}, {4})}, {}}, {"4"});
  Both("a negative dim past the rank", {"ExpandDims", {F({2, 3}), I({}, {-4})}, {}}, {"-4"});
  Both("a dim of two values", {"ExpandDims", {F({2, 3}), I({2}, {0, 1})}, {}});

  AddRecipe({"Squeeze", {F({1, 3})}, {{"squeeze_dims", std::vector<int64_t>{0}}}});
  Both("squeezing a dim that is not 1",
       {"Squeeze", {F({1, 3})}, {{"squeeze_dims", std::vector<int64_t>{1}}}}, {"[1,3]"});
  Both("squeezing a dim past the rank",
       {"Squeeze", {F({1, 3})}, {{"squeeze_dims", std::vector<int64_t>{5}}}}, {"5"});

  for (const char* op : {"Shape", "Size"}) {
    AddRecipe({op, {F({2, 3})}, {}});
    AddCase("out_type float", {op, {F({2, 3})}, {{"out_type", DT_FLOAT}}}, kConstruction, kInvalid,
            {"float"});
  }
}

void FillAndCastCases() {
  AddRecipe({"Fill", {I({2}, {2, 3}), F({}, {1})}, {}});
  Both("a negative dim", {"Fill", {I({2}, {-1, 3}), F({}, {1})}, {}}, {"-1"});
  Both("a value that is not a scalar", {"Fill", {I({2}, {2, 3}), F({2})}, {}});
  Both("dims of rank 2", {"Fill", {I({1, 2}, {2, 3}), F({}, {1})}, {}});
  Both("dims whose product overflows int64",
       {"Fill", {I({3}, {2000000000, 2000000000, 2000000000}), F({}, {1})}, {}});

  AddRecipe({"OneHot", {I({3}, {0, 1, 2}), I({}, {4}), F({}, {1}), F({}, {0})}, {}});
  Both("a negative depth", {"OneHot", {I({3}, {0, 1, 2}), I({}, {-1}), F({}, {1}), F({}, {0})}, {}},
       {"-1"});
  Both("a depth that is not a scalar",
       {"OneHot", {I({3}, {0, 1, 2}), I({1}, {4}), F({}, {1}), F({}, {0})}, {}});
  Both("an on_value that is not a scalar",
       {"OneHot", {I({3}, {0, 1, 2}), I({}, {4}), F({2}), F({}, {0})}, {}});
  AddCase(
      "an axis below -1",
      {"OneHot", {I({3}, {0, 1, 2}), I({}, {4}), F({}, {1}), F({}, {0})}, {{"axis", int64_t{-2}}}},
      kConstruction, kInvalid, {"-2"});

  AddRecipe({"Cast", {F({2, 3})}, {{"DstT", DT_INT32}}});
  AddCase("SrcT that disagrees with the input",
          {"Cast", {F({2, 3})}, {{"DstT", DT_INT32}, {"SrcT", DT_DOUBLE}}}, kConstruction, kInvalid,
          {"double"});

  AddRecipe({"BroadcastTo", {F({3}), I({2}, {2, 3})}, {}});
  Both("a shape the input does not broadcast to", {"BroadcastTo", {F({4}), I({2}, {2, 3})}, {}},
       {"[4]"});
  Both("a target of lower rank", {"BroadcastTo", {F({2, 3}), I({1}, {3})}, {}});
  Both("a negative dim", {"BroadcastTo", {F({3}), I({2}, {-2, 3})}, {}}, {"-2"});

  // Pad and PadV2 (its constant a third input).
  for (const bool v2 : {false, true}) {
    const char* op = v2 ? "PadV2" : "Pad";
    auto in = [&](Tensor paddings) {
      std::vector<Tensor> r = {F({2, 3}), std::move(paddings)};
      if (v2) r.push_back(F({}, {-1}));
      return r;
    };
    AddRecipe({op, in(I({2, 2}, {1, 1, 0, 0})), {}});
    Both("a negative padding", {op, in(I({2, 2}, {-1, 0, 0, 0})), {}}, {"-1"});
    Both("paddings for another rank", {op, in(I({3, 2}, {0, 0, 0, 0, 0, 0})), {}});
    Both("paddings not of shape [rank, 2]", {op, in(I({2, 3}, {0, 0, 0, 0, 0, 0})), {}});
    // int64 paddings whose sum wraps (the outside attack's heap overflow)
    Tensor big(DT_INT64, TensorShape({2, 2}));
    for (int64_t i = 0; i < 4; ++i) big.base<int64_t>()[i] = i < 2 ? INT64_MAX : 0;
    Both("paddings whose sum overflows int64", {op, in(big), {}}, {"beyond int64"});
  }
  Both("constant_values that is not a scalar",
       {"PadV2", {F({2, 3}), I({2, 2}, {1, 1, 0, 0}), F({1}, {-1})}, {}},
       {"constant_values", "scalar"});
}

void ShapeHelperCases() {
  AddRecipe({"InvertPermutation", {I({3}, {2, 0, 1})}, {}});
  Both("a repeated value", {"InvertPermutation", {I({3}, {0, 0, 1})}, {}});
  Both("a value out of range", {"InvertPermutation", {I({3}, {0, 3, 1})}, {}}, {"3"});
  Both("a matrix", {"InvertPermutation", {I({1, 3}, {2, 0, 1})}, {}});

  AddRecipe({"BroadcastGradientArgs", {I({2}, {2, 3}), I({1}, {3})}, {}});
  AddCase("shapes that do not broadcast (in the kernel)",
          {"BroadcastGradientArgs", {I({2}, {2, 3}), I({1}, {4})}, {}}, kRun, kInvalid);
  Both("a shape of rank 2", {"BroadcastGradientArgs", {I({1, 2}, {2, 3}), I({1}, {3})}, {}});

  AddRecipe({"ReducedShape", {I({2}, {2, 3}), I({1}, {1})}, {}});
  AddCase("an axis past the rank (in the kernel)",
          {"ReducedShape", {I({2}, {2, 3}), I({1}, {2})}, {}}, kRun, kInvalid, {"2"});
  Both("an input shape of rank 2", {"ReducedShape", {I({1, 2}, {2, 3}), I({1}, {1})}, {}});
}

const bool kRegistered = [] {
  ElementwiseCases();
  MatMulAndSliceCases();
  SortAndEinsumCases();
  ReductionCases();
  ShapeCases();
  FillAndCastCases();
  ShapeHelperCases();
  return true;
}();

}  // namespace bad_input_cases_array
}  // namespace
}  // namespace rill::testing
