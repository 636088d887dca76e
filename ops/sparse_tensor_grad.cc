// Gradients of the tf.sparse ops (ops/sparse_tensor_ops.h), with respect to their values
// and dense operands (indices and shapes have none):
//  - SparseDenseCwiseMul/Div: TensorFlow's. Each entry reads the dense element its index
//    broadcasts to (its index with the dims where dense has size 1 zeroed); that element's
//    gradient is the sum over the entries that read it (ScatterNd adds repeats).
//    SparseDenseCwiseAdd the same way (TensorFlow raises NotImplementedError for it).
//  - SparseReduceSum: each entry gets the output's gradient where its index reduces to.
//  - SparseAdd: SparseAddGrad's shares; SparseTensorDenseAdd: gathered, and whole for b.
//  - SparseTensorDenseMatMul: for an entry at (r, c) of A, the dot product of the
//    gradient's row r with op(B)'s row c (swapped with adjoint_a); B's is op(A)^T G.
//  - SparseReorder: the gradient in the input's order (the sort's inverse permutation).
//  - SparseSoftmax: TensorFlow's, y (g - sum over the group of y g), the group's sum a
//    SparseReduceSum over the last axis read back by SparseDenseCwiseAdd.
//  - SparseSlice: SparseSliceGrad's.
//  - SparseSplit: each entry's value gets its piece's gradient at its place there (the
//    pieces keep the input's order): the entries partitioned by piece, as the kernel cuts,
//    and the pieces' gradients stitched back. TensorFlow has none.
// SparseReduceMax, SparseSparseMaximum/Minimum, SparseConcat and the ops with a sparse
// result are not differentiable here, nor in TensorFlow.
#include "rill/ops/array_ops.h"
#include "rill/ops/data_flow_ops.h"
#include "rill/ops/gather_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradient_ops.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/piece_ops.h"
#include "rill/ops/select_ops.h"
#include "rill/ops/sparse_tensor_ops.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;

Output Int64(const Scope& s, int64_t v) { return Const(s, v); }

// Each sparse entry's index into the dense operand `dense` that broadcasts to the sparse
// shape: the index's last rank(dense) columns, zeroed where dense has size 1.
Output DenseIndices(const Scope& s, const Output& indices, const Output& sparse_shape,
                    const Output& dense) {
  const Output dense_shape = Shape(s, dense, Shape::OutType(DT_INT64));
  const Output skip = Sub(s, Size(s, sparse_shape), Size(s, dense_shape));
  const Output begin = Concat(s, {grad::IntVector(s, {0}), Reshape(s, skip, {1})}, 0);
  const Output tail = Slice(s, indices, begin, grad::IntVector(s, {-1, -1}));
  return Mul(s, tail, Cast(s, NotEqual(s, dense_shape, Int64(s, 1)), DT_INT64));
}

// kind 0: Add, 1: Mul, 2: Div.
absl::Status SparseDenseGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out,
                             int kind) {
  const Output values = In(op, 1), dense = In(op, 3);
  const Output at = DenseIndices(s, In(op, 0), In(op, 2), dense);
  const Output read = GatherNd(s, dense, at);
  Output dvalues = g[0], dread = g[0];
  if (kind == 1) {
    dvalues = Mul(s, g[0], read);
    dread = Mul(s, g[0], values);
  } else if (kind == 2) {
    dvalues = Div(s, g[0], read);
    dread = Neg(s, Div(s, Mul(s, g[0], values), Square(s, read)));
  }
  *out = {Output(), dvalues, Output(),
          ScatterNd(s, at, dread, Shape(s, dense, Shape::OutType(DT_INT64)))};
  return s.status();
}

// 1 for each dim of the sparse shape `shape` that `axes` reduces, else 0 (int64 [R]).
Output ReducedMask(const Scope& s, const Output& axes, const Output& shape) {
  const Output rank = Size(s, shape);
  const Output wrapped = FloorMod(s, Reshape(s, axes, {-1}), rank);
  const Output hits = Sum(s, OneHot(s, wrapped, rank, Int64(s, 1), Int64(s, 0)), 0);
  return Minimum(s, hits, Int64(s, 1));
}

absl::Status SparseReduceSumGrad(const Scope& s, const Operation& op, const GradOut& g,
                                 GradOut* out) {
  const Output shape = In(op, 2);
  const Output reduced = ReducedMask(s, In(op, 3), shape);
  const Output kept = Sub(s, Int64(s, 1), reduced);
  // The output's gradient with the reduced dims kept as 1 (whatever keep_dims was).
  const Output g_kept = Reshape(s, g[0], Add(s, Mul(s, shape, kept), reduced));
  *out = {Output(), GatherNd(s, g_kept, Mul(s, In(op, 0), kept)), Output(), Output()};
  return s.status();
}

absl::Status SparseAddGradient(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  const SparseAddGrad shares(s, g[1], In(op, 0), In(op, 3), grad::Out(op, 0));
  *out = {Output(), shares.a_val_grad, Output(), Output(), shares.b_val_grad, Output(), Output()};
  return s.status();
}

absl::Status SparseTensorDenseAddGrad(const Scope& s, const Operation& op, const GradOut& g,
                                      GradOut* out) {
  *out = {Output(), GatherNd(s, g[0], In(op, 0)), Output(), g[0]};
  return s.status();
}

absl::Status SparseMatMulGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const bool adj_a = op.node()->attr<bool>("adjoint_a"), adj_b = op.node()->attr<bool>("adjoint_b");
  const Output indices = In(op, 0), values = In(op, 1), shape = In(op, 2), b = In(op, 3);
  const Output zero = Const(s, 0);
  const Output rows = GatherV2(s, indices, Const(s, adj_a ? 1 : 0), Const(s, 1));
  const Output cols = GatherV2(s, indices, Const(s, adj_a ? 0 : 1), Const(s, 1));
  const Output op_b = adj_b ? Transpose(s, b, {1, 0}) : b;
  const Output dvalues =
      Sum(s, Mul(s, GatherV2(s, g[0], rows, zero), GatherV2(s, op_b, cols, zero)), 1);
  // op(A)^T G is [K, N]: op(B)'s shape, B's transposed with adjoint_b.
  Output db = SparseTensorDenseMatMul(s, indices, values, shape, g[0],
                                      SparseTensorDenseMatMul::AdjointA(!adj_a));
  if (adj_b) db = Transpose(s, db, {1, 0});
  *out = {Output(), dvalues, Output(), db};
  return s.status();
}

absl::Status SparseReorderGrad(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  const Output count = Size(s, In(op, 1), Size::OutType(DT_INT64));
  const Output positions = Range(s, Int64(s, 0), count, Int64(s, 1));
  const Output order = SparseReorder(s, In(op, 0), positions, In(op, 2)).output_values;
  *out = {Output(), GatherV2(s, g[1], InvertPermutation(s, order), Const(s, 0)), Output()};
  return s.status();
}

absl::Status SparseSoftmaxGrad(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  const Output indices = In(op, 0), shape = In(op, 2), y = grad::Out(op, 0);
  const Output sums = SparseReduceSum(s, indices, Mul(s, y, g[0]), shape, Const(s, {-1}),
                                      SparseReduceSum::KeepDims(true));
  const Output centered = SparseDenseCwiseAdd(s, indices, g[0], shape, Neg(s, sums));
  *out = {Output(), Mul(s, centered, y), Output()};
  return s.status();
}

absl::Status SparseSliceGradient(const Scope& s, const Operation& op, const GradOut& g,
                                 GradOut* out) {
  const SparseSliceGrad grad(s, g[1], In(op, 0), In(op, 3), grad::Out(op, 0));
  *out = {Output(), grad, Output(), Output(), Output()};
  return s.status();
}

// Each entry's piece of SparseSplit, as its kernel finds it: of d cut in n, the first d % n
// pieces one longer (base = d / n >= 1 wherever the op ran).
Output SplitPiece(const Scope& s, const Operation& op, int64_t n) {
  const Output shape = In(op, 3);
  const Output rank = Size(s, shape, Size::OutType(DT_INT64));
  const Output axis = FloorMod(s, Add(s, In(op, 0), rank), rank);
  const Output coord = Reshape(s,
                               Slice(s, In(op, 1), Stack(s, {Int64(s, 0), axis}),
                                     Cast(s, grad::IntVector(s, {-1, 1}), DT_INT64)),
                               grad::IntVector(s, {-1}));
  const Output d = Gather(s, shape, axis);
  const Output base = FloorDiv(s, d, Int64(s, n)), extra = FloorMod(s, d, Int64(s, n));
  const Output long_end = Mul(s, extra, Add(s, base, Int64(s, 1)));
  const Output in_long = FloorDiv(s, coord, Add(s, base, Int64(s, 1)));
  const Output in_short = Add(s, extra, FloorDiv(s, Sub(s, coord, long_end), base));
  return Cast(s, Select(s, Less(s, coord, long_end), in_long, in_short), DT_INT32);
}

absl::Status SparseSplitGrad(const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
  const int64_t n = op.node()->attr<int64_t>("num_split");
  const Output entries = Range(s, 0, Size(s, In(op, 2)), 1);
  const DynamicPartition places(s, entries, SplitPiece(s, op, n), n);
  OutputList grads;
  for (int64_t p = 0; p < n; ++p) {
    const Output& gp = g[n + p];
    grads.push_back(gp.node() != nullptr ? gp : Output(ZerosLike(s, grad::Out(op, n + p))));
  }
  *out = {Output(), Output(), DynamicStitch(s, places.outputs, grads), Output()};
  return s.status();
}

RILL_REGISTER_GRADIENT("SparseDenseCwiseAdd",
                       [](const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
                         return SparseDenseGrad(s, op, g, out, 0);
                       });
RILL_REGISTER_GRADIENT("SparseDenseCwiseMul",
                       [](const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
                         return SparseDenseGrad(s, op, g, out, 1);
                       });
RILL_REGISTER_GRADIENT("SparseDenseCwiseDiv",
                       [](const Scope& s, const Operation& op, const GradOut& g, GradOut* out) {
                         return SparseDenseGrad(s, op, g, out, 2);
                       });
RILL_REGISTER_GRADIENT("SparseReduceSum", SparseReduceSumGrad);
RILL_REGISTER_GRADIENT("SparseAdd", SparseAddGradient);
RILL_REGISTER_GRADIENT("SparseTensorDenseAdd", SparseTensorDenseAddGrad);
RILL_REGISTER_GRADIENT("SparseTensorDenseMatMul", SparseMatMulGrad);
RILL_REGISTER_GRADIENT("SparseReorder", SparseReorderGrad);
RILL_REGISTER_NO_GRADIENT("SparseReduceMax");
RILL_REGISTER_NO_GRADIENT("SparseReduceSumSparse");
RILL_REGISTER_NO_GRADIENT("SparseReduceMaxSparse");
RILL_REGISTER_NO_GRADIENT("SparseAddGrad");
RILL_REGISTER_NO_GRADIENT("SparseReshape");
RILL_REGISTER_GRADIENT("SparseSoftmax", SparseSoftmaxGrad);
RILL_REGISTER_GRADIENT("SparseSlice", SparseSliceGradient);
RILL_REGISTER_GRADIENT("SparseSplit", SparseSplitGrad);
RILL_REGISTER_NO_GRADIENT("SparseSliceGrad");
RILL_REGISTER_NO_GRADIENT("SparseSparseMaximum");
RILL_REGISTER_NO_GRADIENT("SparseConcat");
RILL_REGISTER_NO_GRADIENT("SparseSparseMinimum");

}  // namespace
}  // namespace rill::ops
