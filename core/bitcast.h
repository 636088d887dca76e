// The shape rule of Bitcast (tf.bitcast), shared by its shape function and its kernel:
// between dtypes of one size the shape stays; to a smaller dtype a last dim of the size
// ratio is added; to a larger one the last dim must be that ratio and goes.
#pragma once

#include "absl/status/statusor.h"
#include "rill/core/tensor_shape.h"
#include "rill/core/types.h"

namespace rill {

// An unknown rank stays unknown when the sizes differ; a last dim that does not fit is
// InvalidArgument naming both dtypes, the shape and the dim it needs.
absl::StatusOr<PartialTensorShape> BitcastShape(const PartialTensorShape& in, DataType from,
                                                DataType to);

}  // namespace rill
