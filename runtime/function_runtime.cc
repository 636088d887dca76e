#include "rill/runtime/function_runtime.h"

#include "absl/strings/str_cat.h"
#include "rill/core/status.h"
#include "rill/runtime/executor.h"
#include "rill/runtime/plan.h"
#include "rill/runtime/session_request.h"
#include "rill/runtime/step_stats.h"

namespace rill {
namespace {

class PlannedFunction final : public FunctionCall {
 public:
  PlannedFunction(FunctionRef f, std::shared_ptr<const Executor> executor)
      : f_(std::move(f)), executor_(std::move(executor)) {}

  absl::Status Run(const std::vector<Tensor>& args, std::vector<Tensor>* rets) const override {
    if (args.size() != static_cast<size_t>(f_->num_args())) {
      return errors::InvalidArgument(FunctionDebugName(*f_), " takes ", f_->num_args(),
                                     " args, got ", args.size());
    }
    std::vector<const Tensor*> feeds;
    for (size_t i = 0; i < args.size(); ++i) {
      RILL_RETURN_IF_ERROR(CheckFedValue(*f_->args()[i], args[i]));
      feeds.push_back(&args[i]);
    }
    rets->clear();
    // In a traced step, the body's nodes are traced too (after the calling node's start,
    // within its time).
    absl::Status s = executor_->Run(feeds.data(), /*pool=*/nullptr, rets, CurrentStepStats());
    if (!s.ok()) rets->clear();
    return s;
  }

 private:
  FunctionRef f_;
  std::shared_ptr<const Executor> executor_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<const FunctionCall>> SessionFunctionRuntime::Instantiate(
    const FunctionRef& f) {
  if (f == nullptr) return errors::InvalidArgument("no function to instantiate");
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = cache_.find(f.get()); it != cache_.end()) return it->second;
  PlanRequest req;
  for (Node* a : f->args()) req.feeds.push_back({a, 0});
  req.fetches = f->rets();
  PlanContext ctx{&f->graph(),
                  options_.devices,
                  options_.placement,
                  &placed_,
                  &groups_,
                  options_.resources,
                  KernelOptions{options_.allow_tf32, this},
                  options_.optimize};
  absl::StatusOr<std::unique_ptr<ExecutionPlan>> plan = BuildPlan(req, ctx);
  if (!plan.ok()) return errors::Annotate(plan.status(), FunctionDebugName(*f) + ": ");
  auto executor = std::make_shared<const Executor>(
      std::shared_ptr<const ExecutionPlan>(*std::move(plan)), options_.plan_memory);
  auto call = std::make_shared<const PlannedFunction>(f, std::move(executor));
  cache_.emplace(f.get(), call);
  return std::shared_ptr<const FunctionCall>(call);
}

}  // namespace rill
