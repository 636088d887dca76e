// DynamicPartition, DynamicStitch and ParallelDynamicStitch, with TensorFlow's C++ names and
// arguments (data_flow_ops.h). Their output sizes are data, so every device computes them
// on the host (core/partition_stitch.h).
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

// data's rows (data's dims after partitions' rank) sent to num_partitions outputs by
// partitions (int32, a prefix of data's shape; each in [0, num_partitions)), in order.
class DynamicPartition {
 public:
  DynamicPartition(const Scope& scope, Input data, Input partitions, int64_t num_partitions);
  Output operator[](size_t i) const { return outputs[i]; }
  size_t size() const { return outputs.size(); }
  Operation operation;
  OutputList outputs;
};

// merged[indices[i][j], ...] = data[i][j, ...]: merged has largest index + 1 rows; a row
// named more than once takes the last value (list order, then position); a row no index
// names is zeros. indices are int32; data[i]'s shape is indices[i]'s followed by one row
// shape common to all.
class DynamicStitch : public OpWrapper {
 public:
  DynamicStitch(const Scope& scope, InputList indices, InputList data);
};
// TensorFlow's parallel form, whose choice among repeated indices is unspecified; rill's is
// DynamicStitch's (the last).
class ParallelDynamicStitch : public OpWrapper {
 public:
  ParallelDynamicStitch(const Scope& scope, InputList indices, InputList data);
};

}  // namespace rill::ops
