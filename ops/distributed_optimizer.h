// Data-parallel training, as Horovod's DistributedOptimizer: wraps any optimizer so that
// each gradient is averaged over the ranks before the update. Gradients are packed into
// buckets of up to `bucket_bytes` (one allreduce each), in the order the backward pass makes
// them (the last layer's first); every rank builds the same buckets, and each bucket's
// allreduce starts as soon as its gradients exist, overlapping the rest of the backward pass.
//   auto opt = std::make_shared<dist::DistributedOptimizer>(
//       std::make_shared<ops::AdamOptimizer>(0.001));
//   Operation train = opt->Minimize(scope, loss);
//   Operation sync = dist::BroadcastVariables(scope);   // run once, after the initializers
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rill/ops/optimizers.h"

namespace rill::dist {

struct DistributedOptimizerOptions {
  int64_t bucket_bytes = 25 << 20;  // Horovod's fusion buffer; 0: one allreduce a gradient
  std::string reduction = "mean";   // "mean" (Horovod's average) or "sum"
  // A gradient of at least this many bytes is reduced alone, in its own memory, as PyTorch
  // DDP's buckets are views: packing copies it into the bucket and back out, which costs
  // more than the call it saves from 1 MiB (a 12 MB gradient of the CIFAR MLP: 4 ms of
  // copies against ~10 us a call; docs/benchmarks.md). <= 0: every gradient may be packed.
  int64_t alone_bytes = 1 << 20;
  // Every rank holds the same values of the variables (BroadcastVariables ran after the
  // initializers; Keras Fit does it itself). Then a plain gradient-descent update of a
  // MatMul's weight gradient reduced alone runs in that gradient's GEMM on every rank, and
  // the ranks sum rank 0's updated weights with the others' scaled gradients: the
  // allreduce's result is the new variable, with no pass over the weights after it (for the
  // CIFAR MLP on 2 ranks, 6-8 ms a step; docs/benchmarks.md). Where the weights are larger
  // than the gradient's factors (a^T b over the batch: the CIFAR MLP's [3072, 3000] weights
  // against 2 x 256 rows of 3072 + 3000), the ranks gather the factors instead, each
  // updates a slice of the rows with the whole batch's product, and the slices are
  // gathered (dist::UpdateReplicas): half the elements moved on 2 ranks, and no sum; ranks
  // all on one host then share one copy in shared memory and gather only the factors. Where
  // the ranks' variables differ, each such step leaves every rank with the same variable:
  // rank 0's (or, by rows, each row its maker's) minus the summed update, where the
  // gradients' mean would have left each its own. Host memory only (CPU variables); the
  // floating-point rounding differs from the update after the mean in the last bits.
  bool replicated_variables = false;
};

class DistributedOptimizer : public ops::Optimizer {
 public:
  explicit DistributedOptimizer(std::shared_ptr<ops::Optimizer> optimizer,
                                DistributedOptimizerOptions options = {});
  // The wrapped optimizer's: its slots and scopes are named as on one process.
  std::string name() const override { return inner_->name(); }

 protected:
  // For a mean of float gradients: the loss's seed divided by the number of ranks (read
  // when the plan is built), so each bucket's sum over the ranks is the mean with no pass
  // over the reduced gradients (a division of 48.9 MB a step for the CIFAR MLP).
  Output GradientSeed(const Scope& scope, const Output& loss) override;
  std::vector<ops::GradAndVar> ReduceGradients(const Scope& scope,
                                               std::vector<ops::GradAndVar> grads,
                                               bool seeded) override;
  Output ApplyOne(const Scope& scope, const Output& var, const Output& grad) override {
    return inner_->ApplyOne(scope, var, grad);
  }
  std::vector<Operation> Finish(const Scope& scope,
                                const std::vector<Operation>& updates) override {
    return inner_->Finish(scope, updates);
  }

 private:
  std::shared_ptr<ops::Optimizer> inner_;
  DistributedOptimizerOptions options_;
};

// One op that sets each of `vars` (empty: every Variable of the scope's graph) to its value
// on rank `root_rank`: run it once after the initializers so every rank starts alike.
Operation BroadcastVariables(const Scope& scope, std::vector<Output> vars = {},
                             int64_t root_rank = 0);

}  // namespace rill::dist
