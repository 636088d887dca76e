// TensorFlow's sparse tensors in COO form, as its tf.sparse ops take them: indices int64
// [N, R] (one row per stored value), values [N], dense_shape int64 [R]. The checks here
// are shared by the sparse ops' shape functions and kernels (ops/sparse_tensor_ops.h): the
// three ranks and sizes agree, no dense dim is negative, and every index lies inside the
// dense shape, so that no kernel reads or writes outside what it allocated. The canonical
// order is row-major (lexicographic on the index rows); ops that need it sort a copy.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// The shapes of one sparse operand, checked where known: indices a matrix, values and
// dense_shape vectors, indices' rows as many as values, its columns as many as
// dense_shape's entries. `what` prefixes the inputs' names ("sp", "a", "input"). A value
// of -1 for `values` skips it (SparseReshape has none). Sets *rank (-1 when unknown).
absl::Status CheckSparseShapes(const InferenceContext& c, int indices, int values, int shape,
                               const std::string& what, int64_t* rank);

// A checked sparse operand of a kernel: its index rows and dense shape.
struct SparseOperand {
  const int64_t* indices = nullptr;  // [nnz, rank], row-major
  int64_t nnz = 0, rank = 0;
  std::vector<int64_t> dims;  // the dense shape

  const int64_t* row(int64_t i) const { return indices + i * rank; }
  // Whether index row i of this operand comes before row j of `other` (same rank) in
  // row-major order, and whether the two are the same index.
  bool Less(int64_t i, const SparseOperand& other, int64_t j) const;
  bool Same(int64_t i, const SparseOperand& other, int64_t j) const;
  // The entries in row-major order (equal indices keep their order).
  std::vector<int64_t> SortedOrder() const;
  std::string RowString(int64_t i) const;
};

// An int64 index matrix [n, rank] as rows alone (no dense shape, no checks: the caller
// checked its rank).
SparseOperand IndexRows(const Tensor& matrix);

// Finds index rows by value: the rows sorted once, each lookup a binary search.
class RowFinder {
 public:
  explicit RowFinder(SparseOperand rows);
  // The entry of the rows that holds `key` (rank values), or -1.
  int64_t Find(const int64_t* key) const;

 private:
  SparseOperand rows_;
  std::vector<int64_t> order_;
};

// The kernel's inputs `indices`, `values` (-1: none) and `shape` as a sparse operand:
// the shapes as CheckSparseShapes says, dense dims >= 0, and every index in range
// (InvalidArgument naming the first that is not: "indices[2] = [2,5] is out of bounds:
// need 0 <= index < [3,2]").
absl::StatusOr<SparseOperand> SparseOperandOf(const OpKernelContext& ctx, int indices, int values,
                                              int shape, const std::string& what);
// The same from the tensors themselves (int64 indices and shape; `values` may be null).
absl::StatusOr<SparseOperand> SparseOperandFrom(const Tensor& indices, const Tensor* values,
                                                const Tensor& shape, const std::string& what);
// The two operands of a binary sparse op (inputs 0-2 and 3-5, "a" and "b"), checked, with
// equal dense shapes.
struct SparsePair {
  SparseOperand a, b;
};
absl::StatusOr<SparsePair> SparsePairOf(const OpKernelContext& ctx);
// `t` (int32 or int64) as int64: itself, or a converted copy (ops whose indices may be
// int32, as TensorFlow's Tindices allows).
Tensor AsInt64(const Tensor& t);

// "[3,2]".
std::string DimsString(absl::Span<const int64_t> dims);

// SparseSplit's split_dim (in [-rank, rank)) as an axis in [0, rank), or InvalidArgument:
// the rule of its shape function (a constant split_dim) and of its kernel.
absl::StatusOr<int64_t> SparseSplitAxis(int64_t split_dim, int64_t rank);

// The dims a sparse reduction keeps: `axes` (int32, each in [-rank, rank), repeats
// allowed) marks the reduced ones.
absl::StatusOr<std::vector<bool>> ReducedAxes(const Tensor& axes, int64_t rank);

}  // namespace rill
