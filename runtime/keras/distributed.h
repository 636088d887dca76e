// What Fit does differently on several ranks (a program started by mpirun that called
// dist::Init): gradients averaged over the ranks (DistributedOptimizer), every rank
// starting from rank 0's weights, each rank training on its part of every batch, metrics
// averaged over the ranks, and rank 0 alone printing and writing checkpoints.
#pragma once

#include <memory>

#include "rill/ops/optimizers.h"
#include "rill/runtime/keras/dataset.h"
#include "rill/runtime/keras/progress.h"
#include "rill/runtime/session.h"

namespace rill::keras::internal {

// Whether this process is one of several ranks.
bool Distributed();
// This rank's part of each batch (all of it on one rank).
Shard RankShard();
// Whether this process prints and writes checkpoints (rank 0, or the only process).
bool LeadRank();
// `optimizer`, averaging gradients over the ranks when there are several.
std::shared_ptr<ops::Optimizer> ForRanks(std::shared_ptr<ops::Optimizer> optimizer);
// Sets every variable of the graph to rank 0's value (nothing on one rank).
absl::Status SyncVariables(const Scope& root, Session& session);

// The mean over the ranks of each value of a Metrics (every rank calls it at the same
// point of training, as a collective).
class RankMeans {
 public:
  absl::Status Average(Metrics* values);

 private:
  std::unique_ptr<Scope> scope_;
  std::unique_ptr<Session> session_;
  Output in_, mean_;
};

}  // namespace rill::keras::internal
