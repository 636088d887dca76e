#include "rill/runtime/keras/distributed.h"

#include "rill/ops/array_ops.h"
#include "rill/ops/collective_ops.h"
#include "rill/ops/distributed_optimizer.h"
#include "rill/runtime/dist/dist.h"

namespace rill::keras::internal {

bool Distributed() { return dist::IsInitialized() && dist::Size() > 1; }

Shard RankShard() {
  if (!Distributed()) return {};
  return {dist::Rank(), dist::Size()};
}

bool LeadRank() { return dist::Rank() == 0; }

std::shared_ptr<ops::Optimizer> ForRanks(std::shared_ptr<ops::Optimizer> optimizer) {
  if (!Distributed()) return optimizer;
  // Fit broadcasts rank 0's variables before its first step (SyncVariables), so they are
  // replicas and an update may sum the ranks' updated weights.
  dist::DistributedOptimizerOptions options;
  options.replicated_variables = true;
  return std::make_shared<dist::DistributedOptimizer>(std::move(optimizer), options);
}

absl::Status SyncVariables(const Scope& root, Session& session) {
  if (!Distributed()) return absl::OkStatus();
  // The variables with initializers (weights, optimizer slots); running metric sums are
  // reset by Fit itself.
  std::vector<Output> vars;
  for (Node* init : root.graph()->initializers()) {
    if (init->num_inputs() > 0 && init->input(0).node->IsVariable()) {
      vars.emplace_back(init->input(0).node, init->input(0).index);
    }
  }
  Operation sync = dist::BroadcastVariables(root.NewSubScope("sync"), vars);
  RILL_RETURN_IF_ERROR(root.status());
  return session.Run({}, {}, {sync}, nullptr);
}

absl::Status RankMeans::Average(Metrics* values) {
  if (!Distributed() || values->empty()) return absl::OkStatus();
  if (session_ == nullptr) {
    scope_ = std::make_unique<Scope>(Scope::NewRootScope());
    in_ = ops::Placeholder(*scope_, DT_DOUBLE, ops::Placeholder::Shape({-1}));
    mean_ = ops::CollectiveAllReduce(*scope_, in_, ops::CollectiveAllReduce::Reduction("mean"));
    RILL_RETURN_IF_ERROR(scope_->status());
    session_ = std::make_unique<Session>(*scope_);
  }
  Tensor t(DT_DOUBLE, TensorShape({static_cast<int64_t>(values->size())}));
  for (size_t i = 0; i < values->size(); ++i) t.flat<double>()(i) = (*values)[i].second;
  std::vector<Tensor> out;
  RILL_RETURN_IF_ERROR(session_->Run({{in_, t}}, {mean_}, &out));
  for (size_t i = 0; i < values->size(); ++i) (*values)[i].second = out[0].flat<double>()(i);
  return absl::OkStatus();
}

}  // namespace rill::keras::internal
