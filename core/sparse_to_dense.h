// SparseToDense's checks and index arithmetic, shared by its kernel and shape function:
// sparse_indices a scalar, a vector [N] (one index into a 1-D output each) or a matrix
// [N, ndims]; output_shape a vector of ndims; sparse_values a scalar (for every index) or
// [N]; default_value a scalar. Every index is checked against output_shape whatever
// validate_indices says (no write lands outside the output); validate_indices adds
// TensorFlow's order check (lexicographically increasing, none repeated).
#pragma once

#include <vector>

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

absl::Status SparseToDenseShape(InferenceContext& c);

struct DenseScatter {
  TensorShape shape;             // the output's
  std::vector<int64_t> offsets;  // the flat element each sparse value goes to, in order
  bool scalar_values = false;    // one value for every index
};

// The node's inputs checked, with validate_indices as given.
absl::StatusOr<DenseScatter> PrepareSparseToDense(OpKernelContext& ctx, bool validate_indices);

}  // namespace rill
