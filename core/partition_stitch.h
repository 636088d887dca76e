// DynamicPartition and DynamicStitch, computed on the host by the CPU kernels and by the
// GPU kernels alike (their output sizes are data: the host reads the partitions or the
// indices before it can allocate, as for Where and Unique). Rows are moved as bytes, so
// one implementation serves every dtype.
#pragma once

#include "rill/core/kernel.h"

namespace rill {

// DynamicPartition(data, partitions): output i holds the rows of data (data's dims after
// partitions' rank) whose partition is i, in order. A partition outside
// [0, num_partitions) is InvalidArgument naming it and where it is.
absl::Status ComputeDynamicPartition(OpKernelContext& ctx);

// DynamicStitch(indices[N], data[N]): merged[indices[i][j]] = data[i][j], later lists and
// later positions winning; merged's first dim is the largest index + 1, rows no index
// names are zeros. A negative index, or data whose shape is not indices' shape followed
// by one row shape common to all, is InvalidArgument.
absl::Status ComputeDynamicStitch(OpKernelContext& ctx);

}  // namespace rill
