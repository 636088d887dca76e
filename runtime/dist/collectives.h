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
  // How the data will move, where a collective has more than one way: compared across
  // ranks like the shape (a replica update: 1 when its factors can be gathered as rows).
  int64_t variant = 0;
  // A replica update's copy of the variable: the number (> 0) of the node segment
  // (node_segment.h) it lives in, where no reader holds it; 0 when it is private and may
  // move into a new segment; -1 when it may not. Not compared: it picks the way.
  int64_t segment = 0;
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
// The replicas' update of _MatMulAllReduceApplyGradientDescent (replica_update.cc): every
// rank's `buf` ends with the same value, the variable after a gradient-descent step on the
// sum over ranks of a product. Two ways, chosen from the ranks' statements, so alike on all:
// - sum: `sum(root)` fills buf, then it is summed in place, as AllReduceFilled.
// - rows, when spec.variant is 1 (the product is a^T b with a [k, m] and b [k, n], each
//   rank's k rows in spec.rows: a weight gradient over a batch) and gathering the factors
//   moves fewer elements than the sum: (sum of k) (m + n) < m n, with at least 2 ranks.
//   Every rank's a and b are gathered in rank order; `rows(a_all, b_all, row0, count)`
//   updates rows [row0, row0 + count) of this rank's buf (each rank a slice of the m rows,
//   the same work on each), and the rows are gathered into every rank's buf in place. On
//   2 ranks a rank then moves (k(m + n) + m n) / 2 elements, where the sum's ring moves m n
//   and adds half of them; each row of the result comes from the rank that made it.
// - shared, the rows way on a job whose ranks are all on one host and whose variables all
//   live in the same node segment (spec.segment, the same number > 0 on every rank): one
//   copy of the variable for all, so each rank's rows are written where every rank reads
//   them, and a barrier replaces the rows' gather. After a rows way on one host where
//   every rank stated 0, `adopt(comm, row0, count, ready)` runs on every rank (it may move the
//   variable into a segment: a collective). Before any other way, a rank that stated a
//   segment runs `leave()`, which gives the variable a private copy (the buffer to update
//   instead), so no way writes memory that other ranks update too.
enum class ReplicaWay { kSum, kRows, kShared };
struct ReplicaFills {
  std::function<absl::Status(bool root)> sum;
  std::function<absl::Status(const Tensor& a_all, const Tensor& b_all, int64_t row0, int64_t count)>
      rows;
  std::function<absl::StatusOr<Tensor>()> leave;
  // `ready` false: this rank's update failed; it takes part as unable to share.
  std::function<absl::Status(Comm& comm, int64_t row0, int64_t count, bool ready)> adopt;
  ReplicaWay* taken = nullptr;  // set to the way taken, once chosen
};
absl::Status UpdateReplicas(Comm& comm, DataPlace& place, const CollectiveSpec& spec,
                            const Tensor& buf, const Tensor& a, const Tensor& b,
                            const ReplicaFills& fills);
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
