// Valid recipes and op-specific bad inputs of the tf.sparse ops (ops/sparse_tensor_ops.h):
// a sparse operand whose indices are not a matrix, whose values are not one per index row
// or whose dense shape has another rank (each when built and when fed), an index outside
// the dense shape or a negative dense dim (when run); then each op's own: dense operands
// that do not broadcast or fit, reduction axes out of range, thresholds of another dtype,
// inner dimensions that differ, shapes a reshape cannot reach, pieces a split cannot cut.
#include "ops/bad_input.h"

namespace rill::testing {
namespace {
namespace bad_input_cases_sparse_tensor {

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

// An int64 tensor of `shape` holding `values` (zeros when none are given).
Tensor L(std::vector<int64_t> shape, std::vector<int64_t> values = {}) {
  Tensor t(DT_INT64, TensorShape(absl::MakeConstSpan(shape)));
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    t.base<int64_t>()[i] = values.empty() ? 0 : values[i];
  }
  return t;
}

// The sparse matrix [[0, 1], [2, 0], [3, 4]]: indices, values, dense shape.
Tensor Indices() { return L({4, 2}, {0, 1, 1, 0, 2, 0, 2, 1}); }
Tensor Values() { return F({4}); }
Tensor Shape() { return L({2}, {3, 2}); }

// Inputs of `op` with its sparse operand (the three at `at`) replaced.
using Make = std::function<std::vector<Tensor>(Tensor indices, Tensor values, Tensor shape)>;

// The checks of one sparse operand whose inputs are named `prefix`_indices, ...
void OperandCases(const std::string& op, const std::string& prefix, const Make& make,
                  bool has_values = true, const AttrMap& attrs = {}) {
  const std::string indices = prefix + "_indices", shape = prefix + "_shape";
  Both(indices + " that are a vector", {op, make(L({4}, {0, 1, 2, 2}), Values(), Shape()), attrs},
       {indices + " must be a matrix", "[4]"});
  if (has_values) {
    Both(prefix + "_values of 3 entries for 4 indices",
         {op, make(Indices(), F({3}), Shape()), attrs}, {prefix + "_values"});
  }
  Both("a dense shape of rank 3 for index rows of 2",
       {op, make(Indices(), Values(), L({3}, {3, 2, 1})), attrs}, {shape});
  AddCase("an index outside the dense shape",
          {op, make(L({4, 2}, {0, 1, 1, 0, 3, 0, 2, 1}), Values(), Shape()), attrs}, Where::kRun,
          kInvalid, {indices + "[2] = [3,0] is out of bounds: need 0 <= index < [3,2]"});
  AddCase("a negative dense dim", {op, make(Indices(), Values(), L({2}, {3, -2})), attrs},
          Where::kRun, kInvalid, {shape + " [3,-2] has a negative dimension"});
}

void SparseDenseCases() {
  for (const char* op : {"SparseDenseCwiseAdd", "SparseDenseCwiseMul", "SparseDenseCwiseDiv"}) {
    AddRecipe({op, {Indices(), Values(), Shape(), F({2})}});
    OperandCases(op, "sp", [](Tensor i, Tensor v, Tensor s) {
      return std::vector<Tensor>{i, v, s, F({2})};
    });
    Both("a dense operand of more dims", {op, {Indices(), Values(), Shape(), F({1, 3, 2})}},
         {"broadcasts dense to sparse only"});
    AddCase("a dense operand that does not broadcast",
            {op, {Indices(), Values(), Shape(), F({2, 2})}}, Where::kRun, kInvalid,
            {"broadcasts dense to sparse only", "[2,2]", "[3,2]"});
  }
  AddCase("an integer division by zero",
          {"SparseDenseCwiseDiv", {Indices(), I({4}), Shape(), I({2}, {1, 0})}}, Where::kRun,
          kInvalid, {"integer division by zero", "sp_indices[0] = [0,1]"});
}

void ReduceCases() {
  for (const char* op :
       {"SparseReduceSum", "SparseReduceMax", "SparseReduceSumSparse", "SparseReduceMaxSparse"}) {
    const bool dense = std::string(op).find("Sparse", 6) == std::string::npos;
    AddRecipe({op, {Indices(), Values(), Shape(), I({1}, {0})}});
    OperandCases(op, "input", [](Tensor i, Tensor v, Tensor s) {
      return std::vector<Tensor>{i, v, s, I({1}, {0})};
    });
    Both("reduction axes of rank 2", {op, {Indices(), Values(), Shape(), I({1, 1}, {0})}},
         {"reduction_axes must be a scalar or a vector", "[1,1]"});
    const Recipe past{op, {Indices(), Values(), Shape(), I({2}, {0, 2})}};
    const std::vector<std::string> says = {"reduction_axes[1] = 2", "rank 2"};
    if (dense) Both("an axis past the rank", past, says);  // the shape function knows it too
    if (!dense) AddCase("an axis past the rank", past, Where::kRun, kInvalid, says);
  }
}

void AddOpCases() {
  const auto recipe = [](Tensor i, Tensor v, Tensor s) {
    return std::vector<Tensor>{Indices(), Values(), Shape(), i, v, s, F({}, {0})};
  };
  AddRecipe({"SparseAdd", recipe(Indices(), Values(), Shape())});
  OperandCases("SparseAdd", "b", recipe);
  Both("a thresh that is a vector",
       {"SparseAdd", {Indices(), Values(), Shape(), Indices(), Values(), Shape(), F({1})}},
       {"thresh must be a scalar", "[1]"});
  AddCase("a thresh of another dtype",
          {"SparseAdd", {Indices(), Values(), Shape(), Indices(), Values(), Shape(), I({}, {0})}},
          Where::kConstruction, kInvalid, {"thresh must have the values' dtype float", "int32"});
  AddCase("operands of different dense shapes",
          {"SparseAdd", recipe(Indices(), Values(), L({2}, {3, 3}))}, Where::kRun, kInvalid,
          {"differ in dense shape: a_shape [3,2] vs. b_shape [3,3]"});
  Both("operands of different ranks", {"SparseAdd", recipe(L({4, 3}), Values(), L({3}, {3, 2, 1}))},
       {"differ in"});

  const Tensor sum = L({2, 2}, {0, 1, 1, 0}), a = L({2, 2}, {0, 1, 1, 0}), b = L({1, 2}, {1, 0});
  AddRecipe({"SparseAddGrad", {F({2}), a, b, sum}});
  Both("a backprop matrix", {"SparseAddGrad", {F({2, 1}), a, b, sum}},
       {"backprop_val_grad must be a vector", "[2,1]"});
  AddCase("a backprop of 3 for 2 sum entries", {"SparseAddGrad", {F({3}), a, b, sum}}, Where::kRun,
          kInvalid, {"backprop_val_grad must be a vector of 2 entries"});
  Both("a_indices that are a vector", {"SparseAddGrad", {F({2}), L({4}, {0, 1, 1, 0}), b, sum}},
       {"a_indices must be a matrix"});
  Both("sum_indices that are a vector", {"SparseAddGrad", {F({2}), a, b, L({4}, {0, 1, 1, 0})}},
       {"sum_indices must be a matrix"});
  AddCase("b_indices of 3 columns for rows of 2", {"SparseAddGrad", {F({2}), a, L({1, 3}), sum}},
          Where::kRun, kInvalid,
          {"b_indices must be a matrix of index rows of 2 columns", "[1,3]"});
}

void DenseOperandCases() {
  const auto add = [](Tensor i, Tensor v, Tensor s) {
    return std::vector<Tensor>{i, v, s, F({3, 2})};
  };
  AddRecipe({"SparseTensorDenseAdd", add(Indices(), Values(), Shape())});
  OperandCases("SparseTensorDenseAdd", "a", add);
  Both("b of another rank", {"SparseTensorDenseAdd", {Indices(), Values(), Shape(), F({6})}},
       {"b of shape [6]"});
  AddCase("b of other dims", {"SparseTensorDenseAdd", {Indices(), Values(), Shape(), F({3, 3})}},
          Where::kRun, kInvalid, {"b of shape [3,3] does not match a_shape [3,2]"});

  const char* op = "SparseTensorDenseMatMul";
  const auto mul = [](Tensor i, Tensor v, Tensor s) {
    return std::vector<Tensor>{i, v, s, F({2, 2})};
  };
  AddRecipe({op, mul(Indices(), Values(), Shape())});
  OperandCases(op, "a", mul);
  Both("b that is a vector", {op, {Indices(), Values(), Shape(), F({2})}}, {"b must be a matrix"});
  Both("inner dimensions that differ", {op, {Indices(), Values(), Shape(), F({3, 2})}},
       {"inner dimensions do not match: 2 vs. 3"});
  Both("a sparse tensor of rank 3", {op, {L({4, 3}), Values(), L({3}, {3, 2, 1}), F({2, 2})}},
       {"a must be a sparse matrix"});
  AddCase("adjoint_a that is not a bool",
          {op, mul(Indices(), Values(), Shape()), {{"adjoint_a", 1.0f}}}, Where::kConstruction,
          kInvalid, {"adjoint_a"});
}

void ReorderReshapeCases() {
  const auto reorder = [](Tensor i, Tensor v, Tensor s) { return std::vector<Tensor>{i, v, s}; };
  AddRecipe({"SparseReorder", reorder(Indices(), Values(), Shape())});
  OperandCases("SparseReorder", "input", reorder);

  const auto reshape = [](Tensor i, Tensor, Tensor s) {
    return std::vector<Tensor>{i, s, L({2}, {2, 3})};
  };
  AddRecipe({"SparseReshape", reshape(Indices(), Values(), Shape())});
  OperandCases("SparseReshape", "input", reshape, false);
  Both("a new_shape matrix", {"SparseReshape", {Indices(), Shape(), L({1, 2}, {2, 3})}},
       {"new_shape must be a vector", "[1,2]"});
  AddCase("a new_shape of 8 elements for 6",
          {"SparseReshape", {Indices(), Shape(), L({2}, {4, 2})}}, Where::kRun, kInvalid,
          {"cannot reshape a sparse tensor of dense shape [3,2]", "[4,2]"});
  AddCase("a new_shape with two -1s", {"SparseReshape", {Indices(), Shape(), L({2}, {-1, -1})}},
          Where::kRun, kInvalid, {"may hold one -1", "[-1,-1]"});
}

void FillCases() {
  const char* op = "SparseFillEmptyRows";
  const Tensor fill = F({}, {7});
  AddRecipe({op, {Indices(), Values(), Shape(), fill}});
  Both("indices that are a vector", {op, {L({4}), Values(), Shape(), fill}},
       {"indices must be a matrix", "[4]"});
  Both("values of 3 for 4 indices", {op, {Indices(), F({3}), Shape(), fill}},
       {"The length of `values` (3) must match the first dimension of `indices` (4)."});
  Both("a dense shape of 3 for index rows of 2",
       {op, {Indices(), Values(), L({3}, {3, 2, 1}), fill}},
       {"The length of `dense_shape` (3) must match the second dimension of `indices` (2)."});
  Both("a default value that is a vector", {op, {Indices(), Values(), Shape(), F({1})}},
       {"default_value must be a scalar"});
  AddCase("an index outside the dense shape",
          {op, {L({4, 2}, {0, 1, 1, 0, 3, 0, 2, 1}), Values(), Shape(), fill}}, Where::kRun,
          kInvalid, {"indices[2] = [3,0] is out of bounds: need 0 <= index < [3,2]"});
  AddCase("no rows to fill", {op, {L({0, 0}), F({0}), L({0}), fill}}, Where::kRun, kInvalid,
          {"at least one dimension"});

  const char* grad = "SparseFillEmptyRowsGrad";
  AddRecipe({grad, {L({2}, {0, 2}), F({4})}});
  Both("a map that is a matrix", {grad, {L({2, 1}), F({4})}},
       {"reverse_index_map must be a vector"});
  Both("grad_values that are a scalar", {grad, {L({2}, {0, 2}), F({})}},
       {"grad_values must be a vector"});
  AddCase("a map entry past the gradient", {grad, {L({2}, {0, 4}), F({4})}}, Where::kRun, kInvalid,
          {"reverse_index_map[1] = 4 is not in [0, 4)"});
  AddCase("a negative map entry", {grad, {L({2}, {-1, 0}), F({4})}}, Where::kRun, kInvalid,
          {"reverse_index_map[0] = -1"});
  AddCase("int32 gradients of a map", {grad, {I({2}), F({4})}}, Where::kConstruction, kInvalid,
          {"int32"});
}

void SliceCases() {
  const auto softmax = [](Tensor i, Tensor v, Tensor s) { return std::vector<Tensor>{i, v, s}; };
  AddRecipe({"SparseSoftmax", softmax(Indices(), Values(), Shape())});
  OperandCases("SparseSoftmax", "sp", softmax);
  Both("a sparse vector", {"SparseSoftmax", {L({2, 1}, {0, 1}), F({2}), L({1}, {3})}},
       {"rank >= 2"});

  const auto slice = [](Tensor i, Tensor v, Tensor s) {
    return std::vector<Tensor>{i, v, s, L({2}, {1, 0}), L({2}, {2, 2})};
  };
  AddRecipe({"SparseSlice", slice(Indices(), Values(), Shape())});
  OperandCases("SparseSlice", "input", slice);
  Both("a start of 3 for rank 2",
       {"SparseSlice", {Indices(), Values(), Shape(), L({3}, {0, 0, 0}), L({2}, {2, 2})}},
       {"start must be a vector of 2 entries"});
  AddCase("a negative size",
          {"SparseSlice", {Indices(), Values(), Shape(), L({2}), L({2}, {1, -1})}}, Where::kRun,
          kInvalid, {"size [1,-1] has a negative entry"});

  const Tensor rows = L({2, 2}, {0, 1, 1, 0});
  AddRecipe({"SparseSliceGrad", {F({1}), rows, L({2}, {1, 0}), L({1, 2}, {0, 0})}});
  Both("a backprop matrix", {"SparseSliceGrad", {F({1, 1}), rows, L({2}, {1, 0}), L({1, 2})}},
       {"backprop_val_grad"});
  Both("input_indices that are a vector",
       {"SparseSliceGrad", {F({1}), L({4}), L({2}, {1, 0}), L({1, 2})}}, {"input_indices"});
  AddCase("a start of 3 for rows of 2", {"SparseSliceGrad", {F({1}), rows, L({3}), L({1, 2})}},
          Where::kRun, kInvalid, {"input_start must be a vector of 2 entries"});
  AddCase("output rows of 3 for input rows of 2",
          {"SparseSliceGrad", {F({1}), rows, L({2}), L({1, 3})}}, Where::kRun, kInvalid,
          {"output_indices [M, R]", "[1,3]"});
  AddCase("a backprop of 2 for one output row",
          {"SparseSliceGrad", {F({2}), rows, L({2}), L({1, 2})}}, Where::kRun, kInvalid,
          {"backprop_val_grad [M]", "[2]"});

  for (const char* op : {"SparseSparseMaximum", "SparseSparseMinimum"}) {
    const auto both = [](Tensor i, Tensor v, Tensor s) {
      return std::vector<Tensor>{Indices(), Values(), Shape(), i, v, s};
    };
    AddRecipe({op, both(Indices(), Values(), Shape())});
    OperandCases(op, "b", both);
    AddCase("operands of other dense shapes", {op, both(Indices(), Values(), L({2}, {3, 3}))},
            Where::kRun, kInvalid, {"differ in dense shape"});
  }
}

void ConcatCases() {
  const char* op = "SparseConcat";
  const Tensor other = L({2, 2}, {0, 0, 1, 1});
  const auto inputs = [&](Tensor i0, Tensor v0, Tensor s0) {
    return std::vector<Tensor>{i0, other, v0, F({2}), s0, Shape()};
  };
  AddRecipe({op, inputs(Indices(), Values(), Shape()), {{"concat_dim", int64_t{0}}}});
  const AttrMap dim0 = {{"concat_dim", int64_t{0}}};
  Both("indices that are a vector", {op, inputs(L({4}), Values(), Shape()), dim0},
       {"input0_indices must be a matrix"});
  Both("values of 3 for 4 indices", {op, inputs(Indices(), F({3}), Shape()), dim0},
       {"input0_values"});
  Both("a concat_dim past the rank",
       {op, inputs(Indices(), Values(), Shape()), {{"concat_dim", int64_t{2}}}},
       {"concat_dim 2 is out of range for rank 2"});
  Both("inputs of two ranks",
       {op, {L({4, 3}), other, Values(), F({2}), L({3}, {3, 2, 1}), Shape()}, dim0},
       {"differ in rank"});
  AddCase("shapes that differ off the concat dim",
          {op,
           {Indices(), other, Values(), F({2}), Shape(), L({2}, {3, 3})},
           {{"concat_dim", int64_t{0}}}},
          Where::kRun, kInvalid, {"input1_shape [3,3] does not match input0_shape [3,2]"});
  AddCase("an index outside its input",
          {op, inputs(L({4, 2}, {0, 1, 1, 0, 3, 0, 2, 1}), Values(), Shape()), dim0}, Where::kRun,
          kInvalid, {"input0_indices[2] = [3,0] is out of bounds"});
}

void SplitCases() {
  const char* op = "SparseSplit";
  const AttrMap two = {{"num_split", int64_t{2}}};
  const auto split = [&](Tensor i, Tensor v, Tensor s) {
    return std::vector<Tensor>{L({}, {0}), i, v, s};
  };
  AddRecipe({op, split(Indices(), Values(), Shape()), two});
  OperandCases(op, "input", split, true, two);
  Both("a split_dim that is a vector", {op, {L({1}), Indices(), Values(), Shape()}, two},
       {"split_dim must be a scalar"});
  Both("a split_dim past the rank", {op, {L({}, {2}), Indices(), Values(), Shape()}, two},
       {"split_dim 2 is out of range [-2, 2)"});
  AddCase("num_split past the dimension",
          {op, split(Indices(), Values(), Shape()), {{"num_split", int64_t{4}}}}, Where::kRun,
          kInvalid, {"num_split should be between 1 and the splitting dimension size (3), got 4"});
  AddCase("num_split 0", {op, split(Indices(), Values(), Shape()), {{"num_split", int64_t{0}}}},
          Where::kConstruction, kInvalid, {"num_split is 0"});
}

const bool kRegistered = [] {
  FillCases();
  SplitCases();
  ConcatCases();
  SliceCases();
  SparseDenseCases();
  ReduceCases();
  AddOpCases();
  DenseOperandCases();
  ReorderReshapeCases();
  return true;
}();

}  // namespace bad_input_cases_sparse_tensor
}  // namespace
}  // namespace rill::testing
