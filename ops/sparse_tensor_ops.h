// TensorFlow's tf.sparse ops on sparse tensors in COO form (core/sparse_tensor.h: indices
// int64 [N, R], values [N], dense_shape int64 [R]), with their C++ names. Every index is
// checked against its dense shape before anything is read or written (InvalidArgument
// naming the first out of range); ops that need the canonical row-major order sort a copy,
// so entries may come in any order. CPU kernels (as TensorFlow's, but SparseTensorDenseMatMul
// and the cwise ops, whose GPU kernels rill does not have): on a GPU they run on the host.
//   SparseDenseCwiseAdd/Mul/Div(sp_indices, sp_values, sp_shape, dense): sp op dense at the
//     stored entries only ([N]); dense broadcasts to the sparse shape (never the other way:
//     "broadcasts dense to sparse only"). Integer division by zero is InvalidArgument.
//   SparseReduceSum/Max(input_indices, input_values, input_shape, reduction_axes,
//     KeepDims(k)): the dense reduction over the axes (int32, negative from the end; none
//     reduces nothing). Sum of no entries is 0; Max's is the dtype's lowest, as TensorFlow's.
//     SparseReduceSumSparse/MaxSparse: the same as a sparse tensor of the reduced shape,
//     indices in row-major order (output_indices, output_values, output_shape).
//   SparseAdd(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh): the sum
//     as a sparse tensor in row-major order (sum_indices, sum_values, sum_shape); an index
//     both hold is kept when |a + b| >= thresh. The two dense shapes must be equal.
//     SparseAddGrad(backprop_val_grad, a_indices, b_indices, sum_indices): each entry's share
//     of the sum's gradient (a_val_grad, b_val_grad; 0 for one the threshold dropped).
//   SparseTensorDenseAdd(a_indices, a_values, a_shape, b): the dense sum, b's shape.
//   SparseTensorDenseMatMul(a_indices, a_values, a_shape, b, AdjointA(x).AdjointB(y)):
//     op(A) op(B) for A a sparse matrix (int32 or int64 indices), dense [M, N].
//   SparseReorder(input_indices, input_values, input_shape): the entries in row-major order
//     (output_indices, output_values); equal indices keep their order.
//   SparseReshape(input_indices, input_shape, new_shape): the same entries in a dense shape
//     of as many elements (one -1 in new_shape is inferred): output_indices, output_shape.
//   SparseFillEmptyRows(indices, values, dense_shape, default_value): every row (index in
//     dim 0) that holds no entry gets one at [row, 0, ..., 0] with default_value; entries
//     grouped by row, in their input order within a row (output_indices, output_values),
//     empty_row_indicator [rows] and reverse_index_map (each input entry's output position).
//     SparseFillEmptyRowsGrad(reverse_index_map, grad_values): d_values, d_default_value.
//   SparseSoftmax(sp_indices, sp_values, sp_shape): the softmax of the entries that share
//     all but the last index (rank >= 2), each in its input position ([N], float/double).
//   SparseSlice(indices, values, shape, start, size): the entries in [start, start + size)
//     shifted by -start, in input order (output_indices, output_values), and the slice's
//     shape min(start + size, shape) - start (output_shape); start and size are >= 0.
//     SparseSliceGrad(backprop_val_grad, input_indices, input_start, output_indices): each
//     input entry's gradient (0 for one the slice left out).
//   SparseConcat(indices, values, shapes, concat_dim): N >= 2 sparse tensors of one rank,
//     equal but along concat_dim, joined along it (each one's indices offset by the sizes
//     before it), in row-major order (output_indices, output_values, output_shape).
//   SparseSplit(split_dim, indices, values, shape, num_split): the sparse tensor cut along
//     split_dim (in [-rank, rank)) into num_split pieces (1 to shape[split_dim]), the first
//     shape[split_dim] % num_split of them one longer, as TensorFlow cuts it; each piece's
//     entries in the input's order, their indices relative to the piece (lists of
//     num_split: output_indices, output_values, output_shape).
//   SparseSparseMaximum/Minimum(a_indices, a_values, a_shape, b_indices, b_values, b_shape):
//     the union of the two index sets in row-major order, each value the max (min) of a's
//     and b's there, a missing one counting as 0 (output_indices, output_values).
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

#define RILL_DECLARE_SPARSE_DENSE_OP(Name)                                                    \
  class Name : public OpWrapper {                                                             \
   public:                                                                                    \
    Name(const Scope& scope, Input sp_indices, Input sp_values, Input sp_shape, Input dense); \
  };
RILL_DECLARE_SPARSE_DENSE_OP(SparseDenseCwiseAdd)
RILL_DECLARE_SPARSE_DENSE_OP(SparseDenseCwiseMul)
RILL_DECLARE_SPARSE_DENSE_OP(SparseDenseCwiseDiv)
#undef RILL_DECLARE_SPARSE_DENSE_OP

struct SparseReduceAttrs {
  SparseReduceAttrs KeepDims(bool x) const {
    SparseReduceAttrs r = *this;
    r.keep_dims_ = x;
    return r;
  }
  bool keep_dims_ = false;
};

#define RILL_DECLARE_SPARSE_REDUCE_OP(Name)                                              \
  class Name : public OpWrapper {                                                        \
   public:                                                                               \
    using Attrs = SparseReduceAttrs;                                                     \
    Name(const Scope& scope, Input input_indices, Input input_values, Input input_shape, \
         Input reduction_axes, const Attrs& attrs = Attrs());                            \
    static Attrs KeepDims(bool x) { return Attrs().KeepDims(x); }                        \
  };
RILL_DECLARE_SPARSE_REDUCE_OP(SparseReduceSum)
RILL_DECLARE_SPARSE_REDUCE_OP(SparseReduceMax)
#undef RILL_DECLARE_SPARSE_REDUCE_OP

#define RILL_DECLARE_SPARSE_REDUCE_SPARSE_OP(Name)                                       \
  class Name {                                                                           \
   public:                                                                               \
    using Attrs = SparseReduceAttrs;                                                     \
    Name(const Scope& scope, Input input_indices, Input input_values, Input input_shape, \
         Input reduction_axes, const Attrs& attrs = Attrs());                            \
    static Attrs KeepDims(bool x) { return Attrs().KeepDims(x); }                        \
    Operation operation;                                                                 \
    Output output_indices, output_values, output_shape;                                  \
  };
RILL_DECLARE_SPARSE_REDUCE_SPARSE_OP(SparseReduceSumSparse)
RILL_DECLARE_SPARSE_REDUCE_SPARSE_OP(SparseReduceMaxSparse)
#undef RILL_DECLARE_SPARSE_REDUCE_SPARSE_OP

class SparseAdd {
 public:
  SparseAdd(const Scope& scope, Input a_indices, Input a_values, Input a_shape, Input b_indices,
            Input b_values, Input b_shape, Input thresh);
  Operation operation;
  Output sum_indices, sum_values, sum_shape;
};

class SparseAddGrad {
 public:
  SparseAddGrad(const Scope& scope, Input backprop_val_grad, Input a_indices, Input b_indices,
                Input sum_indices);
  Operation operation;
  Output a_val_grad, b_val_grad;
};

class SparseTensorDenseAdd : public OpWrapper {
 public:
  SparseTensorDenseAdd(const Scope& scope, Input a_indices, Input a_values, Input a_shape, Input b);
};

class SparseTensorDenseMatMul : public OpWrapper {
 public:
  struct Attrs {
    Attrs AdjointA(bool x) const {
      Attrs r = *this;
      r.adjoint_a_ = x;
      return r;
    }
    Attrs AdjointB(bool x) const {
      Attrs r = *this;
      r.adjoint_b_ = x;
      return r;
    }
    bool adjoint_a_ = false;
    bool adjoint_b_ = false;
  };
  SparseTensorDenseMatMul(const Scope& scope, Input a_indices, Input a_values, Input a_shape,
                          Input b)
      : SparseTensorDenseMatMul(scope, a_indices, a_values, a_shape, b, Attrs()) {}
  SparseTensorDenseMatMul(const Scope& scope, Input a_indices, Input a_values, Input a_shape,
                          Input b, const Attrs& attrs);
  static Attrs AdjointA(bool x) { return Attrs().AdjointA(x); }
  static Attrs AdjointB(bool x) { return Attrs().AdjointB(x); }
};

class SparseReorder {
 public:
  SparseReorder(const Scope& scope, Input input_indices, Input input_values, Input input_shape);
  Operation operation;
  Output output_indices, output_values;
};

class SparseReshape {
 public:
  SparseReshape(const Scope& scope, Input input_indices, Input input_shape, Input new_shape);
  Operation operation;
  Output output_indices, output_shape;
};

class SparseFillEmptyRows {
 public:
  SparseFillEmptyRows(const Scope& scope, Input indices, Input values, Input dense_shape,
                      Input default_value);
  Operation operation;
  Output output_indices, output_values, empty_row_indicator, reverse_index_map;
};

class SparseFillEmptyRowsGrad {
 public:
  SparseFillEmptyRowsGrad(const Scope& scope, Input reverse_index_map, Input grad_values);
  Operation operation;
  Output d_values, d_default_value;
};

class SparseSoftmax : public OpWrapper {
 public:
  SparseSoftmax(const Scope& scope, Input sp_indices, Input sp_values, Input sp_shape);
};

class SparseSlice {
 public:
  SparseSlice(const Scope& scope, Input indices, Input values, Input shape, Input start,
              Input size);
  Operation operation;
  Output output_indices, output_values, output_shape;
};

class SparseConcat {
 public:
  SparseConcat(const Scope& scope, InputList indices, InputList values, InputList shapes,
               int64_t concat_dim);
  Operation operation;
  Output output_indices, output_values, output_shape;
};

class SparseSplit {
 public:
  SparseSplit(const Scope& scope, Input split_dim, Input indices, Input values, Input shape,
              int64_t num_split);
  Operation operation;
  OutputList output_indices, output_values, output_shape;
};

class SparseSliceGrad : public OpWrapper {
 public:
  SparseSliceGrad(const Scope& scope, Input backprop_val_grad, Input input_indices,
                  Input input_start, Input output_indices);
};

#define RILL_DECLARE_SPARSE_SPARSE_OP(Name)                                                   \
  class Name {                                                                                \
   public:                                                                                    \
    Name(const Scope& scope, Input a_indices, Input a_values, Input a_shape, Input b_indices, \
         Input b_values, Input b_shape);                                                      \
    Operation operation;                                                                      \
    Output output_indices, output_values;                                                     \
  };
RILL_DECLARE_SPARSE_SPARSE_OP(SparseSparseMaximum)
RILL_DECLARE_SPARSE_SPARSE_OP(SparseSparseMinimum)
#undef RILL_DECLARE_SPARSE_SPARSE_OP

}  // namespace rill::ops
