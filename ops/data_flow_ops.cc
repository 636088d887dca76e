// DynamicPartition and the DynamicStitch ops: schemas, shape functions and wrappers
// (kernels in kernels/cpu/partition_stitch_ops.cc, gradients in data_flow_grad.cc).
#include "rill/ops/data_flow_ops.h"

#include <algorithm>

#include "rill/core/op_registry.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

// `s`'s dims from `from` on; unknown rank when `s`'s is or `from` is -1.
PartialTensorShape DimsFrom(const PartialTensorShape& s, int from) {
  if (s.unknown_rank() || from < 0) return PartialTensorShape();
  return PartialTensorShape(s.dim_sizes().subspan(std::min(from, s.dims())));
}

// Whether the known dims of `prefix` may begin `shape`.
bool MayStartWith(const PartialTensorShape& shape, const PartialTensorShape& prefix) {
  if (shape.unknown_rank() || prefix.unknown_rank()) return true;
  if (prefix.dims() > shape.dims()) return false;
  for (int d = 0; d < prefix.dims(); ++d) {
    const int64_t a = shape.dim_size(d), b = prefix.dim_size(d);
    if (a >= 0 && b >= 0 && a != b) return false;
  }
  return true;
}

PartialTensorShape WithRows(int64_t rows, const PartialTensorShape& row) {
  if (row.unknown_rank()) return PartialTensorShape();
  std::vector<int64_t> dims = {rows};
  dims.insert(dims.end(), row.dim_sizes().begin(), row.dim_sizes().end());
  return PartialTensorShape(dims);
}

absl::Status PartitionShape(InferenceContext& c) {
  const PartialTensorShape& data = c.input_shape(0);
  const PartialTensorShape& partitions = c.input_shape(1);
  if (!MayStartWith(data, partitions)) {
    return errors::InvalidArgument("partitions' shape ", partitions.DebugString(),
                                   " must be a prefix of data's ", data.DebugString());
  }
  const int64_t num = c.attr<int64_t>("num_partitions");
  if (num < 1) return errors::InvalidArgument("num_partitions must be >= 1, got ", num);
  const PartialTensorShape out =
      WithRows(-1, DimsFrom(data, partitions.unknown_rank() ? -1 : partitions.dims()));
  for (size_t i = 0; i < c.outputs().size(); ++i) c.set_output(static_cast<int>(i), out);
  return absl::OkStatus();
}

// merged: [largest index + 1 when every indices input is a constant, else ?] + rows.
absl::Status StitchShape(InferenceContext& c) {
  const int n = c.num_inputs() / 2;
  PartialTensorShape row =
      DimsFrom(c.input_shape(n), c.input_shape(0).unknown_rank() ? -1 : c.input_shape(0).dims());
  int64_t rows = 0;
  for (int i = 0; i < n; ++i) {
    const PartialTensorShape& idx = c.input_shape(i);
    const PartialTensorShape& data = c.input_shape(n + i);
    const PartialTensorShape rest = DimsFrom(data, idx.unknown_rank() ? -1 : idx.dims());
    // TensorFlow's words, as the kernel's (core/partition_stitch.cc).
    if (!MayStartWith(data, idx)) {
      return errors::InvalidArgument("data[", i, "].shape = ", data.DebugString(),
                                     " does not start with indices[", i,
                                     "].shape = ", idx.DebugString());
    }
    if (!rest.IsCompatibleWith(row)) {
      return errors::InvalidArgument("Need data[0].shape[k:] = data[", i, "].shape[", idx.dims(),
                                     ":] (k: indices[0]'s rank), got rows ", row.DebugString(),
                                     " and ", rest.DebugString(), ", data[", i,
                                     "].shape = ", data.DebugString());
    }
    if (row.unknown_rank()) row = rest;
    const Tensor* t = c.input_tensor(i);
    if (t == nullptr || rows < 0) {
      rows = -1;
      continue;
    }
    RILL_ASSIGN_OR_RETURN(auto values, shape_fns::AllIntValues(*t, "indices"));
    for (size_t j = 0; j < values.size(); ++j) {
      if (values[j] < 0) {
        return errors::InvalidArgument("indices[", i, "][", j, "] is ", values[j], " < 0");
      }
      rows = std::max<int64_t>(rows, values[j] + 1);
    }
  }
  c.set_output(0, WithRows(rows, row));
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("DynamicPartition")
    .Input("data", "T")
    .Input("partitions", DT_INT32)
    .OutputList("outputs", "num_partitions", "T")
    .Attr("num_partitions", AttrKind::kInt)
    .TypeAttr("T")
    .SetShapeFn(PartitionShape);
#define RILL_REGISTER_STITCH(NAME)         \
  RILL_REGISTER_OP(NAME)                   \
      .InputList("indices", "N", DT_INT32) \
      .InputList("data", "N", "T")         \
      .Output("merged", "T")               \
      .Attr("N", AttrKind::kInt)           \
      .TypeAttr("T")                       \
      .SetShapeFn(StitchShape);
RILL_REGISTER_STITCH("DynamicStitch")
RILL_REGISTER_STITCH("ParallelDynamicStitch")
#undef RILL_REGISTER_STITCH

namespace ops {

using internal::NodeBuilder;

DynamicPartition::DynamicPartition(const Scope& scope, Input data, Input partitions,
                                   int64_t num_partitions) {
  operation = NodeBuilder(scope, "DynamicPartition")
                  .Input(data)
                  .Input(partitions)
                  .Attr("num_partitions", num_partitions)
                  .Finalize();
  if (operation.node() == nullptr) return;
  for (int i = 0; i < operation.num_outputs(); ++i) outputs.push_back(Output(operation, i));
}

DynamicStitch::DynamicStitch(const Scope& scope, InputList indices, InputList data) {
  NodeBuilder(scope, "DynamicStitch").Inputs(indices).Inputs(data).Finalize(this);
}
ParallelDynamicStitch::ParallelDynamicStitch(const Scope& scope, InputList indices,
                                             InputList data) {
  NodeBuilder(scope, "ParallelDynamicStitch").Inputs(indices).Inputs(data).Finalize(this);
}

}  // namespace ops
}  // namespace rill
