// Gradients of DynamicPartition and DynamicStitch. Both only move rows, so their gradients
// move the incoming gradient's rows back: a partition's by stitching the partitioned
// gradients to the positions the rows came from, a stitch's by gathering each data row's
// gradient from the row it went to. A row that a later index overwrote (a repeated
// index) reached no output, so its gradient is zero (TensorFlow's gathers it anyway).
#include "rill/ops/array_ops.h"
#include "rill/ops/data_flow_ops.h"
#include "rill/ops/gather_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"
#include "rill/ops/math_ops.h"
#include "rill/ops/select_ops.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;

// int32 positions 0, 1, ... shaped as `like`, from `start` on.
Output Positions(const Scope& s, const Output& like, const Output& start) {
  const Output size = Size(s, like);
  return Reshape(s, Range(s, start, Add(s, start, size), Const(s, 1)), grad::ShapeOf(s, like));
}

absl::Status DynamicPartitionGrad(const Scope& s, const Operation& op, const GradOut& g,
                                  GradOut* out) {
  const Output data = In(op, 0), partitions = In(op, 1);
  const int64_t num = op.node()->attr<int64_t>("num_partitions");
  // Where each row came from, partitioned as the rows were; stitching the gradients to
  // those positions puts every row's gradient back in its place.
  DynamicPartition from(s, Positions(s, partitions, Const(s, 0)), partitions, num);
  const Output stitched = DynamicStitch(s, from.outputs, g);
  out->push_back(Reshape(s, stitched, grad::ShapeOf(s, data)));
  out->push_back(Output());
  return s.status();
}

absl::Status DynamicStitchGrad(const Scope& s, const Operation& op, const GradOut& g,
                               GradOut* out) {
  const int n = op.node()->num_inputs() / 2;
  // Every data row gets a global id; stitching the ids as the rows were stitched tells
  // which row each output row holds, so a row whose index a later one took is found.
  std::vector<Output> ids;
  Output next = Const(s, 0);
  for (int i = 0; i < n; ++i) {
    ids.push_back(Positions(s, In(op, i), next));
    next = Add(s, next, Size(s, In(op, i)));
  }
  std::vector<Output> indices;
  for (int i = 0; i < n; ++i) indices.push_back(In(op, i));
  const Output winners = DynamicStitch(s, indices, ids);
  // The gradient with one zero row after the others, read by the overwritten rows.
  const Output rows = Gather(s, Shape(s, g[0]), Const(s, 0));
  const Output zero_row = ZerosLike(s, Gather(s, g[0], grad::IntVector(s, {0})));
  const Output padded = Concat(s, std::vector<Output>{g[0], zero_row}, 0);
  for (int i = 0; i < n; ++i) out->push_back(Output());
  for (int i = 0; i < n; ++i) {
    const Output won = Equal(s, Gather(s, winners, In(op, i)), ids[i]);
    const Output at = SelectV2(s, won, In(op, i), rows);
    out->push_back(Gather(s, padded, at));
  }
  return s.status();
}

RILL_REGISTER_GRADIENT("DynamicPartition", DynamicPartitionGrad);
RILL_REGISTER_GRADIENT("DynamicStitch", DynamicStitchGrad);
RILL_REGISTER_GRADIENT("ParallelDynamicStitch", DynamicStitchGrad);

}  // namespace
}  // namespace rill::ops
