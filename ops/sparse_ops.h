// TensorFlow's SparseToDense with its C++ name (tf.sparse.to_dense's op):
//   SparseToDense(sparse_indices, output_shape, sparse_values, default_value,
//                 SparseToDense::ValidateIndices(v))
// A dense tensor of output_shape holding default_value except at sparse_indices (a scalar,
// a vector [N] for a 1-D output, or [N, ndims]), which hold sparse_values (a scalar for
// all of them, or [N]). An index outside output_shape is InvalidArgument whatever
// validate_indices says; with validate_indices (the default) indices must also be
// lexicographically increasing, none repeated, as TensorFlow's. Any dtype, int32 or int64
// indices; CPU kernel (on a GPU placement it runs on the host). Differentiable in
// sparse_values and default_value.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

class SparseToDense : public OpWrapper {
 public:
  struct Attrs {
    Attrs ValidateIndices(bool v) const {
      Attrs r = *this;
      r.validate_indices_ = v;
      return r;
    }
    bool validate_indices_ = true;
  };
  SparseToDense(const Scope& scope, Input sparse_indices, Input output_shape, Input sparse_values,
                Input default_value)
      : SparseToDense(scope, sparse_indices, output_shape, sparse_values, default_value, Attrs()) {}
  SparseToDense(const Scope& scope, Input sparse_indices, Input output_shape, Input sparse_values,
                Input default_value, const Attrs& attrs);
  static Attrs ValidateIndices(bool v) { return Attrs().ValidateIndices(v); }
};

}  // namespace rill::ops
