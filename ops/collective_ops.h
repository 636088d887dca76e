// Collectives across the processes of a job (Horovod's allreduce, broadcast and allgather
// as graph ops). Every rank must run the same graph: each collective meets its peers on the
// other ranks in the order the plan fixes (runtime/passes/collective_order.cc). The kernels
// and the engine underneath are in runtime/dist/; call dist::Init() before running them.
//   auto avg = ops::CollectiveAllReduce(s, grad, ops::CollectiveAllReduce::Reduction("mean"));
//   auto w0 = ops::CollectiveBroadcast(s, w);            // rank 0's value on every rank
//   auto all = ops::CollectiveAllGather(s, rows);        // every rank's rows, in rank order
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

// The elementwise sum (or mean) of `input` over all ranks; every rank gets the result.
class CollectiveAllReduce : public OpWrapper {
 public:
  struct Attrs {
    Attrs Reduction(std::string x) {
      Attrs r = *this;
      r.reduction_ = std::move(x);
      return r;
    }
    std::string reduction_ = "sum";  // "sum" or "mean"
  };
  CollectiveAllReduce(const Scope& scope, Input input)
      : CollectiveAllReduce(scope, input, Attrs()) {}
  CollectiveAllReduce(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs Reduction(std::string x) { return Attrs().Reduction(std::move(x)); }
};

// The value of `input` on rank `root_rank`, on every rank (shapes and dtypes must agree).
class CollectiveBroadcast : public OpWrapper {
 public:
  struct Attrs {
    Attrs RootRank(int64_t x) {
      Attrs r = *this;
      r.root_rank_ = x;
      return r;
    }
    int64_t root_rank_ = 0;
  };
  CollectiveBroadcast(const Scope& scope, Input input)
      : CollectiveBroadcast(scope, input, Attrs()) {}
  CollectiveBroadcast(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs RootRank(int64_t x) { return Attrs().RootRank(x); }
};

// Every rank's `input` concatenated along dim 0 in rank order; the first dim may differ
// between ranks, the others must agree.
class CollectiveAllGather : public OpWrapper {
 public:
  CollectiveAllGather(const Scope& scope, Input input);
};

namespace internal {
// x divided by the number of ranks, folded into a constant when the plan is built. Before
// dist::Init it fails the run, as the collectives do.
Output RankShare(const Scope& scope, Input x);
// The sum of a gradient over the ranks, for an update whose variable every rank holds
// alike (DistributedOptimizerOptions::replicated_variables): a gradient-descent update of
// it may run as _MatMulAllReduceApplyGradientDescent.
Output ReplicaGradientSum(const Scope& scope, Input grad);
}  // namespace internal

}  // namespace rill::ops
