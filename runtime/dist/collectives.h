// The collectives over tensors, run on the engine's thread. Before any data moves, every
// rank states what it is about to do (which collective, node, dtype, shape) and all ranks
// compare: a rank running another collective, or the same one on another dtype or shape,
// is an InvalidArgument on every rank naming each rank's side, never a mismatched transfer.
// The data then moves through the DataPath the rank's DataPlace picks (data_path.h): host
// memory, or a GPU's through NCCL or staged through the host.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "rill/core/tensor.h"
#include "rill/runtime/dist/data_path.h"

namespace rill::dist {

enum class CollectiveKind : int32_t {
  kAllReduce = 1,
  kBroadcast = 2,
  kAllGather = 3,
  kBroadcastGrad = 4,
  kAllGatherGrad = 5,
  kReplicaUpdate = 6,  // _MatMulAllReduceApplyGradientDescent's sum of updated weights
};

struct CollectiveSpec {
  CollectiveKind kind;
  std::string node;  // its name, for messages and the comparison across ranks
  DataType dtype;
  TensorShape shape;  // of the value every rank must agree on (the input; a gradient)
  int64_t root = 0;   // broadcasts
  int64_t rows = 0;   // allgathers: the rows this rank brings (or, for the gradient, took)
};

// out = the sum (or mean: the sum / size, integers truncated) over ranks of `in`; out may
// share in's buffer.
absl::Status AllReduce(Comm& comm, DataPlace& place, const CollectiveSpec& spec, const Tensor& in,
                       const Tensor& out, bool mean);
// buf = the sum over ranks of what `fill` writes into it, in place. `fill` runs once every
// rank has stated the collective (with true on rank 0), so a rank whose statement differs
// leaves buf as it was. A fill that fails still takes part (with what it left in buf), and
// its error is returned.
absl::Status AllReduceFilled(Comm& comm, DataPlace& place, const CollectiveSpec& spec,
                             const Tensor& buf, const std::function<absl::Status(bool)>& fill);
// out = root's `in`, on every rank.
absl::Status Broadcast(Comm& comm, DataPlace& place, const CollectiveSpec& spec, const Tensor& in,
                       const Tensor& out);
// Every rank's `in` concatenated along dim 0 in rank order, made with the path's allocator.
absl::StatusOr<Tensor> AllGather(Comm& comm, DataPlace& place, const CollectiveSpec& spec,
                                 const Tensor& in);
// out = the sum over ranks of `grad` on the root, zeros elsewhere.
absl::Status BroadcastGrad(Comm& comm, DataPlace& place, const CollectiveSpec& spec,
                           const Tensor& grad, const Tensor& out);
// out = this rank's rows (spec.rows of them, after those of lower ranks) of the sum over
// ranks of `grad` (the gathered value's gradient).
absl::Status AllGatherGrad(Comm& comm, DataPlace& place, const CollectiveSpec& spec,
                           const Tensor& grad, const Tensor& out);

}  // namespace rill::dist
